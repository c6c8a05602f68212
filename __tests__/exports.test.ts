import { resolve } from 'node:path';
import ts from 'typescript';
import * as pagetree from '../core/index.ts';
import * as postgres from '../core/engines/postgres.ts';
import * as redis from '../core/engines/redis.ts';
import * as node from '../core/node/index.ts';
import * as deno from '../core/deno/index.ts';
import * as adapter from '../core/adapter.ts';
import * as cloudflare from '../core/cloudflare/index.ts';
import * as auth from '../core/auth/index.ts';
import * as compress from '../core/compress/index.ts';
import * as forms from '../core/forms/index.ts';
import * as htmx from '../core/htmx/index.ts';
import * as live from '../core/live/index.ts';
import * as observe from '../core/observe/index.ts';
import * as staticEntry from '../core/static/index.ts';
import * as testing from '../core/testing.ts';
import * as tree from '../core/tree/index.ts';

// The feature entries (issue 42.3): each subpath, its source, and its values at run time.
const features: Record<string, { file: string; values: object }> = {
  'pagetree/auth': { file: 'core/auth/index.ts', values: auth },
  'pagetree/compress': { file: 'core/compress/index.ts', values: compress },
  'pagetree/forms': { file: 'core/forms/index.ts', values: forms },
  'pagetree/htmx': { file: 'core/htmx/index.ts', values: htmx },
  'pagetree/live': { file: 'core/live/index.ts', values: live },
  'pagetree/observe': { file: 'core/observe/index.ts', values: observe },
  'pagetree/static': { file: 'core/static/index.ts', values: staticEntry },
  'pagetree/testing': { file: 'core/testing.ts', values: testing },
  'pagetree/tree': { file: 'core/tree/index.ts', values: tree },
};

// The root entry's names in 0.1, before the features moved out: each still imports from it.
const pinnedRoot01 = {
  values: [
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
  ],
  types: [
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
  ],
};

const program = ts.createProgram(
  ['core/index.ts', ...Object.values(features).map((f) => f.file)].map((f) => resolve(__dirname, '..', f)),
  {
    allowImportingTsExtensions: true,
    noEmit: true,
    jsx: ts.JsxEmit.ReactJSX,
    jsxImportSource: '@kitajs/html',
    module: ts.ModuleKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    types: [],
  },
);
const checker = program.getTypeChecker();

/**
 * An entry's exported names as the compiler reads them, each with the text of its `@deprecated` tag ('' when it has
 * none; a class or a function moved out keeps a value and a type of the same name, both tagged).
 * @example exportsOf('core/index.ts').get('hxTrigger') // → { deprecated: "Import from 'pagetree/htmx'." }
 */
function exportsOf(file: string): Map<string, { deprecated: string | undefined }> {
  const source = program.getSourceFile(resolve(__dirname, '..', file))!;
  return new Map(
    checker.getExportsOfModule(checker.getSymbolAtLocation(source)!).map((s) => {
      const tag = s.getJsDocTags(checker).find((t) => t.name === 'deprecated');
      return [s.getName(), { deprecated: tag && ts.displayPartsToString(tag.text) }];
    }),
  );
}

const root = exportsOf('core/index.ts');
const current = [...root].filter(([, e]) => e.deprecated === undefined).map(([name]) => name);
const moved = [...root].filter(([, e]) => e.deprecated !== undefined);

// What every app uses, and nothing else: an accidental export shows up here in review (values, then types).
test('the public names of pagetree: what every app uses, at most 45', () => {
  expect(current.filter((name) => name in pagetree).sort()).toEqual([
    'ConflictError',
    'HttpError',
    'MountError',
    'PatternError',
    'ServeMux',
    'Suspense',
    'UrlForError',
    'cspNonce',
    'currentPage',
    'currentRequest',
    'defaultErrorHandler',
    'id',
    'idTarget',
    'mount',
    'redirect',
    'renderComponent',
    'route',
    'setHeader',
    'setStatus',
    'staticUrl',
    'urlFor',
  ]);
  expect(current.filter((name) => !(name in pagetree)).sort()).toEqual([
    'Children',
    'ComponentRef',
    'ErrorHandler',
    'ErrorPage',
    'Handler',
    'HandlerFunc',
    'HandlerMatch',
    'HandlerObject',
    'Middleware',
    'MountOptions',
    'MountedOn',
    'PageClass',
    'PageNode',
    'PageRef',
    'PageRequest',
    'Register',
    'RenderComponent',
    'RenderTarget',
    'Route',
    'RouteInfo',
    'SuspenseProps',
    'Tree',
    'UrlParamsArg',
  ]);
  expect(current.length).toBeLessThanOrEqual(45);
});

// Each feature's names, values and types together.
test.each([
  [
    'pagetree/auth',
    [
      'CookieOptions',
      'CrossOriginOptions',
      'CrossOriginProtection',
      'LoginThrottle',
      'MemorySessionStore',
      'MemoryThrottleStore',
      'PasswordWorkLimits',
      'RequireLoginOptions',
      'Session',
      'SessionData',
      'SessionOptions',
      'SessionStore',
      'ThrottleCount',
      'ThrottleOptions',
      'ThrottleStore',
      'clientAddress',
      'crossOriginProtection',
      'deleteCookie',
      'flash',
      'getCookie',
      'getCookies',
      'getSignedCookie',
      'hashPassword',
      'limitPasswordWork',
      'requireLogin',
      'safeNext',
      'session',
      'setCookie',
      'setSignedCookie',
      'takeFlash',
      'verifyPassword',
    ],
  ],
  ['pagetree/compress', ['CompressOptions']],
  [
    'pagetree/forms',
    [
      'FieldName',
      'FormResult',
      'FormState',
      'InvalidForm',
      'MethodField',
      'MethodOverrideOptions',
      'ParseFormOptions',
      'ValidForm',
      'addFormError',
      'formState',
      'getOr404',
      'methodOverride',
      'parseForm',
      'parsePath',
      'parseQuery',
    ],
  ],
  [
    'pagetree/htmx',
    [
      'AnswerWith',
      'HtmxConfig',
      'HtmxDetails',
      'HxLocation',
      'Swap',
      'SwapStyle',
      'TriggerTime',
      'alsoRender',
      'answerWith',
      'htmxDetails',
      'hxLocation',
      'hxPushUrl',
      'hxRedirect',
      'hxRefresh',
      'hxReplaceUrl',
      'hxReselect',
      'hxReswap',
      'hxRetarget',
      'hxTrigger',
      'stopPolling',
    ],
  ],
  [
    'pagetree/live',
    [
      'Broker',
      'BrokerMessage',
      'EventHub',
      'EventStream',
      'EventStreamOptions',
      'HubFeed',
      'MemoryBroker',
      'MessageResult',
      'RegionTarget',
      'SendOptions',
      'Socket',
      'SocketFeed',
      'SocketHub',
      'SocketLimits',
      'SocketPage',
      'SocketRegion',
      'Subscriptions',
      'eventStream',
      'liveReload',
      'parseMessage',
    ],
  ],
  ['pagetree/observe', ['AccessLogEntry', 'Logger', 'ObserveOptions', 'PropsTrace', 'RenderTrace', 'RequestTrace']],
  [
    'pagetree/static',
    ['EmbeddedFile', 'EmbeddedFiles', 'SendFileOptions', 'StaticFiles', 'StaticOptions', 'sendFile', 'staticFiles'],
  ],
  ['pagetree/testing', ['HtmxRequestOptions', 'htmxRequest']],
  ['pagetree/tree', ['ComponentInfo', 'NodeKind', 'ParamNames', 'UrlParams']],
])('the public names of %s', (subpath, names) => {
  const entry = exportsOf(features[subpath]!.file);
  expect([...entry.keys()].sort()).toEqual(names);
  expect([...entry].filter(([, e]) => e.deprecated !== undefined)).toEqual([]);
});

// One minor version of grace (issue 42.3): every name the root exported in 0.1 still imports from it, deprecated with
// the path it moved to, and is that entry's very value (instanceof and identity hold across both imports).
test('every name moved out of the root still imports from it, deprecated, naming its new entry', () => {
  const was = [...pinnedRoot01.values, ...pinnedRoot01.types].sort();
  expect([...root.keys()].sort()).toEqual(was);
  for (const [name, { deprecated }] of moved) {
    const subpath = /^Import from '(pagetree\/[a-z]+)'\.$/.exec(deprecated!)?.[1];
    expect([name, subpath && exportsOf(features[subpath]!.file).has(name)]).toEqual([name, true]);
    if (name in pagetree)
      expect([name, (pagetree as Record<string, unknown>)[name]]).toEqual([
        name,
        (features[subpath!]!.values as Record<string, unknown>)[name],
      ]);
  }
  expect(Object.keys(pagetree).sort()).toEqual(pinnedRoot01.values);
});

test('the public names of pagetree/node', () => {
  expect(Object.keys(node).sort()).toEqual(['onShutdown', 'serve', 'shutdown', 'toNodeListener']);
});

test('the public names of pagetree/deno', () => {
  expect(Object.keys(deno).sort()).toEqual(['serve']);
});

test('the public names of pagetree/cloudflare', () => {
  expect(Object.keys(cloudflare).sort()).toEqual(['socketObject', 'workerFetch']);
});

test('the public names of pagetree/adapter', () => {
  expect(Object.keys(adapter).sort()).toEqual([
    'PingSweeps',
    'SocketAnswers',
    'answerOf',
    'bodyTooLarge',
    'clientAddress',
    'consoleLogger',
    'frameText',
    'guardLogger',
    'guardSocketHandler',
    'handOver',
    'handlerFailed',
    'isUpgrade',
    'lazyInherit',
    'openSocket',
    'parseTarget',
    'readBody',
    'readFormBody',
    'readJson',
    'requestFacts',
    'serveHandler',
    'takeEvents',
    'takeSocket',
    'textError',
    'utf8Over',
    'validHost',
    'validUrlHost',
  ]);
});

test('the public names of pagetree/postgres and pagetree/redis', () => {
  expect(Object.keys(postgres).sort()).toEqual(['PostgresBroker', 'PostgresSessionStore', 'PostgresThrottleStore']);
  expect(Object.keys(redis).sort()).toEqual(['RedisBroker', 'RedisSessionStore', 'RedisThrottleStore']);
});
