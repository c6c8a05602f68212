// A request path cut into its unescaped segments, for the routing tree.
//
//   "/a/b%2Fc/" => segs ["a", "b/c", "/"], starts [0, 2, 8, 9], trailingAt 2 (the trailing slash)
//   "/a/%2F"    => segs ["a", "/"],        starts [0, 2, 6],    trailingAt -1 (an escaped slash is a segment)
//
// starts[i] is the "/" before segment i; starts[n] is the path's length, which
// is where the slash of "path + '/'" would stand. withSlash(true) makes the
// searches see that path (Go's trailing-slash redirect and the 405 both ask
// about it) without building or splitting a second string.
//
// A ServeMux keeps one SplitPath and reset()s it for each request: routing is
// synchronous and reads it only until the path values are copied out, and
// reusing the arrays saves three allocations a request (bench/router: the
// split was ~6% of a hit's time, the allocations another ~5% in GC).

import { pathUnescape, type Pattern } from './pattern.ts';

export class SplitPath {
  /** The escaped path, starting with "/" (CONNECT paths may not). */
  path = '';
  /** Whether the path has escapes: then segments are unescaped and the whole-path lookup of static routes is skipped. */
  escaped = false;
  /** The number of segments the searches see: n, or n + 1 with the slash of withSlash(true). */
  end = 0;
  /** Whether the searches see the path with a slash added (withSlash). */
  slashed = false;
  /** The index of the trailing slash among the segments the searches see, or -1. */
  trail = -1;
  /** The segments, unescaped; only the first `end` are this path's (the array is reused). */
  readonly segs: string[] = [];
  /** Where segment i starts: the index of the "/" before it; starts[n] is the path's length. */
  readonly starts: number[] = [];
  #n = 0;
  #trailingAt = -1;
  #split = false;

  constructor(path = '/') {
    this.reset(path);
  }

  /** Starts over with another path; the cutting waits until a search needs the segments. */
  reset(path: string): void {
    this.path = path;
    this.escaped = path.includes('%');
    this.#split = false;
    this.slashed = false;
  }

  /** Cuts the path into segments (once per reset). Every search of the tree calls it first. */
  split(): void {
    if (this.#split) return;
    this.#split = true;
    const { path, segs, starts, escaped } = this;
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
      const seg = path.slice(start + 1, next);
      segs[n++] = escaped ? pathUnescape(seg) : seg;
      start = next;
    }
    starts[n] = path.length;
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
    this.split();
    this.slashed = on;
    this.end = on ? this.#n + 1 : this.#n;
    this.trail = on ? this.#n : this.#trailingAt;
    if (on) this.segs[this.#n] = '/';
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
      if (!seg.multi) values.push(this.segs[i]!);
      // A trailing slash in a pattern is a nameless multi: it has no value.
      else if (seg.s !== '') values.push(pathUnescape(this.path.slice(this.starts[i]! + 1)));
    }
    return values;
  }
}
