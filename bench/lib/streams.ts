// Event-stream clients on raw sockets, for the benchmarks that open thousands of them (bench/sse, bench/fanout).
//
//   const clients = await openStreams(port, 5000, '/admin/events', { 'HX-Request': 'true' })
//   clients[0].text          → ": ok\n" and everything received since
//   await nextText(client, 'data: …')  → the time it arrived (performance.now())

import { connect, type Socket } from 'node:net';
import { HOST } from './servers.ts';

/** Connections opened at once: node's listen backlog is 511. */
const BATCH = 100;

/** One open stream: what it has received so far. */
export interface StreamClient {
  socket: Socket;
  text: string;
  /** Set by `nextText`: resolved with the time when `text` holds `want`. */
  waiting?: { want: string; resolve: (at: number) => void };
}

/**
 * Opens one stream (GET `path`); resolves once its first line (": ok", eventStream's without `retry`) has arrived.
 * @example await openStream(port, '/live')
 */
export function openStream(port: number, path: string, headers: Record<string, string> = {}): Promise<StreamClient> {
  return new Promise((resolve, reject) => {
    const client: StreamClient = { socket: connect(port, HOST), text: '' };
    client.socket.setEncoding('utf8');
    client.socket.on('error', reject);
    client.socket.on('data', (chunk: string) => {
      client.text += chunk;
      if (client.text.includes(': ok\n')) resolve(client);
      const w = client.waiting;
      if (w && client.text.includes(w.want)) {
        client.waiting = undefined;
        w.resolve(performance.now());
      }
    });
    const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
    client.socket.write(`GET ${path} HTTP/1.1\r\nHost: ${HOST}\r\nAccept: text/event-stream\r\n${lines.join('')}\r\n`);
  });
}

/**
 * Opens `n` streams, a hundred at a time.
 * @example const clients = await openStreams(port, 1000, '/live')
 */
export async function openStreams(
  port: number,
  n: number,
  path: string,
  headers: Record<string, string> = {},
): Promise<StreamClient[]> {
  const clients: StreamClient[] = [];
  for (let i = 0; i < n; i += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, n - i) }, () => openStream(port, path, headers));
    clients.push(...(await Promise.all(batch)));
  }
  return clients;
}

/**
 * The time (performance.now()) when the client next holds `want` in what it received from now on.
 * @example client.text = ''; const at = nextText(client, '<b class="total">1</b>')
 */
export function nextText(client: StreamClient, want: string): Promise<number> {
  return new Promise((resolve) => (client.waiting = { want, resolve }));
}
