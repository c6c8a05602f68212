// The pagetree functions that ran, from V8's precise coverage (Profiler.takePreciseCoverage with callCount): a
// function ran when its own count (the first range, the whole function) is above 0. tsx compiles each file to a
// CommonJS module with some glue of esbuild's around it (`__name`, `__export` and its export getters, `__copyProps`,
// the module wrapper): that glue maps to no line of the source, or to its first character, and is left out, so that
// a file which only re-exports (an index.ts) does not count as running code, as it would not once compiled.
//
//   coveredFunctions(session, result)
//     → [{ file: 'core/mux/serve-mux.ts', fn: 'serveHTTP', line: 150, count: 1 }, …]   (file, then line, order)

import { findSourceMap } from 'node:module';
import type { Profiler, Session } from 'node:inspector/promises';
import { pagetreeFile } from './files.ts';

/** A function of pagetree that ran. */
export interface CoveredFunction {
  /** The file, relative to the checkout (core/…). */
  file: string;
  /** The function as V8 names it (a method by its own name), or `<anonymous> (line N)`. */
  fn: string;
  /** Its first line in the source (1-based). */
  line: number;
  /** How many times it was called. */
  count: number;
}

/**
 * The pagetree functions with a count above 0 in `coverage`, tsx's glue left out, sorted by file and line.
 * @example coveredFunctions(session, (await session.post('Profiler.takePreciseCoverage')).result)
 */
export async function coveredFunctions(
  session: Session,
  coverage: readonly Profiler.ScriptCoverage[],
): Promise<CoveredFunction[]> {
  const ran: CoveredFunction[] = [];
  for (const script of coverage) {
    const file = pagetreeFile(script.url);
    if (file === undefined) continue;
    const called = script.functions.filter((f) => (f.ranges[0]?.count ?? 0) > 0);
    if (called.length === 0) continue;
    const map = findSourceMap(script.url);
    if (!map) throw new Error(`bench/path: no source map for ${script.url}: run it through tsx`);
    const { scriptSource } = await session.post('Debugger.getScriptSource', { scriptId: script.scriptId });
    const lineStarts = [0];
    for (let i = scriptSource.indexOf('\n'); i !== -1; i = scriptSource.indexOf('\n', i + 1)) lineStarts.push(i + 1);
    for (const f of called) {
      const offset = f.ranges[0]!.startOffset;
      const line = lastAtMost(lineStarts, offset);
      const entry = map.findEntry(line, offset - lineStarts[line]!) as Partial<{
        originalSource: string;
        originalLine: number;
        originalColumn: number;
      }>;
      if (entry.originalSource === undefined || entry.originalLine === undefined) continue; // esbuild's glue
      if (entry.originalLine === 0 && entry.originalColumn === 0) continue; // an export getter
      const source = entry.originalLine + 1;
      ran.push({ file, fn: f.functionName || `<anonymous> (line ${source})`, line: source, count: f.ranges[0]!.count });
    }
  }
  return ran.sort((a, b) => (a.file === b.file ? a.line - b.line : a.file < b.file ? -1 : 1));
}

/** The index of the last element of the sorted `xs` that is at most `x`. */
function lastAtMost(xs: readonly number[], x: number): number {
  let lo = 0;
  let hi = xs.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (xs[mid]! <= x) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
