// How a benchmark's process runs: its settings (integers from the environment, with defaults), the line that heads
// its results (date, Node, cores, CPU), and one road for failure (the error printed, the exit code non-zero).
//
//   ROUNDS=3 npm run bench:e2e   →   setting('ROUNDS', 10) === 3

import { availableParallelism, cpus } from 'node:os';

/**
 * An integer setting from the environment, within bounds.
 * @example setting('ROUNDS', 10, 1, 60) // → 10, or $ROUNDS
 */
export function setting(name: string, fallback: number, min = 1, max = 60): number {
  const v = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(v) || v < min || v > max) {
    throw new Error(`${name} must be an integer from ${min} to ${max}, not ${process.env[name]}`);
  }
  return v;
}

/**
 * One line about where the numbers come from: date, node, cores, CPU. Call it before pinning, which makes nproc 1.
 * @example environment() // → "2026-11-24, node v20.20.2, nproc 2, AMD EPYC 7B13"
 */
export function environment(): string {
  const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
  return `${new Date().toISOString().slice(0, 10)}, node ${process.version}, nproc ${availableParallelism()}, ${cpu}`;
}

/**
 * Runs a benchmark's main; an error is printed and makes the exit code 1; `cleanup` runs however it ends.
 * @example runMain(main, stopAll)
 */
export function runMain(main: () => Promise<void> | void, cleanup?: () => Promise<void> | void): void {
  void (async () => {
    try {
      await main();
    } catch (err: unknown) {
      console.error(err);
      process.exitCode = 1;
    } finally {
      await cleanup?.();
    }
  })();
}
