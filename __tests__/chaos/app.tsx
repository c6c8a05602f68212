// The chaos suite's app and its table: every feature mounted once, as a user would mount it, and one row per feature
// saying where it is, which requests reach it, which faults apply, and what a normal request must get afterwards.
// chaos.test.ts drives each row for a few seconds with hostile traffic (driver.ts over raw sockets, fetch-traffic.ts
// through mux.fetch) against this app served by `serve()` in a child process (server.ts), and fails the row on a
// crash, an unhandled rejection, an event-loop delay over 500 ms, a 500 where no page fails on purpose, or a
// normal request answered wrongly after the load.
//
// Adding a feature (docs/contributing.md says the same):
//   1. Write its page in pages.tsx the way its docs page does (small; a `?case=` query for its failing variants).
//   2. Mount it: a field of `App` below (or of `PlainApp`, the mount with `compress: false`).
//   3. Add a row to `routes`: a name, the mount, the requests that reach it (`body` where the page parses a form,
//      `fails` where it fails on purpose: a 500 anywhere else is a bug), the fault kinds that apply (`everyRoute`,
//      or `bodyFaults` when it takes a body), and the normal request with its status.
//   Then `npx jest __tests__/chaos` (CHAOS_ROUTE=<name> runs that row alone).
//
//   { name: 'send-file', mount: 'App.file', requests: [get('/file?n=1')], faults: everyRoute,
//     check: { method: 'GET', path: '/file', status: 200 } }

import { createHash } from 'node:crypto';
import { MemorySessionStore, mount, route, ServeMux, staticFiles, type Logger } from '../../core/index.ts';
import { methodOverride, type MethodOverrideHandler } from '../../core/forms/method-override.ts';
import type { FaultKind } from './faults.ts';
import { envList } from './rng.ts';
import {
  AsyncPage,
  EventsPage,
  FilePage,
  FormPage,
  LoginPage,
  OverridePage,
  PrivatePage,
  RegionsPage,
  SessionPage,
  SocketPage,
  StreamPage,
  UploadPage,
  type ChaosDeps,
} from './pages.tsx';

const css = 'body { color: #222; }\n'.repeat(200);
const assets = { 'app.css': css, 'robots.txt': 'User-agent: *\n', 'logo.bin': new Uint8Array(4096).fill(7) };
const fingerprinted = `/static/app.${createHash('sha256').update(css).digest('hex').slice(0, 8)}.css`;

/** Every feature on one mount with the defaults (compression on, sessions in a sealed cookie). */
export class App {
  stream = route('/stream', StreamPage);
  regions = route('/regions', RegionsPage);
  async = route('/async', AsyncPage);
  form = route('/form', FormPage);
  override = route('/override', OverridePage);
  upload = route('/upload', UploadPage);
  file = route('GET /file', FilePage);
  assets = route('GET /static/{path...}', staticFiles(assets));
  events = route('GET /events/{broker}', EventsPage);
  session = route('/session', SessionPage);
  login = route('/login', LoginPage);
  private = route('/private', PrivatePage);
  socket = route('/socket', SocketPage);
}

/** The same pages on a mount without compression and with sessions in a server-side store. */
export class PlainApp {
  stream = route('/stream', StreamPage);
  session = route('/session', SessionPage);
}

const secret = 'chaos-suite-secret-at-least-32-characters';

/**
 * The mux with both mounts behind methodOverride (every POST form passes through it), as a server would serve it.
 * @example const app = chaosApp({ brokers: { memory: new MemoryBroker() } }, logger); serve(app, { logger })
 */
export function chaosApp(deps: ChaosDeps, logger: Logger): MethodOverrideHandler {
  const mux = new ServeMux({ logger });
  mount(mux, App, '/', 'Chaos', { deps, secret, timeout: 5000 });
  const store = new MemorySessionStore();
  mount(mux, PlainApp, '/plain', 'Plain', { deps, secret, timeout: 5000, compress: false, session: { store } });
  return methodOverride(mux);
}

/** One request the traffic may send to a route. */
export interface Target {
  method: string;
  path: string;
  /** The form body the page reads with parseForm and its limits (a flood of parts must then get a 4xx). */
  body?: 'urlencoded' | 'multipart';
  /** The page fails on purpose here (a rejecting component): a 500 is right. Elsewhere a 500 is a bug. */
  fails?: true;
}

/** One feature's row. */
export interface ChaosRoute {
  /** In test names, failure reports and CHAOS_ROUTE. */
  name: string;
  /** Where it is mounted (the field of App or PlainApp) and how. */
  mount: string;
  /** What the traffic sends there; each request is then spelled oddly, cut short or flooded by a fault. */
  requests: readonly Target[];
  /** The fault kinds that apply (faults.ts describes each). */
  faults: readonly FaultKind[];
  /** A normal request after the load, and its status; `open` for an answer that never ends (read the head only). */
  check: { method: string; path: string; status: number; body?: string; type?: string; open?: boolean };
}

/** Faults every route gets: clients that leave, odd heads, cookies, conditionals, slow writers, pipelining. */
export const everyRoute: readonly FaultKind[] = [
  'leave-headers',
  'leave-stream',
  'bad-head',
  'cookies',
  'conditional',
  'slow',
  'pipeline',
];
/** Faults of socket routes: the head faults, and WebSocket clients that misbehave after the upgrade. */
export const socketFaults: readonly FaultKind[] = [...everyRoute, 'socket'];
/** Faults of routes that read a body. */
export const bodyFaults: readonly FaultKind[] = [...everyRoute, 'leave-body', 'bad-body', 'multipart'];

const get = (path: string): Target => ({ method: 'GET', path });
const post = (path: string, body?: Target['body']): Target => ({ method: 'POST', path, body });
const failing = (t: Target): Target => ({ ...t, fails: true });
const form = 'application/x-www-form-urlencoded';
// A part that rejects fails the whole answer (500) where the page is rendered whole: htmx partials.
const streamed = (p: string) => [
  ...['?part=big&delay=5', '?part=big', '?part=session&delay=1', '?delay=20'].map((q) => get(p + q)),
  failing(get(`${p}?part=reject&delay=2`)),
];

/** The table: one row per feature; a new feature adds its row here (see the head comment). */
export const routes: readonly ChaosRoute[] = [
  {
    name: 'stream-compressed',
    mount: 'App.stream (compress on: br, gzip as asked)',
    requests: streamed('/stream'),
    faults: everyRoute,
    check: { method: 'GET', path: '/stream', status: 200 },
  },
  {
    name: 'stream-plain',
    mount: 'PlainApp.stream (compress: false)',
    requests: streamed('/plain/stream'),
    faults: everyRoute,
    check: { method: 'GET', path: '/plain/stream', status: 200 },
  },
  {
    name: 'regions',
    mount: 'App.regions (alsoRender of an async region, then ok / redirect / HttpError / throw / reject)',
    requests: [
      ...['ok', 'redirect', 'error'].map((then) => post(`/regions?then=${then}`)),
      ...['fail', 'reject'].map((then) => failing(post(`/regions?then=${then}`))),
    ],
    faults: bodyFaults,
    check: { method: 'POST', path: '/regions?then=ok', status: 200, body: 'a=1', type: form },
  },
  {
    name: 'async-components',
    mount: 'App.async (async components; one rejects, one beside a sync throw)',
    requests: [
      ...['ok', 'slow'].map((c) => get(`/async?case=${c}`)),
      ...['reject', 'beside-throw'].map((c) => failing(get(`/async?case=${c}`))),
    ],
    faults: everyRoute,
    check: { method: 'GET', path: '/async?case=ok', status: 200 },
  },
  {
    name: 'form-urlencoded',
    mount: 'App.form (parseForm, zod, limits)',
    requests: [post('/form', 'urlencoded'), get('/form?title=a')],
    faults: bodyFaults,
    check: { method: 'POST', path: '/form', status: 303, body: 'title=Milk', type: form },
  },
  {
    name: 'form-multipart',
    mount: 'App.upload (parseForm, zod with a File, limits)',
    requests: [post('/upload', 'multipart')],
    faults: bodyFaults,
    check: {
      method: 'POST',
      path: '/upload',
      status: 200,
      body: '--b\r\nContent-Disposition: form-data; name="title"\r\n\r\nMilk\r\n--b--\r\n',
      type: 'multipart/form-data; boundary=b',
    },
  },
  {
    name: 'method-override',
    mount: 'App.override (methodOverride around the whole mux: a POST form with _method=PUT or DELETE)',
    requests: [post('/override', 'urlencoded'), post('/override', 'multipart'), get('/override')],
    faults: bodyFaults,
    check: { method: 'POST', path: '/override', status: 303, body: '_method=delete&title=Milk', type: form },
  },
  {
    name: 'send-file',
    mount: 'App.file (sendFile, a filename from the app: ?n=)',
    requests: [0, 1, 2, 3, 4, 5, 6].map((n) => get(`/file?n=${n}`)),
    faults: everyRoute,
    check: { method: 'GET', path: '/file', status: 200 },
  },
  {
    name: 'static',
    mount: 'App.assets (staticFiles, embedded)',
    requests: ['/static/app.css', fingerprinted, '/static/logo.bin', '/static/robots.txt', '/static/%2e%2e/x'].map(get),
    faults: everyRoute,
    check: { method: 'GET', path: fingerprinted, status: 200 },
  },
  ...['memory', 'postgres', 'redis'].map((broker): ChaosRoute => ({
    name: `events-${broker}`,
    mount: `App.events (EventHub on the ${broker} broker${broker === 'memory' ? '; /events/direct: eventStream' : ''})`,
    requests: broker === 'memory' ? [get('/events/memory'), get('/events/direct')] : [get(`/events/${broker}`)],
    faults: everyRoute,
    check: { method: 'GET', path: `/events/${broker}`, status: 200, open: true },
  })),
  {
    name: 'sessions',
    mount: 'App.session (sealed cookie), PlainApp.session (MemorySessionStore)',
    requests: ['/session', '/plain/session'].flatMap((p) => [
      get(p),
      ...['set', 'regenerate', 'destroy'].map((d) => post(`${p}?do=${d}`)),
    ]),
    faults: bodyFaults,
    check: { method: 'GET', path: '/session', status: 200 },
  },
  {
    name: 'socket',
    mount: 'App.socket (a socket route: parseMessage, a SocketHub on the memory broker; throw / reject)',
    requests: [get('/socket'), get('/socket?room=a')],
    faults: socketFaults,
    check: { method: 'GET', path: '/socket', status: 426 },
  },
  {
    name: 'login',
    mount: 'App.login (LoginThrottle, parseForm), App.private (requireLogin)',
    requests: [get('/login'), post('/login', 'urlencoded'), get('/private')],
    faults: bodyFaults,
    check: { method: 'GET', path: '/login', status: 200 },
  },
];

/**
 * The route names CHAOS_ROUTE chose (comma-separated), or undefined when it is unset; a name that is no row's throws.
 * @example chosenRouteNames('socket, login') // → ["socket", "login"]
 */
export function chosenRouteNames(value: string | undefined): string[] | undefined {
  const names = envList(value);
  for (const name of names ?? []) {
    if (!routes.some((r) => r.name === name)) {
      throw new Error(`CHAOS_ROUTE=${name}: no such route; the routes: ${routes.map((r) => r.name).join(', ')}`);
    }
  }
  return names;
}
