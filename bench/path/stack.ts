// The hops of a request: the frames of a stack taken inside the partial that lie in pagetree's files, from the
// outermost (the adapter's entry: node's 'request' listener, or mux.fetch) to the one that called the partial.
//
//   "    at ServeMux.serveHTTP (/work/main/core/mux/serve-mux.ts:150:12)"
//     → { file: 'core/mux/serve-mux.ts', fn: 'ServeMux.serveHTTP', line: 150 }

import { pagetreeFile } from './files.ts';

/** One frame on the request's path. */
export interface Hop {
  /** The file, relative to the checkout (core/…). */
  file: string;
  /** The function as V8 names it (`Class.method`, `name`), `<anonymous> (line N)` for an anonymous one. */
  fn: string;
}

// V8's frame: "at [async ][new ]name [as alias] (location:line:col)" or "at location:line:col".
const framePattern = /^\s*at (?:async )?(?:(.*?) \()?(.+):(\d+):\d+\)?$/;

/**
 * The pagetree frames of `stack` (an Error's stack, innermost frame first), outermost first.
 * @example hopsOf(new Error().stack!) // → [{ file: 'core/node/listener.ts', fn: 'listener' }, …]
 */
export function hopsOf(stack: string): Hop[] {
  const hops: Hop[] = [];
  for (const line of stack.split('\n').slice(1)) {
    const m = framePattern.exec(line);
    if (!m) continue;
    const file = pagetreeFile(m[2]!);
    if (file === undefined) continue;
    // An anonymous function is named by its line, so that the list says which one it is.
    const name = m[1] ?? '<anonymous>';
    hops.push({ file, fn: name.includes('<anonymous>') ? `${name} (line ${m[3]})` : name });
  }
  return hops.reverse();
}
