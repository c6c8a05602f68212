// Hardening (issue 12): what an outside probe broke, each test named after it,
// through a real node:http server started by `serve` where the defect is HTTP-level.

import { once } from 'node:events';
import { Agent, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  HttpError,
  ServeMux,
  crossOriginProtection,
  mount,
  route,
  staticFiles,
  type PageRequest,
} from '../core/index.ts';
import { serve, shutdown, type ServeOptions } from '../core/node/index.ts';
import { raw, send } from './support/node-http.ts';

const writes: string[] = [];
const assets = mkdtempSync(join(tmpdir(), 'pagetree-hardening-'));
writeFileSync(join(assets, 'app.css'), '.rule { margin: 0; }\n'.repeat(100));
const aborts: string[] = [];

class Files {
  serveHTTP(req: PageRequest) {
    return new Response(`${req.pathValue('path').length}`);
  }
}
class Task {
  props(req: PageRequest): never {
    throw new HttpError(404, `No task ${req.pathValue('id')}`);
  }
  page() {
    return <p>never</p>;
  }
}
// Saves the posted title unless the request was aborted meanwhile (what docs/errors-and-middleware.md asks).
class AddTask {
  async props(req: PageRequest) {
    const form = await req.formData();
    req.signal.throwIfAborted();
    writes.push(String(form.get('title')));
    return {};
  }
  page() {
    return <p>saved</p>;
  }
}
class WaitsForAbort {
  async props(req: PageRequest) {
    const reason = await new Promise<unknown>((resolve) =>
      req.signal.addEventListener('abort', () => resolve(req.signal.reason), { once: true }),
    );
    aborts.push((reason as Error).name);
    return {};
  }
  page() {
    return <p>never</p>;
  }
}
class ReadsJson {
  async props(req: PageRequest) {
    return { got: JSON.stringify(await req.json()) };
  }
  page(props: { got: string }) {
    return <p safe>{props.got}</p>;
  }
}
class IgnoresBody {
  page() {
    return <p>ignored</p>;
  }
}
class Slow {
  async props() {
    await new Promise((r) => setTimeout(r, 150));
    return {};
  }
  page() {
    return <p>slow</p>;
  }
}
class Bare404 {
  serveHTTP() {
    return new Response('gone', { status: 404 });
  }
}
class Ok {
  page() {
    return <p>ok</p>;
  }
}
// Several components, so that an HX-Target is matched against each (render-target.ts).
class Tasks {
  page() {
    return <main>{this.taskList()}</main>;
  }
  taskList() {
    return <ul></ul>;
  }
  openCount() {
    return <span>0</span>;
  }
}
class App {
  files = route('GET /files/{path...}', Files);
  task = route('GET /tasks/{id}', Task);
  add = route('POST /add', AddTask);
  waits = route('/waits', WaitsForAbort);
  json = route('POST /json', ReadsJson);
  ignores = route('POST /ignores', IgnoresBody);
  slow = route('GET /slow', Slow);
  bare = route('GET /bare', Bare404);
  ok = route('GET /ok', Ok);
  tasks = route('GET /tasks', Tasks);
  assets = route('GET /static/{path...}', staticFiles(assets));
}

function appMux(): ServeMux {
  const mux = new ServeMux();
  mount(mux, App, '/', '', { timeout: 150, middlewares: [crossOriginProtection()] });
  return mux;
}

async function start(options: ServeOptions = {}): Promise<{ server: Server; port: number }> {
  const server = serve(appMux(), {
    port: 0,
    hostname: '127.0.0.1',
    handleSignals: false,
    onListen: () => {},
    ...options,
  });
  await once(server, 'listening');
  return { server, port: (server.address() as AddressInfo).port };
}

let server: Server;
let port: number;
beforeAll(async () => ({ server, port } = await start({ maxBodySize: 64 * 1024 })));
afterAll(() => shutdown(server, 1000));
beforeEach(() => {
  jest.spyOn(console, 'error').mockImplementation(() => {});
  jest.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => jest.restoreAllMocks());

interface Exchange {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

// Sends the head of a request with a body, then the body parts with a pause
// before each; resolves with the answer once the server has closed the socket.
function sendSlowly(head: string, parts: string[], pause: number): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(port, '127.0.0.1', async () => {
      socket.write(head);
      for (const part of parts) {
        await new Promise((r) => setTimeout(r, pause));
        if (socket.destroyed || socket.writableEnded) return;
        socket.write(part);
      }
    });
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (c: string) => (text += c));
    socket.on('error', () => {}); // a write after the server closed; the answer was read before
    socket.on('close', () => {
      const m = /^HTTP\/1\.1 (\d+)[^\r]*\r\n([\s\S]*?)\r\n\r\n([\s\S]*)$/.exec(text);
      if (!m) return reject(new Error(`no answer: ${JSON.stringify(text)}`));
      const headers: IncomingHttpHeaders = {};
      for (const line of m[2]!.split('\r\n')) {
        const i = line.indexOf(':');
        headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
      }
      resolve({ status: Number(m[1]), headers, body: m[3]! });
    });
  });
}

describe('percent-decoding-is-linear', () => {
  // ~15 KB request targets that made the old decoder (or another per-request loop) quadratic.
  test.each([
    ['one segment of invalid bytes', '/files/' + '%ff'.repeat(5000), 200, '15000'],
    ['many segments of invalid bytes', '/files/' + '%ff/'.repeat(3700) + 'x', 200, String(3700 * 4 + 1)],
    ['valid and invalid bytes interleaved', '/files/' + '%C3%A9%ff'.repeat(1650), 200, String(1650 * 4)],
    ['a path to clean, with escapes', '/files/' + 'a/../%ff/'.repeat(1500), 307, ''],
    ['a miss', '/' + '%ff%E2%82'.repeat(1600), 404, '404 page not found\n'],
  ])('%s: answered well inside a second', async (_, path, status, body) => {
    const started = performance.now();
    const r = await send(port, path);
    // A guard against the minutes the old decoder took (2,000 × "%ff": ~80 s), not a benchmark.
    expect(performance.now() - started).toBeLessThan(1000);
    expect(r.status).toBe(status);
    if (status !== 307) expect(r.body).toBe(body);
    else expect(r.headers.location).toBe('/files' + '/%ff'.repeat(1500) + '/');
  });
});

describe('per-request-loops-are-linear', () => {
  // Other loops over what a client sends, each given ~8-15 KB of its worst shape.
  test.each<[string, string, Record<string, string>, number]>([
    ['an HX-Target of many hyphens', '/tasks', { 'HX-Request': 'true', 'HX-Target': 'a-'.repeat(7000) + 'list' }, 200],
    ['a long Accept-Encoding', '/static/app.css', { 'Accept-Encoding': 'gzip;q=0.5, '.repeat(900) + 'br' }, 200],
    ['a Range of many ranges', '/static/app.css', { Range: 'bytes=' + '0-1,'.repeat(2500) + '2-3' }, 200],
    ['a Range of long numbers', '/static/app.css', { Range: 'bytes=' + '9'.repeat(12000) + '-' }, 416],
    ['a long If-None-Match list', '/static/app.css', { 'If-None-Match': '"x", '.repeat(2500) + '"y"' }, 200],
    ['a long Origin on a POST', '/add', { Origin: 'http://' + 'a'.repeat(12000), 'Content-Type': 'text/plain' }, 403],
  ])('%s: answered well inside a second', async (_, path, headers, status) => {
    const started = performance.now();
    const r = await send(port, path, { method: path === '/add' ? 'POST' : 'GET', headers });
    expect(performance.now() - started).toBeLessThan(1000);
    expect(r.status).toBe(status);
  });
});

test('error-message-is-html-escaped: an HttpError carrying user input is safe to swap as HTML', async () => {
  const r = await send(port, '/tasks/%3Cimg%20src%3Dx%20onerror%3D%22alert(1)%22%3E', {
    headers: { 'HX-Request': 'true', 'HX-Request-Type': 'partial', 'HX-Target': 'main#main' },
  });
  expect(r.status).toBe(404);
  expect(r.body).toBe('No task &lt;img src=x onerror=&#34;alert(1)&#34;&gt;\n');
  expect(r.headers['content-type']).toBe('text/plain; charset=utf-8');
  expect(r.headers['x-content-type-options']).toBe('nosniff');
});

describe('timed-out-request-is-aborted', () => {
  test('a POST whose body arrives after the timeout writes nothing, and its 503 says no Retry-After', async () => {
    writes.length = 0;
    const body = 'title=late+task';
    const head = `POST /add HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n`;
    const r = await sendSlowly(head, [body.slice(0, 6), body.slice(6)], 250);
    expect(r.status).toBe(503);
    expect(r.headers['retry-after']).toBeUndefined();
    // The body was not read: the connection closes with the answer.
    expect(r.headers.connection).toBe('close');
    await new Promise((r) => setTimeout(r, 100)); // the page had every chance to write
    expect(writes).toEqual([]);
  });

  test('the page sees req.signal abort with a TimeoutError', async () => {
    aborts.length = 0;
    const r = await send(port, '/waits');
    expect([r.status, r.headers['retry-after']]).toEqual([503, '1']); // a safe method may be retried
    await new Promise((r) => setTimeout(r, 20));
    expect(aborts).toEqual(['TimeoutError']);
  });

  test('through mux.fetch (any runtime) the signal aborts as well', async () => {
    aborts.length = 0;
    const res = await appMux().fetch(new Request('http://x/waits', { method: 'DELETE' }));
    expect([res.status, res.headers.get('retry-after')]).toEqual([503, null]);
    await new Promise((r) => setTimeout(r, 20));
    expect(aborts).toEqual(['TimeoutError']);
  });

  test('a POST that answers in time is saved', async () => {
    writes.length = 0;
    const r = await send(port, '/add', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'title=on+time',
    });
    expect([r.status, r.body, writes]).toEqual([200, '<p>saved</p>', ['on time']]);
  });
});

describe('server-limits', () => {
  test('serve() sets header and request timeouts by default and returns the node server', async () => {
    const { server: s } = await start();
    expect([s.headersTimeout, s.requestTimeout, s.keepAliveTimeout]).toEqual([15_000, 60_000, 5_000]);
    await shutdown(s, 100);
    const { server: tuned } = await start({ headersTimeout: 2_000, requestTimeout: 3_000, maxConnections: 7 });
    expect([tuned.headersTimeout, tuned.requestTimeout, tuned.maxConnections]).toEqual([2_000, 3_000, 7]);
    await shutdown(tuned, 100);
  });

  test('a client that never finishes its headers is cut off (408)', async () => {
    const { server: s, port: p } = await start({ headersTimeout: 200, requestTimeout: 400 });
    const started = performance.now();
    const answer = await new Promise<string>((resolve) => {
      const socket = connect(p, '127.0.0.1', () => socket.write('GET /ok HTTP/1.1\r\nHost: x\r\n'));
      let out = '';
      socket.setEncoding('latin1');
      socket.on('data', (c: string) => (out += c));
      socket.on('close', () => resolve(out));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(performance.now() - started).toBeLessThan(3_000);
    await shutdown(s, 100);
  });

  test('an answer sent before a large body was read closes the connection', async () => {
    const head = 'POST /ignores HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 1000000\r\n\r\n';
    const r = await sendSlowly(head, ['x'.repeat(1000), 'x'.repeat(1000)], 100);
    expect([r.status, r.body, r.headers.connection]).toEqual([200, '<p>ignored</p>', 'close']);
  });

  test('an unread body of up to 256 KiB is discarded and the connection kept, as Go does', async () => {
    const r = await send(port, '/ignores', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'x'.repeat(1000),
    });
    expect([r.status, r.headers.connection]).toEqual([200, 'keep-alive']);
  });

  test('a GET without a body keeps its connection alive', async () => {
    const r = await send(port, '/ok');
    expect(r.headers.connection).toBe('keep-alive');
  });
});

describe('bad-body-is-a-4xx', () => {
  const form = (headers: Record<string, string>, body: string) => ({ method: 'POST', headers, body });
  test.each([
    ['JSON to a form page', 415, '/add', form({ 'content-type': 'application/json' }, '{"title":"x"}')],
    ['no Content-Type and no body', 400, '/add', { method: 'POST' }],
    [
      'a truncated multipart body',
      400,
      '/add',
      form({ 'content-type': 'multipart/form-data; boundary=XX' }, '--XX\r\nContent-Disposition: form-data; name="ti'),
    ],
    ['a body that is not JSON', 400, '/json', form({ 'content-type': 'application/json' }, '{"title":')],
  ])('%s → %i, one line in the log', async (_, status, path, init) => {
    const r = await send(port, path, init);
    expect(r.status).toBe(status);
    expect(r.body).toMatch(status === 415 ? /^Unsupported Media Type: / : /^Bad Request: /);
    expect(console.error).not.toHaveBeenCalled();
    const warn = console.warn as jest.Mock;
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]).toHaveLength(1);
    expect(warn.mock.calls[0][0]).toMatch(new RegExp(`^pagetree: POST http://127\\.0\\.0\\.1:\\d+${path}: ${status} `));
    expect(warn.mock.calls[0][0]).not.toMatch(/\n/);
  });

  test('through mux.fetch (any runtime) as well', async () => {
    const res = await appMux().fetch(
      new Request('http://x/add', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }),
    );
    expect(res.status).toBe(415);
    const bad = await appMux().fetch(
      new Request('http://x/json', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' }),
    );
    expect([bad.status, await bad.text()]).toEqual([400, 'Bad Request: the body is not valid JSON\n']);
  });

  test('a good JSON body is read', async () => {
    const r = await send(port, '/json', form({ 'content-type': 'application/json' }, '{"a":1}'));
    expect([r.status, r.body]).toEqual([200, '<p>{&#34;a&#34;:1}</p>']);
  });
});

test('shutdown-closes-keep-alive-connections: answers during shutdown say Connection: close, nobody is reset', async () => {
  const { server: s, port: p } = await start();
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  const get = (path: string) =>
    new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port: p, path, agent }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection }));
      });
      req.on('error', reject);
      req.end();
    });
  // Warm keep-alive connections, then shut down while requests are in flight.
  expect((await Promise.all([get('/ok'), get('/ok')])).map((r) => r.connection)).toEqual(['keep-alive', 'keep-alive']);
  const inFlight = [get('/slow'), get('/slow'), get('/slow')];
  await new Promise((r) => setTimeout(r, 50));
  const done = shutdown(s, 2_000);
  const answers = await Promise.all(inFlight);
  expect(answers).toEqual(Array(3).fill({ status: 200, connection: 'close' }));
  await done;
  agent.destroy();
});

test('repeated-host-header-is-a-400', async () => {
  const answer = await raw(port, 'GET /ok HTTP/1.1\r\nHost: a.example\r\nHost: b.example\r\nConnection: close\r\n\r\n');
  expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
  expect(answer).toMatch(/\r\n\r\nBad Request: too many Host headers\n$/);
});

test('response-without-status-text-gets-the-standard-phrase', async () => {
  const answer = await raw(port, 'GET /bare HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  expect(answer).toMatch(/^HTTP\/1\.1 404 Not Found\r\n/);
});
