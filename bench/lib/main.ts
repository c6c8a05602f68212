// How a benchmark's process runs: its settings (integers from the environment, with defaults), the line that heads
// its results (date, Node, cores, CPU), and one road for failure (the error printed, the exit code non-zero).
//
//   ROUNDS=3 npm run bench:e2e   →   setting('ROUNDS', 10) === 3

import { existsSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { join, resolve } from 'node:path';

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
 * Another checkout to run beside this one (an A/B run: the same benchmark, two trees, interleaved in one run), from
 * $BASE; undefined when unset. Its servers run from its build/ when this benchmark runs compiled, so build it first:
 *
 *   git worktree add /tmp/base <rev> && ln -s $PWD/node_modules /tmp/base/
 *   (cd /tmp/base && npm run build && npx tsc -p tsconfig.bench.json)
 *   BASE=/tmp/base npm run bench:e2e
 * @example startServer('bench/e2e/server.tsx', 'pagetree', { pin, root: baseRoot() })
 */
export function baseRoot(): string | undefined {
  const base = process.env.BASE;
  if (!base) return undefined;
  const root = __filename.endsWith('.js') ? join(resolve(base), 'build') : resolve(base);
  if (!existsSync(join(root, 'bench'))) throw new Error(`BASE: ${root} has no bench/ (build it first: main.ts)`);
  return root;
}

/**
 * `kinds`, and `<name>@base` after them when $BASE names another checkout (`baseRoot`): the same server from there.
 * @example withBase(['node:http', 'pagetree'], 'pagetree') // → [..., 'pagetree@base'] with BASE set
 */
export function withBase<TKind extends string, TName extends TKind>(
  kinds: readonly TKind[],
  name: TName,
): (TKind | `${TName}@base`)[] {
  return baseRoot() ? [...kinds, `${name}@base` as const] : [...kinds];
}

/**
 * The servers $KINDS (comma-separated) asks for, in its order, each one of `known`; `fallback` when it is unset.
 * @example chosenKinds(['a', 'b', 'c'], ['a', 'b']) // → ['c', 'a'] with KINDS=c,a
 */
export function chosenKinds<TKind extends string>(
  known: readonly TKind[],
  fallback: readonly TKind[] = known,
): TKind[] {
  const asked = process.env.KINDS?.split(',') as TKind[] | undefined;
  if (!asked) return [...fallback];
  for (const k of asked) {
    if (!known.includes(k)) throw new Error(`KINDS: no server ${JSON.stringify(k)}; one of ${known.join(', ')}`);
  }
  return asked;
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
