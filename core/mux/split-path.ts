// A request path cut into its unescaped segments, for the routing tree.
//
//   "/a/b/"     => starts [0, 2, 4, 5], trailingAt 2 (the trailing slash)
//   "/a/b%2Fc/" => starts [0, 2, 8, 9], segs ["a", "b/c", "/"], trailingAt 2
//   "/a/%2F"    => starts [0, 2, 6],    segs ["a", "/"],        trailingAt -1 (an escaped slash is a segment)
//
// starts[i] is the "/" before segment i; starts[n] is the path's length, which
// is where the slash of "path + '/'" would stand. A path without escapes is
// not cut into strings: literals are compared in place (literal()), and only
// wildcard values are sliced out, once the route is known. Slicing every
// segment was 17% of a hit's time (bench/router, --cpu-prof). withSlash(true)
// makes the searches see that path (Go's trailing-slash redirect and the 405
// both ask about it) without building or splitting a second string.
//
// A ServeMux keeps one SplitPath and reset()s it for each request: routing is
// synchronous and reads it only until the path values are copied out, and
// reusing the arrays saves three allocations a request (bench/router: the
// split was ~6% of a hit's time, the allocations another ~5% in GC).

import type { LiteralIndex } from './literal-index.ts';
import { pathUnescape, type Pattern } from './pattern.ts';

export class SplitPath {
  /** The escaped path, starting with "/" (CONNECT paths may not). */
  path = '';
  /** Whether the path has escapes: then its segments are unescaped into `segs` instead of compared in place. */
  escaped = false;
  /** The number of segments the searches see: n, or n + 1 with the slash of withSlash(true). */
  end = 0;
  /** Whether the searches see the path with a slash added (withSlash). */
  slashed = false;
  /** The index of the trailing slash among the segments the searches see, or -1. */
  trail = -1;
  /** The segments, unescaped, when the path has escapes; only the first `end` are this path's (the array is reused). */
  readonly segs: string[] = [];
  /** Where segment i starts: the index of the "/" before it; starts[n] is the path's length. */
  readonly starts: number[] = [];
  /** Whether the path is clean (cleanPath would return it as it is): rooted, no "//", "." or ".." segment. */
  clean = true;
  #n = 0;
  #trailingAt = -1;

  constructor(path = '/') {
    this.reset(path);
  }

  /**
   * Starts over with another path and cuts it. The same pass tells whether the path is clean, which spares
   * the mux a scan of its own for the path that nearly every request has (isClean was ~2% of a hit).
   */
  reset(path: string): void {
    const escaped = path.includes('%');
    const { segs, starts } = this;
    let clean = path.charCodeAt(0) === 47;
    let n = 0;
    let trailingAt = -1;
    let start = 0;
    while (start < path.length) {
      starts[n] = start;
      if (start === path.length - 1) {
        trailingAt = n;
        segs[n++] = '/'; // the trailing slash, matched by {$}
        break;
      }
      let next = path.indexOf('/', start + 1);
      if (next < 0) next = path.length;
      const len = next - start - 1;
      // "//", "/./" and "/../" (or "/." and "/.." at the end) are what cleanPath removes.
      if (
        len === 0 ||
        (len <= 2 && path.charCodeAt(start + 1) === 46 && (len === 1 || path.charCodeAt(start + 2) === 46))
      )
        clean = false;
      if (escaped) segs[n] = pathUnescape(path.slice(start + 1, next));
      n++;
      start = next;
    }
    starts[n] = path.length;
    this.path = path;
    this.escaped = escaped;
    this.clean = clean;
    this.slashed = false;
    this.#n = n;
    this.#trailingAt = trailingAt;
    this.end = n;
    this.trail = trailingAt;
  }

  /**
   * Makes the searches see the path with one more slash at its end ("/a" as "/a/"), or the path as it is.
   * Only for a path that does not end in a slash (Go issue 67657: "/a/" is not retried as "/a//").
   */
  withSlash(on: boolean): void {
    this.slashed = on;
    this.end = on ? this.#n + 1 : this.#n;
    this.trail = on ? this.#n : this.#trailingAt;
  }

  /** The child whose literal is segment i (not a trailing slash), or undefined. */
  literal<TValue>(index: LiteralIndex<TValue>, i: number): TValue | undefined {
    if (this.escaped) return index.findSegment(this.segs[i]!);
    const start = this.starts[i]! + 1;
    return index.find(this.path, start, this.starts[i + 1]! - start);
  }

  /**
   * Whether a pattern that matched this path (as the searches see it) matched it exactly: no multi wildcard
   * took a non-empty rest. "/a/" and "/a/{$}" match "/a/" exactly, "/" matches "/a" inexactly.
   */
  exactFor(p: Pattern): boolean {
    if (!p.segments[p.segments.length - 1]!.multi) return true;
    const path = this.path;
    const slash = this.slashed;
    if (!slash && path.length > 0 && path.charCodeAt(path.length - 1) !== 47) return false;
    // "/a/b/{$}" and "/a/b/{x...}" match "/a/b/" exactly; "/a/" does not.
    let slashes = slash ? 1 : 0;
    for (let i = 0; i < path.length; i++) if (path.charCodeAt(i) === 47) slashes++;
    return p.segments.length === slashes;
  }

  /** The values of p's wildcards in this path, in pattern order (p matched it). */
  values(p: Pattern): string[] {
    const values: string[] = [];
    const segments = p.segments;
    for (let i = 0; i < segments.length; i++) {
      const seg = segments[i]!;
      if (!seg.wild) continue;
      if (!seg.multi)
        values.push(this.escaped ? this.segs[i]! : this.path.slice(this.starts[i]! + 1, this.starts[i + 1]));
      // A trailing slash in a pattern is a nameless multi: it has no value.
      else if (seg.s !== '') values.push(pathUnescape(this.path.slice(this.starts[i]! + 1)));
    }
    return values;
  }
}
