import { resolve } from 'node:path';
import ts from 'typescript';
import * as pagetree from '../core/index.ts';
import * as postgres from '../core/engines/postgres.ts';
import * as redis from '../core/engines/redis.ts';
import * as node from '../core/node/index.ts';
import * as adapter from '../core/adapter.ts';

// An accidental export shows up here in review.
test('the public names of pagetree', () => {
  expect(Object.keys(pagetree).sort()).toEqual([
    'ConflictError',
    'CrossOriginProtection',
    'EventHub',
    'HtmxConfig',
    'HttpError',
    'LoginThrottle',
    'MemoryBroker',
    'MemorySessionStore',
    'MemoryThrottleStore',
    'MountError',
    'PatternError',
    'ServeMux',
    'Subscriptions',
    'Suspense',
    'UrlForError',
    'addFormError',
    'alsoRender',
    'clientAddress',
    'crossOriginProtection',
    'cspNonce',
    'currentPage',
    'currentRequest',
    'defaultErrorHandler',
    'deleteCookie',
    'eventStream',
    'flash',
    'formState',
    'getCookie',
    'getCookies',
    'getSignedCookie',
    'hashPassword',
    'htmxDetails',
    'htmxRequest',
    'hxLocation',
    'hxPushUrl',
    'hxRedirect',
    'hxRefresh',
    'hxReplaceUrl',
    'hxReselect',
    'hxReswap',
    'hxRetarget',
    'hxTrigger',
    'id',
    'idTarget',
    'liveReload',
    'mount',
    'parseForm',
    'redirect',
    'renderComponent',
    'requireLogin',
    'route',
    'safeNext',
    'sendFile',
    'session',
    'setCookie',
    'setHeader',
    'setSignedCookie',
    'setStatus',
    'staticFiles',
    'staticUrl',
    'stopPolling',
    'takeFlash',
    'urlFor',
    'verifyPassword',
  ]);
});

test('the public names of pagetree/node', () => {
  expect(Object.keys(node).sort()).toEqual(['onShutdown', 'serve', 'shutdown', 'toNodeListener']);
});

test('the public names of pagetree/adapter', () => {
  expect(Object.keys(adapter).sort()).toEqual(['answerOf', 'clientAddress', 'handOver', 'requestFacts']);
});

test('the public names of pagetree/postgres and pagetree/redis', () => {
  expect(Object.keys(postgres).sort()).toEqual(['PostgresBroker', 'PostgresSessionStore', 'PostgresThrottleStore']);
  expect(Object.keys(redis).sort()).toEqual(['RedisBroker', 'RedisSessionStore', 'RedisThrottleStore']);
});

// The names exported only as types (interfaces and type aliases), read by the compiler from the entry's
// declarations: a renamed or accidental type shows up here too.
test('the public type names of pagetree', () => {
  const entry = resolve(__dirname, '../core/index.ts');
  const program = ts.createProgram([entry], {
    allowImportingTsExtensions: true,
    noEmit: true,
    jsx: ts.JsxEmit.ReactJSX,
    jsxImportSource: '@kitajs/html',
    module: ts.ModuleKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    types: [],
  });
  const checker = program.getTypeChecker();
  const types = checker
    .getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(entry)!)!)
    .map((s) => s.getName())
    .filter((name) => !(name in pagetree))
    .sort();
  expect(types).toEqual([
    'AccessLogEntry',
    'Broker',
    'BrokerMessage',
    'Children',
    'ComponentInfo',
    'ComponentRef',
    'CompressOptions',
    'CookieOptions',
    'CrossOriginOptions',
    'EmbeddedFile',
    'EmbeddedFiles',
    'ErrorHandler',
    'ErrorPage',
    'EventStream',
    'EventStreamOptions',
    'FieldName',
    'FormResult',
    'FormState',
    'Handler',
    'HandlerFunc',
    'HandlerMatch',
    'HandlerObject',
    'HtmxDetails',
    'HtmxRequestOptions',
    'HubFeed',
    'HxLocation',
    'InvalidForm',
    'Logger',
    'Middleware',
    'MountOptions',
    'MountedOn',
    'NodeKind',
    'PageClass',
    'PageNode',
    'PageRef',
    'PageRequest',
    'ParamNames',
    'ParseFormOptions',
    'PropsTrace',
    'Register',
    'RenderComponent',
    'RenderTarget',
    'RenderTrace',
    'RequestTrace',
    'RequireLoginOptions',
    'Route',
    'RouteInfo',
    'SendFileOptions',
    'Session',
    'SessionData',
    'SessionOptions',
    'SessionStore',
    'StaticFiles',
    'StaticOptions',
    'SuspenseProps',
    'Swap',
    'SwapStyle',
    'ThrottleCount',
    'ThrottleOptions',
    'ThrottleStore',
    'Tree',
    'TriggerTime',
    'UrlParams',
    'UrlParamsArg',
    'ValidForm',
  ]);
});
