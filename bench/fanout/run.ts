// One change, many live regions (issue 24.8, 27.3): how long until the last of CLIENTS open dashboards has the new
// counts, and what each open stream costs the server.
//
//   npm run bench:fanout                       (5,000 dashboards, 5 changes)
//   CLIENTS=1000 npm run bench:fanout
//
// The server (server.ts, a child) is the example app. CLIENTS connections GET /admin/events (the dashboard's
// stream) and wait for its first line; then, ROUNDS times, the client adds a task (POST /, as the page's form
// does) and times, from just before the POST, when the last stream received the event with the new count. The
// server's memory is read (after a full GC) before the streams open and once they are all open. Then the same
// against the floor (server.ts's `bare`): node:http alone, which writes the event to each socket and nothing else.
//
// Then the same without sockets, in this process: CLIENTS streams from the example's mux.fetch, read as they come;
// a task is added through the store, and the time is taken until every stream has read the event. This is the
// framework's own part of a change (the renders and the queueing), without the kernel's socket writes.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { htmxRequest } from '../../core/index.ts';
import { createApp } from '../../pages-example/app.tsx';
import { adminCookie, benchAdmin } from '../lib/admin.ts';
import { environment, setting } from '../lib/main.ts';
import { fail, formatInt, median, printTable } from '../lib/report.ts';
import { HOST, runServers, send, serverCpu, serverMemory, startServer, stopAll } from '../lib/servers.ts';
import { nextText, openStreams } from '../lib/streams.ts';

const CLIENTS = setting('CLIENTS', 5000, 1, 20_000);
const ROUNDS = setting('ROUNDS', 5, 1, 50);
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

const servers = [
  { kind: 'example', name: 'pagetree (the example app)' },
  { kind: 'bare', name: 'node:http, one socket.write a stream (the floor)' },
] as const;

runServers('bench/fanout', 10 * 60_000, async () => {
  const rows: string[][] = [];
  const notes: string[] = [];
  for (const { kind, name } of servers) {
    const { row, note } = await overSockets(kind);
    rows.push([name, ...row]);
    notes.push(`${name}: ${note}`);
    await stopAll();
  }
  console.log(`bench/fanout: ${environment()}; ${formatInt(CLIENTS)} open dashboards, median of ${ROUNDS} changes`);
  printTable(['server', 'change to last event', 'server CPU per change', 'heap per stream', 'RSS per stream'], rows);
  for (const note of notes) console.log(note);
  const inProcess = await withoutSockets();
  console.log(`\nin process (mux.fetch, no sockets), median of ${ROUNDS} changes`);
  printTable(['streams', 'change to last event read'], [[formatInt(CLIENTS), `${median(inProcess).toFixed(1)} ms`]]);
});

// One server: CLIENTS streams, ROUNDS changes; its row of the table, and its memory.
async function overSockets(kind: (typeof servers)[number]['kind']): Promise<{ row: string[]; note: string }> {
  const server = await startServer('bench/fanout/server.ts', kind, { pin: false, nodeArgs: ['--expose-gc'] });
  const port = server.port;
  const before = await serverMemory(server, true);
  // The dashboard's stream requires a login; the floor takes any request.
  const cookie = kind === 'example' ? await adminCookie(`http://127.0.0.1:${port}`) : '';
  const clients = await openStreams(port, CLIENTS, '/admin/events', { 'HX-Request': 'true', cookie });
  const opened = await serverMemory(server, true);
  const times: number[] = [];
  const cpu: number[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const want = `<b class="total">${round}</b>`;
    for (const c of clients) c.text = '';
    const seen = clients.map((c) => nextText(c, want));
    const cpu0 = await serverCpu(server);
    const t0 = performance.now();
    const added = await send(port, {
      method: 'POST',
      path: '/',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: `http://${HOST}:${port}` },
      body: `title=task+${round}`,
    });
    if (added.status >= 400) fail(`POST / (${kind}): ${added.status} ${added.body.toString()}`);
    const last = Math.max(...(await Promise.all(seen)));
    times.push(last - t0);
    cpu.push((await serverCpu(server)) - cpu0);
  }
  for (const c of clients) c.socket.destroy();
  return {
    row: [
      `${median(times).toFixed(0)} ms`,
      `${(median(cpu) / 1000).toFixed(0)} ms`,
      `${((opened.heapUsed - before.heapUsed) / CLIENTS / 1024).toFixed(1)} KiB`,
      `${((opened.rss - before.rss) / CLIENTS / 1024).toFixed(1)} KiB`,
    ],
    note: `before ${mib(before.rss)} RSS, with the streams open ${mib(opened.rss)} RSS`,
  };
}

async function withoutSockets(): Promise<number[]> {
  const { mux, store } = createApp({
    databasePath: join(mkdtempSync(join(tmpdir(), 'pagetree-fanout-')), 'tasks.db'),
    admin: benchAdmin,
  });
  const cookie = await adminCookie(mux);
  const readers = await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      const res = await mux.fetch(htmxRequest('/admin/events', { headers: { cookie } }));
      const reader = res.body!.getReader();
      await reader.read(); // the first line
      return reader;
    }),
  );
  const times: number[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const t0 = performance.now();
    const reads = readers.map((r) => r.read());
    store.addTask(`task ${round}`);
    await Promise.all(reads);
    times.push(performance.now() - t0);
  }
  await Promise.all(readers.map((r) => r.cancel()));
  return times;
}
