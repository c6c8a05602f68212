// The public entry of pagetree: every export is named here, on purpose.

export type { Children } from '@kitajs/html';
export { cspNonce, currentPage, currentRequest, setHeader, setStatus } from './page/context.ts';
export { Suspense, type SuspenseProps } from './page/streaming.ts';
export {
  deleteCookie,
  flash,
  getCookie,
  getCookies,
  getSignedCookie,
  setCookie,
  setSignedCookie,
  takeFlash,
} from './page/cookies.ts';
export type { CookieOptions } from './page/cookies.ts';
export { hashPassword, verifyPassword } from './http/password.ts';
export {
  LoginThrottle,
  MemoryThrottleStore,
  type ThrottleCount,
  type ThrottleOptions,
  type ThrottleStore,
} from './http/throttle.ts';
export { requireLogin, safeNext, type RequireLoginOptions } from './page/login.ts';
export {
  MemorySessionStore,
  session,
  type Session,
  type SessionData,
  type SessionOptions,
  type SessionStore,
} from './page/session.ts';
export { CrossOriginProtection, crossOriginProtection } from './http/cross-origin.ts';
export type { CrossOriginOptions } from './http/cross-origin.ts';
export { renderComponent } from './page/dispatch.ts';
export { defaultErrorHandler } from './page/error-answer.ts';
export { redirect } from './page/page-answer.ts';
export type { RenderComponent } from './page/dispatch.ts';
export type { ErrorHandler, ErrorPage } from './page/error-answer.ts';
export { ConflictError, HttpError, MountError, PatternError, UrlForError } from './errors.ts';
export { id, idTarget, staticUrl, urlFor } from './page/context.ts';
export { HtmxConfig } from './page/htmx-config.ts';
export { htmxDetails } from './page/htmx-details.ts';
export type { HtmxDetails } from './page/htmx-details.ts';
export { htmxRequest } from './page/htmx-request.ts';
export type { HtmxRequestOptions } from './page/htmx-request.ts';
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
} from './page/htmx-response.ts';
export type { HxLocation, Swap, SwapStyle, TriggerTime } from './page/htmx-response.ts';
export { EventHub, eventStream, type HubFeed } from './http/event-stream.ts';
export { MemoryBroker, Subscriptions, type Broker, type BrokerMessage } from './http/broker.ts';
export { addFormError, formState, parseForm } from './http/form.ts';
export type { FieldName, FormResult, FormState, InvalidForm, ParseFormOptions, ValidForm } from './http/form.ts';
export type { EventStream, EventStreamOptions } from './http/event-stream.ts';
export { liveReload } from './http/live-reload.ts';
export type { ComponentRef } from './page/context.ts';
export { mount } from './page/mount.ts';
export type { MountOptions, MountedOn } from './page/mount.ts';
export type { CompressOptions } from './http/compress.ts';
export { ServeMux } from './mux/serve-mux.ts';
export type { HandlerMatch } from './mux/serve-mux.ts';
export type { Logger } from './kernel/logger.ts';
export { clientAddress } from './kernel/adapter.ts';
export type { Handler, HandlerFunc, HandlerObject, PageRequest } from './kernel/request.ts';
export type { ComponentInfo, Middleware, NodeKind, PageNode } from './page/page-node.ts';
export type { RenderTarget } from './page/render-target.ts';
export type { AccessLogEntry, PropsTrace, RenderTrace, RequestTrace } from './page/tracing.ts';
export { route } from './page/route.ts';
export { sendFile } from './http/send-file.ts';
export type { SendFileOptions } from './http/send-file.ts';
export { staticFiles } from './http/static.ts';
export type { EmbeddedFile, EmbeddedFiles, StaticFiles, StaticOptions } from './http/static.ts';
export type { PageClass, Route } from './page/route.ts';
export type { RouteInfo, Tree } from './page/tree.ts';
export type { UrlParams } from './page/url-for.ts';
export type { PageRef, ParamNames, Register, UrlParamsArg } from './page/url-types.ts';
