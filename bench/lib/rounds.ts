// Interleaved rounds, the one schedule every benchmark times by: in each round every contender runs once, and the
// first to run moves by one each round, so a machine that speeds up or slows down during the run weighs on all alike
// (and the ratios of one round, report.ts's medianRatio, cancel it out).
//
//   round 0: A B C   round 1: B C A   round 2: C A B   …

/**
 * The order of `n` contenders in `round` (from 0): rotated by one each round.
 * @example rotation(3, 1) // → [1, 2, 0]
 */
export function rotation(n: number, round: number): number[] {
  return Array.from({ length: n }, (_, j) => (round + j) % n);
}

/**
 * Runs `measure` for every contender in every round, in `rotation` order; returns, per contender in the order given,
 * what its rounds measured.
 * @example await interleave(['a', 'b'], 3, (c) => time(c)) // → [[a0, a1, a2], [b0, b1, b2]]
 */
export async function interleave<TContender, TResult>(
  contenders: readonly TContender[],
  rounds: number,
  measure: (contender: TContender, index: number, round: number) => TResult | Promise<TResult>,
): Promise<TResult[][]> {
  const results: TResult[][] = contenders.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (const i of rotation(contenders.length, round)) results[i]!.push(await measure(contenders[i]!, i, round));
  }
  return results;
}
