// End to end on node:http: a 20-item page and its htmx partial, served by raw
// node:http, Fastify 5, Hono 4 and pagetree's page pipeline.
//
//   npm run bench:e2e
//
// Each server is a child process (`node --import tsx bench/e2e/server.tsx
// <kind>`) on 127.0.0.1, pinned to core 0 when `taskset` exists; autocannon
// runs in this process, pinned to core 1. First every server must answer the
// full page and the partial with the same status, content-type and bytes
// (nothing is timed otherwise). Then, after a warm-up, rounds: in each, for the
// full page and then the partial, the servers take turns (round-robin, a
// different one first each round). The tables give medians of the rounds and
// the medians of the per-round ratios to raw node:http; then the goals.

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
import { contentType, fullPage, listPath, loadList, partialHeaders, partialPage, vary, LIST_ID } from './page.tsx';
import { kinds, type Kind } from './server.tsx';

// Overridable from the environment, e.g. ROUNDS=3 npm run bench:e2e for a quick look.
const ROUNDS = setting('ROUNDS', 10);
const ROUND_SECONDS = setting('ROUND_SECONDS', 2);
const WARMUP_SECONDS = setting('WARMUP_SECONDS', 2);
const CONNECTIONS = 32;
/** Past this the run gives up, kills its servers and exits non-zero. */
const DEADLINE_MS = 6 * 60_000;

interface Variant {
  name: 'full' | 'partial';
  headers: Record<string, string>;
  want: Buffer;
}

const list = loadList('groceries');
const variants: Variant[] = [
  { name: 'full', headers: {}, want: Buffer.from(fullPage(list)) },
  { name: 'partial', headers: { ...partialHeaders }, want: Buffer.from(partialPage(list)) },
];

/** Fails unless every server answers both variants with the same status, content-type and bytes. */
async function check(servers: readonly Server<Kind>[]): Promise<void> {
  const [full, partial] = [variants[0]!.want.toString(), variants[1]!.want.toString()];
  if (!full.includes(`<section id="${LIST_ID}">${partial}</section>`) || partial.startsWith('<!doctype')) {
    fail('the full page does not hold the partial inside its list container');
  }
  const rows: string[][] = [];
  for (const v of variants) {
    for (const s of servers) {
      const a = await send(s.port, { path: listPath, headers: v.headers });
      const what = `${s.kind}, ${v.name}`;
      if (a.status !== 200) fail(`${what}: status ${a.status}`);
      if (a.headers['content-type'] !== contentType) fail(`${what}: content-type ${a.headers['content-type']}`);
      if (a.headers.vary !== vary) fail(`${what}: vary ${a.headers.vary}`);
      if (!a.body.equals(v.want)) {
        fail(`${what}: the body (${a.body.length} B) differs from the expected ${v.want.length} bytes`);
      }
      rows.push([
        s.kind,
        v.name,
        String(a.status),
        String(a.headers['content-type']),
        `${a.body.length} B`,
        framing(a),
      ]);
    }
  }
  console.log(
    `check: every server answers GET ${listPath}, and with HX-Request/HX-Target: ${LIST_ID} its list alone, ` +
      'with the same status, content-type, vary and body.',
  );
  printTable(['server', 'variant', 'status', 'content-type', 'body', 'framing'], rows);
}

/** Medians of the per-round ratios a/b (the machine's speed drifts between rounds). */
function ratioOf(a: readonly Round[], b: readonly Round[], f: (r: Round) => number): number {
  return median(a.map((r, i) => f(r) / f(b[i]!)));
}

function printResults(v: Variant, servers: readonly Server<Kind>[], rounds: readonly Round[][]): void {
  const base = rounds[0]!;
  console.log(
    `\n${v.name}: GET ${listPath}${v.name === 'partial' ? ` + HX-Target: ${LIST_ID}` : ''} (${v.want.length} B of ` +
      `HTML): medians of ${ROUNDS} rounds (ratios: median of the per-round ratios; spread: half the IQR)`,
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
    servers.map((s, k) => {
      const rs = rounds[k]!;
      return [
        s.kind,
        formatInt(median(rs.map((r) => r.rps))),
        `±${spreadPercent(rs.map((r) => r.rps)).toFixed(1)}%`,
        formatRatio(ratioOf(rs, base, (r) => r.rps)),
        `${median(rs.map((r) => r.cpuPerReq)).toFixed(1)} µs`,
        `±${spreadPercent(rs.map((r) => r.cpuPerReq)).toFixed(1)}%`,
        formatRatio(ratioOf(rs, base, (r) => r.cpuPerReq)),
        `${median(rs.map((r) => r.serverBusy)).toFixed(0)}%`,
        `${median(rs.map((r) => r.loadBusy)).toFixed(0)}%`,
      ];
    }),
  );
}

// pagetree against each peer, both ways of counting: req/s, and requests per
// server CPU-second (the peer's CPU/req over pagetree's), which holds steadier
// when neither side keeps its core busy.
function printGoals(servers: readonly Server<Kind>[], results: Map<Variant, Round[][]>): void {
  const goals: [Kind, number][] = [
    ['fastify', 1.0],
    ['hono', 1.1],
    ['node:http', 0.85],
  ];
  const p = servers.findIndex((s) => s.kind === 'pagetree');
  const rows: string[][] = [];
  for (const [peer, goal] of goals) {
    const k = servers.findIndex((s) => s.kind === peer);
    for (const v of variants) {
      const rounds = results.get(v)!;
      const byRps = ratioOf(rounds[p]!, rounds[k]!, (r) => r.rps);
      const byCpu = ratioOf(rounds[k]!, rounds[p]!, (r) => r.cpuPerReq);
      const met = (x: number) => (x >= goal ? 'met' : 'not met');
      rows.push([
        `≥ ${goal.toFixed(2)}× ${peer}`,
        v.name,
        formatRatio(byRps),
        met(byRps),
        formatRatio(byCpu),
        met(byCpu),
      ]);
    }
  }
  console.log('\ngoals: pagetree vs its peers, medians of the per-round ratios');
  printTable(['goal', 'variant', 'req/s ratio', 'by req/s', 'req per CPU-s ratio', 'by CPU/req'], rows);
}

async function main(): Promise<void> {
  startDeadline(DEADLINE_MS, 'bench/e2e');
  console.log(`bench/e2e: ${environment()}`); // before pinning, which makes nproc 1
  const pin = canPin();
  if (pin) pinSelf();
  console.log(
    pin
      ? 'servers pinned to core 0 (taskset -c 0), autocannon (this process) to core 1.'
      : 'not pinned (no taskset, or a single core): numbers are less comparable across machines.',
  );
  console.log(
    `autocannon: ${CONNECTIONS} connections, no pipelining; warm-up ${WARMUP_SECONDS} s per server and variant, ` +
      `then ${ROUNDS} rounds × ${ROUND_SECONDS} s per server and variant, round-robin.`,
  );

  const servers: Server<Kind>[] = [];
  for (const kind of kinds) servers.push(await startServer('bench/e2e/server.tsx', kind, { pin }));
  await check(servers);

  const load = (s: Server<Kind>, v: Variant, seconds: number) =>
    loadRound(s, { path: listPath, headers: v.headers, seconds, connections: CONNECTIONS });
  for (const v of variants) for (const s of servers) await load(s, v, WARMUP_SECONDS);
  const results = new Map<Variant, Round[][]>(variants.map((v) => [v, servers.map(() => [])]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const v of variants) {
      for (let j = 0; j < servers.length; j++) {
        const k = (round + j) % servers.length;
        const r = await load(servers[k]!, v, ROUND_SECONDS);
        results.get(v)![k]!.push(r);
        process.stderr.write(
          `  round ${round + 1}/${ROUNDS} ${v.name} ${servers[k]!.kind}: ${formatInt(r.rps)} req/s, ` +
            `${r.cpuPerReq.toFixed(1)} µs CPU/req\n`,
        );
      }
    }
  }
  for (const v of variants) printResults(v, servers, results.get(v)!);
  printGoals(servers, results);
}

main()
  .catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(stopAll);
