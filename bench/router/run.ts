// Route-match throughput: pagetree's ServeMux against find-my-way and Hono's routers (contenders.ts), on the GitHub
// REST API table of routes.ts.
//
//   npm run bench:router              (BENCH_DEBUG=1 also prints every round; ROUNDS=5 for a quick look)
//
// First every router must pick the same route with the same path values for every request (nothing is timed
// otherwise); then lib/micro.ts times them in interleaved rounds, and the table gives median ops/s and the median
// of the per-round ratios to find-my-way. Three tables, each in a process of its own:
// - full: all routes. Hono's RegExpRouter refuses this table (a literal segment beside a parameter, e.g.
//   /gists/public and /gists/:gist_id, is an UnsupportedPathError by design), so Hono runs its default router,
//   SmartRouter, which then settles on its TrieRouter.
// - misses: only the requests that match no route (for ServeMux, 404 or 405).
// - regexp: the routes RegExpRouter accepts, for all routers.

import { spawnSync } from 'node:child_process';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import { SmartRouter } from 'hono/router/smart-router';
import { TrieRouter } from 'hono/router/trie-router';
import { environment, runMain, setting } from '../lib/main.ts';
import { timeOps } from '../lib/micro.ts';
import {
  fail,
  formatInt,
  formatRatio,
  formatSpread,
  median,
  medianRatio,
  printTable,
  roundRatios,
} from '../lib/report.ts';
import { casesFor, findMyWay, hono, regExpRouterSubset, serveMux, type Case, type Contender } from './contenders.ts';
import { routes } from './routes.ts';

const TIMING = { rounds: setting('ROUNDS', 25), roundMs: 50, warmupMs: 1000 };

function check(contenders: readonly Contender[], cases: readonly Case[]): void {
  for (const c of cases) {
    const want = JSON.stringify({ route: c.route, params: c.params });
    for (const k of contenders) {
      const a = k.answer(c);
      // ServeMux.handler() does not expose path values: its params are checked through serveHTTP().
      const params = k.name === 'ServeMux.handler' ? c.params : a.params;
      const got = JSON.stringify({ route: a.route, params: sortKeys(params) });
      if (got !== JSON.stringify({ route: c.route, params: sortKeys(c.params) })) {
        fail(`${k.name}: ${c.method} ${c.path} → ${got}, want ${want}`);
      }
    }
  }
}

function sortKeys(o: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1)));
}

async function report(title: string, contenders: readonly Contender[], cases: readonly Case[]): Promise<void> {
  const baseline = 'find-my-way';
  const perRound = await timeOps(contenders, { ...TIMING, opsPerRep: cases.length });
  if (process.env.BENCH_DEBUG) {
    for (const [i, k] of contenders.entries()) {
      console.log(k.name, perRound[i]!.map((x) => Math.round(x / 1000)).join(' '));
    }
  }
  const base = perRound[contenders.findIndex((k) => k.name === baseline)]!;
  console.log(`\n${title}`);
  printTable(
    ['router', 'median ops/s', 'spread', `vs ${baseline}`, 'spread'],
    contenders.map((k, i) => [
      k.name,
      formatInt(median(perRound[i]!)),
      formatSpread(perRound[i]!),
      formatRatio(medianRatio(perRound[i]!, base)),
      formatSpread(roundRatios(perRound[i]!, base)),
    ]),
  );
}

// Each table runs in a process of its own, so that one router's JIT state
// (inline caches warmed on other instances or request sets) does not leak
// into the next table: an app has one router.
const tables = {
  async full(): Promise<void> {
    const all = routes.map((_, i) => i);
    const cases = casesFor(all);
    const missCount = cases.filter((c) => c.route < 0).length;
    const smart = new SmartRouter<number>({ routers: [new RegExpRouter(), new TrieRouter()] });
    const contenders = [...serveMux(all, cases), findMyWay(all, cases), hono('hono SmartRouter', smart, all, cases)];
    check(contenders, cases);
    console.log(
      `check: ${cases.length} requests (${routes.length} routes, ${missCount} misses) give the same route and ` +
        `path values in every router. Hono's SmartRouter picked: ${smart.name}.`,
    );
    await report(`All ${routes.length} routes, ${cases.length} requests (${missCount} misses)`, contenders, cases);
  },
  async misses(): Promise<void> {
    const all = routes.map((_, i) => i);
    const cases = casesFor(all).filter((c) => c.route < 0);
    const smart = new SmartRouter<number>({ routers: [new RegExpRouter(), new TrieRouter()] });
    const contenders = [...serveMux(all, cases), findMyWay(all, cases), hono('hono SmartRouter', smart, all, cases)];
    check(contenders, cases);
    await report(
      `Misses only: the ${cases.length} requests that match no route (ServeMux: 404 or 405)`,
      contenders,
      cases,
    );
  },
  async regexp(): Promise<void> {
    const { kept, refused } = regExpRouterSubset();
    const cases = casesFor(kept);
    const contenders = [
      serveMux(kept, cases)[0],
      findMyWay(kept, cases),
      hono('hono RegExpRouter', new RegExpRouter(), kept, cases),
    ];
    check(contenders, cases);
    console.log(
      `check: RegExpRouter refuses ${refused.length} of the ${routes.length} routes (first: ${refused[0]}); ` +
        `on the other ${kept.length} (${cases.length} requests) all routers agree.`,
    );
    await report(`The ${kept.length} routes RegExpRouter accepts, ${cases.length} requests`, contenders, cases);
  },
};

async function main(): Promise<void> {
  const table = process.argv.find((a) => a.startsWith('--table='))?.slice('--table='.length);
  if (table !== undefined) {
    if (!(table in tables)) throw new Error(`unknown table ${table}; one of ${Object.keys(tables).join(', ')}`);
    await tables[table as keyof typeof tables]();
    return;
  }
  console.log(`bench/router: ${environment()}`);
  console.log(
    `${TIMING.warmupMs} ms warm-up, then ${TIMING.rounds} interleaved rounds of ~${TIMING.roundMs} ms per router, ` +
      'one process per table; ' +
      `median ops/s (one op = one match) and median of the per-round ratios; spread = half the interquartile range.`,
  );
  for (const name of Object.keys(tables)) {
    const r = spawnSync(process.execPath, [...process.execArgv, __filename, `--table=${name}`], {
      stdio: 'inherit',
      timeout: 120_000,
    });
    if (r.status !== 0) {
      throw new Error(`bench/router: table ${name} failed (${r.error?.message ?? r.signal ?? `exit ${r.status}`})`);
    }
  }
}

runMain(main);
