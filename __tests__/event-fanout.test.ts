// Event streams through the node adapter, which takes a stream's bytes and writes each event to its socket itself
// (core/node: takeEvents): one client that stops reading holds back no other and is dropped once 1 MiB waits for
// it; an answer queued behind a pipelined one, an HTTP/1.0 client and a body a middleware wrapped still stream.

import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { connect as netConnect, type AddressInfo, type Socket } from 'node:net';
import { EventHub, eventStream, ServeMux } from '../core/index.ts';
import { shutdown, toNodeListener } from '../core/node/index.ts';

const quiet = { error: jest.fn(), warn: () => {} };
const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));

// A raw client: what it received, as text, and a way to stop reading.
function open(port: number, request: string) {
  const socket: Socket = netConnect(port, '127.0.0.1');
  let text = '';
  socket.setEncoding('latin1');
  socket.on('data', (c: string) => (text += c));
  socket.on('error', () => {});
  socket.write(request);
  return {
    socket,
    get text() {
      return text;
    },
    /** Waits until the text contains `part` (within a second). */
    async until(part: string): Promise<void> {
      const end = Date.now() + 1000;
      while (!text.includes(part)) {
        if (Date.now() > end) throw new Error(`no ${JSON.stringify(part)} within 1 s; got ${JSON.stringify(text)}`);
        await tick(5);
      }
    },
  };
}

const get = (path: string, version = '1.1') => `GET ${path} HTTP/${version}\r\nHost: x\r\n\r\n`;

describe('event streams through the node adapter', () => {
  const hub = new EventHub();
  let server: Server;
  let port: number;
  beforeAll(async () => {
    const mux = new ServeMux({ logger: quiet });
    mux.handleFunc('GET /hub', (req) => hub.stream(req, { heartbeat: 0 }));
    mux.handleFunc('GET /slow', async () => {
      await tick(50);
      return new Response('first');
    });
    mux.handleFunc('GET /wrapped', (req) => {
      const res = hub.stream(req, { heartbeat: 0 });
      // A middleware that reads the body through a stream of its own: the adapter gets a body it cannot take.
      return new Response(res.body!.pipeThrough(new TransformStream()), res);
    });
    server = createServer(toNodeListener(mux));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => shutdown(server, 1000));
  afterEach(async () => {
    hub.close();
    quiet.error.mockClear();
    await tick(10);
  });

  test('a client that stops reading holds back no other, and is dropped once 1 MiB waits for it', async () => {
    const clients = [open(port, get('/hub')), open(port, get('/hub')), open(port, get('/hub'))];
    for (const c of clients) await c.until(': ok\n');
    const stuck = clients[0]!;
    stuck.socket.pause(); // reads nothing more: the kernel's buffers fill, then the process's
    const chunk = 'x'.repeat(64 * 1024);
    let rounds = 0;
    while (hub.size === 3 && rounds < 1024) {
      const sent = await hub.send(`${chunk} ${rounds}`);
      // Every event reaches the clients that read, whatever the stuck one's backlog.
      await clients[1]!.until(` ${rounds}\n\n`);
      await clients[2]!.until(` ${rounds}\n\n`);
      expect(sent).toBeGreaterThanOrEqual(2);
      rounds++;
    }
    expect(hub.size).toBe(2);
    expect(quiet.error).toHaveBeenCalledWith(
      `pagetree: streaming the response to GET http://x/hub failed:`,
      expect.objectContaining({ message: expect.stringContaining('fell more than 1048576 bytes behind') }),
    );
    await expect(hub.send('after')).resolves.toBe(2);
    await clients[1]!.until('data: after\n\n');
    for (const c of clients) c.socket.destroy();
    // Tens of 64 KiB rounds until the kernel's buffers and then 1 MiB fill: ~1 s alone, over 5 s with two jest
    // workers and their servers on two cores.
  }, 30_000);

  test.each([
    {
      name: 'an answer queued behind a pipelined one',
      request: get('/slow') + get('/hub'),
      want: ['first', '\r\n\r\n5\r\n: ok\n\r\n', 'd\r\ndata: event\n\n\r\n'],
    },
    { name: 'an HTTP/1.0 client (no chunks)', request: get('/hub', '1.0'), want: ['\r\n\r\n: ok\ndata: event\n\n'] },
    {
      name: 'a body a middleware wrapped',
      request: get('/wrapped'),
      want: ['\r\n\r\n5\r\n: ok\n\r\n', 'd\r\ndata: event\n\n\r\n'],
    },
  ])('$name gets its events', async ({ request, want }) => {
    const client = open(port, request);
    await client.until(': ok\n');
    while (hub.size === 0) await tick(5);
    await hub.send('event');
    await client.until('data: event\n\n');
    let at = 0;
    for (const part of want) {
      at = client.text.indexOf(part, at);
      expect(at).toBeGreaterThanOrEqual(0);
    }
    client.socket.destroy();
    await tick(20);
    expect(hub.size).toBe(0); // the client left: its stream ended
    expect(quiet.error).not.toHaveBeenCalled();
  });
});

test('through mux.fetch, events still arrive as a ReadableStream', async () => {
  const mux = new ServeMux({ logger: quiet });
  let send!: (data: string) => Promise<boolean>;
  mux.handleFunc('GET /events', (req) => eventStream(req, (s) => void (send = (d) => s.send(d)), { heartbeat: 0 }));
  const res = await mux.fetch(new Request('http://x/events'));
  expect(res).toBeInstanceOf(Response);
  await expect(send('one')).resolves.toBe(true); // held until the body is read
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!text.includes('data: one\n\n')) text += decoder.decode((await reader.read()).value);
  expect(text).toBe(': ok\ndata: one\n\n');
  await reader.cancel();
});
