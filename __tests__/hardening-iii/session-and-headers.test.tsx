// Hardening III (issue 40), sessions and header values: a session written inside a <Suspense> part was lost without
// a word (and regenerate() there deleted the old id it could not replace: logged out); sendFile answered 500 for a
// lone surrogate in a filename and passed bidi controls into `filename*`; redirect() sent a value htmx reads as
// options (JSON, or htmx 4's `key:value` syntax) past the scheme check; MemorySessionStore kept every session for its
// whole absolute lifetime, without a bound. Each case runs through a real server started by `serve` and through
// `mux.fetch` where both apply, and each was written to fail on the code before the fix.

import { readFileSync } from 'node:fs';
import { request as httpRequest, type Server } from 'node:http';
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
import { serve, shutdown, type ServeOptions } from '../../core/node/index.ts';
import { send as sendRaw } from '../support/node-http.ts';

const secret = 'hardening-iii-session-secret-of-32-characters';
const errors: { message: string; err: unknown }[] = [];
const logger = {
  error: (message: string, err?: unknown) => void errors.push({ message, err }),
  warn: () => {},
};
const faults: unknown[] = [];
const onFault = (err: unknown) => void faults.push(err);

// --- the app -------------------------------------------------------------------------------------------------------

// The parts waiting for the test to release them (after it has read the first byte), in render order.
const waiting: (() => void)[] = [];
const released = () => new Promise<void>((resolve) => waiting.push(resolve));
const releaseAll = () => waiting.splice(0).forEach((r) => r());

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
class CookieApp {
  late = route('GET /late/{op}', LatePage);
  login = route('/login', Login);
  whoami = route('GET /whoami', Whoami);
}

// A store whose write waits, once the test holds it, for the first byte: a regenerate() that began before the first
// byte (and passed the check then) meets it after its awaits. The shell waits for that write to begin.
const slowBacking = new MemorySessionStore();
let holding = false;
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
const mux = new ServeMux({ logger });
mount(mux, App, '/', 'App', { secret, session: { store } });
mount(mux, SlowApp, '/s/', 'SlowApp', { secret, session: { store: slowStore } });
mount(mux, CookieApp, '/c/', 'CookieApp', { secret });

// --- the two ways in -----------------------------------------------------------------------------------------------

let server: Server;
let port = 0;

beforeAll(async () => {
  server = await listen(mux);
  port = (server.address() as { port: number }).port;
  process.on('unhandledRejection', onFault);
  process.on('uncaughtException', onFault);
});
afterAll(async () => {
  process.off('unhandledRejection', onFault);
  process.off('uncaughtException', onFault);
  await shutdown(server, 500);
});
beforeEach(() => {
  errors.length = 0;
});
afterEach(() => {
  expect(faults).toEqual([]);
  jest.restoreAllMocks();
});

function listen(on: ServeMux, options: ServeOptions = {}): Promise<Server> {
  return new Promise((resolve) => {
    const s = serve(on, {
      port: 0,
      hostname: '127.0.0.1',
      handleSignals: false,
      ...options,
      onListen: () => resolve(s),
    });
  });
}

type Via = 'serve' | 'fetch';
const vias: Via[] = ['serve', 'fetch'];

interface Seen {
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

async function call(via: Via, path: string, init: { method?: string; headers?: Record<string, string> } = {}) {
  if (via === 'fetch') {
    const res = await mux.fetch(new Request(`http://localhost${path}`, init));
    return { status: res.status, headers: res.headers, body: await res.text() };
  }
  const r = await sendRaw(port, path, init);
  return { status: r.status, headers: toHeaders(r.headers), body: r.body };
}

/** GETs a streamed page, releases its parts once the first bytes arrived, and reads the rest. */
async function streamed(via: Via, path: string, headers: Record<string, string> = {}): Promise<Seen> {
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
async function login(via: Via, prefix: string): Promise<string> {
  const r = await call(via, `${prefix}login?user=7`, { method: 'POST' });
  const pair = r.headers.getSetCookie()[0]?.split(';')[0];
  if (r.status !== 204 || !pair) throw new Error(`login answered ${r.status}`);
  return pair;
}

async function whoami(via: Via, prefix: string, cookie: string) {
  return JSON.parse((await call(via, `${prefix}whoami`, { headers: { cookie } })).body) as {
    id: string;
    data: Record<string, string>;
  };
}

// --- 5. a session written after the first byte ---------------------------------------------------------------------

describe.each(vias)('a session written inside a <Suspense> part after the first byte (%s)', (via) => {
  test('session-set-inside-suspense-is-an-error-not-lost: the part fails, logged once, no "saved"', async () => {
    const r = await streamed(via, '/c/late/set');
    expect(r.status).toBe(200);
    expect(r.body).not.toContain('saved');
    expect(r.body).toContain('<template for="pt-1">');
    expect(r.headers.getSetCookie()).toEqual([]);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toMatch(/CookieApp\.late .*pt-1.*failed/);
    expect(String(errors[0]!.err)).toMatch(/session\.set\(\): called after the streamed page's first byte/);
  });

  test('session-set-inside-suspense-with-a-store-is-an-error-and-stores-nothing', async () => {
    const cookie = await login(via, '/');
    const r = await streamed(via, '/late/set', { cookie });
    expect(r.body).not.toContain('saved');
    expect(String(errors[0]!.err)).toMatch(/session\.set\(\): called after/);
    expect((await whoami(via, '/', cookie)).data).toEqual({ userId: '7' });
  });

  test('regenerate-inside-suspense-keeps-the-old-session: refused before the old id is deleted', async () => {
    const cookie = await login(via, '/');
    const before = await whoami(via, '/', cookie);
    const r = await streamed(via, '/late/regenerate', { cookie });
    expect(r.body).not.toContain('saved');
    expect(r.headers.getSetCookie()).toEqual([]);
    expect(errors).toHaveLength(1);
    expect(String(errors[0]!.err)).toMatch(/session\.regenerate\(\): called after the streamed page's first byte/);
    // Still logged in, with the same id: nothing was deleted for a new id that could not be delivered.
    expect(await whoami(via, '/', cookie)).toEqual(before);
  });

  test('destroy-inside-suspense-is-refused-whole: the session stays, the error is logged', async () => {
    const cookie = await login(via, '/');
    const r = await streamed(via, '/late/destroy', { cookie });
    expect(r.body).not.toContain('saved');
    expect(errors).toHaveLength(1);
    expect(String(errors[0]!.err)).toMatch(/session\.destroy\(\): called after the streamed page's first byte/);
    expect((await whoami(via, '/', cookie)).data).toEqual({ userId: '7' });
  });

  test('regenerate-begun-before-the-first-byte-keeps-the-old-session when its cookie comes too late', async () => {
    const cookie = await login(via, '/s/');
    const before = await whoami(via, '/s/', cookie);
    const size = slowBacking.size;
    holding = true;
    try {
      const r = await streamed(via, '/s/early', { cookie });
      expect(r.body).toContain('<h1>Top</h1>');
      expect(r.body).not.toContain('saved');
      expect(r.headers.getSetCookie()).toEqual([]);
      expect(String(errors[0]!.err)).toMatch(/session\.regenerate\(\): called after the streamed page's first byte/);
    } finally {
      holding = false;
    }
    expect(await whoami(via, '/s/', cookie)).toEqual(before);
    expect(slowBacking.size).toBe(size); // the new id's entry is gone again
  });

  test('reading a session inside a part still works when its idle clock is due a refresh (the refresh waits)', async () => {
    const start = Date.now();
    let now = start;
    jest.spyOn(Date, 'now').mockImplementation(() => now);
    for (const prefix of ['/', '/c/']) {
      const cookie = await login(via, prefix);
      now += 120_000; // past the one-minute refresh
      const r = await streamed(via, `${prefix}late/read`, { cookie });
      expect(r.body).toContain('<p id="read">user 7</p>');
      expect(errors).toEqual([]);
      now = start;
    }
  });
});

// --- 6. sendFile's filename ----------------------------------------------------------------------------------------

describe.each(vias)('sendFile with a filename from user data (%s)', (via) => {
  test.each([
    ['lone-high', `attachment; filename="report_.csv"; filename*=UTF-8''report%EF%BF%BD.csv`],
    ['lone-low', `attachment; filename="_x.txt"; filename*=UTF-8''%EF%BF%BDx.txt`],
    ['lone-high-at-end', `attachment; filename="x.txt_"; filename*=UTF-8''x.txt%EF%BF%BD`],
    ['rlo', 'attachment; filename="invoice_fdp.exe"'],
    ['embeddings', 'attachment; filename="_a_b_c_d.txt"'],
    ['isolates', 'attachment; filename="a_b_c_d_.pdf"'],
    ['marks', 'attachment; filename="a_b__c.txt"'],
    ['rlo-beside-text', `attachment; filename="r_sum__gpj.exe"; filename*=UTF-8''r%C3%A9sum%C3%A9_gpj.exe`],
    ['euro', `attachment; filename="_ report.csv"; filename*=UTF-8''%E2%82%AC%20report.csv`],
    ['emoji', `attachment; filename="__.txt"; filename*=UTF-8''%F0%9F%98%80.txt`],
    ['emoji-zwj', `attachment; filename="_____.txt"; filename*=UTF-8''%F0%9F%91%A9%E2%80%8D%F0%9F%92%BB.txt`],
  ])('sendfile-filename-is-clean-text: %s', async (name, disposition) => {
    const r = await call(via, `/download/${name}`);
    expect([r.status, r.headers.get('content-disposition'), r.body]).toEqual([200, disposition, 'x']);
    const star = /filename\*=UTF-8''(.*)$/.exec(disposition)?.[1];
    const saved = star === undefined ? /filename="(.*)"/.exec(disposition)![1]! : decodeURIComponent(star);
    expect(saved).not.toMatch(/[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/);
    expect(errors).toEqual([]);
  });
});

// --- 6. what htmx navigates to -------------------------------------------------------------------------------------

// htmx 4's own parser of HX-Location (HCON), taken from the installed htmx, so that the test reads the header as
// htmx does; htmx 2 reads a value that starts with `{` as JSON.
const htmxSource = readFileSync(require.resolve('htmx.org/dist/htmx.js'), 'utf8');
const hconSource = /const HCON = \{[\s\S]*?\n {4}\};\n/.exec(htmxSource)![0];
const HCON = new Function(`${hconSource}\nreturn HCON;`)() as { parse(s: string): Record<string, unknown> };

/** The URL htmx GETs for an HX-Location value, as htmx 2 and htmx 4 read it. */
function navigatesTo(value: string): { htmx2: unknown; htmx4: unknown } {
  const htmx2 = value.indexOf('{') === 0 ? (JSON.parse(value) as { path?: unknown }).path : value;
  const parsed = HCON.parse(value);
  const htmx4 = value[0] === '{' || parsed.path != null ? parsed.path : value;
  return { htmx2, htmx4 };
}

const hostile = [
  '{"path":"javascript:alert(1)"}',
  '{"path":"javascript:alert(1)","target":"body","swap":"innerHTML"}',
  '{"path":"//evil.example/x","headers":{"x":"1"}}',
  '/a,path:javascript:alert(1)',
  'xx:,path:javascript:alert(1)',
  "/a,'path':javascript:alert(1)",
  '/a,"path":javascript:alert(1)',
  '/a,path:data:text/html,<script>alert(1)</script>',
  '/a,path.x:1',
];
const plainHtmx = { 'hx-request': 'true', 'hx-request-type': 'partial', 'hx-target': 'main#main' };

describe.each(vias)('redirect() and hxLocation() for htmx: htmx navigates to the URL given, as a URL (%s)', (via) => {
  test.each(hostile)('hx-location-is-read-as-a-url: %s', async (to) => {
    for (const path of ['/go', '/hx-location']) {
      const r = await call(via, `${path}?to=${encodeURIComponent(to)}`, { headers: plainHtmx });
      expect(r.status).toBe(200);
      const value = r.headers.get('hx-location')!;
      const { htmx2, htmx4 } = navigatesTo(value);
      // Both read the one URL given (percent-encoded where needed), and it runs no script.
      expect(htmx4).toBe(htmx2);
      expect(typeof htmx2).toBe('string');
      expect(decodeURIComponent(htmx2 as string)).toBe(to);
      expect(['javascript:', 'data:', 'vbscript:']).not.toContain(
        new URL(htmx2 as string, 'http://localhost/').protocol,
      );
    }
  });

  test.each([
    ['/tasks', '/tasks'],
    ['/search?q=a,b&sort=path', '/search?q=a,b&sort=path'],
    ['/docs/path/to', '/docs/path/to'],
    ['/x?q={a}', '/x?q={a}'],
    ['https://example.com/a', 'https://example.com/a'],
    ['/中', '/%E4%B8%AD'],
  ])('hx-location-of-a-plain-url-is-that-url: %s', async (to, header) => {
    const r = await call(via, `/go?to=${encodeURIComponent(to)}`, { headers: plainHtmx });
    expect([r.status, r.headers.get('hx-location')]).toEqual([200, header]);
    expect(navigatesTo(header)).toEqual({ htmx2: header, htmx4: header });
  });

  test('a URL htmx 4 could read as options goes as the JSON form, which both read as that URL', async () => {
    // htmx 4 reads `/tags/red,path` as { "/tags/red": true, path: true } and would GET `true`.
    const r = await call(via, `/go?to=${encodeURIComponent('/tags/red,path')}`, { headers: plainHtmx });
    expect(r.headers.get('hx-location')).toBe('{"path":"/tags/red,path"}');
    expect(navigatesTo(r.headers.get('hx-location')!)).toEqual({ htmx2: '/tags/red,path', htmx4: '/tags/red,path' });
  });

  test('a plain request gets a 303 whose Location is a URL of this site', async () => {
    const r = await call(via, `/go?to=${encodeURIComponent('{"path":"javascript:alert(1)"}')}`);
    expect(r.status).toBe(303);
    expect(r.headers.get('location')).toBe('%7B"path":"javascript:alert(1)"}');
  });
});

// --- 6. MemorySessionStore: idle expiry and a bound ----------------------------------------------------------------

describe.each(vias)('MemorySessionStore behind a mount (%s)', (via) => {
  test('memory-session-store-forgets-idle-sessions: the mount idle timeout, not the week', async () => {
    let now = Date.parse('2026-11-28T12:00:00Z');
    jest.spyOn(Date, 'now').mockImplementation(() => now);
    const idle = new MemorySessionStore();
    const idleMux = new ServeMux({ logger });
    mount(idleMux, CookieApp, '/', 'Idle', { secret, session: { store: idle, idleTimeout: 600 } });
    const s = via === 'serve' ? await listen(idleMux) : undefined;
    const post = async () => {
      if (s === undefined) return idleMux.fetch(new Request('http://localhost/login', { method: 'POST' }));
      return sendRaw((s.address() as { port: number }).port, '/login', { method: 'POST' });
    };
    try {
      for (let i = 0; i < 3; i++) await post();
      expect(idle.size).toBe(3);
      now += 602_000; // ten minutes without a request, and a second of grace
      await post();
      expect(idle.size).toBe(1);
    } finally {
      if (s !== undefined) await shutdown(s, 500);
    }
  });
});

test('memory-session-store-is-bounded: maxSessions evicts the least recently used first, expired ones before', () => {
  let now = Date.parse('2026-11-28T12:00:00Z');
  jest.spyOn(Date, 'now').mockImplementation(() => now);
  const bounded = new MemorySessionStore({ maxSessions: 3 });
  bounded.set('a', { n: 1 }, 3600, 600);
  bounded.set('b', { n: 2 }, 3600, 600);
  bounded.set('c', { n: 3 }, 3600, 600);
  now += 1000;
  expect(bounded.get('a', 600)).toEqual({ n: 1 }); // a is used: b is now the oldest
  bounded.set('d', { n: 4 }, 3600, 600);
  expect(bounded.size).toBe(3);
  expect(['a', 'b', 'c', 'd'].map((id) => bounded.get(id, 600) !== undefined)).toEqual([true, false, true, true]);

  // Every session of a mount has the same idle timeout, so the least recently used is also the first to expire: the
  // expired ones go, and no live one, while the bound is kept.
  now += 400_000;
  bounded.get('c', 600);
  now += 210_000; // a and d last used 610 s ago (past 600 s and the second of grace), c 210 s ago; b is gone
  bounded.set('e', { n: 5 }, 3600, 600);
  expect(bounded.size).toBe(2);
  expect(['a', 'c', 'd', 'e'].map((id) => bounded.get(id, 600) !== undefined)).toEqual([false, true, false, true]);
});

test('MemorySessionStore holds 100,000 sessions by default, and refuses a bound that is not a whole number', () => {
  const store = new MemorySessionStore();
  for (let i = 0; i <= 100_000; i++) store.set(`s${i}`, {}, 3600);
  expect(store.size).toBe(100_000);
  expect(store.get('s0')).toBeUndefined();
  expect(store.get('s100000')).toEqual({});
  for (const maxSessions of [0, -1, 1.5, Number.NaN, Infinity]) {
    expect(() => new MemorySessionStore({ maxSessions })).toThrow(/MemorySessionStore\(\): maxSessions/);
  }
});
