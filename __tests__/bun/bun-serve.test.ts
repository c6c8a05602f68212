// pagetree/bun's serve(mux) on the real Bun (1.4.5, from the npm registry as the runtime tests get it): the app in
// server.tsx answers as mux.fetch would, a synchronous page and one that waits, HEAD without a body, a handler that
// throws with a bare 500, and clientAddress from Bun's server. Its socket routes (issue 44) over a raw client (ws):
// messages both ways, a hub, the Origin check, each limit with its close code, clients that stop reading or leave
// mid-frame, and server.stop() closing the sockets with 1012.

import { once } from 'node:events';
import { join } from 'node:path';
import { request } from 'node:http';
import { connect as netConnect } from 'node:net';
import { connect } from '../websockets/support.ts';
import { repoRoot, serveProcess, toolPackage, type Served } from '../support/package.ts';
import * as bunEntry from '../../core/bun/index.ts';
import { serve } from '../../core/bun/index.ts';
import { mount, route, ServeMux } from '../../core/index.ts';

jest.setTimeout(120_000);

let app: Served;

beforeAll(async () => {
  const bun = join(toolPackage('bun', '1.4.5'), '../.bin/bun');
  app = await serveProcess(bun, [join(__dirname, 'server.tsx')], repoRoot);
});

afterAll(() => app?.stop());

/** One request on a fresh connection, the answer as the client sees it. */
function send(method: string, path: string): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    request(`${app.url}${path}`, { method, agent: false }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, type: String(res.headers['content-type']), body }));
    })
      .on('error', reject)
      .end();
  });
}

test.each([
  { method: 'GET', path: '/items/pen', status: 200, type: 'text/html; charset=utf-8', body: '<p>item pen</p>' },
  { method: 'GET', path: '/slow', status: 200, type: 'text/html; charset=utf-8', body: '<p>later</p>' },
  { method: 'HEAD', path: '/items/pen', status: 200, type: 'text/html; charset=utf-8', body: '' },
  { method: 'GET', path: '/who', status: 200, type: 'text/plain;charset=utf-8', body: '127.0.0.1' },
  { method: 'GET', path: '/throws', status: 500, type: 'text/plain; charset=utf-8', body: 'Internal Server Error\n' },
  { method: 'GET', path: '/nowhere', status: 404, type: 'text/plain; charset=utf-8', body: '404 page not found\n' },
  { method: 'POST', path: '/slow', status: 405, type: 'text/plain; charset=utf-8', body: 'Method Not Allowed\n' },
])('serve(mux) on Bun: $method $path → $status', async ({ method, path, status, type, body }) => {
  expect(await send(method, path)).toEqual({ status, type, body });
});

test("serve(mux) on Bun: a handler's failure is logged by the mux's logger", async () => {
  await send('GET', '/throws');
  expect(app.output()).toContain('logged: pagetree: handler for GET http://127.0.0.1');
});

test('serve(mux) outside Bun says so and what to use instead', () => {
  expect(() => serve(new ServeMux())).toThrow(
    "pagetree/bun serve(): Bun.serve is missing, so this is not Bun; run the app with bun, or serve it with pagetree/node's serve",
  );
});

test('serve(mux, { websocket }) is refused: serve opens the socket routes itself', () => {
  const bun = { serve: jest.fn() };
  Object.assign(globalThis, { Bun: bun });
  try {
    expect(() => serve(new ServeMux(), { websocket: { message() {} } })).toThrow(
      'pagetree/bun serve(mux, options): options.websocket is given, but serve opens the WebSockets of socket routes ' +
        "itself; drop it (a route's limits are its page's socketLimits; the largest frame Bun reads is options.maxSocketMessage)",
    );
    expect(bun.serve).not.toHaveBeenCalled();
  } finally {
    delete (globalThis as { Bun?: unknown }).Bun;
  }
});

test('mux.fetch alone opens no socket: a 501 that names the adapters that do', async () => {
  class Chat {
    message() {}
  }
  const mux = new ServeMux();
  mount(
    mux,
    class {
      chat = route('/chat', Chat);
    },
    '/',
    'App',
  );
  const res = await mux.fetch(new Request('http://x/chat', { headers: { upgrade: 'websocket' } }));
  expect([res.status, await res.text()]).toEqual([
    501,
    'Not Implemented: this server cannot open WebSockets; serve with pagetree/node, pagetree/bun or pagetree/deno, or on Workers with pagetree/cloudflare',
  ]);
});

test('the public names of pagetree/bun', () => {
  expect(Object.keys(bunEntry).sort()).toEqual(['serve']);
});

describe('socket routes on Bun', () => {
  const url = (path: string) => app.url.replace('http:', 'ws:') + path;

  /** A TCP connection upgraded by hand: what a client that misbehaves below the WebSocket API does. */
  async function rawSocket(path: string) {
    const socket = netConnect(Number(new URL(app.url).port), '127.0.0.1');
    await once(socket, 'connect');
    socket.write(
      `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
    );
    const [head] = (await once(socket, 'data')) as [Buffer];
    expect(head.toString()).toMatch(/^HTTP\/1\.1 101 /);
    return socket;
  }

  test('a socket opens with its first message, and answers each message', async () => {
    const client = await connect(url('/echo'));
    expect(await client.nth(1)).toBe('<p id="hello">hello</p>');
    client.ws.send('héllo');
    expect(await client.nth(2)).toBe('<p id="echo">5</p>');
    client.ws.close();
    expect((await client.closed).code).toBe(1005);
  });

  test('one POST to a hub: every socket gets the same bytes', async () => {
    const [a, b] = await Promise.all([connect(url('/echo')), connect(url('/echo'))]);
    await Promise.all([a.nth(1), b.nth(1)]);
    expect((await send('POST', '/say?bytes=3')).body).toBe('2');
    expect([await a.nth(2), await b.nth(2)]).toEqual(['<p id="said">xxx</p>', '<p id="said">xxx</p>']);
    a.ws.close();
    b.ws.close();
    await Promise.all([a.closed, b.closed]);
  });

  test('an upgrade that is no WebSocket handshake (no Sec-WebSocket-Key): 400, and it says why', async () => {
    const socket = netConnect(Number(new URL(app.url).port), '127.0.0.1');
    await once(socket, 'connect');
    socket.write('GET /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n');
    const [head] = (await once(socket, 'data')) as [Buffer];
    socket.destroy();
    expect(head.toString()).toMatch(/^HTTP\/1\.1 400 /);
    expect(head.toString()).toContain('Bad Request: not a WebSocket handshake (Sec-WebSocket-Key or -Version)\n');
  });

  test("another site's page cannot open it: 403", async () => {
    await expect(connect(url('/echo'), { origin: 'https://evil.example' })).rejects.toThrow(
      'Unexpected server response: 403',
    );
  });

  test.each([
    { why: "over the route's maxMessage", path: '/echo', data: 'x'.repeat(1025), code: 1009 },
    { why: 'over it in UTF-8 bytes (513 characters, 1026 bytes)', path: '/echo', data: 'é'.repeat(513), code: 1009 },
    { why: "over the server's frame limit", path: '/wide', data: 'x'.repeat(64 * 1024 + 1), code: 1009 },
    { why: 'a binary frame', path: '/echo', data: Buffer.from([1, 2, 3]), code: 1003 },
  ])('a message $why closes the socket with $code', async ({ path, data, code }) => {
    const client = await connect(url(path));
    if (path === '/echo') await client.nth(1);
    client.ws.send(data);
    expect((await client.closed).code).toBe(code);
  });

  test("a message of exactly the route's maxMessage is answered", async () => {
    const client = await connect(url('/echo'));
    client.ws.send('x'.repeat(1024));
    expect(await client.nth(2)).toBe('<p id="echo">1024</p>');
    client.ws.close();
    await client.closed;
  });

  test("a route that allows more than the server's frame limit is logged, with the fix", async () => {
    const client = await connect(url('/wide'));
    client.ws.send('x'.repeat(2000));
    expect(await client.nth(1)).toBe('<p id="echo">2000</p>');
    client.ws.close();
    await client.closed;
    expect(app.output()).toContain(
      'pagetree/bun: App.wide (GET /wide) allows messages of 1048576 bytes (socketLimits.maxMessage), but this server ' +
        'reads frames of at most 65536: a larger one closes the socket with 1009; pass serve(mux, { maxSocketMessage: 1048576 })',
    );
  });

  test('a client that never reads is closed with 1013, and the server goes on', async () => {
    const slow = await connect(url('/echo'));
    await slow.nth(1);
    slow.ws.pause(); // reads nothing more: what the server sends waits in its queue
    let handed = '1';
    for (let i = 0; i < 200 && handed !== '0'; i++) handed = (await send('POST', '/say?bytes=262144')).body;
    expect(handed).toBe('0'); // the slow socket left the room: closed, its queue dropped
    slow.ws.resume();
    expect((await slow.closed).code).toBe(1013);
    expect((await send('GET', '/items/pen')).status).toBe(200);
  });

  test('a client that answers no ping is dropped after two idle periods', async () => {
    const socket = await rawSocket('/idle'); // reads, and never answers a ping
    let pings = 0;
    socket.on('data', (frame: Buffer) => (pings += frame[0] === 0x89 ? 1 : 0));
    await once(socket, 'close');
    expect(pings).toBe(1);
  });

  test('a client that leaves in the middle of a frame: the server goes on', async () => {
    const socket = await rawSocket('/echo');
    // A masked text frame that announces 1000 bytes, then 10 of them, then the client is gone.
    socket.write(Buffer.concat([Buffer.from([0x81, 0xfe, 0x03, 0xe8, 1, 2, 3, 4]), Buffer.alloc(10, 0x61)]));
    socket.destroy();
    const client = await connect(url('/echo'));
    expect(await client.nth(1)).toBe('<p id="hello">hello</p>');
    client.ws.close();
    await client.closed;
    expect((await send('GET', '/items/pen')).status).toBe(200);
  });

  test.each([
    { why: 'closes the socket itself (4001)', path: '/refuse', code: 4001, logged: 'refuse 4001' },
    { why: 'throws before it awaits anything (1011)', path: '/fails', code: 1011, logged: 'fails 1011' },
  ])("an open() that $why: the client gets the code, and the page's close() runs", async ({ path, code, logged }) => {
    const client = await connect(url(path));
    expect((await client.closed).code).toBe(code);
    let closes = '';
    for (let i = 0; i < 20 && !closes.includes(logged); i++) {
      closes = (await send('GET', '/closes')).body;
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(closes.split(',')).toContain(logged);
  });

  test('a hub whose leave() throws when the socket ends: logged, and the server goes on', async () => {
    const client = await connect(url('/bad-hub'));
    expect(await client.nth(1)).toBe('<p id="hello">hello</p>');
    client.ws.close();
    await client.closed;
    const next = await connect(url('/echo'));
    expect(await next.nth(1)).toBe('<p id="hello">hello</p>');
    next.ws.close();
    await next.closed;
    expect((await send('GET', '/items/pen')).status).toBe(200);
    // Logged, by the connection (core/live) or, for a fault it lets through, by pagetree/bun.
    expect(app.output()).toMatch(
      /logged: pagetree(\/bun: a WebSocket's close handler|: App\.badHub \(GET \/bad-hub\): .*) failed:/,
    );
  });

  // Last: the server stops.
  test('server.stop(): every socket closes with 1012 (htmx reconnects), then stop resolves', async () => {
    const [a, b] = await Promise.all([connect(url('/echo')), connect(url('/echo'))]);
    await Promise.all([a.nth(1), b.nth(1)]);
    // Listened for before the signal: the process may exit, and its 'exit' be emitted, before both closes are read.
    const exited = once(app.child, 'exit');
    app.child.kill('SIGTERM'); // server.tsx: server.stop(), then the process ends
    expect([await a.closed, await b.closed]).toEqual([
      { code: 1012, reason: 'server shutting down' },
      { code: 1012, reason: 'server shutting down' },
    ]);
    expect(await exited).toEqual([0, null]);
    expect(app.output()).toContain('stopped');
  });
});
