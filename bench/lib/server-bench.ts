// The runner of the throughput benchmarks (bench/adapter, bench/e2e, bench/runtimes): servers in child processes
// pinned to core 0, the load generator (autocannon here, or wrk) on core 1, a check that every server gives the same
// answer, a warm-up, then interleaved rounds (in each round every case, the servers rotated: rounds.ts) and a table
// of medians per case, with per-round ratios to the first server.
//
//   table:   server | req/s | spread | vs A | server CPU/req | spread | vs A | server busy | autocannon busy

import { loadRound, type Load, type Round } from './load.ts';
import { environment, setting } from './main.ts';
import { formatInt, formatRatio, formatSpread, median, medianRatio, printTable } from './report.ts';
import { rotation } from './rounds.ts';
import { pinLoad, runServers, startServer, type Server } from './servers.ts';
import { wrkRound } from './wrk.ts';

/** One kind of request every server answers in each round (a page, its partial). */
export interface LoadCase {
  name: string;
  path: string;
  headers?: Record<string, string>;
}

/** A benchmark run: who serves, what is asked, and the check that must pass before anything is timed. */
export interface Bench<TKind extends string> {
  /** e.g. "bench/e2e": printed, and the deadline's name. */
  name: string;
  /** The server script, started once per kind (`node --import tsx <script> <kind>`), unless `start` is given. */
  serverScript?: string;
  /** Starts the server of a kind another way (servers.ts's `startCommand`: Bun, Deno). */
  start?(kind: TKind, pin: boolean): Promise<Server<TKind>>;
  kinds: readonly TKind[];
  cases: readonly LoadCase[];
  /** Fails the run unless every server answers every case alike. */
  check(servers: readonly Server<TKind>[]): Promise<void>;
  /** Defaults, overridable from the environment (ROUNDS, ROUND_SECONDS, WARMUP_SECONDS). */
  rounds: number;
  roundSeconds?: number;
  warmupSeconds?: number;
  /** The load generator: autocannon in this process (default), or wrk (`wrk.ts`) in a process of its own; $LOADER overrides. */
  loader?: 'autocannon' | 'wrk';
  /** Appended to the heading line (e.g. the runtimes' versions). */
  about?: string;
}

const CONNECTIONS = 32;

/** Per case, per server (in `kinds` order), the rounds measured. */
export type Results = Map<LoadCase, Round[][]>;

/**
 * Runs a benchmark: starts the servers, checks them, warms them up, loads them in interleaved rounds, prints a
 * table per case and hands the results to `report` (for goals); stops the servers however it ends.
 * @example runBench({ name: 'bench/adapter', serverScript: 'bench/adapter/server.ts', kinds, cases, check, rounds: 12 })
 */
export function runBench<TKind extends string>(
  bench: Bench<TKind>,
  report?: (servers: readonly Server<TKind>[], results: Results) => void,
): void {
  const rounds = setting('ROUNDS', bench.rounds);
  const roundSeconds = setting('ROUND_SECONDS', bench.roundSeconds ?? 2);
  const warmupSeconds = setting('WARMUP_SECONDS', bench.warmupSeconds ?? 2);
  // Past this a run gives up, kills its servers and exits non-zero: twice the time its loads take, and two minutes.
  const loadSeconds = bench.kinds.length * bench.cases.length * (warmupSeconds + rounds * roundSeconds);
  runServers(bench.name, (2 * loadSeconds + 120) * 1000, async () => {
    const loader = loaderOf(process.env.LOADER) ?? bench.loader ?? 'autocannon';
    console.log(`${bench.name}: ${environment()}${bench.about ? `; ${bench.about}` : ''}`);
    const pin = pinLoad(loader === 'wrk' ? 'wrk (one thread)' : undefined);
    console.log(
      `${loader}: ${CONNECTIONS} connections, no pipelining; warm-up ${warmupSeconds} s per server and case, ` +
        `then ${rounds} rounds × ${roundSeconds} s per server and case, round-robin.`,
    );

    const start = (kind: TKind) => {
      if (bench.start) return bench.start(kind, pin);
      if (!bench.serverScript) throw new Error(`${bench.name}: give serverScript or start`);
      return startServer(bench.serverScript, kind, { pin });
    };
    const servers: Server<TKind>[] = [];
    for (const kind of bench.kinds) servers.push(await start(kind));
    await bench.check(servers);

    const load = (s: Server<TKind>, c: LoadCase, seconds: number) => {
      const l: Load = { path: c.path, headers: c.headers, seconds, connections: CONNECTIONS };
      return loader === 'wrk' ? wrkRound(s, l, pin) : loadRound(s, l);
    };
    for (const c of bench.cases) for (const s of servers) await load(s, c, warmupSeconds);
    const results: Results = new Map(bench.cases.map((c) => [c, servers.map(() => [])]));
    // Every case in every round (not all the rounds of one case, then the next), so drift weighs on both alike.
    for (let round = 0; round < rounds; round++) {
      for (const c of bench.cases) {
        for (const k of rotation(servers.length, round)) {
          const r = await load(servers[k]!, c, roundSeconds);
          results.get(c)![k]!.push(r);
          process.stderr.write(
            `  round ${round + 1}/${rounds} ${c.name} ${servers[k]!.kind}: ${formatInt(r.rps)} req/s, ` +
              `${r.cpuPerReq.toFixed(1)} µs CPU/req\n`,
          );
        }
      }
    }
    for (const c of bench.cases) printRounds(`${c.name}: GET ${c.path}`, servers, results.get(c)!, loader);
    report?.(servers, results);
  });
}

function loaderOf(name: string | undefined): Bench<string>['loader'] {
  if (name === undefined || name === 'autocannon' || name === 'wrk') return name;
  throw new Error(`LOADER must be autocannon or wrk, not ${name}`);
}

/**
 * The median of the per-round ratios of one measure of two servers' rounds.
 * @example ratioOf(pagetreeRounds, fastifyRounds, (r) => r.rps) // → 1.02
 */
export function ratioOf(a: readonly Round[], b: readonly Round[], f: (r: Round) => number): number {
  return medianRatio(a.map(f), b.map(f));
}

// One case's table: medians of the rounds, ratios to the first server.
function printRounds(title: string, servers: readonly Server[], rounds: readonly Round[][], loader: string): void {
  const base = rounds[0]!;
  const first = servers[0]!.kind;
  console.log(
    `\n${title}: medians of ${base.length} rounds (ratios: median of the per-round ratios; spread: half the IQR)`,
  );
  printTable(
    [
      'server',
      'req/s',
      'spread',
      `vs ${first}`,
      'server CPU/req',
      'spread',
      `vs ${first}`,
      'server busy',
      `${loader} busy`,
    ],
    servers.map((s, k) => {
      const rs = rounds[k]!;
      const rps = rs.map((r) => r.rps);
      const cpu = rs.map((r) => r.cpuPerReq);
      return [
        s.kind,
        formatInt(median(rps)),
        formatSpread(rps),
        formatRatio(ratioOf(rs, base, (r) => r.rps)),
        `${median(cpu).toFixed(1)} µs`,
        formatSpread(cpu),
        formatRatio(ratioOf(rs, base, (r) => r.cpuPerReq)),
        `${median(rs.map((r) => r.serverBusy)).toFixed(0)}%`,
        `${median(rs.map((r) => r.loadBusy)).toFixed(0)}%`,
      ];
    }),
  );
}
