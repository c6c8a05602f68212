// The routers bench:router times, each a Contender over the same table of routes.ts: `answer` gives the route and
// path values a request gets (for run.ts's check), `run` matches every request again and again (what is timed).
//
//   casesFor([0, 1])   → [{ method: 'GET', path: '/', route: 0, params: {} }, …, the 12 misses with route -1]
//   findMyWay(table, cases).answer(case) → { route: 0, params: {} }

import FindMyWay from 'find-my-way';
import { UnsupportedPathError, type Result } from 'hono/router';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import { ServeMux, type HandlerMatch, type PageRequest } from '../../core/index.ts';
import type { Handler } from '../../core/kernel/request.ts';
import type { Timed } from '../lib/micro.ts';
import { fail } from '../lib/report.ts';
import { targetRequest } from './request.ts';
import { misses, routes, samplePath, sampleValue, splitRoute, toFindMyWay, toHono, wildcards } from './routes.ts';

const HOST = 'api.github.com';

/** One request of the request set, with the answer every router must give. */
export interface Case {
  method: string;
  path: string;
  /** Index in the table of the route that must match, or -1 for none. */
  route: number;
  params: Record<string, string>;
}

/** What a router answered: the route index (-1 for none) and the path values. */
export interface Answer {
  route: number;
  params: Record<string, string>;
}

/** A router under test: `answer` is for the check, `run` is what gets timed. */
export interface Contender extends Timed {
  name: string;
  answer(c: Case): Answer;
  /** Matches every request `reps` times; returns a checksum so nothing is optimised away. */
  run(reps: number): number;
}

/** One request per route of `table` (its sample path), then the misses. */
export function casesFor(table: readonly number[]): Case[] {
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
export function serveMux(table: readonly number[], cases: readonly Case[]): [Contender, Contender] {
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

/** find-my-way: `router.find(method, path)`; its params object is built eagerly. */
export function findMyWay(table: readonly number[], cases: readonly Case[]): Contender {
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

export interface HonoRouter {
  name: string;
  add(method: string, path: string, handler: number): void;
  match(method: string, path: string): Result<number>;
}

/** A Hono router: `router.match(method, path)`, the first route it returns (what a Hono app runs). */
export function hono(label: string, router: HonoRouter, table: readonly number[], cases: readonly Case[]): Contender {
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
export function regExpRouterSubset(): { kept: number[]; refused: string[] } {
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
