// The clients of one server of bench/websockets, in a process of their own (started by run.ts, under a raised
// `ulimit -n`): N WebSockets (the `ws` client) or N event streams (raw sockets, bench/lib/streams.ts), each open once
// its server's first message has come. Over IPC:
//
//   child  → parent   { opened: N }
//   parent → child    { round: k }     POST /publish k to the server, timed from just before it until the last client
//                                      has the counts for k; every client must hold exactly the expected bytes
//   child  → parent   { ms } | { error }
//
//   node --import tsx bench/websockets/clients.ts ws 40123 5000
//
// The expected bytes: on a socket, one text message, countsHtml(k); on a stream, one HTTP chunk holding the event
// `id: k\ndata: <countsHtml(k)>\n\n` (the k-th message of the server's broker).

import { request } from 'node:http';
import WebSocket from 'ws';
import { HOST } from '../lib/servers.ts';
import { nextText, openStreams, type StreamClient } from '../lib/streams.ts';
import { countsHtml } from './fragment.ts';

type Kind = 'ws' | 'sse';
type ParentMessage = { round: number };
type ChildMessage = { opened: number } | { ms: number } | { error: string };

/** Opened at once (node's listen backlog is 511). */
const BATCH = 100;

/** One client, whatever it is: reset before a round, and resolved with when it has `want`, checked after. */
interface Client {
  arrival(want: string): Promise<number>;
  /** What it received since the round began, when that is not exactly `want`. */
  wrong(want: string): string | undefined;
}

const [kind, portText, countText] = process.argv.slice(2) as [Kind, string, string];
const port = Number(portText);
const count = Number(countText);

function send(msg: ChildMessage): void {
  process.send!(msg);
}

// A socket that resolves the first message after `arrival` was asked; "ok" first, before it is counted as open.
function openSocket(): Promise<Client> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://${HOST}:${port}/counts`, { perMessageDeflate: false });
    let got: string[] = [];
    let waiting: { resolve: (at: number) => void } | undefined;
    const client: Client = {
      arrival() {
        got = [];
        return new Promise((r) => (waiting = { resolve: r }));
      },
      wrong: (want) => (got.length === 1 && got[0] === want ? undefined : JSON.stringify(got)),
    };
    ws.on('error', reject);
    ws.on('close', (code) => reject(new Error(`a socket closed (${code}) before it was ready`)));
    ws.on('message', (data, binary) => {
      const text = binary ? `binary ${String(data)}` : String(data);
      if (text === 'ok' && got.length === 0 && !waiting) return resolve(client);
      got.push(text);
      const w = waiting;
      waiting = undefined;
      w?.resolve(performance.now());
    });
  });
}

async function openSockets(): Promise<Client[]> {
  const clients: Client[] = [];
  for (let i = 0; i < count; i += BATCH) {
    clients.push(...(await Promise.all(Array.from({ length: Math.min(BATCH, count - i) }, openSocket))));
  }
  return clients;
}

function streamClient(s: StreamClient): Client {
  return {
    arrival(want) {
      s.text = '';
      return nextText(s, want);
    },
    wrong: (want) => (s.text === want ? undefined : JSON.stringify(s.text)),
  };
}

// What a client must hold after round k, byte for byte.
function expected(k: number): string {
  const html = countsHtml(k);
  if (kind === 'ws') return html;
  const event = `id: ${k}\ndata: ${html}\n\n`;
  return `${Buffer.byteLength(event).toString(16)}\r\n${event}\r\n`;
}

function publish(k: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const body = String(k);
    const req = request(
      { host: HOST, port, path: '/publish', method: 'POST', agent: false, headers: { 'content-length': body.length } },
      (res) => {
        res.resume();
        if (res.statusCode === 204) resolve();
        else reject(new Error(`POST /publish answered ${res.statusCode}`));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function round(clients: Client[], k: number): Promise<number> {
  const want = expected(k);
  const arrivals = clients.map((c) => c.arrival(want));
  const t0 = performance.now();
  await publish(k);
  const last = Math.max(...(await Promise.all(arrivals)));
  const wrong = clients.map((c) => c.wrong(want)).filter((w) => w !== undefined);
  if (wrong.length > 0) {
    throw new Error(`${wrong.length} of ${clients.length} clients got ${wrong[0]}, not ${JSON.stringify(want)}`);
  }
  return last - t0;
}

async function main(): Promise<void> {
  const clients =
    kind === 'ws'
      ? await openSockets()
      : (await openStreams(port, count, '/events', { 'HX-Request': 'true' })).map(streamClient);
  process.on('message', (msg: ParentMessage) => {
    round(clients, msg.round).then(
      (ms) => send({ ms }),
      (err: unknown) => send({ error: String(err instanceof Error ? err.message : err) }),
    );
  });
  process.on('disconnect', () => process.exit(0));
  send({ opened: clients.length });
}

if (!process.send) throw new Error('bench/websockets/clients.ts: run it from its run.ts (it needs an IPC channel)');
main().catch((err: unknown) => {
  send({
    error: `opening ${count} ${kind} clients on port ${port}: ${err instanceof Error ? err.message : String(err)}`,
  });
});
