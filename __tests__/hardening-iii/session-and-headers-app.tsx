// The app of session-and-headers.test.tsx and the requests it sends, apart from jest: the test drives it in its own
// process, and `unobserved()` drives its streamed session writes in a child process with Node's defaults, where a
// rejection nobody handles ends the process (jest's sandbox keeps a test's process.on('unhandledRejection') from
// ever seeing one).
//
//   startApp()     serve() on a free port of 127.0.0.1; call/streamed/login/whoami then reach it (or mux.fetch)
//   unobserved()   the child's entry: the writes inside <Suspense> parts both ways, one line per answer

import type { Server } from 'node:http';
import { request as httpRequest } from 'node:http';
import {
  MemorySessionStore,
  ServeMux,
  Suspense,
  hxLocation,
  mount,
  redirect,
  route,
  sendFile,
  session,
  type PageRequest,
  type Session,
  type SessionStore,
} from '../../core/index.ts';
import { shutdown } from '../../core/node/index.ts';
import { listen, send as sendRaw } from '../support/node-http.ts';

export const secret = 'hardening-iii-session-secret-of-32-characters';
export const errors: { message: string; err: unknown }[] = [];
export const logger = {
  error: (message: string, err?: unknown) => void errors.push({ message, err }),
  warn: () => {},
};

// --- the app -------------------------------------------------------------------------------------------------------

// The parts waiting for the test to release them (after it has read the first byte), in render order.
const waiting: (() => void)[] = [];
const released = () => new Promise<void>((resolve) => waiting.push(resolve));
export const releaseAll = () => waiting.splice(0).forEach((r) => r());

// The session as this file uses it (the project's Register types the example's session).
const mySession = async () => (await session()) as unknown as Session<{ userId: string; saved: string }>;

/** A part that writes the session once released, after the first byte: what issue 40 found lost. */
async function LateWrite({ op }: { op: string }) {
  await released();
  const s = await mySession();
  if (op === 'set') await s.set({ saved: 'yes' });
  else if (op === 'regenerate') await s.regenerate();
  else if (op === 'destroy') await s.destroy();
  else
    return (
      <p id="read" safe>
        {`user ${s.data.userId ?? 'none'}`}
      </p>
    );
  return <p id="done">saved</p>;
}

/** GET /late/{op}: a streamed page whose <Suspense> part sets, regenerates, destroys or reads the session. */
class LatePage {
  stream = true;
  props(req: PageRequest) {
    return { op: req.pathValue('op') };
  }
  page(props: { op: string }) {
    return (
      <html>
        <body>
          <h1>Top</h1>
          <Suspense fallback={<p>Loading…</p>}>
            <LateWrite op={props.op} />
          </Suspense>
        </body>
      </html>
    );
  }
}

/** POST /login?user=7: logs in as the example does (set, then regenerate); GET /whoami: the session as JSON. */
class Login {
  async post(req: PageRequest) {
    const s = await mySession();
    await s.set({ userId: new URL(req.url).searchParams.get('user') ?? '7' });
    await s.regenerate();
    return new Response(null, { status: 204 });
  }
}
class Whoami {
  async props() {
    const s = await session();
    return new Response(JSON.stringify({ id: s.id, data: s.data }), {
      headers: { 'content-type': 'application/json' },
    });
  }
}

// Filenames as an app gets them from user data (a JSON body can hold a lone surrogate; a form cannot).
const filenames: Record<string, string> = {
  'lone-high': 'report\ud800.csv',
  'lone-low': '\udc00x.txt',
  'lone-high-at-end': 'x.txt\ud83d',
  rlo: 'invoice\u202efdp.exe',
  embeddings: '\u202aa\u202bb\u202cc\u202dd.txt',
  isolates: 'a\u2066b\u2067c\u2068d\u2069.pdf',
  marks: 'a\u200eb\u200f\u061cc.txt',
  'rlo-beside-text': 'résumé\u202egpj.exe',
  euro: '€ report.csv',
  emoji: '😀.txt',
  'emoji-zwj': '👩‍💻.txt',
};
class Download {
  async props(req: PageRequest) {
    return sendFile(req, 'x', { filename: filenames[req.pathValue('name')]! });
  }
}

/** GET /go?to=…: redirect() to a URL from the request; GET /hx-location?to=…: hxLocation() with it. */
class Go {
  props(req: PageRequest) {
    return redirect(new URL(req.url).searchParams.get('to')!);
  }
}
class HxLocationPage {
  props(req: PageRequest) {
    hxLocation(new URL(req.url).searchParams.get('to')!);
    return {};
  }
  page() {
    return <p>ok</p>;
  }
}

class App {
  late = route('GET /late/{op}', LatePage);
  login = route('/login', Login);
  whoami = route('GET /whoami', Whoami);
  download = route('GET /download/{name}', Download);
  go = route('GET /go', Go);
  hxLocation = route('GET /hx-location', HxLocationPage);
}

/** The same pages with the session in the cookie (no store), under /c/. */
export class CookieApp {
  late = route('GET /late/{op}', LatePage);
  login = route('/login', Login);
  whoami = route('GET /whoami', Whoami);
}

// A store whose write waits, once the test holds it, for the first byte: a regenerate() that began before the first
// byte (and passed the check then) meets it after its awaits. The shell waits for that write to begin.
export const slowBacking = new MemorySessionStore();
let holding = false;
/** While on, the slow store's writes wait for the first byte (for /s/early). */
export const hold = (on: boolean) => void (holding = on);
let openShell: () => void = () => {};
const slowStore: SessionStore = {
  get: (id, idle) => slowBacking.get(id, idle),
  async set(id, data, ttl, idle) {
    if (holding) {
      openShell();
      await released();
    }
    slowBacking.set(id, data, ttl, idle);
  },
  delete: (id) => slowBacking.delete(id),
};
async function Shell() {
  await new Promise<void>((resolve) => (openShell = resolve));
  return <h1>Top</h1>;
}
async function EarlyRegenerate() {
  await (await mySession()).regenerate();
  return <p id="done">saved</p>;
}
/** GET /s/early: a part regenerates at once, its store write pending while the shell (waiting for it) goes out. */
class EarlyPage {
  stream = true;
  page() {
    return (
      <html>
        <body>
          <Shell />
          <Suspense fallback={<p>Loading…</p>}>
            <EarlyRegenerate />
          </Suspense>
        </body>
      </html>
    );
  }
}
class SlowApp {
  early = route('GET /early', EarlyPage);
  login = route('/login', Login);
  whoami = route('GET /whoami', Whoami);
}

const store = new MemorySessionStore();
export const mux = new ServeMux({ logger });
mount(mux, App, '/', 'App', { secret, session: { store } });
mount(mux, SlowApp, '/s/', 'SlowApp', { secret, session: { store: slowStore } });
mount(mux, CookieApp, '/c/', 'CookieApp', { secret });

// --- the two ways in -----------------------------------------------------------------------------------------------

let port = 0;

/** Serves the app with serve() on a free port; the helpers below send there. */
export async function startApp(): Promise<Server> {
  const server = await listen(mux);
  port = (server.address() as { port: number }).port;
  return server;
}

export { listen };

export type Via = 'serve' | 'fetch';
export const vias: Via[] = ['serve', 'fetch'];

export interface Seen {
  status: number;
  headers: Headers;
  body: string;
}

function toHeaders(record: Record<string, string | string[] | undefined>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(record)) {
    if (value !== undefined) for (const v of [value].flat()) headers.append(name, v);
  }
  return headers;
}

export async function call(via: Via, path: string, init: { method?: string; headers?: Record<string, string> } = {}) {
  if (via === 'fetch') {
    const res = await mux.fetch(new Request(`http://localhost${path}`, init));
    return { status: res.status, headers: res.headers, body: await res.text() };
  }
  const r = await sendRaw(port, path, init);
  return { status: r.status, headers: toHeaders(r.headers), body: r.body };
}

/** GETs a streamed page, releases its parts once the first bytes arrived, and reads the rest. */
export async function streamed(via: Via, path: string, headers: Record<string, string> = {}): Promise<Seen> {
  if (via === 'fetch') {
    const res = await mux.fetch(new Request(`http://localhost${path}`, { headers }));
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let body = '';
    let first = true;
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      body += decoder.decode(r.value, { stream: true });
      if (first) releaseAll();
      first = false;
    }
    return { status: res.status, headers: res.headers, body };
  }
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        if (body === '') releaseAll();
        body += c;
      });
      res.on('end', () => resolve({ status: res.statusCode!, headers: toHeaders(res.headers), body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Logs in under `prefix` and returns the session cookie (`name=value`). */
export async function login(via: Via, prefix: string): Promise<string> {
  const r = await call(via, `${prefix}login?user=7`, { method: 'POST' });
  const pair = r.headers.getSetCookie()[0]?.split(';')[0];
  if (r.status !== 204 || !pair) throw new Error(`login answered ${r.status}`);
  return pair;
}

export async function whoami(via: Via, prefix: string, cookie: string) {
  return JSON.parse((await call(via, `${prefix}whoami`, { headers: { cookie } })).body) as {
    id: string;
    data: Record<string, string>;
  };
}

/**
 * The child's entry: each session write inside a part (and a read), through serve() and mux.fetch, and one line per
 * answer. Waits a little at the end, so that a rejection nobody handles has come out (and ended the process) first.
 */
export async function unobserved(): Promise<string> {
  const server = await startApp();
  const out: string[] = [];
  try {
    for (const via of vias) {
      for (const prefix of ['/', '/c/']) {
        for (const op of ['set', 'regenerate', 'destroy', 'read']) {
          const cookie = await login(via, prefix);
          const r = await streamed(via, `${prefix}late/${op}`, { cookie });
          out.push(`${via} ${prefix}late/${op}: ${r.status} ${/id="(done|read)"/.exec(r.body)?.[1] ?? 'failed'}`);
        }
      }
      const cookie = await login(via, '/s/');
      hold(true);
      try {
        const r = await streamed(via, '/s/early', { cookie });
        out.push(`${via} /s/early: ${r.status} ${r.body.includes('id="done"') ? 'done' : 'failed'}`);
      } finally {
        hold(false);
      }
    }
  } finally {
    await shutdown(server, 500);
  }
  await new Promise((r) => setTimeout(r, 50));
  return out.join('\n') + '\n';
}
