// The edit distance the rules' "did you mean" hints use: Levenshtein, one row at a time.

/**
 * The Levenshtein distance between two strings: insertions, deletions and substitutions.
 * @example editDistance('hx-gett', 'hx-get') // → 1
 */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length]!;
}

/**
 * The candidate nearest to `name` within `maxDistance` edits (the first of equals), or undefined.
 * @example closestName('hx-taget', ['hx-get', 'hx-target'], 3) // → "hx-target"
 */
export function closestName(name: string, candidates: Iterable<string>, maxDistance: number): string | undefined {
  let best: string | undefined;
  let bestDistance = maxDistance + 1;
  for (const candidate of candidates) {
    const d = editDistance(name, candidate);
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}
