// In-process timing (bench/router, bench/urlfor, bench/attrs): each contender's `run(reps)` does its operation
// `reps` times; its reps are sized so that one run takes about `roundMs`, and it is timed in interleaved rounds
// (rounds.ts) after a warm-up. The result is ops/s, per contender, per round.
//
//   size reps (doubling until a run takes 20 ms) → warm-up ⌈warmupMs / roundMs⌉ runs each → size again
//   → rounds × contenders, each one run of ~roundMs  →  ops/s[contender][round]

import { interleave } from './rounds.ts';

/** Something timed: `run` repeats its operation `reps` times and returns something computed from the results. */
export interface Timed {
  /** May return a Promise (then awaited, inside the timing); the value is kept so the work cannot be dropped. */
  run(reps: number): unknown;
}

/** How long to warm up and time. */
export interface Timing {
  rounds: number;
  roundMs: number;
  warmupMs: number;
  /** Operations per rep (e.g. the requests of a request set), so ops/s counts operations; default 1. */
  opsPerRep?: number;
}

// Where each run's result goes: a store to module state, which no JIT drops, so the work is not dropped either.
export let sink: unknown;

async function runOnce(t: Timed, reps: number): Promise<number> {
  const t0 = process.hrtime.bigint();
  const r = t.run(reps);
  sink = r instanceof Promise ? await r : r;
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

// How many reps take about `ms` now: doubling from 1 until a run takes 20 ms or more.
async function repsFor(t: Timed, ms: number): Promise<number> {
  for (let n = 1; ; n *= 2) {
    const took = await runOnce(t, n);
    if (took >= 20) return Math.max(1, Math.round((n * ms) / took));
  }
}

/**
 * Times the contenders in interleaved rounds; returns ops/s per contender per round.
 * @example await timeOps([{ run: repeat(() => tree.urlFor(UserPage, { userId: 7 })) }], { rounds: 15, roundMs: 100, warmupMs: 100 })
 */
export async function timeOps(contenders: readonly Timed[], timing: Timing): Promise<number[][]> {
  // Some routers take a few hundred ms of matching to reach their steady speed: warm up, then size the runs again.
  let reps: number[] = [];
  for (const t of contenders) reps.push(await repsFor(t, timing.roundMs));
  for (let w = 0; w < Math.ceil(timing.warmupMs / timing.roundMs); w++) {
    for (const [i, t] of contenders.entries()) await runOnce(t, reps[i]!);
  }
  reps = [];
  for (const t of contenders) reps.push(await repsFor(t, timing.roundMs));
  const opsPerRep = timing.opsPerRep ?? 1;
  const ops = await interleave(contenders, timing.rounds, async (t, i) => {
    const ms = await runOnce(t, reps[i]!);
    return (reps[i]! * opsPerRep) / (ms / 1000);
  });
  return ops;
}

/**
 * `run` for a function of no arguments: calls it `reps` times and returns the last result.
 * @example { run: repeat(() => tree.id(ListPage.prototype.itemList)) }
 */
export function repeat(fn: () => unknown): (reps: number) => unknown {
  return (reps) => {
    let last: unknown;
    for (let i = 0; i < reps; i++) last = fn();
    return last;
  };
}

/**
 * `run` for an async function: awaits each call in turn, `reps` times (a sync function's too, to time it alike).
 * @example { run: repeatAsync(() => mux.serveHTTP(req)) }
 */
export function repeatAsync(fn: () => unknown): (reps: number) => Promise<unknown> {
  return async (reps) => {
    let last: unknown;
    for (let i = 0; i < reps; i++) last = await fn();
    return last;
  };
}
