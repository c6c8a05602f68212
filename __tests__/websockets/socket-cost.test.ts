// Issue 44.7: what an open socket costs. The node adapter pings the sockets of a route from one sweep per idle time
// (not a timer per socket), and a connection makes its AbortController only when `socket.signal` is read (a hub
// that a socket follows is left on close without it). These pin what a user sees of both: a peer that stops
// answering is dropped and the others are kept, each route at its own idle time, and `signal`, `subscribe` and a
// hub behave as before whenever they are read.

import { mount, route, ServeMux } from '../../core/index.ts';
import { SocketHub, type Socket } from '../../core/live/index.ts';
import type { NodeServer } from '../../core/node/index.ts';
import { connect, listen, type Client } from './support.ts';

const quiet = { error: () => {}, warn: () => {} };
const hub = new SocketHub();
/** What the pages saw of `socket.signal`, by the message that asked. */
const seen: string[] = [];
let kept: Socket | undefined;

class Fast {
  socketLimits = { idle: 80 };
  open(socket: Socket) {
    socket.subscribe(hub);
    return socket.send('<p>ready</p>');
  }
  message(socket: Socket, data: string) {
    return socket.send(`<p>${data}</p>`);
  }
}

class Slow {
  socketLimits = { idle: 60_000 };
  open(socket: Socket) {
    return socket.send('<p>ready</p>');
  }
  message() {}
}

class Signals {
  open(socket: Socket) {
    kept = socket;
    socket.subscribe(hub);
    socket.signal.addEventListener('abort', () => seen.push('aborted'));
    seen.push(`open: ${socket.signal.aborted}`);
    return socket.send('<p>ready</p>');
  }
  message(socket: Socket, data: string) {
    return socket.send(`<p>${data}</p>`);
  }
}

const errors: unknown[][] = [];
const recording = { error: (...args: unknown[]) => void errors.push(args), warn: () => {} };

/** Follows a hand-written hub whose leave() throws, and the shared hub after it. */
class BadHub {
  open(socket: Socket) {
    socket.subscribe({
      join: () => () => {
        throw new Error('leave failed');
      },
    });
    socket.subscribe(hub);
    return socket.send('<p>ready</p>');
  }
  message() {}
}

class App {
  badHub = route('/bad-hub', BadHub);
  fast = route('/fast', Fast);
  slow = route('/slow', Slow);
  signals = route('/signals', Signals);
}

let server: NodeServer;
let base: string;

beforeAll(async () => {
  const mux = new ServeMux({ logger: recording });
  mount(mux, App, '/', 'App');
  ({ server, base } = await listen(mux));
});

afterAll(() => server.shutdown({ timeout: 1000 }));

beforeEach(() => {
  errors.length = 0;
  seen.length = 0;
  kept = undefined;
});

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function openReady(url: string, options?: Parameters<typeof connect>[1]): Promise<Client> {
  const client = await connect(url, options);
  await client.nth(1);
  return client;
}

test('pings-drop-only-the-dead-peer-among-many-on-one-route', async () => {
  const live = await Promise.all(Array.from({ length: 8 }, () => openReady(`${base}/fast`)));
  const dead = await openReady(`${base}/fast`, { autoPong: false });
  expect((await dead.closed).code).toBe(1006);
  // Several idle periods later the peers that answer are all still open, and still answered.
  await wait(300);
  for (const c of live) expect(c.ws.readyState).toBe(c.ws.OPEN);
  live[3]!.ws.send('still here');
  expect(await live[3]!.nth(2)).toBe('<p>still here</p>');
  for (const c of live) c.ws.close();
  await Promise.all(live.map((c) => c.closed));
});

test('pings-of-each-route-keep-its-own-idle-time', async () => {
  const deadSlow = await openReady(`${base}/slow`, { autoPong: false });
  const deadFast = await openReady(`${base}/fast`, { autoPong: false });
  expect((await deadFast.closed).code).toBe(1006);
  await wait(200);
  // The slow route's first ping is a minute away: its silent peer is not dropped by the fast route's sweep.
  expect(deadSlow.ws.readyState).toBe(deadSlow.ws.OPEN);
  deadSlow.ws.close();
  await deadSlow.closed;
});

test('pings-go-on-for-a-socket-opened-after-the-others-left', async () => {
  const first = await openReady(`${base}/fast`);
  first.ws.close();
  await first.closed;
  await wait(200); // the route's sweep has no socket now
  const dead = await openReady(`${base}/fast`, { autoPong: false });
  expect((await dead.closed).code).toBe(1006);
});

test('a-followed-hub-is-left-on-close-whether-or-not-signal-was-read', async () => {
  await wait(50); // the sockets of the tests before have left
  const before = hub.size;
  const plain = await openReady(`${base}/fast`);
  const reading = await openReady(`${base}/signals`);
  expect(hub.size).toBe(before + 2);
  plain.ws.close();
  reading.ws.close();
  await Promise.all([plain.closed, reading.closed]);
  await wait(50);
  expect(hub.size).toBe(before);
  expect(seen).toEqual(['open: false', 'aborted']);
  expect(kept!.signal.aborted).toBe(true);
});

test('signal-read-first-after-the-socket-closed-is-aborted', async () => {
  let socket: Socket | undefined;
  const grab = new SocketHub();
  const join = grab.join.bind(grab);
  grab.join = (s) => {
    socket = s;
    return join(s);
  };
  class Late {
    open(s: Socket) {
      s.subscribe(grab);
      return s.send('<p>ready</p>');
    }
    message() {}
  }
  class LateApp {
    late = route('/late', Late);
  }
  const mux = new ServeMux({ logger: quiet });
  mount(mux, LateApp, '/', 'App');
  const own = await listen(mux);
  try {
    const client = await openReady(`${own.base}/late`);
    client.ws.close();
    await client.closed;
    await wait(50);
    expect(grab.size).toBe(0);
    expect(socket!.signal.aborted).toBe(true);
    expect(await socket!.send('<p>after</p>')).toBe(false);
  } finally {
    await own.server.shutdown({ timeout: 1000 });
  }
});

test('subscribe-after-close-returns-a-no-op-and-does-not-join', async () => {
  const client = await openReady(`${base}/signals`);
  const socket = kept!;
  client.ws.close();
  await client.closed;
  await wait(50);
  const size = hub.size;
  const leave = socket.subscribe(hub);
  expect(hub.size).toBe(size);
  expect(() => leave()).not.toThrow();
});

test('a-hub-left-by-hand-is-not-left-again-on-close', async () => {
  const other = new SocketHub();
  const client = await openReady(`${base}/signals`);
  const leave = kept!.subscribe(other);
  expect(other.size).toBe(1);
  leave();
  expect(other.size).toBe(0);
  const again = kept!.subscribe(other); // joined again: the close must remove this one
  expect(other.size).toBe(1);
  client.ws.close();
  await client.closed;
  await wait(50);
  expect(other.size).toBe(0);
  again();
  expect(other.size).toBe(0);
});

test('a-hub-whose-leave-throws-is-logged-the-others-are-left-and-the-server-goes-on', async () => {
  await wait(50);
  const before = hub.size;
  const client = await openReady(`${base}/bad-hub`);
  expect(hub.size).toBe(before + 1);
  client.ws.close();
  await client.closed;
  await wait(50);
  expect(hub.size).toBe(before);
  expect(errors).toHaveLength(1);
  expect(String(errors[0]![0])).toBe('pagetree: App.badHub (GET /bad-hub): leaving a hub as the socket ended failed:');
  expect(String(errors[0]![1])).toContain('leave failed');
  const next = await openReady(`${base}/fast`);
  next.ws.send('after');
  expect(await next.nth(2)).toBe('<p>after</p>');
  next.ws.close();
});
