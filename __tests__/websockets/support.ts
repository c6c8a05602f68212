// What the socket tests share: a mux served by serve() on a free port, and a ws client that records what it got.

import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { serve, type NodeServer } from '../../core/node/index.ts';
import type { ServeMux } from '../../core/index.ts';

/** Serves `mux` on 127.0.0.1:0; resolves with the server and its ws:// base. */
export async function listen(mux: ServeMux): Promise<{ server: NodeServer; base: string; http: string }> {
  const server = serve(mux, { port: 0, hostname: '127.0.0.1', handleSignals: false, onListen: () => {} });
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  return { server, base: `ws://127.0.0.1:${port}`, http: `http://127.0.0.1:${port}` };
}

/** A client socket with the messages it received, how it closed, and waits for both. */
export interface Client {
  readonly ws: WebSocket;
  readonly messages: string[];
  /** Resolves with the close code and reason (1006 when the connection dropped). */
  readonly closed: Promise<{ code: number; reason: string }>;
  /** Waits for the n-th message (1-based), within 3 s. */
  nth(n: number): Promise<string>;
}

/** Opens a client; resolves once open, or rejects with the HTTP status of a refused upgrade ("Unexpected server response: 403"). */
export function connect(url: string, options: WebSocket.ClientOptions = {}): Promise<Client> {
  const ws = new WebSocket(url, options);
  const messages: string[] = [];
  const waiters: (() => void)[] = [];
  ws.on('message', (data) => {
    messages.push(String(data));
    for (const w of waiters.splice(0)) w();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  const client: Client = {
    ws,
    messages,
    closed,
    async nth(n) {
      const end = Date.now() + 3000;
      while (messages.length < n) {
        if (Date.now() > end) throw new Error(`no message ${n} within 3 s; got ${JSON.stringify(messages)}`);
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 50);
        });
      }
      return messages[n - 1]!;
    },
  };
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(client));
    ws.once('error', reject);
  });
}

/** htmx 4's hx-ws message for a form's values. */
export function htmx4(values: Record<string, unknown>): string {
  return JSON.stringify({ ...values, headers: { 'HX-Request': 'true', 'HX-Target': 'chat' } });
}

/** htmx 2's ws extension's message for a form's values. */
export function htmx2(values: Record<string, unknown>): string {
  return JSON.stringify({ ...values, HEADERS: { 'HX-Request': 'true', 'HX-Trigger': 'chat-form' } });
}
