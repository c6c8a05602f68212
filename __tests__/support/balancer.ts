// A load balancer for tests of several instances: a TCP proxy on 127.0.0.1 that sends each new connection to the
// backend chosen now, can cut every open connection (as an instance that goes away does) and hold new ones for a
// while, and keeps each request that went through (a browser sends several on one connection, one after the other)
// with what came back for it, so that a test reads what the browser sent (e.g. Last-Event-ID on a reconnect) and
// what it got.
//
//   const lb = await startBalancer(portB);   lb.base → "http://127.0.0.1:41236"
//   lb.hold(); lb.cut();                      the open connections drop; new ones wait …
//   lb.release();                             … and go through now
//   lb.exchanges → [{ request: "GET /admin/events HTTP/1.1\r\n…last-event-id: 7\r\n…", response: "HTTP/1.1 200 …" }]

import { once } from 'node:events';
import { createConnection, createServer, type AddressInfo, type Socket } from 'node:net';

/** One request that went through: its head, and the first 64 KiB of its answer. */
export interface Exchange {
  request: string;
  response: string;
}

export interface Balancer {
  readonly base: string;
  readonly exchanges: Exchange[];
  /** Cuts every open connection, both ways. */
  cut(): void;
  /** New connections wait (the browser's tries to reconnect) until release(). */
  hold(): void;
  release(): void;
  close(): Promise<void>;
}

const kept = 64 * 1024;

/**
 * A proxy on a free port of 127.0.0.1 to the server on `port`.
 * @example const lb = await startBalancer(b.port); await page.goto(lb.base + '/admin/');
 */
export async function startBalancer(port: number): Promise<Balancer> {
  const open = new Set<Socket>();
  const exchanges: Exchange[] = [];
  let held: Socket[] | undefined;
  // Until forward() runs, the client's socket has no reader: what it sends waits in it.
  const forward = (client: Socket) => {
    if (client.destroyed) return;
    const upstream = createConnection(port, '127.0.0.1');
    let current: Exchange | undefined;
    open.add(client).add(upstream);
    // A browser writes each request head at once, so a chunk that starts with a request line starts a request.
    client.on('data', (chunk: Buffer) => {
      const text = chunk.toString('latin1');
      if (/^[A-Z]+ \S+ HTTP\/1\.[01]\r\n/.test(text)) exchanges.push((current = { request: '', response: '' }));
      if (current && !current.request.includes('\r\n\r\n')) current.request += text;
    });
    upstream.on('data', (chunk: Buffer) => {
      if (current && current.response.length < kept) current.response += chunk.toString('utf8');
    });
    client.pipe(upstream).pipe(client);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
  };
  const server = createServer((client) => {
    if (held) {
      client.on('error', () => client.destroy());
      held.push(client);
    } else forward(client);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    exchanges,
    cut: () => {
      for (const socket of open) socket.destroy();
      open.clear();
    },
    hold: () => void (held ??= []),
    release: () => {
      const waiting = held ?? [];
      held = undefined;
      for (const client of waiting) forward(client);
    },
    close: async () => {
      for (const socket of [...open, ...(held ?? [])]) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}
