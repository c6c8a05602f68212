// Helpers shared by the benchmarks: medians, ratios and plain-text tables.

import { availableParallelism, cpus } from 'node:os';

/** The median of a non-empty list (the mean of the middle two for an even count). */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) throw new Error('median of nothing');
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/**
 * How noisy the rounds were: half the interquartile range over the median, in
 * percent (robust to the odd round a noisy neighbour spoiled).
 */
export function spreadPercent(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => {
    const i = (s.length - 1) * p;
    const lo = Math.floor(i);
    return s[lo]! + (s[Math.ceil(i)]! - s[lo]!) * (i - lo);
  };
  return ((q(0.75) - q(0.25)) / 2 / median(xs)) * 100;
}

/** 1234567 → "1,234,567". */
export function formatInt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** A ratio as "1.23×". */
export function formatRatio(r: number): string {
  return `${r.toFixed(2)}×`;
}

/** Prints rows as a Markdown table (so it can be pasted into bench/README.md as it is). */
export function printTable(header: readonly string[], rows: readonly (readonly string[])[]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]) =>
    '| ' + cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ') + ' |';
  console.log(line(header));
  console.log('| ' + widths.map((w, i) => (i === 0 ? '-'.repeat(w) : '-'.repeat(w - 1) + ':')).join(' | ') + ' |');
  for (const r of rows) console.log(line(r));
}

/** One line about where the numbers come from: date, node, cores, CPU. */
export function environment(): string {
  const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
  return `${new Date().toISOString().slice(0, 10)}, node ${process.version}, nproc ${availableParallelism()}, ${cpu}`;
}

/** Throws with a message that says the benchmark refused to run. */
export function fail(message: string): never {
  throw new Error(`CHECK FAILED, nothing was timed: ${message}`);
}
