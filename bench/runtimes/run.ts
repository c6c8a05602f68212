// bench/e2e's page and its htmx partial on Bun, Deno and Node 24: raw Bun.serve, Hono on Bun, Elysia and pagetree's
// mux.fetch in Bun.serve (bun.ts); raw Deno.serve, Hono on Deno and pagetree's mux.fetch in Deno.serve (deno.ts); on
// each, the raw server inside AsyncLocalStorage.run (apps.ts's alsFetch: what a request context costs, as bench/e2e's
// node:http+als) and the same mux without mux.fetch's wrapper (apps.ts's directFetch: the least a native adapter
// could cost); and bench/e2e's own servers (node:http, node:http+als, Fastify, Hono, pagetree) on Node 24, compiled.
// Each is a child process pinned to core 0, its CPU time read from /proc; wrk loads it from core 1.
// Every server must first answer both requests alike (below); lib/server-bench.ts then times them in interleaved
// rounds, all of them in each, ratios to raw Bun.serve; then pagetree's goals against its peers on the same runtime.
//
//   npm run bench:runtimes       (ROUNDS=3 npm run bench:runtimes for a quick look; KINDS=a,b for some servers)
//   BASE=/tmp/base npm run bench:runtimes     and pagetree@base on Bun, Deno and Node: another checkout's source (its
//                                             own node_modules; for Node its build/, as npm run bench:runtimes builds)

import { execFileSync } from 'node:child_process';
import { contentType, listPath, loadVariants, vary, LIST_ID } from '../e2e/page.tsx';
import { environment, setting } from '../lib/main.ts';
import { fail, formatInt, formatRatio, median, printTable } from '../lib/report.ts';
import { rotation } from '../lib/rounds.ts';
import { framing, pinLoad, runServers, send, type Server } from '../lib/servers.ts';
import { wrkVersion } from '../lib/wrk.ts';
import { quantile, sliceRound, type Slice } from './slices.ts';
import { binary, chosenServers, servers, start, type Kind, type Runtime } from './servers.ts';

// KINDS=Bun.serve,pagetree\ on\ Bun,… runs only those (the goals whose two servers both run are printed). The first
// is the baseline of the tables.
const kinds = chosenServers();

/** pagetree against each peer on its runtime: the goals (issues 28 and 43). */
const goals: [Kind, Kind, number][] = [
  // pagetree/bun's serve(mux) is how pagetree is served on Bun; mux.fetch in Bun.serve is the other way.
  ['pagetree/bun', 'hono on Bun', 1.0],
  ['pagetree/bun', 'elysia', 1.0],
  ['pagetree/bun', 'Bun.serve', 0.9],
  ['pagetree on Bun', 'hono on Bun', 1.0],
  ['pagetree on Bun', 'elysia', 1.0],
  ['pagetree on Bun', 'Bun.serve', 0.9],
  ['pagetree on Deno', 'hono on Deno', 1.0],
  ['pagetree on Deno', 'Deno.serve', 0.95],
  // Node 24, the speed reference: within 3% of raw node:http, and no slower than the tree of 2026-11-25 (BASE).
  ['pagetree on Node', 'node:http', 0.97],
  ['pagetree on Node', 'pagetree@base on Node', 1.0],
  ['pagetree on Node', 'fastify', 1.0],
  ['pagetree on Node', 'hono on Node', 1.0],
  // Not a goal: pagetree against the raw server with a request context (AsyncLocalStorage), as bench/e2e's
  // node:http+als: what pagetree's own code costs, apart from what the runtime charges for the context.
  ['pagetree/bun', 'Bun.serve+als', 1.0],
  ['pagetree on Bun', 'Bun.serve+als', 1.0],
  ['pagetree on Deno', 'Deno.serve+als', 1.0],
  ['pagetree on Node', 'node:http+als', 1.0],
  // Not a goal: whether a native adapter could be measurably cheaper than mux.fetch (apps.ts's directFetch).
  ['pagetree/bun', 'pagetree direct on Bun', 1.0],
  ['pagetree/bun', 'pagetree on Bun', 1.0],
  ['pagetree on Bun', 'pagetree direct on Bun', 1.0],
  ['pagetree on Deno', 'pagetree direct on Deno', 1.0],
  // Not a goal: this checkout against BASE's.
  ['pagetree/bun', 'pagetree@base on Bun', 1.0],
  ['pagetree on Bun', 'pagetree@base on Bun', 1.0],
  ['pagetree on Deno', 'pagetree@base on Deno', 1.0],
];

const variants = loadVariants();

// @kitajs/html escapes with Bun.escapeHTML on Bun, which writes `"`, `'` and `>` as &quot;, &#x27; and &gt; where
// its own escaping (Node, Deno) writes &#34;, &#39; and a bare `>`: the same HTML, other bytes. So the bytes must be
// the same within a runtime, and the same as Node's once those three are written alike.
function sameHtml(html: string): string {
  return html.replaceAll('&quot;', '&#34;').replaceAll('&#x27;', '&#39;').replaceAll('&gt;', '>');
}

/**
 * Fails unless every server answers both variants with status 200, the same content-type and vary, and the same
 * body as every other server of its runtime, which is bench/e2e's page (on Bun, escaped by Bun.escapeHTML).
 */
async function check(started: readonly Server<Kind>[]): Promise<void> {
  const rows: string[][] = [];
  for (const v of variants) {
    const byRuntime = new Map<Runtime, { kind: Kind; body: Buffer }>();
    for (const s of started) {
      const a = await send(s.port, { path: listPath, headers: v.headers });
      const what = `${s.kind}, ${v.name}`;
      if (a.status !== 200) fail(`${what}: status ${a.status}`);
      if (a.headers['content-type'] !== contentType) fail(`${what}: content-type ${a.headers['content-type']}`);
      if (a.headers.vary !== vary) fail(`${what}: vary ${a.headers.vary}`);
      if (sameHtml(a.body.toString()) !== sameHtml(v.want.toString())) {
        fail(`${what}: the body (${a.body.length} B) is not bench/e2e's page (${v.want.length} B on Node)`);
      }
      const runtime = servers[s.kind][0];
      const first = byRuntime.get(runtime) ?? { kind: s.kind, body: a.body };
      byRuntime.set(runtime, first);
      if (!a.body.equals(first.body)) fail(`${what}: the body differs from ${first.kind}'s, byte for byte`);
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
    `check: every server answers GET ${listPath}, and with HX-Request/HX-Target: ${LIST_ID} its list alone, with ` +
      'the same status, content-type and vary, and the same body bytes as the others on its runtime (Bun escapes ' +
      `", ' and > as &quot; &#x27; &gt;).`,
  );
  printTable(['server', 'variant', 'status', 'content-type', 'body', 'framing'], rows);
}

/** Per variant, per server (in `kinds` order), its slices. */
type Results = Map<(typeof variants)[number], Slice[][]>;

const cpuPerReq = (s: Slice) => s.cpu / s.requests;
/** A server's CPU per request (µs): the lower quartile of its slices. */
const lowerQuartile = (slices: readonly Slice[]) => quantile(slices.map(cpuPerReq), 0.25);

// One table per variant: req/s (median of the slices), CPU per request (lower quartile, and the median beside it),
// both as ratios to the first server (its lower quartile over this one's: > 1 is cheaper).
function printSlices(started: readonly Server<Kind>[], results: Results): void {
  for (const v of variants) {
    const slices = results.get(v)!;
    const first = lowerQuartile(slices[0]!);
    console.log(`\n${v.name}: GET ${listPath}: ${slices[0]!.length} slices a server (CPU/req: lower quartile, median)`);
    printTable(
      ['server', 'req/s', 'CPU/req (q1)', 'CPU/req (median)', `req per CPU-s vs ${started[0]!.kind}`, 'busy'],
      started.map((s, k) => {
        const mine = slices[k]!;
        return [
          s.kind,
          formatInt(median(mine.map((x) => x.requests / x.seconds))),
          `${lowerQuartile(mine).toFixed(1)} µs`,
          `${median(mine.map(cpuPerReq)).toFixed(1)} µs`,
          formatRatio(first / lowerQuartile(mine)),
          `${median(mine.map((x) => x.cpu / (x.seconds * 1e4))).toFixed(0)}%`,
        ];
      }),
    );
  }
}

// pagetree against each peer on its runtime: requests per server CPU-second, the peer's lower quartile of CPU/req
// over pagetree's.
function printGoals(started: readonly Server<Kind>[], results: Results): void {
  const at = (kind: Kind) => started.findIndex((s) => s.kind === kind);
  const rows: string[][] = [];
  for (const [subject, peer, goal] of goals) {
    if (at(subject) < 0 || at(peer) < 0) continue;
    for (const v of variants) {
      const slices = results.get(v)!;
      const ratio = lowerQuartile(slices[at(peer)]!) / lowerQuartile(slices[at(subject)]!);
      rows.push([
        subject,
        `≥ ${goal.toFixed(2)}× ${peer}`,
        v.name,
        formatRatio(ratio),
        ratio >= goal ? 'met' : 'not met',
      ]);
    }
  }
  console.log(
    '\ngoals: pagetree vs its peers on the same runtime, requests per CPU-second (lower quartiles of CPU/req)',
  );
  printTable(['server', 'goal', 'variant', 'ratio', 'goal'], rows);
}

const rounds = setting('ROUNDS', 3);
const perRound = setting('SLICES', 6);
const sliceSeconds = setting('SLICE_SECONDS', 1);
const warmupSeconds = setting('WARMUP_SECONDS', 2);
const CONNECTIONS = 32;
const loadSeconds = kinds.length * variants.length * (warmupSeconds + rounds * perRound * (sliceSeconds + 0.1));
runServers('bench/runtimes', (2 * loadSeconds + 120) * 1000, async () => {
  const bunVersion = execFileSync(binary('bun'), ['--version'], { encoding: 'utf8' }).trim();
  const denoVersion = execFileSync(binary('deno'), ['--version'], { encoding: 'utf8' }).split('\n')[0]!.trim();
  const nodeVersion = execFileSync(binary('node'), ['--version'], { encoding: 'utf8' }).trim();
  const about = `bun ${bunVersion}, ${denoVersion.replace(/ \(.*/, '')}, node ${nodeVersion}, ${wrkVersion().replace(/ \[.*/, '')}`;
  console.log(`bench/runtimes: ${environment()}; ${about}`);
  const pin = pinLoad('wrk (one thread)');
  console.log(
    `wrk: ${CONNECTIONS} connections, no pipelining; warm-up ${warmupSeconds} s per server and variant, then ` +
      `${rounds} rounds × ${perRound} slices × ${sliceSeconds} s per server and variant, interleaved.`,
  );
  const started: Server<Kind>[] = [];
  for (const kind of kinds) started.push(await start(kind, pin));
  await check(started);

  const load = (s: Server<Kind>, v: (typeof variants)[number], seconds: number) =>
    sliceRound(s, { path: listPath, headers: v.headers, seconds, connections: CONNECTIONS }, pin);
  for (const v of variants) for (const s of started) await load(s, v, warmupSeconds);
  const results: Results = new Map(variants.map((v) => [v, started.map(() => [])]));
  // Slice after slice, every variant and every server in each, the first server moving by one each time: drift and
  // a neighbour's burst weigh on all alike.
  for (let slice = 0; slice < rounds * perRound; slice++) {
    for (const v of variants) {
      for (const k of rotation(started.length, slice))
        results.get(v)![k]!.push(await load(started[k]!, v, sliceSeconds));
    }
    process.stderr.write(`  slice ${slice + 1}/${rounds * perRound}\n`);
  }
  printSlices(started, results);
  printGoals(started, results);
});
