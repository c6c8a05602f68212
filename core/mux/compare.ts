// How two patterns relate, ported from Go's net/http/pattern.go.
//
// Precedence is "most specific wins": p1 is more specific than p2 when p2
// matches every (method, path) that p1 matches, and more. Two patterns that
// match the same requests, or that overlap without one being more specific,
// conflict and cannot both be registered:
//
//   "/a/{x}" vs "/a/b"      => moreGeneral   (both fine: /a/b wins for "/a/b")
//   "/a/{x}" vs "/{y}/b"    => overlaps      (conflict: "/a/b" matches both)
//   "GET /"  vs "/index.html" => overlaps    (more methods, but a more specific path)

import { lastSegment, type Pattern, type Segment } from './pattern.ts';

/** The relationship of p1 to p2. */
export type Relationship = 'equivalent' | 'moreGeneral' | 'moreSpecific' | 'disjoint' | 'overlaps';

/**
 * Reports whether p1 and p2 match a common request with neither taking
 * precedence. A pattern with a host wins over one without, so they never conflict.
 * @example conflictsWith(parsePattern('/a/{x}'), parsePattern('/{y}/b')) // → true
 */
export function conflictsWith(p1: Pattern, p2: Pattern): boolean {
  if (p1.host !== p2.host) return false;
  const rel = comparePathsAndMethods(p1, p2);
  return rel === 'equivalent' || rel === 'overlaps';
}

/**
 * The relationship of the method and path of p1 to those of p2.
 * @example comparePathsAndMethods(parsePattern('/a/'), parsePattern('/a/b')) // → "moreGeneral"
 */
export function comparePathsAndMethods(p1: Pattern, p2: Pattern): Relationship {
  const mrel = compareMethods(p1, p2);
  if (mrel === 'disjoint') return 'disjoint';
  return combineRelationships(mrel, comparePaths(p1, p2));
}

// "" matches every method, GET matches GET and HEAD, anything else only itself.
function compareMethods(p1: Pattern, p2: Pattern): Relationship {
  if (p1.method === p2.method) return 'equivalent';
  if (p1.method === '') return 'moreGeneral';
  if (p2.method === '') return 'moreSpecific';
  if (p1.method === 'GET' && p2.method === 'HEAD') return 'moreGeneral';
  if (p2.method === 'GET' && p1.method === 'HEAD') return 'moreSpecific';
  return 'disjoint';
}

function comparePaths(p1: Pattern, p2: Pattern): Relationship {
  const s1 = p1.segments;
  const s2 = p2.segments;
  // Without a final multi, a pattern only matches paths of its own length.
  if (s1.length !== s2.length && !lastSegment(p1).multi && !lastSegment(p2).multi) {
    return 'disjoint';
  }
  let rel: Relationship = 'equivalent';
  const n = Math.min(s1.length, s2.length);
  for (let i = 0; i < n; i++) {
    rel = combineRelationships(rel, compareSegments(s1[i]!, s2[i]!));
    if (rel === 'disjoint') return rel;
  }
  if (s1.length === s2.length) return rel;
  // The shorter one can only still match if it ends in a multi, which is more
  // general than the rest of the longer one.
  if (s1.length < s2.length && lastSegment(p1).multi) return combineRelationships(rel, 'moreGeneral');
  if (s2.length < s1.length && lastSegment(p2).multi) return combineRelationships(rel, 'moreSpecific');
  return 'disjoint';
}

function compareSegments(a: Segment, b: Segment): Relationship {
  if (a.multi && b.multi) return 'equivalent';
  if (a.multi) return 'moreGeneral';
  if (b.multi) return 'moreSpecific';
  if (a.wild && b.wild) return 'equivalent';
  // A single wildcard never matches the trailing slash of {$}.
  if (a.wild) return b.dollar ? 'disjoint' : 'moreGeneral';
  if (b.wild) return a.dollar ? 'disjoint' : 'moreSpecific';
  return a.s === b.s && a.dollar === b.dollar ? 'equivalent' : 'disjoint';
}

// The overall relationship, given the relationships of two parts of the patterns.
function combineRelationships(r1: Relationship, r2: Relationship): Relationship {
  switch (r1) {
    case 'equivalent':
      return r2;
    case 'disjoint':
      return 'disjoint';
    case 'overlaps':
      return r2 === 'disjoint' ? 'disjoint' : 'overlaps';
    case 'moreGeneral':
    case 'moreSpecific':
      if (r2 === 'equivalent') return r1;
      if (r2 === inverse(r1)) return 'overlaps';
      return r2;
  }
}

function inverse(r: Relationship): Relationship {
  if (r === 'moreSpecific') return 'moreGeneral';
  if (r === 'moreGeneral') return 'moreSpecific';
  return r;
}

/**
 * Explains why two conflicting patterns conflict, with example paths, in Go's words.
 * @example describeConflict(parsePattern('/a/{x}'), parsePattern('/{y}/b'))
 * // → '/a/{x} and /{y}/b both match some paths, like "/a/b".\nBut neither is more specific …'
 */
export function describeConflict(p1: Pattern, p2: Pattern): string {
  const mrel = compareMethods(p1, p2);
  const prel = comparePaths(p1, p2);
  const rel = combineRelationships(mrel, prel);
  if (rel === 'equivalent') return `${p1.str} matches the same requests as ${p2.str}`;
  if (prel === 'overlaps') {
    return (
      `${p1.str} and ${p2.str} both match some paths, like ${JSON.stringify(commonPath(p1, p2))}.\n` +
      `But neither is more specific than the other.\n` +
      `${p1.str} matches ${JSON.stringify(differencePath(p1, p2))}, but ${p2.str} doesn't.\n` +
      `${p2.str} matches ${JSON.stringify(differencePath(p2, p1))}, but ${p1.str} doesn't.`
    );
  }
  if (mrel === 'moreGeneral' && prel === 'moreSpecific') {
    return `${p1.str} matches more methods than ${p2.str}, but has a more specific path pattern`;
  }
  if (mrel === 'moreSpecific' && prel === 'moreGeneral') {
    return `${p1.str} matches fewer methods than ${p2.str}, but has a more general path pattern`;
  }
  return `${p1.str} and ${p2.str} conflict: methods ${mrel}, paths ${prel}`;
}

function writeSegment(s: Segment): string {
  return !s.multi && !s.dollar ? '/' + s.s : '/';
}

function writeMatchingPath(segs: readonly Segment[]): string {
  return segs.map(writeSegment).join('');
}

/** A path that both patterns match; they must overlap. */
export function commonPath(p1: Pattern, p2: Pattern): string {
  const s1 = p1.segments;
  const s2 = p2.segments;
  const n = Math.min(s1.length, s2.length);
  let b = '';
  for (let i = 0; i < n; i++) b += writeSegment(s1[i]!.wild ? s2[i]! : s1[i]!);
  if (s1.length > n) b += writeMatchingPath(s1.slice(n));
  else if (s2.length > n) b += writeMatchingPath(s2.slice(n));
  return b;
}

/** A path that p1 matches and p2 does not; one must exist. */
export function differencePath(p1: Pattern, p2: Pattern): string {
  const s1 = p1.segments;
  const s2 = p2.segments;
  const n = Math.min(s1.length, s2.length);
  let b = '';
  for (let i = 0; i < n; i++) {
    const a = s1[i]!;
    const c = s2[i]!;
    // From two multis on, both match the same paths: the difference came earlier.
    if (a.multi && c.multi) return b + '/';
    if (a.multi && !c.multi) {
      // A trailing slash tells them apart, unless p2 ends in {$}: then any segment does.
      b += '/';
      if (c.dollar) b += a.s !== '' ? a.s : 'x';
      return b;
    }
    if (!a.multi && c.multi) b += writeSegment(a);
    else if (a.wild && c.wild) b += writeSegment(a);
    else if (a.wild && !c.wild) b += a.s !== c.s ? writeSegment(a) : '/' + c.s + 'x';
    else b += writeSegment(a); // a literal (equal to c's, if c is a literal too)
  }
  if (s1.length > n) b += writeMatchingPath(s1.slice(n));
  else if (s2.length > n) b += writeMatchingPath(s2.slice(n));
  return b;
}
