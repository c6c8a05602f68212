// Numbers into tables, shared by the benchmarks: medians, spreads, ratios within rounds, number formats, the
// Markdown table (pasted into bench/README.md as printed), and the one failure of a check.
//
//   rounds of A: [10, 12, 11]   of B: [5, 7, 5]   →   median(A) 11, spreadPercent(A) ±4.5%, medianRatio(A, B) 2.00×

/** The median of a non-empty list (the mean of the middle two for an even count). */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) throw new Error('median of nothing');
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/**
 * How noisy the rounds were: half the interquartile range over the median, in percent (robust to the odd round a
 * noisy neighbour spoiled).
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

/**
 * The ratios of two contenders round by round (the machine's speed drifts between rounds, not within one).
 * @example roundRatios([10, 12], [5, 4]) // → [2, 3]
 */
export function roundRatios(xs: readonly number[], base: readonly number[]): number[] {
  return xs.map((x, i) => x / base[i]!);
}

/**
 * The median of the per-round ratios xs / base.
 * @example medianRatio([10, 12, 11], [5, 4, 5.5]) // → 2
 */
export function medianRatio(xs: readonly number[], base: readonly number[]): number {
  return median(roundRatios(xs, base));
}

/** 1234567 → "1,234,567". */
export function formatInt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** A ratio as "1.23×". */
export function formatRatio(r: number): string {
  return `${r.toFixed(2)}×`;
}

/** The spread of the rounds as "±1.2%". */
export function formatSpread(xs: readonly number[]): string {
  return `±${spreadPercent(xs).toFixed(1)}%`;
}

/** Prints rows as a Markdown table, the first column left-aligned, the others right-aligned. */
export function printTable(header: readonly string[], rows: readonly (readonly string[])[]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]) =>
    '| ' + cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ') + ' |';
  console.log(line(header));
  console.log('| ' + widths.map((w, i) => (i === 0 ? '-'.repeat(w) : '-'.repeat(w - 1) + ':')).join(' | ') + ' |');
  for (const r of rows) console.log(line(r));
}

/** Throws with a message that says the benchmark refused to run. */
export function fail(message: string): never {
  throw new Error(`CHECK FAILED, nothing was timed: ${message}`);
}
