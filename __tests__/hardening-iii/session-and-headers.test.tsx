// Hardening III (issue 40), sessions and header values: a session written inside a <Suspense> part was lost without
// a word (and regenerate() there deleted the old id it could not replace: logged out); sendFile answered 500 for a
// lone surrogate in a filename and passed bidi controls into `filename*`; redirect() sent a value htmx reads as
// options (JSON, or htmx 4's `key:value` syntax) past the scheme check; MemorySessionStore kept every session for its
// whole absolute lifetime, without a bound. Each case runs through a real server started by `serve` and through
// `mux.fetch` where both apply, and each was written to fail on the code before the fix.
//
// Whether anything goes unhandled is asked of a child process running the app with Node's defaults
// (session-and-headers-app.tsx): inside jest a test's process.on('unhandledRejection') never fires.

import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { MemorySessionStore, ServeMux, mount } from '../../core/index.ts';
import { shutdown } from '../../core/node/index.ts';
import { send as sendRaw } from '../support/node-http.ts';
import { inChild } from './in-child.ts';
import {
  CookieApp,
  call,
  errors,
  hold,
  listen,
  logger,
  login,
  secret,
  slowBacking,
  startApp,
  streamed,
  vias,
  whoami,
} from './session-and-headers-app.tsx';

let server: Server;

beforeAll(async () => {
  server = await startApp();
});
afterAll(async () => {
  await shutdown(server, 500);
});
beforeEach(() => {
  errors.length = 0;
});
afterEach(() => {
  jest.restoreAllMocks();
});

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
    hold(true);
    try {
      const r = await streamed(via, '/s/early', { cookie });
      expect(r.body).toContain('<h1>Top</h1>');
      expect(r.body).not.toContain('saved');
      expect(r.headers.getSetCookie()).toEqual([]);
      expect(String(errors[0]!.err)).toMatch(/session\.regenerate\(\): called after the streamed page's first byte/);
    } finally {
      hold(false);
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

test("session-writes-inside-suspense-leave-nothing-unhandled: a child process with Node's defaults lives", async () => {
  const run = await inChild(join(__dirname, 'session-and-headers-app.tsx'), 'unobserved');
  const lines = vias.flatMap((via) => [
    ...['/', '/c/'].flatMap((prefix) => [
      `${via} ${prefix}late/set: 200 failed`,
      `${via} ${prefix}late/regenerate: 200 failed`,
      `${via} ${prefix}late/destroy: 200 failed`,
      `${via} ${prefix}late/read: 200 read`,
    ]),
    `${via} /s/early: 200 failed`,
  ]);
  expect(run).toEqual({ code: 0, signal: null, stdout: lines.join('\n') + '\n', stderr: '' });
}, 30_000);

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
