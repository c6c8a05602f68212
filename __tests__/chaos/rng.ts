// The chaos suite's randomness: one seed for a run, printed, and a small PRNG per client derived from it, so a run
// sends the same requests in the same order again (the interleaving of sockets still varies).
//
//   const rng = new Rng(deriveSeed(runSeed(), 'stream', 3));   rng.int(10) → 0…9; rng.pick(['a', 'b']) → "b"

/** The seed when CHAOS_SEED is unset: fixed, so CI runs the same traffic every time (CHAOS_SEED=random explores). */
export const defaultSeed = 40;

/**
 * The run's seed from CHAOS_SEED: unset → `defaultSeed`; "random" → from the clock; a number → that number.
 * @example runSeed({ CHAOS_SEED: '7' }) // → 7
 */
export function runSeed(env: NodeJS.ProcessEnv = process.env): number {
  const value = env.CHAOS_SEED?.trim();
  if (value === undefined || value === '') return defaultSeed;
  if (value === 'random') return Date.now() % 2 ** 31;
  const seed = Number(value);
  if (!Number.isSafeInteger(seed) || seed < 0) {
    throw new RangeError(`CHAOS_SEED=${JSON.stringify(value)}: give a whole number >= 0, or "random"`);
  }
  return seed;
}

/**
 * A comma-separated list of a CHAOS_* variable (CHAOS_ROUTE, CHAOS_FAULT, …), or undefined when it is unset.
 * @example envList<'bun' | 'deno'>('bun, deno') // → ["bun", "deno"]
 */
export function envList<T extends string>(value: string | undefined): T[] | undefined {
  return value?.split(',').map((s) => s.trim() as T);
}

/**
 * A seed of its own for one client of one route (FNV-1a of the labels, mixed with the run's seed).
 * @example deriveSeed(40, 'stream', 0) !== deriveSeed(40, 'stream', 1) // → true
 */
export function deriveSeed(seed: number, ...labels: (string | number)[]): number {
  let h = 0x811c9dc5 ^ seed;
  for (const ch of labels.join('/')) {
    h ^= ch.codePointAt(0)!;
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: 32 bits of state, fast, and good enough to pick faults. */
export class Rng {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  }

  /** A whole number in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** A whole number in [min, max], small ones more often (log-uniform): byte counts, sizes. */
  size(min: number, max: number): number {
    const lo = Math.log(min + 1);
    return Math.min(max, Math.floor(Math.exp(lo + this.next() * (Math.log(max + 1) - lo))) - 1);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('Rng.pick(): no items to pick from');
    return items[this.int(items.length)]!;
  }

  /** `n` characters from `alphabet`. */
  text(n: number, alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789'): string {
    let out = '';
    for (let i = 0; i < n; i++) out += alphabet[this.int(alphabet.length)];
    return out;
  }
}
