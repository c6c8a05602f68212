// The public entry of pagetree: every export is named here, on purpose.

export type { Children } from '@kitajs/html';
export { currentPage, setHeader, setStatus } from './context.ts';
export { CrossOriginProtection, crossOriginProtection } from './cross-origin.ts';
export type { CrossOriginOptions } from './cross-origin.ts';
export { defaultErrorHandler, redirect, renderComponent } from './dispatch.ts';
export type { ErrorHandler, RenderComponent } from './dispatch.ts';
export { ConflictError, HttpError, MountError, PatternError, UrlForError } from './errors.ts';
export { id, idTarget, staticUrl, urlFor } from './context.ts';
export { liveReload } from './live-reload.ts';
export type { IdTarget } from './context.ts';
export { mount } from './mount.ts';
export type { MountOptions } from './mount.ts';
export { ServeMux } from './mux/serve-mux.ts';
export type { HandlerMatch } from './mux/serve-mux.ts';
export type { Logger } from './mux/logger.ts';
export type { Handler, HandlerFunc, HandlerObject, PageRequest } from './mux/request.ts';
export type { Component, Middleware, NodeKind, PageNode } from './page-node.ts';
export type { RenderTarget } from './render-target.ts';
export { route } from './route.ts';
export { staticFiles } from './static.ts';
export type { EmbeddedFile, EmbeddedFiles, StaticFiles, StaticOptions } from './static.ts';
export type { PageClass, Route } from './route.ts';
export type { RouteInfo, Tree } from './tree.ts';
export type { UrlParams } from './url-for.ts';
export type { ParamNames, Register, UrlParamsArg, UrlTarget } from './url-types.ts';
