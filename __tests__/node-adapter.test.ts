import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, request as httpRequest, Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import path from 'node:path';
import { eventStream, ServeMux } from '../core/index.ts';
import { shutdown, toNodeListener } from '../core/node/index.ts';
import {
  onShutdown as deprecatedOnShutdown,
  serve,
  shutdown as deprecatedShutdown,
  type NodeServer,
  type ServeOptions,
} from 'pagetree/node';
import { liteResponse } from '../core/kernel/answer.ts';
import { adminCookie, openStream, raw, send as get } from './support/node-http.ts';
import { serveProcess } from './support/package.ts';

const mux = new ServeMux();
mux.handleFunc('GET /users/{id}', (req) => new Response(`user ${req.pathValue('id')} via ${req.pattern}`));
mux.handleFunc('GET /lite-touched', () => {
  const res = liteResponse(200, '<p>é</p>', { 'content-type': 'text/html; charset=utf-8' });
  res.headers.set('x-added', 'yes'); // as a middleware would
  res.headers.append('set-cookie', 'a=1');
  res.headers.append('set-cookie', 'b=2');
  return res;
});
mux.handleFunc('GET /lazy', (req) => {
  const facts = [req instanceof Request, req.method, req.url, req.headers.get('x-test'), req.headers.has('x-none')];
  return new Response(JSON.stringify(facts), { headers: { 'content-type': 'application/json' } });
});
mux.handleFunc('POST /echo', async (req) =>
  Response.json({ got: await req.json(), type: req.headers.get('content-type') }),
);
mux.handleFunc('POST /form', async (req) => new Response((await req.formData()).get('title') as string));
mux.handleFunc('GET /throws', () => {
  throw new Error('secret stack detail');
});
mux.handleFunc('GET /rejects', async () => Promise.reject(new Error('secret rejection')));
mux.handleFunc('GET /not-a-response', () => 'oops' as unknown as Response);
mux.handleFunc('GET /cookies', () => {
  const headers = new Headers();
  headers.append('set-cookie', 'a=1');
  headers.append('set-cookie', 'b=2');
  return new Response('ok', { headers });
});
let slowRelease: () => void = () => {};
mux.handleFunc('GET /slow', () => new Promise((resolve) => (slowRelease = () => resolve(new Response('finished')))));
mux.handleFunc('GET /stream', (req) => {
  let n = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      await new Promise((r) => setTimeout(r, 5));
      controller.enqueue(new TextEncoder().encode(`chunk ${n++}\n`));
      if (n > 40 || req.signal.aborted) controller.close();
    },
  });
  return new Response(body);
});

let server: Server;
let port: number;
beforeAll(async () => {
  server = createServer(toNodeListener(mux));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await shutdown(server, 1000);
});

beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => {}));
afterEach(() => jest.restoreAllMocks());

test('serves a matched pattern with its path values', async () => {
  const r = await get(port, '/users/a%20b');
  expect(r).toMatchObject({ status: 200, body: 'user a b via GET /users/{id}' });
});

test('a lite response is written with content-length', async () => {
  const r = await get(port, '/nowhere');
  expect(r.status).toBe(404);
  expect(r.body).toBe('404 page not found\n');
  expect(r.headers['content-length']).toBe('19');
  expect(r.headers['content-type']).toBe('text/plain; charset=utf-8');
});

test('a lite response whose headers a middleware touched is still written whole', async () => {
  const r = await get(port, '/lite-touched');
  expect(r.body).toBe('<p>é</p>');
  expect(r.headers['x-added']).toBe('yes');
  expect(r.headers['set-cookie']).toEqual(['a=1', 'b=2']);
  expect(r.headers['content-length']).toBe('9');
  expect(r.headers['transfer-encoding']).toBeUndefined();
});

test('the lazy request answers as a Request', async () => {
  const r = await get(port, '/lazy?q=1', { headers: { 'x-test': 'yes' } });
  expect(JSON.parse(r.body)).toEqual([true, 'GET', `http://127.0.0.1:${port}/lazy?q=1`, 'yes', false]);
});

test('request bodies are read through the Request API', async () => {
  const json = await get(port, '/echo', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"a":[1]}',
  });
  expect(JSON.parse(json.body)).toEqual({ got: { a: [1] }, type: 'application/json' });
  const form = await get(port, '/form', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'title=%3Cb%3Ehi',
  });
  expect(form.body).toBe('<b>hi');
});

test('HEAD gets the headers of GET and no body', async () => {
  const r = await get(port, '/users/1', { method: 'HEAD' });
  expect(r.status).toBe(200);
  expect(r.body).toBe('');
});

test.each([
  ['throws', '/throws'],
  ['rejects', '/rejects'],
  ['returns a non-Response', '/not-a-response'],
])('a handler that %s gets a 500 without detail, and the server keeps serving', async (_, p) => {
  const r = await get(port, p);
  expect(r.status).toBe(500);
  expect(r.body).toBe('Internal Server Error\n');
  expect(r.headers['x-content-type-options']).toBe('nosniff');
  expect(console.error).toHaveBeenCalled();
  expect((await get(port, '/users/2')).status).toBe(200);
});

test('several set-cookie headers survive', async () => {
  const r = await get(port, '/cookies');
  expect(r.headers['set-cookie']).toEqual(['a=1', 'b=2']);
});

test('a streamed response arrives whole', async () => {
  const r = await get(port, '/stream');
  expect(r.body.split('\n')).toHaveLength(42);
});

test('malformed percent-encoding is routed, not crashed on', async () => {
  expect((await get(port, '/users/%zz')).body).toBe('user %zz via GET /users/{id}');
  expect((await get(port, '/users/%E0%A4%A')).status).toBe(200);
  expect((await get(port, '/%')).status).toBe(404);
});

test('malformed requests get a clean 4xx', async () => {
  expect(await raw(port, 'GET /users/1 HTTP/1.1\r\nHost: a b\r\n\r\n')).toMatch(/^HTTP\/1\.1 400 /);
  // "*" is a target for OPTIONS only (which the server answers, as Go's: issue 40); the mux answers 400 to any other.
  expect(await raw(port, 'GET * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).toMatch(/^HTTP\/1\.1 400 /);
  expect(await raw(port, 'GET /\u0001 HTTP/1.1\r\n\r\n')).toMatch(/^HTTP\/1\.1 400 /);
  const huge = `GET /users/1 HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`;
  expect(await raw(port, huge)).toMatch(/^HTTP\/1\.1 431 /);
  expect((await get(port, '/users/3')).status).toBe(200);
});

test('a client that disconnects mid-response does not hurt the server', async () => {
  await new Promise<void>((resolve) => {
    const req = httpRequest({ host: '127.0.0.1', port, path: '/stream' }, (res) => {
      res.once('data', () => {
        req.destroy();
        setTimeout(resolve, 50);
      });
    });
    req.on('error', () => {});
    req.end();
  });
  expect((await get(port, '/users/4')).body).toBe('user 4 via GET /users/{id}');
});

test('shutdown lets an in-flight request finish, then closes', async () => {
  const s = createServer(toNodeListener(mux));
  s.listen(0, '127.0.0.1');
  await once(s, 'listening');
  const p = (s.address() as AddressInfo).port;
  const inFlight = get(p, '/slow');
  await new Promise((r) => setTimeout(r, 50));
  let closed = false;
  const done = shutdown(s, 5000).then(() => (closed = true));
  await new Promise((r) => setTimeout(r, 50));
  expect(closed).toBe(false);
  await expect(get(p, '/users/1')).rejects.toThrow(); // no longer accepting
  slowRelease();
  expect((await inFlight).body).toBe('finished');
  await done;
  expect(closed).toBe(true);
});

// A process that serves "up" on / with serve(mux, options), waited for until it prints its URL.
function serveUp(options: string, env: NodeJS.ProcessEnv = {}) {
  const script = `
    const { ServeMux } = require('./core');
    const { serve } = require('./core/node');
    const mux = new ServeMux();
    mux.handleFunc('/{$}', () => new Response('up'));
    serve(mux, ${options});
  `;
  return serveProcess(process.execPath, ['--import', 'tsx', '-e', script], path.join(__dirname, '..'), env);
}

test('PORT=0 picks a free port, as port: 0 does; a PORT that is no port number is an error', async () => {
  const app = await serveUp("{ hostname: '127.0.0.1' }", { PORT: '0' });
  expect(app.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  expect(app.url).not.toBe('http://127.0.0.1:3000');
  expect(await (await fetch(app.url + '/')).text()).toBe('up');
  await app.stop();
  await expect(serveUp("{ hostname: '127.0.0.1' }", { PORT: 'http' })).rejects.toThrow(
    'serve(): PORT="http" is not a port number; set it to 0–65535 or unset it',
  );
}, 20_000);

test('serve prints its URL and exits cleanly on SIGTERM', async () => {
  const app = await serveUp("{ port: 0, hostname: '127.0.0.1' }");
  expect(app.output()).toContain(`pagetree: listening on ${app.url}`);
  expect(await (await fetch(app.url + '/')).text()).toBe('up');
  await app.stop(); // SIGTERM
  expect([app.child.exitCode, app.child.signalCode]).toEqual([0, null]);
}, 20_000);

// Issue 24: with event streams open, SIGTERM waited the whole 10 s shutdownTimeout. The example app, as `npm start`
// runs it, with 50 dashboards open: it exits as soon as its other requests are done, and each stream ends cleanly.
test('sigterm-with-open-event-streams-exits-at-once', async () => {
  const data = mkdtempSync(path.join(tmpdir(), 'pagetree-sigterm-'));
  const app = await serveProcess(
    process.execPath,
    ['--import', 'tsx', 'pages-example/main.ts'],
    path.join(__dirname, '..'),
    { PORT: '0', DATABASE_PATH: path.join(data, 'tasks.db'), ADMIN_PASSWORD: 'sigterm-test', ADMIN_EMAIL: 'a@b.c' },
  );
  const port = Number(new URL(app.url).port);
  const cookie = await adminCookie(app.url, 'a@b.c', 'sigterm-test');
  const ends = await Promise.all(
    Array.from({ length: 50 }, () => openStream(port, '/admin/events', { 'hx-request': 'true', cookie })),
  );
  const started = performance.now();
  await app.stop(); // SIGTERM
  expect(performance.now() - started).toBeLessThan(4000); // 10 s and more before
  expect([app.child.exitCode, app.child.signalCode]).toEqual([0, null]);
  expect(await Promise.all(ends.map((e) => e.ended))).toEqual(Array(50).fill('end'));
}, 30_000);

// Issue 42: serve() returns a server that owns its shutdown, as Go's http.Server (`Shutdown`, `RegisterOnShutdown`),
// through the public entry. The free functions shutdown(server) and onShutdown(server, fn) stay for a minor version.
describe('the server serve() returns', () => {
  const app = new ServeMux();
  let release: () => void = () => {};
  let arrived: () => void = () => {};
  app.handleFunc(
    'GET /slow',
    () =>
      new Promise<Response>((resolve) => {
        release = () => resolve(new Response('finished'));
        arrived();
      }),
  );
  app.handleFunc('GET /ok', () => new Response('ok'));
  const cleanups: string[] = [];
  app.handleFunc('GET /events', (req) => eventStream(req, () => () => void cleanups.push('cleanup')));

  async function started(options: ServeOptions = {}): Promise<NodeServer> {
    const server = serve(app, { port: 0, hostname: '127.0.0.1', handleSignals: false, onListen: () => {}, ...options });
    await once(server, 'listening');
    return server;
  }
  const portOf = (s: Server) => (s.address() as AddressInfo).port;

  beforeEach(() => void cleanups.splice(0));

  test("is node's http.Server, with shutdown() and onShutdown() of its own", async () => {
    const server = await started();
    expect(server).toBeInstanceOf(Server);
    expect((await get(portOf(server), '/ok')).body).toBe('ok');
    await server.shutdown();
    expect(server.listening).toBe(false);
  });

  test('server-shutdown-drains-in-flight-requests: the answer goes out with Connection: close, then it resolves', async () => {
    const server = await started();
    const port = portOf(server);
    const inFlight = get(port, '/slow');
    await new Promise<void>((resolve) => (arrived = resolve));
    const done = server.shutdown({ timeout: 60_000 });
    await expect(get(port, '/ok')).rejects.toThrow(); // no longer accepting
    release();
    expect(await inFlight).toMatchObject({ status: 200, body: 'finished', headers: { connection: 'close' } });
    await done; // without the drain, the 60 s timeout: jest's own would fail the test first
  });

  test('server-shutdown-closes-idle-keep-alive-sockets', async () => {
    const server = await started();
    const socket = connect(portOf(server), '127.0.0.1');
    socket.setEncoding('latin1');
    let answer = '';
    socket.on('data', (c: string) => (answer += c));
    const closed = once(socket, 'close');
    socket.write('GET /ok HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await new Promise<void>((resolve) => socket.on('data', () => answer.endsWith('\r\n0\r\n\r\n') && resolve()));
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\nConnection: keep-alive\r\n/); // answered: idle, kept
    await server.shutdown({ timeout: 60_000 });
    await closed;
  });

  test('server-shutdown-ends-event-streams-and-runs-its-hooks-once', async () => {
    const server = await started();
    const stream = await openStream(portOf(server), '/events');
    const hooks: string[] = [];
    server.onShutdown(() => hooks.push('first'));
    const remove = server.onShutdown(() => hooks.push('removed'));
    remove();
    const first = server.shutdown({ timeout: 60_000 });
    const again = server.shutdown({ timeout: 60_000 }); // the hooks do not run twice
    server.onShutdown(() => hooks.push('during')); // registered during the shutdown: runs at once
    await Promise.all([first, again]);
    expect(await stream.ended).toBe('end');
    expect([cleanups, hooks]).toEqual([['cleanup'], ['first', 'during']]);
  });

  test("a hook that throws is reported through serve's logger, and the other hooks still run", async () => {
    const errors: unknown[] = [];
    const server = await started({ logger: { error: (message, err) => errors.push(message, err), warn: () => {} } });
    const hooks: string[] = [];
    server.onShutdown(() => {
      throw new Error('the job would not stop');
    });
    server.onShutdown(() => hooks.push('second'));
    await server.shutdown({ timeout: 1000 });
    expect([errors, hooks]).toEqual([
      ['pagetree: an onShutdown hook failed:', new Error('the job would not stop')],
      ['second'],
    ]);
  });

  test('deprecated-shutdown-and-onShutdown-still-work: on the server serve() returns, and on a server of your own', async () => {
    const server = await started();
    const hooks: string[] = [];
    deprecatedOnShutdown(server, () => hooks.push('free'));
    server.onShutdown(() => hooks.push('method'));
    const stream = await openStream(portOf(server), '/events');
    await deprecatedShutdown(server, 60_000);
    expect([await stream.ended, hooks, server.listening]).toEqual(['end', ['free', 'method'], false]);

    const own = createServer(toNodeListener(app));
    own.listen(0, '127.0.0.1');
    await once(own, 'listening');
    const remove = deprecatedOnShutdown(own, () => hooks.push('own'));
    const ownStream = await openStream(portOf(own), '/events');
    await deprecatedShutdown(own, 60_000);
    expect(remove).toBeInstanceOf(Function);
    expect([await ownStream.ended, hooks, own.listening]).toEqual(['end', ['free', 'method', 'own'], false]);
    expect(cleanups).toEqual(['cleanup', 'cleanup']);
  });
});
