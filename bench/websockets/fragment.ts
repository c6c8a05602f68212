// The fragment every server of bench/websockets sends: the example dashboard's live counts (pages-example/admin.tsx's
// Counts, what bench/fanout's streams receive) for k tasks, k open. pagetree's servers render it with the example's
// component; the raw ws server and the clients write it out by hand, and the clients check the two are byte for byte
// the same.
//
//   renderCounts(2) === countsHtml(2)
//   → '<b class="open">2</b> open · <b class="done">0</b> done · <b class="total">2</b> tasks'

import { Counts } from '../../pages-example/admin.tsx';

/**
 * The counts for `k` tasks, rendered by the example's component.
 * @example await renderCounts(1) // → '<b class="open">1</b> open · … <b class="total">1</b> task'
 */
export function renderCounts(k: number): string | Promise<string> {
  return Counts({ open: k, done: 0, total: k });
}

/**
 * The same text, written by hand (no framework).
 * @example countsHtml(1) // → '<b class="open">1</b> open · <b class="done">0</b> done · <b class="total">1</b> task'
 */
export function countsHtml(k: number): string {
  return `<b class="open">${k}</b> open · <b class="done">0</b> done · <b class="total">${k}</b> ${k === 1 ? 'task' : 'tasks'}`;
}
