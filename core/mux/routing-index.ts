// An index that narrows the conflict check at registration, ported from Go's
// net/http/routing_index.go.
//
// Patterns are indexed by (segment position, literal or "" for a wildcard):
//   "/a/b" and "/a/b/c" are under {1, "b"}; "/a/{x}" is under {1, ""}.
// A new pattern can only conflict with a multi pattern (kept in one list) or
// with a pattern that has the same literal, or a wildcard, at one of its
// literal positions, so checking the smallest such bucket is enough.

import { lastSegment, type Pattern } from './pattern.ts';

export class RoutingIndex {
  #segments = new Map<string, Pattern[]>();
  // Patterns ending in a multi wildcard or trailing slash; rarely many.
  #multis: Pattern[] = [];

  add(p: Pattern): void {
    if (lastSegment(p).multi) {
      this.#multis.push(p);
      return;
    }
    p.segments.forEach((seg, pos) => {
      const key = indexKey(pos, seg.wild ? '' : seg.s);
      const list = this.#segments.get(key);
      if (list) list.push(p);
      else this.#segments.set(key, [p]);
    });
  }

  /** Every registered pattern that might conflict with p (and maybe some that cannot). */
  *possiblyConflicting(p: Pattern): Generator<Pattern> {
    yield* this.#multis;
    const last = lastSegment(p);
    if (last.dollar) {
      // Only dollar and multi patterns match paths ending in a slash, and two
      // dollar patterns can only conflict with {$} in the same position.
      yield* this.#bucket(p.segments.length - 1, '/');
      return;
    }
    let best: Pattern[] | undefined;
    let bestWild: Pattern[] | undefined;
    let min = Infinity;
    for (const [pos, seg] of p.segments.entries()) {
      if (seg.multi) break;
      if (seg.wild) continue;
      const lits = this.#bucket(pos, seg.s);
      const wilds = this.#bucket(pos, '');
      if (lits.length + wilds.length < min) {
        [best, bestWild, min] = [lits, wilds, lits.length + wilds.length];
      }
    }
    if (best && bestWild) {
      yield* best;
      yield* bestWild;
      return;
    }
    // All wildcards: check against everything.
    for (const list of this.#segments.values()) yield* list;
  }

  #bucket(pos: number, s: string): Pattern[] {
    return this.#segments.get(indexKey(pos, s)) ?? [];
  }
}

function indexKey(pos: number, s: string): string {
  return `${pos}\u0000${s}`;
}
