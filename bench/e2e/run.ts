// End to end on node:http: a 20-item page and its htmx partial, served by raw node:http (alone, and with an
// AsyncLocalStorage store per request), Fastify 5, Hono 4 and pagetree's page pipeline, each a child process (server.tsx). Every server must first answer both with the same
// status, content-type, vary and body bytes; lib/server-bench.ts then times them in interleaved rounds (the full page,
// then the partial, in each), ratios to raw node:http; then pagetree's goals against each peer.
//
//   npm run bench:e2e            (ROUNDS=3 npm run bench:e2e for a quick look)
//   KINDS=node:http,pagetree LOADER=wrk npm run bench:e2e      some servers only, loaded by wrk
//   BASE=/tmp/base npm run bench:e2e       and `pagetree@base`: the same server from another checkout (main.ts's baseRoot)

import { chosenKinds, withBase } from '../lib/main.ts';
import { fail, formatRatio, printTable } from '../lib/report.ts';
import { ratioOf, runBench, type Results } from '../lib/server-bench.ts';
import { framing, send, startServerOrBase, type Server } from '../lib/servers.ts';
import { contentType, listPath, loadVariants, vary, LIST_ID } from './page.tsx';
import { kinds as serverKinds } from './server.tsx';

const all = withBase(serverKinds, 'pagetree');
type Kind = (typeof all)[number];
const kinds = chosenKinds(all);
const variants = loadVariants();

const start = (kind: Kind, pin: boolean) => startServerOrBase('bench/e2e/server.tsx', kind, { pin });

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

// pagetree against each peer, both ways of counting: req/s, and requests per
// server CPU-second (the peer's CPU/req over pagetree's), which holds steadier
// when neither side keeps its core busy.
function printGoals(servers: readonly Server<Kind>[], results: Results): void {
  // Issue 28's: on Node 24 (AsyncLocalStorage on AsyncContextFrame) against every peer; on 20 and 22, Fastify's.
  const node24 = Number(process.versions.node.split('.')[0]) >= 24;
  const goals: [Kind, number][] = node24
    ? [
        ['fastify', 1.15],
        ['hono', 1.25],
        ['node:http', 0.95],
        ['node:http+als', 0.95],
        ['pagetree@base', 1.0],
      ]
    : [
        ['fastify', 1.0],
        ['pagetree@base', 1.0],
      ];
  const p = servers.findIndex((s) => s.kind === 'pagetree');
  if (p < 0) return;
  const rows: string[][] = [];
  for (const [peer, goal] of goals) {
    const k = servers.findIndex((s) => s.kind === peer);
    if (k < 0) continue;
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

runBench({ name: 'bench/e2e', start, kinds, cases: variants, check, rounds: 10 }, printGoals);
