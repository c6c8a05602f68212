// The public entry of pagetree: every export is named here, on purpose.

export type { Children } from '@kitajs/html';
export { cspNonce, currentPage, currentRequest, setHeader, setStatus } from './request/context.ts';
export { Suspense, type SuspenseProps } from './pipeline/streaming.ts';
export {
  deleteCookie,
  flash,
  getCookie,
  getCookies,
  getSignedCookie,
  setCookie,
  setSignedCookie,
  takeFlash,
} from './auth/cookies.ts';
export type { CookieOptions } from './auth/cookies.ts';
export { hashPassword, verifyPassword } from './auth/password.ts';
export {
  LoginThrottle,
  MemoryThrottleStore,
  type ThrottleCount,
  type ThrottleOptions,
  type ThrottleStore,
} from './auth/throttle.ts';
export { requireLogin, safeNext, type RequireLoginOptions } from './auth/login.ts';
export {
  MemorySessionStore,
  session,
  type Session,
  type SessionData,
  type SessionOptions,
  type SessionStore,
} from './auth/session.ts';
export { CrossOriginProtection, crossOriginProtection } from './auth/cross-origin.ts';
export type { CrossOriginOptions } from './auth/cross-origin.ts';
export { renderComponent } from './pipeline/dispatch.ts';
export { defaultErrorHandler } from './pipeline/error-answer.ts';
export { redirect } from './pipeline/page-answer.ts';
export type { RenderComponent } from './pipeline/dispatch.ts';
export type { ErrorHandler, ErrorPage } from './pipeline/handler-options.ts';
export { ConflictError, HttpError, MountError, PatternError, UrlForError } from './errors.ts';
export { id, idTarget, staticUrl, urlFor } from './request/context.ts';
export { HtmxConfig } from './htmx/config.ts';
export { htmxDetails } from './request/context.ts';
export type { HtmxDetails } from './request/htmx-details.ts';
export { htmxRequest } from './htmx/request-builder.ts';
export type { HtmxRequestOptions } from './htmx/request-builder.ts';
export {
  alsoRender,
  hxLocation,
  hxPushUrl,
  hxRedirect,
  hxRefresh,
  hxReplaceUrl,
  hxReselect,
  hxReswap,
  hxRetarget,
  hxTrigger,
  stopPolling,
} from './htmx/response.ts';
export type { HxLocation, Swap, SwapStyle, TriggerTime } from './htmx/response.ts';
export { EventHub, eventStream, type HubFeed } from './live/event-stream.ts';
export { MemoryBroker, Subscriptions, type Broker, type BrokerMessage } from './live/broker.ts';
export { addFormError, formState, parseForm } from './forms/form.ts';
export type { FieldName, FormResult, FormState, InvalidForm, ParseFormOptions, ValidForm } from './forms/form.ts';
export type { EventStream, EventStreamOptions } from './live/event-stream.ts';
export { liveReload } from './live/live-reload.ts';
export type { ComponentRef } from './request/context.ts';
export { mount } from './app/mount.ts';
export type { MountOptions, MountedOn } from './app/mount.ts';
export type { CompressOptions } from './compress/compress.ts';
export { ServeMux } from './mux/serve-mux.ts';
export type { HandlerMatch } from './mux/serve-mux.ts';
export type { Logger } from './kernel/logger.ts';
export { clientAddress } from './kernel/adapter.ts';
export type { Handler, HandlerFunc, HandlerObject, PageRequest } from './kernel/request.ts';
export type { ComponentInfo, Middleware, NodeKind, PageNode } from './tree/page-node.ts';
export type { RenderTarget } from './request/render-target.ts';
export type { AccessLogEntry } from './observe/tracing.ts';
export type { PropsTrace, RenderTrace, RequestTrace } from './request/trace.ts';
export { route } from './tree/route.ts';
export { sendFile } from './static/send-file.ts';
export type { SendFileOptions } from './static/send-file.ts';
export { staticFiles } from './static/static.ts';
export type { EmbeddedFile, EmbeddedFiles, StaticFiles, StaticOptions } from './static/static.ts';
export type { PageClass, Route } from './tree/route.ts';
export type { RouteInfo, Tree } from './tree/tree.ts';
export type { UrlParams } from './tree/url-for.ts';
export type { PageRef, ParamNames, Register, UrlParamsArg } from './tree/url-types.ts';
