// How long the server's own work held its event loop, apart from the time the machine gave its CPU to others.
//
// monitorEventLoopDelay measures wall time between turns: on a 2-core machine running two jest workers, each with its
// child processes, the server's main thread can sit runnable but unscheduled for hundreds of milliseconds while its
// loop is free (seen: 480 ms of delay during a login flood with the loop idle). Linux counts that wait per thread in
// /proc/<pid>/schedstat (the main thread's: on-CPU ns, runqueue-wait ns, slices), so a gap between two ticks of a
// 10 ms timer, less the time the thread waited for a CPU, is what the loop was held by the process itself: its
// synchronous work, its GC pauses, a blocking system call. A 100,000-part multipart parse holds it for seconds in
// both measures; a descheduled process only in the wall one.
//
//   tick at 0 ms, next at 400 ms, the thread waited 380 ms for a CPU → held 20 ms (wall delay 400 ms)
//   tick at 0 ms, next at 900 ms, the thread waited 10 ms            → held 890 ms

import { readFileSync } from 'node:fs';

const tickMs = 10;

/** Starts measuring; `max()` is the longest hold since the start or the last `reset()`, in ms (null without /proc). */
export function watchLoopHeld(): { max(): number | null; reset(): void } {
  const waited = (): number | null => {
    try {
      return Number(readFileSync('/proc/self/schedstat', 'utf8').split(' ')[1]) / 1e6;
    } catch {
      return null; // not Linux: the wall delay alone has to do
    }
  };
  if (waited() === null) return { max: () => null, reset: () => {} };
  let last = performance.now();
  let lastWaited = waited()!;
  let max = 0;
  setInterval(() => {
    const now = performance.now();
    const w = waited()!;
    max = Math.max(max, now - last - tickMs - (w - lastWaited));
    last = now;
    lastWaited = w;
  }, tickMs).unref();
  return {
    max: () => Math.round(max * 100) / 100,
    reset: () => void (max = 0),
  };
}
