// Route-match throughput: pagetree's ServeMux against find-my-way and Hono's
// routers, on the GitHub REST API table of routes.ts.
//
//   npm run bench:router              (BENCH_DEBUG=1 also prints every round)
//
// First it checks, for every request, that each router picks the same route
// with the same path values (and fails before timing anything if not). Then,
// after a warm-up, it times the routers in interleaved rounds (round-robin, a
// different one first each round) and prints the median ops/s and the median
// of the per-round ratios to find-my-way.
//
// Three tables, each in a process of its own:
// - full: all routes. Hono's RegExpRouter refuses this table (a literal
//   segment beside a parameter, e.g. /gists/public and /gists/:gist_id, is an
//   UnsupportedPathError by design), so Hono runs its default router,
//   SmartRouter, which then settles on its TrieRouter.
// - misses: only the requests that match no route (for ServeMux, 404 or 405).
// - regexp: the routes RegExpRouter accepts, for all routers.

import FindMyWay from 'find-my-way';
import { spawnSync } from 'node:child_process';
import { UnsupportedPathError, type Result } from 'hono/router';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import { SmartRouter } from 'hono/router/smart-router';
import { TrieRouter } from 'hono/router/trie-router';
import { ServeMux, type HandlerMatch, type PageRequest } from '../../core/index.ts';
import type { Handler } from '../../core/mux/request.ts';
import { environment, runMain, setting } from '../lib/main.ts';
import { timeOps, type Timed } from '../lib/micro.ts';
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
import { targetRequest } from './request.ts';
import { misses, routes, samplePath, sampleValue, splitRoute, toFindMyWay, toHono, wildcards } from './routes.ts';

const TIMING = { rounds: setting('ROUNDS', 25), roundMs: 50, warmupMs: 1000 };
const HOST = 'api.github.com';

/** One request of the request set, with the answer every router must give. */
interface Case {
  method: string;
  path: string;
  /** Index in the table of the route that must match, or -1 for none. */
  route: number;
  params: Record<string, string>;
}

/** What a router answered: the route index (-1 for none) and the path values. */
interface Answer {
  route: number;
  params: Record<string, string>;
}

/** A router under test: `answer` is for the check, `run` is what gets timed. */
interface Contender extends Timed {
  name: string;
  answer(c: Case): Answer;
  /** Matches every request `reps` times; returns a checksum so nothing is optimised away. */
  run(reps: number): number;
}

function casesFor(table: readonly number[]): Case[] {
  const cases: Case[] = table.map((i) => {
    const [method, path] = splitRoute(routes[i]!);
    const params = Object.fromEntries(wildcards(path).map((w) => [w.name, sampleValue(w)]));
    return { method, path: samplePath(path), route: i, params };
  });
  for (const [method, path] of misses) cases.push({ method, path, route: -1, params: {} });
  return cases;
}

function benchRequest(c: Case): Request {
  return targetRequest(c.method, HOST, c.path);
}

// Two contenders on one ServeMux:
// - handler(): the match itself (host, method, cleaned path, precedence, the
//   404/405/redirect decision); the path values are found but not exposed.
// - serveHTTP(): the match plus what a handler needs: the path values set on
//   the request, the handler called (it returns a prebuilt Response), and for
//   a miss the mux's own 404/405 response.
function serveMux(table: readonly number[], cases: readonly Case[]): [Contender, Contender] {
  const mux = new ServeMux();
  const index = new Map<Handler, number>();
  const ok = new Response('ok');
  let seen: Answer | undefined;
  let capture = false;
  for (const i of table) {
    const names = wildcards(splitRoute(routes[i]!)[1]).map((w) => w.name);
    const h = (req: PageRequest) => {
      if (capture) seen = { route: i, params: Object.fromEntries(names.map((n) => [n, req.pathValue(n)])) };
      return ok;
    };
    mux.handle(routes[i]!, h, `routes.ts:${i}`);
    index.set(h, i);
  }
  const reqs = cases.map(benchRequest);
  const viaHandler: Contender = {
    name: 'ServeMux.handler',
    answer(c) {
      const fast = mux.handler(benchRequest(c));
      const viaReal = mux.handler(new Request(`https://${HOST}${c.path}`, { method: c.method }));
      // (The mux's own 405 and redirect handlers are made per request: compare those by pattern only.)
      if (fast.pattern !== viaReal.pattern || (index.get(fast.handler) ?? -1) !== (index.get(viaReal.handler) ?? -1)) {
        fail(`ServeMux: ${c.method} ${c.path} routes differently with a real Request`);
      }
      const route = index.get(fast.handler) ?? -1;
      if (route >= 0 && fast.pattern !== routes[route]) fail(`ServeMux: pattern ${fast.pattern} for ${routes[route]}`);
      return { route, params: {} };
    },
    run: (reps) => runServeMuxHandler(mux, reqs, reps),
  };
  const viaServe: Contender = {
    name: 'ServeMux.serveHTTP',
    // The route and path values as the handler sees them.
    answer(c) {
      seen = undefined;
      capture = true;
      const res = mux.serveHTTP(benchRequest(c));
      capture = false;
      if (res instanceof Promise) fail('ServeMux.serveHTTP returned a Promise');
      if (!seen) {
        if (res.status !== 404 && res.status !== 405) fail(`ServeMux: ${c.method} ${c.path} → ${res.status}`);
        return { route: -1, params: {} };
      }
      return seen;
    },
    run: (reps) => runServeMuxServe(mux, reqs, ok, reps),
  };
  return [viaHandler, viaServe];
}

function runServeMuxHandler(mux: ServeMux, reqs: readonly Request[], reps: number): number {
  let sum = 0;
  for (let r = 0; r < reps; r++) {
    for (let i = 0; i < reqs.length; i++) {
      const m: HandlerMatch = mux.handler(reqs[i]!);
      sum += m.pattern.length;
    }
  }
  return sum;
}

function runServeMuxServe(mux: ServeMux, reqs: readonly Request[], ok: Response, reps: number): number {
  let sum = 0;
  for (let r = 0; r < reps; r++) {
    for (let i = 0; i < reqs.length; i++) {
      if (mux.serveHTTP(reqs[i]!) === ok) sum++;
    }
  }
  return sum;
}

function findMyWay(table: readonly number[], cases: readonly Case[]): Contender {
  const router = FindMyWay();
  const multiName = new Map<number, string>();
  for (const i of table) {
    const [method, path] = splitRoute(routes[i]!);
    router.on(method as FindMyWay.HTTPMethod, toFindMyWay(path), () => undefined, { route: i });
    const multi = wildcards(path).find((w) => w.multi);
    if (multi) multiName.set(i, multi.name);
  }
  const methods = cases.map((c) => c.method as FindMyWay.HTTPMethod);
  const paths = cases.map((c) => c.path);
  return {
    name: 'find-my-way',
    answer(c) {
      const found = router.find(c.method as FindMyWay.HTTPMethod, c.path);
      if (!found) return { route: -1, params: {} };
      const route = (found.store as { route: number }).route;
      const params: Record<string, string> = {};
      for (const [k, v] of Object.entries(found.params)) params[k === '*' ? multiName.get(route)! : k] = v!;
      return { route, params };
    },
    run: (reps) => runFindMyWay(router, methods, paths, reps),
  };
}

function runFindMyWay(
  router: FindMyWay.Instance<FindMyWay.HTTPVersion.V1>,
  methods: readonly FindMyWay.HTTPMethod[],
  paths: readonly string[],
  reps: number,
): number {
  let sum = 0;
  for (let r = 0; r < reps; r++) {
    for (let i = 0; i < paths.length; i++) {
      const found = router.find(methods[i]!, paths[i]!);
      if (found !== null) sum += (found.store as { route: number }).route;
    }
  }
  return sum;
}

interface HonoRouter {
  name: string;
  add(method: string, path: string, handler: number): void;
  match(method: string, path: string): Result<number>;
}

function hono(label: string, router: HonoRouter, table: readonly number[], cases: readonly Case[]): Contender {
  for (const i of table) {
    const [method, path] = splitRoute(routes[i]!);
    router.add(method, toHono(path), i);
  }
  const methods = cases.map((c) => c.method);
  const paths = cases.map((c) => c.path);
  return {
    name: label,
    // A Hono app runs the first route that matches; its params come as a map
    // of name → value, or of name → index into the stash (RegExpRouter).
    answer(c) {
      const [matched, stash] = router.match(c.method, c.path);
      const first = matched[0];
      if (!first) return { route: -1, params: {} };
      const [route, map] = first;
      const params: Record<string, string> = {};
      for (const [k, v] of Object.entries(map)) params[k] = stash ? stash[v as number]! : (v as string);
      return { route, params };
    },
    run: (reps) => runHono(router, methods, paths, reps),
  };
}

function runHono(router: HonoRouter, methods: readonly string[], paths: readonly string[], reps: number): number {
  let sum = 0;
  for (let r = 0; r < reps; r++) {
    for (let i = 0; i < paths.length; i++) {
      const first = router.match(methods[i]!, paths[i]!)[0][0];
      if (first !== undefined) sum += first[0];
    }
  }
  return sum;
}

/** The routes (indexes) Hono's RegExpRouter accepts, added in table order. */
function regExpRouterSubset(): { kept: number[]; refused: string[] } {
  const kept: number[] = [];
  const refused: string[] = [];
  for (let i = 0; i < routes.length; i++) {
    const r = new RegExpRouter<number>();
    try {
      for (const j of [...kept, i]) {
        const [method, path] = splitRoute(routes[j]!);
        r.add(method, toHono(path), j);
      }
      r.match('GET', '/'); // builds the matcher, which can refuse too
      kept.push(i);
    } catch (err) {
      if (!(err instanceof UnsupportedPathError)) throw err;
      refused.push(routes[i]!);
    }
  }
  return { kept, refused };
}

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
