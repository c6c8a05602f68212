// End-to-end HTTP throughput on node:http for GET /hello/{name} answering
// ~2 KB of HTML: raw node:http, pagetree (LiteResponse and real Response),
// and Hono on @hono/node-server.
//
//   npm run bench:adapter
//
// Each server runs in its own child process (`node --import tsx
// bench/adapter/server.ts <kind>`) on 127.0.0.1, pinned to core 0 when
// `taskset` exists; autocannon runs in this process, pinned to core 1. The
// servers must first give the same status, content-type and bytes of body
// (nothing is timed otherwise). Then, after a warm-up, the servers take turns
// in rounds (round-robin, a different one first each round), and the table
// gives the median req/s and the server's CPU time per request, with ratios
// to raw node:http from the same run.

import { loadRound, type Round } from '../lib/load.ts';
import { environment, fail, formatInt, formatRatio, median, printTable, spreadPercent } from '../lib/report.ts';
import {
  canPin,
  framing,
  pinSelf,
  send,
  setting,
  startDeadline,
  startServer,
  stopAll,
  type Server,
} from '../lib/servers.ts';
import { contentType, helloPage, helloPath } from './page.ts';
import { kinds, type Kind } from './server.ts';

// Overridable from the environment, e.g. ROUNDS=3 ROUND_SECONDS=2 npm run bench:adapter for a quick look.
const ROUNDS = setting('ROUNDS', 12);
const ROUND_SECONDS = setting('ROUND_SECONDS', 2);
const WARMUP_SECONDS = setting('WARMUP_SECONDS', 3);
const CONNECTIONS = 32;
/** Past this the run gives up, kills its servers and exits non-zero. */
const DEADLINE_MS = 6 * 60_000;

/** Fails unless every server answers the page with the same status, content-type and bytes. */
async function check(servers: readonly Server<Kind>[]): Promise<void> {
  const want = Buffer.from(helloPage('world'));
  const rows: string[][] = [];
  for (const s of servers) {
    const a = await send(s.port, { path: helloPath });
    if (a.status !== 200) fail(`${s.kind}: status ${a.status}`);
    if (a.headers['content-type'] !== contentType) fail(`${s.kind}: content-type ${a.headers['content-type']}`);
    if (!a.body.equals(want)) fail(`${s.kind}: the body differs from the expected ${want.length} bytes`);
    rows.push([s.kind, String(a.status), String(a.headers['content-type']), `${a.body.length} B`, framing(a)]);
  }
  console.log(`check: every server answers GET ${helloPath} with the same status, content-type and body.`);
  printTable(['server', 'status', 'content-type', 'body', 'framing'], rows);
}

function load(s: Server<Kind>, seconds: number): Promise<Round> {
  return loadRound(s, { path: helloPath, seconds, connections: CONNECTIONS });
}

async function main(): Promise<void> {
  startDeadline(DEADLINE_MS, 'bench/adapter');

  console.log(`bench/adapter: ${environment()}`); // before pinning, which makes nproc 1
  const pin = canPin();
  if (pin) pinSelf();
  console.log(
    pin
      ? 'servers pinned to core 0 (taskset -c 0), autocannon (this process) to core 1.'
      : 'not pinned (no taskset, or a single core): numbers are less comparable across machines.',
  );
  console.log(
    `autocannon: ${CONNECTIONS} connections, no pipelining; warm-up ${WARMUP_SECONDS} s per server, ` +
      `then ${ROUNDS} rounds × ${ROUND_SECONDS} s per server, round-robin.`,
  );

  const servers: Server<Kind>[] = [];
  for (const kind of kinds) servers.push(await startServer('bench/adapter/server.ts', kind, { pin }));
  await check(servers);

  for (const s of servers) await load(s, WARMUP_SECONDS);
  const rounds: Round[][] = servers.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (let j = 0; j < servers.length; j++) {
      const k = (round + j) % servers.length;
      const r = await load(servers[k]!, ROUND_SECONDS);
      rounds[k]!.push(r);
      process.stderr.write(`  round ${round + 1}/${ROUNDS} ${servers[k]!.kind}: ${formatInt(r.rps)} req/s\n`);
    }
  }

  const med = (k: number, f: (r: Round) => number) => median(rounds[k]!.map(f));
  // Ratios to node:http within each round (the machine's speed drifts between rounds), then their median.
  const ratio = (k: number, f: (r: Round) => number) => rounds[k]!.map((r, i) => f(r) / f(rounds[0]![i]!));
  console.log(
    `\nGET ${helloPath} (${Buffer.byteLength(helloPage('world'))} B of HTML): medians of ${ROUNDS} rounds ` +
      '(ratios: median of the per-round ratios; spread: half the interquartile range)',
  );
  printTable(
    [
      'server',
      'req/s',
      'spread',
      'vs node:http',
      'server CPU/req',
      'spread',
      'vs node:http',
      'server busy',
      'autocannon busy',
    ],
    servers.map((s, k) => [
      s.kind,
      formatInt(med(k, (r) => r.rps)),
      `±${spreadPercent(rounds[k]!.map((r) => r.rps)).toFixed(1)}%`,
      formatRatio(median(ratio(k, (r) => r.rps))),
      `${med(k, (r) => r.cpuPerReq).toFixed(1)} µs`,
      `±${spreadPercent(rounds[k]!.map((r) => r.cpuPerReq)).toFixed(1)}%`,
      formatRatio(median(ratio(k, (r) => r.cpuPerReq))),
      `${med(k, (r) => r.serverBusy).toFixed(0)}%`,
      `${med(k, (r) => r.loadBusy).toFixed(0)}%`,
    ]),
  );
}

main()
  .catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(stopAll);
