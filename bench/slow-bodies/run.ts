// Slow clients holding their bodies back (issue 12): N clients each announce a
// body of BODY_MIB MiB and send all of it but the last byte, then wait. What
// does the server hold, and when does it let go?
//
//   npm run bench:slow-bodies                                  (20 clients × 10 MiB, requestTimeout 5 s)
//   REQUEST_TIMEOUT=60000 npm run bench:slow-bodies            (serve's default: ~1 min)
//
// The server (server.tsx) is `serve` with a page that reads a form; its memory
// comes over IPC (after a full GC where the table says so). A client counts as
// let go when the server ends its connection (a FIN, after node's 408).

import { connect } from 'node:net';
import { environment, setting } from '../lib/main.ts';
import { printTable } from '../lib/report.ts';
import { HOST, runServers, serverMemory, startServer } from '../lib/servers.ts';

const CLIENTS = setting('CLIENTS', 20, 1, 1000);
const BODY_MIB = setting('BODY_MIB', 10, 1, 1024);
const REQUEST_TIMEOUT = setting('REQUEST_TIMEOUT', 5_000, 100, 600_000);

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

runServers('bench/slow-bodies', REQUEST_TIMEOUT * 2 + 120_000, async () => {
  const server = await startServer('bench/slow-bodies/server.tsx', String(REQUEST_TIMEOUT), {
    pin: false,
    nodeArgs: ['--expose-gc'],
  });
  const before = await serverMemory(server, true);
  const size = BODY_MIB * 1024 * 1024;
  const started = performance.now();
  const ended: number[] = [];
  const sockets = Array.from({ length: CLIENTS }, () => {
    const s = connect(server.port, HOST, () => {
      s.write(
        `POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n` +
          `Content-Length: ${size}\r\n\r\ndata=`,
      );
      s.write(Buffer.alloc(size - 'data='.length - 1, 'a')); // one byte short
    });
    s.on('error', () => {});
    s.resume(); // read the 408, so that 'end' comes with the server's FIN
    s.once('end', () => ended.push(performance.now() - started));
    return s;
  });
  let peakRss = 0;
  let peakExternal = 0;
  while (ended.length < CLIENTS && performance.now() - started < REQUEST_TIMEOUT * 2 + 60_000) {
    await new Promise((r) => setTimeout(r, 500));
    const m = await serverMemory(server, false);
    peakRss = Math.max(peakRss, m.rss);
    peakExternal = Math.max(peakExternal, m.external);
  }
  for (const s of sockets) s.destroy();
  await new Promise((r) => setTimeout(r, 500));
  const after = await serverMemory(server, true);
  console.log(
    `bench/slow-bodies: ${environment()}; ${CLIENTS} clients × ${BODY_MIB} MiB bodies one byte short, ` +
      `requestTimeout ${REQUEST_TIMEOUT} ms`,
  );
  printTable(
    ['measure', 'value'],
    [
      ['connections the server ended', `${ended.length} of ${CLIENTS}`],
      ['the first ended after', ended.length ? `${(Math.min(...ended) / 1000).toFixed(1)} s` : '-'],
      ['the last ended after', ended.length ? `${(Math.max(...ended) / 1000).toFixed(1)} s` : '-'],
      ['RSS before (after GC)', mib(before.rss)],
      ['RSS, peak while held', mib(peakRss)],
      ['external (buffers), peak while held', mib(peakExternal)],
      ['RSS after (after GC)', mib(after.rss)],
      ['heap used after (after GC)', mib(after.heapUsed)],
      ['external after (after GC)', mib(after.external)],
    ],
  );
});
