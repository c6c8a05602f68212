// The public entry of pagetree: every export is named here, on purpose.

export { currentPage, setHeader, setStatus } from './context';
export { CrossOriginProtection, crossOriginProtection } from './cross-origin';
export type { CrossOriginOptions } from './cross-origin';
export { defaultErrorHandler, redirect, renderComponent } from './dispatch';
export type { ErrorHandler, RenderComponent } from './dispatch';
export { ConflictError, HttpError, MountError, PatternError, UrlForError } from './errors';
export { id, idTarget, staticUrl, urlFor } from './current';
export { liveReload } from './live-reload';
export type { IdTarget } from './current';
export { mount } from './mount';
export type { MountOptions } from './mount';
export { ServeMux } from './mux/serve-mux';
export type { HandlerMatch } from './mux/serve-mux';
export type { Handler, HandlerFunc, HandlerObject, PageRequest } from './mux/request';
export { PageNode } from './page-node';
export type { Component, Middleware, NodeKind } from './page-node';
export type { RenderTarget } from './render-target';
export { route } from './route';
export { StaticFiles, staticFiles } from './static';
export type { StaticOptions } from './static';
export type { PageClass, Route } from './route';
export { Tree } from './tree';
export type { RouteInfo } from './tree';
export type { UrlParams } from './url-for';
export type { ParamNames, Register, UrlParamsArg, UrlTarget } from './url-types';
