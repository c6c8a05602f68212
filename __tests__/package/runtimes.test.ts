// The same small app (fixtures/runtimes) on Bun (Bun.serve), Deno (Deno.serve, no --sloppy-imports) and Cloudflare's
// workerd (wrangler dev, local), installed from the packed tarball, its static files embedded by pagetree-embed.
// Each answers a full page, htmx 2 and htmx 4 partials, 404 and 405, a POST that redirects, a form validated by
// parseForm (422, multipart), a flash message signed
// with Web Crypto across a redirect, and a static file whose gzip and br bodies decode to the file's bytes (workerd
// must not compress the precompressed bytes again), and a login: a section behind requireLogin, a password checked
// with verifyPassword (a scrypt and a PBKDF2 hash made on Node), a cookie session (AES-GCM by Web Crypto) and a
// logout. A hash each runtime makes verifies on Node and on the runtimes before it, and theirs on it.
// On Bun and Deno, served by pagetree/bun's and pagetree/deno's serve, a socket route (issue 44) over a raw client
// (ws, from Node): its first message, an answer, a hub's POST reaching two sockets, the Origin check, the limits
// (1009, 1003, 1013), a client that leaves mid-frame, and the stop closing the sockets with 1012.

import { once } from 'node:events';
import { cpSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect as netConnect } from 'node:net';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { hashPassword, verifyPassword } from 'pagetree';
import {
  freePort,
  nodeBinary,
  packTarball,
  run,
  serveProcess,
  tempDir,
  toolPackage,
  type Served,
} from '../support/package.ts';
import { connect, htmx2, htmx4 } from '../websockets/support.ts';
import { serve as denoServe } from '../../core/deno/index.ts';
import { ServeMux } from '../../core/index.ts';

jest.setTimeout(600_000);

const fixture = join(__dirname, 'fixtures/runtimes');
let project: string;

beforeAll(() => {
  const tarball = packTarball();
  project = tempDir('runtimes');
  cpSync(fixture, project, { recursive: true });
  run('npm', ['init', '-y'], project);
  run('npm', ['pkg', 'set', 'type=module'], project);
  run('npm', ['install', '--no-audit', tarball], project);
  run('npx', ['pagetree-embed', 'public', 'assets.ts'], project);
});

function bin(name: string, version: string): string {
  return join(toolPackage(name, version), '../.bin', name);
}

/** A GET whose body is left as sent: no fetch decoding of Content-Encoding. */
function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
}

const runtimes: [string, () => Promise<Served>][] = [
  ['Bun', () => serveProcess(bin('bun', '1.4.5'), ['bun.ts'], project)],
  [
    'Deno',
    () =>
      serveProcess(bin('deno', '2.9.6'), ['run', '--allow-net', '--allow-read', '--allow-env', 'deno.ts'], project, {
        NO_COLOR: '1',
      }),
  ],
  [
    'workerd',
    async () =>
      serveProcess(
        nodeBinary(24), // wrangler needs Node 22.12 or newer
        [
          join(toolPackage('wrangler', '4.164.0'), 'bin/wrangler.js'),
          'dev',
          '--ip',
          '127.0.0.1',
          '--port',
          String(await freePort()),
          '--inspector-port',
          String(await freePort()),
        ],
        project,
        { WRANGLER_SEND_METRICS: 'false', CI: 'true', NO_COLOR: '1' },
        120_000,
      ),
  ],
];

test('a worker bundle carries no Node module but node:async_hooks, and no CommonJS require', async () => {
  // A neutral platform resolves no Node built-in: an import of node:fs, node:zlib or a package that requires
  // 'path' (as mime-types did) fails the build.
  const result = await build({
    absWorkingDir: project,
    entryPoints: ['worker.ts'],
    bundle: true,
    write: false,
    metafile: true,
    platform: 'neutral',
    format: 'esm',
    mainFields: ['module', 'main'],
    jsx: 'automatic',
    jsxImportSource: 'pagetree',
    external: ['node:async_hooks'],
    logLevel: 'silent',
  });
  const imports = Object.values(result.metafile.inputs).flatMap((input) =>
    input.imports.filter((i) => i.external).map((i) => i.path),
  );
  expect([...new Set(imports)]).toEqual(['node:async_hooks']);
  expect(result.outputFiles[0]!.text).not.toMatch(/\brequire\(/);
});

test('pagetree/deno serve(mux) outside Deno says so and what to use instead', () => {
  expect(() => denoServe(new ServeMux())).toThrow(
    "pagetree/deno serve(): Deno.serve is missing, so this is not Deno; run the app with deno, or serve it with pagetree/node's serve",
  );
});

test('pagetree/deno serve(mux, { handler }) is refused: serve answers with the mux', () => {
  const deno = { serve: jest.fn(), upgradeWebSocket: jest.fn() };
  Object.assign(globalThis, { Deno: deno });
  try {
    expect(() => denoServe(new ServeMux(), { handler: () => new Response() })).toThrow(
      'pagetree/deno serve(mux, options): options.handler is given, but serve answers with the mux; drop it',
    );
    expect(deno.serve).not.toHaveBeenCalled();
  } finally {
    delete (globalThis as { Deno?: unknown }).Deno;
  }
});

/** Hashes of `madePassword`, by where they were made: Node's (this process), then each runtime's as it runs. */
const madePassword = 'made-password ✓';
const made: [string, string][] = [];
beforeAll(async () => {
  made.push(['Node', await hashPassword(madePassword)]);
});

describe.each(runtimes)('%s', (name, start) => {
  let app: Served;
  beforeAll(async () => {
    app = await start();
  });
  afterAll(() => app?.stop());

  test('a full page', async () => {
    const res = await fetch(app.url + '/');
    const html = await res.text();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('vary')).toBe('HX-Request, HX-Target, HX-Request-Type');
    expect(html).toContain('<ul id="home-list"><li>alpha</li><li>beta</li></ul>');
    expect(html).toMatch(/<link rel="stylesheet" href="\/static\/style\.[0-9a-f]{8}\.css"\/>/);
  });

  test('htmx 2 and htmx 4 partials', async () => {
    const h2 = await fetch(app.url + '/?q=al', { headers: { 'HX-Request': 'true', 'HX-Target': 'home-list' } });
    expect([h2.status, await h2.text()]).toEqual([200, '<li>alpha</li>']);
    const h4 = await fetch(app.url + '/?q=be', {
      headers: { 'HX-Request': 'true', 'HX-Request-Type': 'partial', 'HX-Target': 'ul#home-list' },
    });
    expect([h4.status, await h4.text()]).toEqual([200, '<li>beta</li>']);
  });

  test('another region and a trigger beside a fragment, for htmx 4 and htmx 2', async () => {
    const h4 = await fetch(app.url + '/more', {
      headers: { 'HX-Request': 'true', 'HX-Request-Type': 'partial', 'HX-Target': 'div#more' },
    });
    expect(await h4.text()).toBe(
      '<p>more</p><hx-partial id="home-list" hx-swap="beforeend"><li>extra</li></hx-partial>',
    );
    expect(h4.headers.get('hx-trigger')).toBe('{"more-loaded":{"ok":true}}');
    const h2 = await fetch(app.url + '/more', { headers: { 'HX-Request': 'true', 'HX-Target': 'more' } });
    expect(await h2.text()).toBe(
      '<p>more</p><template><div id="home-list" hx-swap-oob="beforeend"><li>extra</li></div></template>',
    );
  });

  test('a server-sent event stream', async () => {
    const res = await fetch(app.url + '/events');
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(await res.text()).toContain('id: 1\ndata: <li>alpha</li>\n\n');
  });

  test('404 and 405 as Go answers them', async () => {
    const missing = await fetch(app.url + '/nope');
    expect([missing.status, await missing.text()]).toEqual([404, '404 page not found\n']);
    const wrongMethod = await fetch(app.url + '/items', { method: 'PUT' });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST');
  });

  test('a POST that redirects, and what it added', async () => {
    const res = await fetch(app.url + '/items', {
      method: 'POST',
      body: new URLSearchParams({ name: '<gamma>' }),
      redirect: 'manual',
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/');
    const list = await fetch(app.url + '/?q=gamma', { headers: { 'HX-Request': 'true', 'HX-Target': 'home-list' } });
    // kitajs escapes with Bun.escapeHTML on Bun, which escapes `>` too.
    expect(await list.text()).toMatch(/^<li>&lt;gamma(>|&gt;)<\/li>$/);
  });

  test('a form validated by parseForm: 422 with the message and the value, multipart included', async () => {
    const blank = await fetch(app.url + '/items', { method: 'POST', body: new URLSearchParams({ name: '  ' }) });
    expect([blank.status, await blank.text()]).toEqual([422, '<p class="error">An item needs a name (got [  ])</p>']);
    const multipart = new FormData();
    multipart.append('name', ' delta ');
    multipart.append('file', new Blob(['x']), 'x.txt');
    const added = await fetch(app.url + '/items', { method: 'POST', body: multipart, redirect: 'manual' });
    expect(added.status).toBe(303);
    const list = await fetch(app.url + '/?q=delta', { headers: { 'HX-Request': 'true', 'HX-Target': 'home-list' } });
    expect(await list.text()).toBe('<li>delta</li>');
    const json = await fetch(app.url + '/items', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name":"x"}',
    });
    expect(json.status).toBe(415);
  });

  test('form limits: counted as the body streams, 413 naming the limit (parseForm and req.formData())', async () => {
    const fields = (n: number) => Array.from({ length: n }, (_, i) => `f${i}=`).join('&');
    const type = { 'content-type': 'application/x-www-form-urlencoded' };
    const ok = await fetch(app.url + '/count', { method: 'POST', headers: type, body: fields(1000) });
    expect([ok.status, await ok.text()]).toEqual([200, '1000']);
    for (const path of ['/items', '/count']) {
      const many = await fetch(app.url + path, { method: 'POST', headers: type, body: fields(1001) });
      expect([path, many.status, await many.text()]).toEqual([
        path,
        413,
        'Content Too Large: a form has at most 1000 fields (maxFields)\n',
      ]);
    }
    const files = new FormData();
    files.append('name', 'x');
    for (let i = 0; i < 101; i++) files.append(`f${i}`, new Blob(['x']), 'x.txt');
    const tooMany = await fetch(app.url + '/items', { method: 'POST', body: files });
    expect([tooMany.status, await tooMany.text()]).toEqual([
      413,
      'Content Too Large: a form has at most 100 files (maxFiles)\n',
    ]);
    const wide = await fetch(app.url + '/items', {
      method: 'POST',
      headers: type,
      body: 'name=' + 'x'.repeat(1 << 20),
    });
    expect([wide.status, await wide.text()]).toEqual([
      413,
      'Content Too Large: a form field has at most 1048576 bytes (maxFieldBytes)\n',
    ]);
  });

  test('a generated file: a download named in UTF-8, its ETag answering 304, a range answering 206', async () => {
    const res = await fetch(app.url + '/export');
    const body = await res.text();
    expect([res.status, res.headers.get('content-type'), res.headers.get('content-disposition')]).toEqual([
      200,
      'text/csv; charset=utf-8',
      `attachment; filename="items _.csv"; filename*=UTF-8''items%20%E2%82%AC.csv`,
    ]);
    expect(body).toMatch(/^name\nalpha\nbeta\n/);
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    expect((await fetch(app.url + '/export', { headers: { 'if-none-match': etag } })).status).toBe(304);
    const part = await fetch(app.url + '/export', { headers: { range: 'bytes=0-3' } });
    expect([part.status, await part.text(), part.headers.get('content-range')]).toEqual([
      206,
      'name',
      `bytes 0-3/${new TextEncoder().encode(body).byteLength}`,
    ]);
  });

  test('a redirect to a URL from the request: percent-encoded, or a 500 when it is no URL to follow', async () => {
    const encoded = await fetch(app.url + '/go?next=' + encodeURIComponent('/中'), { redirect: 'manual' });
    expect([encoded.status, encoded.headers.get('location')]).toEqual([303, '/%E4%B8%AD']);
    for (const next of ['/a\r\nSet-Cookie: x=1', 'javascript:alert(1)']) {
      const refused = await fetch(app.url + '/go?next=' + encodeURIComponent(next), { redirect: 'manual' });
      expect([next, refused.status, await refused.text()]).toEqual([next, 500, 'Internal Server Error\n']);
    }
    const still = await fetch(app.url + '/');
    expect(still.status).toBe(200);
  });

  test('a flash message across redirect(): signed by Web Crypto, shown once, ignored when changed', async () => {
    const flashLine = /^pagetree-flash=Saved%20%E2%9C%93\.[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax$/;
    const plain = await fetch(app.url + '/notice', { method: 'POST', redirect: 'manual' });
    expect([plain.status, plain.headers.get('location'), plain.headers.getSetCookie()]).toEqual([
      303,
      '/notice',
      [expect.stringMatching(flashLine)],
    ]);
    const htmx = await fetch(app.url + '/notice', { method: 'POST', headers: { 'HX-Request': 'true' } });
    expect([htmx.status, htmx.headers.get('hx-location'), htmx.headers.getSetCookie()]).toEqual([
      200,
      '/notice',
      [expect.stringMatching(flashLine)],
    ]);
    const cookie = plain.headers.getSetCookie()[0]!.split(';')[0]!;
    const shown = await fetch(app.url + '/notice', { headers: { cookie } });
    expect([await shown.text(), shown.headers.getSetCookie()]).toEqual([
      '<p id="flash">Saved ✓</p>',
      ['pagetree-flash=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax'],
    ]);
    const changed = await fetch(app.url + '/notice', { headers: { cookie: cookie.replace('Saved', 'Paid') } });
    expect(await changed.text()).toBe('<p id="flash">none</p>');
    const none = await fetch(app.url + '/notice');
    expect([await none.text(), none.headers.getSetCookie()]).toEqual(['<p id="flash">none</p>', []]);
  });

  test('an embedded static file, as it is and decoded from gzip and br', async () => {
    const file = readFileSync(join(project, 'public/style.css'));
    // Asked for explicitly: Cloudflare (and wrangler dev) give a worker `Accept-Encoding: br, gzip` when none is sent.
    const plain = await rawGet(app.url + '/static/style.css', { 'accept-encoding': 'identity' });
    expect(plain.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['last-modified']).toBeUndefined();
    expect(plain.body.equals(file)).toBe(true);
    const gz = await rawGet(app.url + '/static/style.css', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).equals(file)).toBe(true);
    const br = await rawGet(app.url + '/static/style.css', { 'accept-encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body).equals(file)).toBe(true);
  });

  test("clientAddress: the runtime's remote address (Bun's server, Deno's info); workerd does not say", async () => {
    const res = await fetch(app.url + '/client');
    expect(await res.text()).toBe(name === 'workerd' ? '(unknown)' : '127.0.0.1');
  });

  test('a login: requireLogin sends a browser (303) and htmx (HX-Location) to /login with next', async () => {
    const browser = await fetch(app.url + '/account/', { redirect: 'manual' });
    expect([browser.status, browser.headers.get('location')]).toEqual([303, '/login?next=%2Faccount%2F']);
    // A fragment swapped into an element: htmx loads the login page whole, and comes back to the address bar's page.
    const htmx = await fetch(app.url + '/account/', {
      headers: { 'HX-Request': 'true', 'HX-Target': 'main', 'HX-Current-URL': app.url + '/account/?tab=keys' },
    });
    expect([htmx.status, htmx.headers.get('hx-location'), await htmx.text()]).toEqual([
      200,
      '/login?next=%2Faccount%2F%3Ftab%3Dkeys',
      '',
    ]);
    const form = await fetch(app.url + '/login?next=%2Faccount%2F');
    expect(form.status).toBe(200);
    expect(await form.text()).toContain('<form method="post" action="/login?next=%2Faccount%2F">');
  });

  test('a login: the right password (scrypt or PBKDF2 hash) gives a session cookie, a wrong one does not', async () => {
    const logIn = (user: string, password: string, next = '/account/') =>
      fetch(`${app.url}/login?${new URLSearchParams({ next })}`, {
        method: 'POST',
        body: new URLSearchParams({ name: user, password }),
        redirect: 'manual',
      });
    const wrong = await logIn('ada', 'bob-password');
    expect([wrong.status, wrong.headers.getSetCookie()]).toEqual([422, []]);
    expect(await wrong.text()).toContain('That name and password do not match');
    expect((await logIn('nobody', 'ada-password')).status).toBe(422);

    for (const [user, password] of [
      ['ada', 'ada-password'],
      ['bob', 'bob-password'],
    ] as const) {
      const res = await logIn(user, password);
      // One cookie, though regenerate() and set() each wrote it: the last one is sent.
      expect([user, res.status, res.headers.get('location'), res.headers.getSetCookie()]).toEqual([
        user,
        303,
        '/account/',
        [
          expect.stringMatching(
            /^pagetree-session=v1\.[A-Za-z0-9_-]{40,}; Max-Age=604800; Path=\/; HttpOnly; SameSite=Lax$/,
          ),
        ],
      ]);
      const cookie = res.headers.getSetCookie()[0]!.split(';')[0]!;
      const page = await fetch(app.url + '/account/', { headers: { cookie }, redirect: 'manual' });
      expect([page.status, await page.text()]).toEqual([200, `<p id="user">Logged in as ${user}</p>`]);
    }
    // next is followed only to a path of this site.
    const away = await logIn('ada', 'ada-password', 'https://evil.example/');
    expect([away.status, away.headers.get('location')]).toEqual([303, '/']);
  });

  test('a logout deletes the session cookie (a copy of it stays valid: no server store)', async () => {
    const login = await fetch(app.url + '/login?next=%2Faccount%2F', {
      method: 'POST',
      body: new URLSearchParams({ name: 'ada', password: 'ada-password' }),
      redirect: 'manual',
    });
    const cookie = login.headers.getSetCookie()[0]!.split(';')[0]!;
    const logout = await fetch(app.url + '/logout', { method: 'POST', headers: { cookie }, redirect: 'manual' });
    expect([logout.status, logout.headers.get('location'), logout.headers.getSetCookie()]).toEqual([
      303,
      '/',
      ['pagetree-session=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax'],
    ]);
    const after = await fetch(app.url + '/account/', { redirect: 'manual' });
    expect([after.status, after.headers.get('location')]).toEqual([303, '/login?next=%2Faccount%2F']);
    // As docs/auth.md says: without a store, the session is the cookie, and a copy taken before the logout still reads.
    const copy = await fetch(app.url + '/account/', { headers: { cookie }, redirect: 'manual' });
    expect(copy.status).toBe(200);
  });

  test('password hashes: scrypt made here, read on Node and on the runtimes before; theirs read here', async () => {
    const res = await fetch(app.url + '/hash', {
      method: 'POST',
      body: new URLSearchParams({ password: madePassword }),
    });
    const hash = await res.text();
    // Every runtime here has node:crypto's scrypt (workerd with nodejs_compat), so none falls back to PBKDF2.
    expect(hash).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(await verifyPassword(madePassword, hash)).toBe(true);
    for (const [where, other] of made) {
      for (const [password, want] of [
        [madePassword, 'true'],
        ['wrong', 'false'],
      ]) {
        const verified = await fetch(app.url + '/verify', {
          method: 'POST',
          body: new URLSearchParams({ password: password!, hash: other }),
        });
        expect([where, password, await verified.text()]).toEqual([where, password, want]);
      }
    }
    made.push([name, hash]);
  });

  // pagetree/bun's and pagetree/deno's serve open sockets; workerd's mux.fetch answers 501 (pagetree/cloudflare).
  if (name === 'workerd') return;
  describe('a socket route', () => {
    const url = (path: string) => app.url.replace('http:', 'ws:') + path;
    const say = async (text: string) =>
      (await fetch(app.url + '/chat/say', { method: 'POST', body: new URLSearchParams({ text }) })).text();

    test('opens with its first message, and answers a valid and an invalid message (htmx 4 and htmx 2)', async () => {
      const client = await connect(url('/chat'));
      expect(await client.nth(1)).toBe('<ul id="chat-log"></ul>');
      client.ws.send(htmx4({ text: ' hello ' }));
      expect(await client.nth(2)).toMatch(/^<li>hello<\/li><div id="chat-count" hx-swap-oob="innerHTML">\d+<\/div>$/);
      client.ws.send(htmx2({ text: ' ' }));
      expect(await client.nth(3)).toBe('<div id="chat-error" hx-swap-oob="innerHTML"><em>Write something</em></div>');
      client.ws.close();
      await client.closed;
    });

    test('one POST to the hub: two sockets get the same bytes', async () => {
      const [a, b] = await Promise.all([connect(url('/chat')), connect(url('/chat'))]);
      await Promise.all([a.nth(1), b.nth(1)]);
      expect(await say('to all ✓')).toBe('2');
      expect([await a.nth(2), await b.nth(2)]).toEqual(['<li>to all ✓</li>', '<li>to all ✓</li>']);
      a.ws.close();
      b.ws.close();
      await Promise.all([a.closed, b.closed]);
    });

    test("another site's page cannot open it: 403", async () => {
      await expect(connect(url('/chat'), { origin: 'https://evil.example' })).rejects.toThrow(
        'Unexpected server response: 403',
      );
    });

    test.each([
      { why: 'over maxMessage (1024 bytes)', data: 'x'.repeat(1025), code: 1009 },
      { why: 'over it in UTF-8 (513 characters, 1026 bytes)', data: 'é'.repeat(513), code: 1009 },
      { why: 'far over it (1 MiB)', data: 'x'.repeat(1 << 20), code: 1009 },
      { why: 'binary', data: Buffer.from([1, 2, 3]), code: 1003 },
    ])('a message $why closes the socket with $code', async ({ data, code }) => {
      const client = await connect(url('/chat'));
      await client.nth(1);
      client.ws.send(data);
      expect((await client.closed).code).toBe(code);
    });

    test('a client that never reads is closed with 1013; the server goes on', async () => {
      const slow = await connect(url('/chat'));
      await slow.nth(1);
      slow.ws.pause(); // reads nothing more: what the server sends waits in its queue
      let reached = '1';
      for (let i = 0; i < 200 && reached !== '0'; i++) reached = await say('x'.repeat(256 * 1024));
      expect(reached).toBe('0'); // the slow socket left the hub: closed, its queue dropped
      slow.ws.resume();
      expect((await slow.closed).code).toBe(1013);
      expect((await fetch(app.url + '/')).status).toBe(200);
    });

    test('a client that leaves in the middle of a frame: the server goes on', async () => {
      const socket = netConnect(Number(new URL(app.url).port), '127.0.0.1');
      await once(socket, 'connect');
      socket.write(
        'GET /chat HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
          'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
      );
      const [head] = (await once(socket, 'data')) as [Buffer];
      expect(head.toString()).toMatch(/^HTTP\/1\.1 101 /);
      // A masked text frame that announces 1000 bytes, then 10 of them, then the client is gone.
      socket.write(Buffer.concat([Buffer.from([0x81, 0xfe, 0x03, 0xe8, 1, 2, 3, 4]), Buffer.alloc(10, 0x61)]));
      socket.destroy();
      const client = await connect(url('/chat'));
      expect(await client.nth(1)).toBe('<ul id="chat-log"></ul>');
      client.ws.close();
      await client.closed;
    });

    // Last of this runtime's tests: the process stops.
    test('the stop (SIGTERM: server.stop(), server.shutdown()) closes every socket with 1012', async () => {
      const [a, b] = await Promise.all([connect(url('/chat')), connect(url('/chat'))]);
      await Promise.all([a.nth(1), b.nth(1)]);
      const stopped = app.stop();
      expect([await a.closed, await b.closed]).toEqual([
        { code: 1012, reason: 'server shutting down' },
        { code: 1012, reason: 'server shutting down' },
      ]);
      await stopped;
      expect(app.child.exitCode).toBe(0);
    });
  });
});
