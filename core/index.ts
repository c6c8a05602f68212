// The public entry of pagetree: what every app uses, each export named here on purpose. A feature's names live
// behind its own subpath, so an editor's completions for 'pagetree' stay short (issue 42.3):
//
//   pagetree           the mux, mount and route, URLs and ids, redirects, status and headers, Suspense, errors, types
//   pagetree/htmx      htmx request details and response headers, regions (alsoRender), stopPolling, <HtmxConfig />
//   pagetree/forms     parseForm, formState, addFormError
//   pagetree/auth      cookies, flash, sessions, login, passwords, the login throttle, cross-origin checks
//   pagetree/live      event streams, the hub and its brokers, liveReload
//   pagetree/static    staticFiles, sendFile
//   pagetree/observe   the Logger, access log entries, trace records
//   pagetree/compress  CompressOptions
//   pagetree/testing   htmxRequest
//   pagetree/tree      the page tree looked into: a node's kind and components, ParamNames, UrlParams
//   pagetree/node, pagetree/adapter, pagetree/postgres, pagetree/redis: servers and engines

import type { StandardSchemaV1 } from '@standard-schema/spec';

export type { Children } from '@kitajs/html';
export { ServeMux } from './mux/serve-mux.ts';
export type { HandlerMatch } from './mux/serve-mux.ts';
export { mount } from './app/mount.ts';
export type { MountOptions, MountedOn } from './app/mount.ts';
export { route } from './tree/route.ts';
export type { PageClass, Route } from './tree/route.ts';
export type { RouteInfo, Tree } from './tree/tree.ts';
export type { ComponentRef } from './request/context.ts';
export type { Middleware, PageNode } from './tree/page-node.ts';
export type { PageRef, Register, UrlParamsArg } from './tree/url-types.ts';
export {
  cspNonce,
  currentPage,
  currentRequest,
  id,
  idTarget,
  setHeader,
  setStatus,
  staticUrl,
  urlFor,
} from './request/context.ts';
export type { RenderTarget } from './request/render-target.ts';
export type { Handler, HandlerFunc, HandlerObject, PageRequest } from './kernel/request.ts';
export { redirect } from './pipeline/page-answer.ts';
export { renderComponent, type RenderComponent } from './pipeline/dispatch.ts';
export { Suspense, type SuspenseProps } from './pipeline/streaming.ts';
export { defaultErrorHandler } from './pipeline/error-answer.ts';
export type { ErrorHandler, ErrorPage } from './pipeline/handler-options.ts';
export { ConflictError, HttpError, MountError, PatternError, UrlForError } from './errors.ts';

// Moved to a feature's entry in 0.2; importable from here until 0.3. Each is tagged, so an editor strikes the import
// through and names the new path. A const and a type alias (not `export { x } from`) because an editor shows the
// tag's text only for a declaration; a class gets both, for `new X()` and for `: X`.
import * as htmx from './htmx/index.ts';
import * as forms from './forms/index.ts';
import * as auth from './auth/index.ts';
import * as live from './live/index.ts';
import * as staticFeature from './static/index.ts';
import * as observe from './observe/index.ts';
import * as compress from './compress/index.ts';
import * as testing from './testing.ts';
import * as tree from './tree/index.ts';

// pagetree/htmx
/** @deprecated Import from 'pagetree/htmx'. */
export const alsoRender = htmx.alsoRender;
/** @deprecated Import from 'pagetree/htmx'. */
export const HtmxConfig = htmx.HtmxConfig;
/** @deprecated Import from 'pagetree/htmx'. */
export const htmxDetails = htmx.htmxDetails;
/** @deprecated Import from 'pagetree/htmx'. */
export const hxLocation = htmx.hxLocation;
/** @deprecated Import from 'pagetree/htmx'. */
export const hxPushUrl = htmx.hxPushUrl;
/** @deprecated Import from 'pagetree/htmx'. */
export const hxRedirect = htmx.hxRedirect;
/** @deprecated Import from 'pagetree/htmx'. */
export const hxRefresh = htmx.hxRefresh;
/** @deprecated Import from 'pagetree/htmx'. */
export const hxReplaceUrl = htmx.hxReplaceUrl;
/** @deprecated Import from 'pagetree/htmx'. */
export const hxReselect = htmx.hxReselect;
/** @deprecated Import from 'pagetree/htmx'. */
export const hxReswap = htmx.hxReswap;
/** @deprecated Import from 'pagetree/htmx'. */
export const hxRetarget = htmx.hxRetarget;
/** @deprecated Import from 'pagetree/htmx'. */
export const hxTrigger = htmx.hxTrigger;
/** @deprecated Import from 'pagetree/htmx'. */
export const stopPolling = htmx.stopPolling;
/** @deprecated Import from 'pagetree/htmx'. */
export type HtmxDetails = htmx.HtmxDetails;
/** @deprecated Import from 'pagetree/htmx'. */
export type HxLocation = htmx.HxLocation;
/** @deprecated Import from 'pagetree/htmx'. */
export type Swap = htmx.Swap;
/** @deprecated Import from 'pagetree/htmx'. */
export type SwapStyle = htmx.SwapStyle;
/** @deprecated Import from 'pagetree/htmx'. */
export type TriggerTime = htmx.TriggerTime;

// pagetree/forms
/** @deprecated Import from 'pagetree/forms'. */
export const addFormError = forms.addFormError;
/** @deprecated Import from 'pagetree/forms'. */
export const formState = forms.formState;
/** @deprecated Import from 'pagetree/forms'. */
export const parseForm = forms.parseForm;
/** @deprecated Import from 'pagetree/forms'. */
export type FieldName<S extends StandardSchemaV1> = forms.FieldName<S>;
/** @deprecated Import from 'pagetree/forms'. */
export type FormResult<S extends StandardSchemaV1> = forms.FormResult<S>;
/** @deprecated Import from 'pagetree/forms'. */
export type FormState<Field extends string = string> = forms.FormState<Field>;
/** @deprecated Import from 'pagetree/forms'. */
export type InvalidForm<S extends StandardSchemaV1> = forms.InvalidForm<S>;
/** @deprecated Import from 'pagetree/forms'. */
export type ParseFormOptions = forms.ParseFormOptions;
/** @deprecated Import from 'pagetree/forms'. */
export type ValidForm<S extends StandardSchemaV1> = forms.ValidForm<S>;

// pagetree/auth
/** @deprecated Import from 'pagetree/auth'. */
export const clientAddress = auth.clientAddress;
/** @deprecated Import from 'pagetree/auth'. */
export const CrossOriginProtection = auth.CrossOriginProtection;
/** @deprecated Import from 'pagetree/auth'. */
export type CrossOriginProtection = auth.CrossOriginProtection;
/** @deprecated Import from 'pagetree/auth'. */
export const crossOriginProtection = auth.crossOriginProtection;
/** @deprecated Import from 'pagetree/auth'. */
export const deleteCookie = auth.deleteCookie;
/** @deprecated Import from 'pagetree/auth'. */
export const flash = auth.flash;
/** @deprecated Import from 'pagetree/auth'. */
export const getCookie = auth.getCookie;
/** @deprecated Import from 'pagetree/auth'. */
export const getCookies = auth.getCookies;
/** @deprecated Import from 'pagetree/auth'. */
export const getSignedCookie = auth.getSignedCookie;
/** @deprecated Import from 'pagetree/auth'. */
export const hashPassword = auth.hashPassword;
/** @deprecated Import from 'pagetree/auth'. */
export const LoginThrottle = auth.LoginThrottle;
/** @deprecated Import from 'pagetree/auth'. */
export type LoginThrottle = auth.LoginThrottle;
/** @deprecated Import from 'pagetree/auth'. */
export const MemorySessionStore = auth.MemorySessionStore;
/** @deprecated Import from 'pagetree/auth'. */
export type MemorySessionStore = auth.MemorySessionStore;
/** @deprecated Import from 'pagetree/auth'. */
export const MemoryThrottleStore = auth.MemoryThrottleStore;
/** @deprecated Import from 'pagetree/auth'. */
export type MemoryThrottleStore = auth.MemoryThrottleStore;
/** @deprecated Import from 'pagetree/auth'. */
export const requireLogin = auth.requireLogin;
/** @deprecated Import from 'pagetree/auth'. */
export const safeNext = auth.safeNext;
/** @deprecated Import from 'pagetree/auth'. */
export const session = auth.session;
/** @deprecated Import from 'pagetree/auth'. */
export const setCookie = auth.setCookie;
/** @deprecated Import from 'pagetree/auth'. */
export const setSignedCookie = auth.setSignedCookie;
/** @deprecated Import from 'pagetree/auth'. */
export const takeFlash = auth.takeFlash;
/** @deprecated Import from 'pagetree/auth'. */
export const verifyPassword = auth.verifyPassword;
/** @deprecated Import from 'pagetree/auth'. */
export type CookieOptions = auth.CookieOptions;
/** @deprecated Import from 'pagetree/auth'. */
export type CrossOriginOptions = auth.CrossOriginOptions;
/** @deprecated Import from 'pagetree/auth'. */
export type RequireLoginOptions = auth.RequireLoginOptions;
/** @deprecated Import from 'pagetree/auth'. */
export type Session<T extends object = auth.SessionData> = auth.Session<T>;
/** @deprecated Import from 'pagetree/auth'. */
export type SessionData = auth.SessionData;
/** @deprecated Import from 'pagetree/auth'. */
export type SessionOptions = auth.SessionOptions;
/** @deprecated Import from 'pagetree/auth'. */
export type SessionStore = auth.SessionStore;
/** @deprecated Import from 'pagetree/auth'. */
export type ThrottleCount = auth.ThrottleCount;
/** @deprecated Import from 'pagetree/auth'. */
export type ThrottleOptions = auth.ThrottleOptions;
/** @deprecated Import from 'pagetree/auth'. */
export type ThrottleStore = auth.ThrottleStore;

// pagetree/live
/** @deprecated Import from 'pagetree/live'. */
export const EventHub = live.EventHub;
/** @deprecated Import from 'pagetree/live'. */
export type EventHub = live.EventHub;
/** @deprecated Import from 'pagetree/live'. */
export const eventStream = live.eventStream;
/** @deprecated Import from 'pagetree/live'. */
export const liveReload = live.liveReload;
/** @deprecated Import from 'pagetree/live'. */
export const MemoryBroker = live.MemoryBroker;
/** @deprecated Import from 'pagetree/live'. */
export type MemoryBroker = live.MemoryBroker;
/** @deprecated Import from 'pagetree/live'. */
export const Subscriptions = live.Subscriptions;
/** @deprecated Import from 'pagetree/live'. */
export type Subscriptions = live.Subscriptions;
/** @deprecated Import from 'pagetree/live'. */
export type Broker = live.Broker;
/** @deprecated Import from 'pagetree/live'. */
export type BrokerMessage = live.BrokerMessage;
/** @deprecated Import from 'pagetree/live'. */
export type EventStream = live.EventStream;
/** @deprecated Import from 'pagetree/live'. */
export type EventStreamOptions = live.EventStreamOptions;
/** @deprecated Import from 'pagetree/live'. */
export type HubFeed = live.HubFeed;

// pagetree/static
/** @deprecated Import from 'pagetree/static'. */
export const sendFile = staticFeature.sendFile;
/** @deprecated Import from 'pagetree/static'. */
export const staticFiles = staticFeature.staticFiles;
/** @deprecated Import from 'pagetree/static'. */
export type EmbeddedFile = staticFeature.EmbeddedFile;
/** @deprecated Import from 'pagetree/static'. */
export type EmbeddedFiles = staticFeature.EmbeddedFiles;
/** @deprecated Import from 'pagetree/static'. */
export type SendFileOptions = staticFeature.SendFileOptions;
/** @deprecated Import from 'pagetree/static'. */
export type StaticFiles = staticFeature.StaticFiles;
/** @deprecated Import from 'pagetree/static'. */
export type StaticOptions = staticFeature.StaticOptions;

// pagetree/observe
/** @deprecated Import from 'pagetree/observe'. */
export type AccessLogEntry = observe.AccessLogEntry;
/** @deprecated Import from 'pagetree/observe'. */
export type Logger = observe.Logger;
/** @deprecated Import from 'pagetree/observe'. */
export type PropsTrace = observe.PropsTrace;
/** @deprecated Import from 'pagetree/observe'. */
export type RenderTrace = observe.RenderTrace;
/** @deprecated Import from 'pagetree/observe'. */
export type RequestTrace = observe.RequestTrace;

// pagetree/compress
/** @deprecated Import from 'pagetree/compress'. */
export type CompressOptions = compress.CompressOptions;

// pagetree/testing
/** @deprecated Import from 'pagetree/testing'. */
export const htmxRequest = testing.htmxRequest;
/** @deprecated Import from 'pagetree/testing'. */
export type HtmxRequestOptions = testing.HtmxRequestOptions;

// pagetree/tree
/** @deprecated Import from 'pagetree/tree'. */
export type ComponentInfo = tree.ComponentInfo;
/** @deprecated Import from 'pagetree/tree'. */
export type NodeKind = tree.NodeKind;
/** @deprecated Import from 'pagetree/tree'. */
export type ParamNames<TPattern extends string> = tree.ParamNames<TPattern>;
/** @deprecated Import from 'pagetree/tree'. */
export type UrlParams = tree.UrlParams;
