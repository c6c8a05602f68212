// Many subscribers connecting and leaving (issue 15.4): does a server of event streams keep its memory flat?
//
//   npm run bench:sse                          (10 waves × 1,000 clients, ~1 min)
//   WAVES=20 CLIENTS=500 npm run bench:sse
//
// The server (server.tsx, a child with --expose-gc) serves GET /live, a page whose props answer eventStream
// subscribed to a publisher. Each wave: CLIENTS connections GET /live and wait for the stream's first line;
// /subscribers must then say CLIENTS; one POST /publish, and every client must receive that event; then every
// client closes its socket. /subscribers must come back to 0 (the cleanup ran for each), else CHECK FAILED.
// Then the server's memory is read after a full GC. Nothing about time is asserted.

import { environment, setting } from '../lib/main.ts';
import { fail, formatInt, printTable } from '../lib/report.ts';
import { runServers, send, serverMemory, startServer, withTimeout } from '../lib/servers.ts';
import { openStreams } from '../lib/streams.ts';

const WAVES = setting('WAVES', 10, 1, 100);
const CLIENTS = setting('CLIENTS', 1000, 1, 5000);
async function text(port: number, method: string, path: string): Promise<string> {
  const a = await send(port, { method, path });
  if (a.status !== 200) fail(`${method} ${path}: status ${a.status}`);
  return a.body.toString();
}

/** Polls `probe` until it returns `want` or `ms` pass; returns the last value. */
async function until<T>(probe: () => Promise<T> | T, want: T, ms: number): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v === want || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 20));
  }
}

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

runServers('bench/sse', WAVES * 60_000 + 60_000, async () => {
  console.log(`bench/sse: ${environment()}; ${WAVES} waves × ${formatInt(CLIENTS)} clients`);
  const server = await startServer('bench/sse/server.tsx', 'sse', { pin: false, nodeArgs: ['--expose-gc'] });
  const port = server.port;
  const start = await serverMemory(server, true);
  if (!start.collected) fail('the server has no global gc(); start it with --expose-gc');
  const rows: string[][] = [['start', '', '', '', '0', mib(start.heapUsed), mib(start.external), mib(start.rss)]];
  const heaps: number[] = [];

  for (let wave = 1; wave <= WAVES; wave++) {
    const began = performance.now();
    const clients = await withTimeout(
      openStreams(port, CLIENTS, '/live'),
      60_000,
      `wave ${wave}: opening ${CLIENTS} streams`,
    );
    const subscribed = Number(await text(port, 'GET', '/subscribers'));
    if (subscribed !== CLIENTS) fail(`wave ${wave}: ${subscribed} subscribers for ${CLIENTS} open streams`);
    const n = await text(port, 'POST', '/publish');
    const event = `event: count\nid: ${n}\ndata: <p class="count">${n}</p>\n\n`;
    const received = () => clients.filter((c) => c.text.includes(event)).length;
    const got = await until(received, CLIENTS, 10_000);
    if (got !== CLIENTS) fail(`wave ${wave}: ${got} of ${CLIENTS} clients received the event`);
    for (const c of clients) c.socket.destroy();
    const left = Number(await until(() => text(port, 'GET', '/subscribers'), '0', 10_000));
    if (left !== 0) fail(`wave ${wave}: ${left} subscribers still there 10 s after every client left`);
    const ms = performance.now() - began;
    const m = await serverMemory(server, true);
    heaps.push(m.heapUsed);
    rows.push([
      String(wave),
      formatInt(subscribed),
      formatInt(got),
      `${formatInt(ms)} ms`,
      String(left),
      mib(m.heapUsed),
      mib(m.external),
      mib(m.rss),
    ]);
  }

  console.log(
    `\ncheck: in every wave all ${formatInt(CLIENTS)} streams subscribed, each received the event, ` +
      'and the subscribers came back to 0 once the clients left.\n',
  );
  printTable(
    ['wave', 'subscribed', 'got the event', 'wave time', 'subscribers after', 'heap used', 'external', 'RSS'],
    rows,
  );
  const first = heaps[0]!;
  const last = heaps.at(-1)!;
  console.log(
    `\nheap used after GC: ${mib(first)} after wave 1, ${mib(last)} after wave ${WAVES} ` +
      `(${last >= first ? '+' : ''}${mib(last - first)} over ${formatInt((WAVES - 1) * CLIENTS)} more streams).`,
  );
});
