// A socket route's answer passes through what wraps every answer: Server-Timing (observe, and dev mode), the
// compression step (a browser's handshake sends Accept-Encoding), the dev live-reload step, and a middleware that
// sets a header (docs/errors-and-middleware.md's timing middleware). Each used to end the upgrade with the 501 that
// says "this server cannot open WebSockets" on a server that can. And the upgrade listener's edges: an upgrade whose
// props never answer does not hold the shutdown, an upgrade pipelined behind a request does not end the process, an
// answer that did not upgrade closes its connection once written.

import { once } from 'node:events';
import { connect as tcp } from 'node:net';
import { mount, route, ServeMux, type Middleware, type PageRequest } from '../../core/index.ts';
import type { Socket } from '../../core/live/index.ts';
import { connect, listen } from './support.ts';

const errors: unknown[][] = [];
const logger = { error: (...args: unknown[]) => void errors.push(args), warn: () => {}, info: () => {} };

class Echo {
  props(req: PageRequest) {
    return { path: new URL(req.url).pathname };
  }
  open(socket: Socket, props: { path: string }) {
    return socket.send(
      <p id="hello" safe>
        {props.path}
      </p>,
    );
  }
  message(socket: Socket, data: string) {
    return socket.send(
      <p id="echo" safe>
        {data}
      </p>,
    );
  }
}

class Never {
  props() {
    return new Promise<never>(() => {});
  }
  message() {}
}

class Page {
  page() {
    return <p>a page</p>;
  }
}

const stamp: Middleware = (next) => async (req) => {
  const res = await next(req);
  res.headers.set('x-stamped', 'yes');
  return res;
};

class App {
  echo = route('/echo', Echo);
  never = route('/never', Never);
  page = route('/page', Page);
}

afterEach(() => {
  expect(errors).toEqual([]);
  errors.length = 0;
});

test.each([
  ['observe.serverTiming', { observe: { serverTiming: true } }],
  ['dev mode (Server-Timing, live reload)', { dev: true }],
  ['compression with no threshold', { compress: { threshold: 0 } }],
  ['a middleware that sets a header', { middlewares: [stamp] }],
])('a socket route opens behind %s', async (_, options) => {
  const mux = new ServeMux({ logger });
  mount(mux, App, '/', '', options as Parameters<typeof mount>[4]);
  const { server, base } = await listen(mux);
  try {
    // Chromium's handshake carries Accept-Encoding; the 501 text would pass the compression threshold of 0.
    const client = await connect(`${base}/echo`, { headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
    expect(await client.nth(1)).toBe('<p id="hello">/echo</p>');
    client.ws.send('hi');
    expect(await client.nth(2)).toBe('<p id="echo">hi</p>');
    client.ws.close(1000);
    expect((await client.closed).code).toBe(1000);
  } finally {
    await server.shutdown({ timeout: 1000 });
  }
});

test('an upgrade whose props never answer does not hold the shutdown: its connection is closed', async () => {
  const mux = new ServeMux({ logger });
  mount(mux, App);
  const { server, base } = await listen(mux);
  const opening = connect(`${base}/never`);
  opening.catch(() => {}); // observed below
  await new Promise((r) => setTimeout(r, 100));
  await server.shutdown({ timeout: 300 });
  await expect(opening).rejects.toThrow(/socket hang up|closed before the connection was established/);
});

test("the mount's timeout bounds an upgrade's props: 503, as a page's", async () => {
  const mux = new ServeMux({ logger: { ...logger, error: () => {} } }); // the timeout's line is the point, not news
  mount(mux, App, '/', '', { timeout: 100 });
  const { server, base } = await listen(mux);
  try {
    await expect(connect(`${base}/never`)).rejects.toThrow('Unexpected server response: 503');
  } finally {
    await server.shutdown({ timeout: 1000 });
  }
});

/** A raw connection: sends `text` in one write, resolves with all it read once the server closed it. */
async function raw(http: string, text: string): Promise<string> {
  const { hostname, port } = new URL(http);
  const socket = tcp(Number(port), hostname);
  await once(socket, 'connect');
  let got = '';
  socket.on('data', (chunk: Buffer) => (got += chunk.toString('latin1')));
  socket.write(text); // and never ends its side
  await once(socket, 'close');
  return got;
}

const upgradeHeaders =
  'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n' +
  'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n';

test('an upgrade pipelined behind a request in one packet drops the connection; the process goes on', async () => {
  const mux = new ServeMux({ logger });
  mount(mux, App);
  const { server, base, http } = await listen(mux);
  try {
    const got = await raw(
      http,
      'GET /page HTTP/1.1\r\nHost: x\r\n\r\n' + `GET /echo HTTP/1.1\r\nHost: x\r\n${upgradeHeaders}\r\n`,
    );
    expect(got).not.toContain('101 Switching Protocols');
    // The server still opens sockets and answers pages.
    const client = await connect(`${base}/echo`);
    expect(await client.nth(1)).toBe('<p id="hello">/echo</p>');
    client.ws.close(1000);
    expect(await (await fetch(`${http}/page`)).text()).toContain('<p>a page</p>');
  } finally {
    await server.shutdown({ timeout: 1000 });
  }
});

test('an upgrade answered without upgrading (404) closes its connection once written, the client still open', async () => {
  const mux = new ServeMux({ logger });
  mount(mux, App);
  const { server, http } = await listen(mux);
  try {
    const got = await raw(http, `GET /nowhere HTTP/1.1\r\nHost: x\r\n${upgradeHeaders}\r\n`);
    expect(got).toMatch(/^HTTP\/1\.1 404 Not Found\r\n/);
    expect(got).toMatch(/\r\n\r\n404 page not found\n$/);
  } finally {
    await server.shutdown({ timeout: 1000 });
  }
});
