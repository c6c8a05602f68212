// A load balancer for tests of several instances: a TCP proxy on 127.0.0.1 that sends each new connection to the
// backend chosen now, can cut every open connection (as an instance that goes away does), and keeps the head of
// each request it forwarded, so that a test reads what the browser sent (e.g. Last-Event-ID on a reconnect).
//
//   const lb = await startBalancer(portA);   lb.base → "http://127.0.0.1:41236"
//   lb.route(portB); lb.cut();                the open connections drop, the next ones go to B
//   lb.requests → ["GET /admin/events HTTP/1.1\r\nhost: …\r\nlast-event-id: 7\r\n…", …]

import { once } from 'node:events';
import { createConnection, createServer, type AddressInfo, type Socket } from 'node:net';

export interface Balancer {
  readonly base: string;
  /** The head of every request forwarded, in order (only the first request of a kept-alive connection). */
  readonly requests: string[];
  /** Sends new connections to `port`. */
  route(port: number): void;
  /** Cuts every open connection, both ways. */
  cut(): void;
  close(): Promise<void>;
}

export async function startBalancer(port: number): Promise<Balancer> {
  let backend = port;
  const open = new Set<Socket>();
  const requests: string[] = [];
  const server = createServer((client) => {
    const upstream = createConnection(backend, '127.0.0.1');
    open.add(client).add(upstream);
    let head = '';
    const onData = (chunk: Buffer) => {
      head += chunk.toString('latin1');
      const end = head.indexOf('\r\n\r\n');
      if (end === -1 && head.length < 64 * 1024) return;
      requests.push(head.slice(0, end === -1 ? head.length : end));
      client.off('data', onData);
    };
    client.on('data', onData);
    client.pipe(upstream).pipe(client);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    route: (p) => void (backend = p),
    cut: () => {
      for (const socket of open) socket.destroy();
      open.clear();
    },
    close: async () => {
      for (const socket of open) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}
