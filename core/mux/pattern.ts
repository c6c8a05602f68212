// Patterns for ServeMux routing, ported from Go's net/http/pattern.go (Go 1.22+).
//
// A pattern is `[METHOD ][HOST]/[PATH]`. Its path is kept as a list of
// segments, a representation that differs from the surface syntax so that
// comparing and matching stay simple:
//
//   "/a/{x}"        => [lit a, wild x]
//   "/a/{rest...}"  => [lit a, multi rest]
//   "/a/"           => [lit a, multi ""]     (a trailing slash is an anonymous "...")
//   "/a/{$}"        => [lit a, dollar "/"]   ({$} is the "trailing slash")
//
// Literal segments are stored unescaped ("/%61" matches "/a"), since request
// paths are unescaped segment by segment before matching; `rawSegments` keeps
// each as written, for building URLs that read as the pattern does:
//
//   "/%61/{x}"      => segments [lit a, wild x], rawSegments ["%61", "{x}"]
//
// mount parses each route's pattern once, here, and hands the result to the mux,
// to urlFor's builders (core/tree/route.ts) and, through route.ts, to the lint plugin.

import { PatternError } from './errors.ts';

/** One piece of a pattern's path: a literal, a `{name}` or a `{name...}`. */
export interface Segment {
  /** Literal text, wildcard name, or "/" for `{$}`. */
  readonly s: string;
  readonly wild: boolean;
  /** A `{name...}` wildcard or a trailing slash. */
  readonly multi: boolean;
  /**
   * `{$}` (its `s` is "/", as in Go). Marked on its own so that a literal
   * segment that unescapes to "/" (`%2F`) is not taken for it.
   */
  readonly dollar?: true;
}

/** A parsed pattern: what `ServeMux.handle` stores and matches. */
export interface Pattern {
  /** The string as given to `handle`. */
  readonly str: string;
  /** Upper-case method token, or "" for every method. */
  readonly method: string;
  readonly host: string;
  readonly segments: readonly Segment[];
  /** Each segment as written, parallel to `segments`: "%61", "{x}", "{x...}", "{$}", or "" for a trailing slash. */
  readonly rawSegments: readonly string[];
  /** Names of the named wildcards, in order of appearance. */
  readonly wildcards: readonly string[];
  /** Where the pattern was registered, for conflict messages. */
  readonly loc: string;
}

// RFC 9110 token characters, as Go's validMethod accepts.
const tokenRe = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// A Go identifier: a letter or "_", then letters, digits and "_".
const identRe = /^[\p{L}_][\p{L}\p{Nd}_]*$/u;

/**
 * Parses a ServeMux pattern, reporting errors as Go does: `at offset N: problem`.
 * `loc` is where it is registered (a field path, a source line), for conflict messages.
 * @example parsePattern('GET /b/{bucket}/o/{name...}').segments.length // → 4
 */
export function parsePattern(s: string, loc = ''): Pattern {
  if (s.length === 0) throw new PatternError(s, -1, 'empty pattern');
  let off = 0;
  const fail = (msg: string): never => {
    throw new PatternError(s, off, msg);
  };

  let method = '';
  let rest = s;
  const sp = s.search(/[ \t]/);
  if (sp >= 0) {
    method = s.slice(0, sp);
    rest = s.slice(sp + 1).replace(/^[ \t]+/, ''); // only leading blanks: "GET /a " has the path "/a "
    if (method !== '' && !tokenRe.test(method)) fail(`invalid method ${JSON.stringify(method)}`);
    off = method.length + 1;
  }

  const i = rest.indexOf('/');
  if (i < 0) fail('host/path missing /');
  const host = rest.slice(0, i);
  const brace = host.indexOf('{');
  if (brace >= 0) {
    off += brace;
    fail("host contains '{' (missing initial '/'?)");
  }
  rest = rest.slice(i);
  off += i;

  // An unclean path with a method other than CONNECT can never match,
  // because request paths are cleaned before matching.
  if (method !== '' && method !== 'CONNECT' && rest !== cleanPath(rest)) {
    fail('non-CONNECT pattern with unclean path can never match');
  }

  const segments: Segment[] = [];
  const rawSegments: string[] = [];
  const wildcards: string[] = [];
  while (rest.length > 0) {
    // Invariant: rest starts with "/".
    rest = rest.slice(1);
    off = s.length - rest.length;
    if (rest.length === 0) {
      segments.push({ s: '', wild: true, multi: true }); // trailing slash
      rawSegments.push('');
      break;
    }
    let end = rest.indexOf('/');
    if (end < 0) end = rest.length;
    const seg = rest.slice(0, end);
    rest = rest.slice(end);
    rawSegments.push(seg);
    const open = seg.indexOf('{');
    if (open < 0) {
      segments.push({ s: pathUnescape(seg), wild: false, multi: false });
      continue;
    }
    if (open !== 0) fail("bad wildcard segment (must start with '{')");
    if (!seg.endsWith('}')) fail("bad wildcard segment (must end with '}')");
    let name = seg.slice(1, -1);
    if (name === '$') {
      if (rest.length !== 0) fail('{$} not at end');
      segments.push({ s: '/', wild: false, multi: false, dollar: true });
      break;
    }
    const multi = name.endsWith('...');
    if (multi) {
      name = name.slice(0, -3);
      if (rest.length !== 0) fail('{...} wildcard not at end');
    }
    if (name === '') fail('empty wildcard');
    if (!identRe.test(name)) fail(`bad wildcard name ${JSON.stringify(name)}`);
    if (wildcards.includes(name)) fail(`duplicate wildcard name ${JSON.stringify(name)}`);
    wildcards.push(name);
    segments.push({ s: name, wild: true, multi });
  }
  return { str: s, method, host, segments, rawSegments, wildcards, loc };
}

/** The last segment of a pattern (every parsed pattern has at least one). */
export function lastSegment(p: Pattern): Segment {
  return p.segments[p.segments.length - 1]!;
}

/**
 * Unescapes one path segment as Go's url.PathUnescape does; an invalid escape
 * leaves the segment as it is. Bytes that are not UTF-8 stay as upper-case
 * `%XX` escapes, since a JavaScript string cannot hold them.
 * @example pathUnescape('a%2Fb') // → "a/b"
 */
export function pathUnescape(seg: string): string {
  if (!seg.includes('%')) return seg;
  try {
    return decodeURIComponent(seg); // native and linear; it throws on a bad escape or non-UTF-8 bytes
  } catch {
    return unescapeBytes(seg);
  }
}

// The bytes of a segment with its escapes decoded, decoded again as UTF-8 one
// code point (1 to 4 bytes) at a time; a byte that does not start a valid
// sequence is kept as "%XX" and decoding goes on with the next byte. One pass,
// linear in the segment: searching ever-shorter runs that decode, as this did
// before, made 2,000 × "%ff" take ~80 s (issue 12).
function unescapeBytes(seg: string): string {
  const bytes = segmentBytes(seg);
  if (bytes === null) return seg; // Go: an invalid escape keeps the original
  let out = '';
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    if (b < 0x80) {
      out += String.fromCharCode(b);
      i++;
      continue;
    }
    const n = sequenceLength(bytes, i);
    if (n === 0) {
      out += '%' + hexDigits[b >> 4]! + hexDigits[b & 15]!;
      i++;
      continue;
    }
    let cp = b & (0xff >> (n + 1));
    for (let k = 1; k < n; k++) cp = (cp << 6) | (bytes[i + k]! & 0x3f);
    out += String.fromCodePoint(cp);
    i += n;
  }
  return out;
}

const hexDigits = '0123456789ABCDEF';

// The length of the valid UTF-8 sequence at bytes[i] (lead 0x80 or above), or
// 0 when it is not one: the WHATWG decoder's ranges, which refuse overlong
// forms, surrogates and code points past U+10FFFF.
function sequenceLength(bytes: Uint8Array, i: number): number {
  const b = bytes[i]!;
  let n: number;
  let lo = 0x80;
  let hi = 0xbf;
  if (b >= 0xc2 && b <= 0xdf) n = 2;
  else if (b >= 0xe0 && b <= 0xef) {
    n = 3;
    if (b === 0xe0) lo = 0xa0;
    else if (b === 0xed) hi = 0x9f;
  } else if (b >= 0xf0 && b <= 0xf4) {
    n = 4;
    if (b === 0xf0) lo = 0x90;
    else if (b === 0xf4) hi = 0x8f;
  } else return 0;
  if (i + n > bytes.length) return 0;
  const b1 = bytes[i + 1]!;
  if (b1 < lo || b1 > hi) return 0;
  for (let k = 2; k < n; k++) {
    const c = bytes[i + k]!;
    if (c < 0x80 || c > 0xbf) return 0;
  }
  return n;
}

// The segment as bytes: "%XX" escapes decoded, other characters as UTF-8
// (a lone surrogate as U+FFFD). Null when an escape is not "%" + two hex digits.
function segmentBytes(seg: string): Uint8Array | null {
  const bytes = new Uint8Array(seg.length * 3); // at most 3 bytes per UTF-16 unit
  let n = 0;
  for (let i = 0; i < seg.length; i++) {
    const c = seg.charCodeAt(i);
    if (c === 37) {
      const hi = hexValue(seg.charCodeAt(i + 1));
      const lo = hexValue(seg.charCodeAt(i + 2));
      if (hi < 0 || lo < 0) return null;
      bytes[n++] = (hi << 4) | lo;
      i += 2;
    } else if (c < 0x80) {
      bytes[n++] = c;
    } else {
      const cp = seg.codePointAt(i)!;
      if (cp > 0xffff) i++; // a surrogate pair: one code point, 4 bytes
      n = encodeUtf8(cp >= 0xd800 && cp <= 0xdfff ? 0xfffd : cp, bytes, n);
    }
  }
  return bytes.subarray(0, n);
}

function encodeUtf8(cp: number, bytes: Uint8Array, n: number): number {
  if (cp < 0x800) {
    bytes[n++] = 0xc0 | (cp >> 6);
  } else if (cp < 0x10000) {
    bytes[n++] = 0xe0 | (cp >> 12);
    bytes[n++] = 0x80 | ((cp >> 6) & 0x3f);
  } else {
    bytes[n++] = 0xf0 | (cp >> 18);
    bytes[n++] = 0x80 | ((cp >> 12) & 0x3f);
    bytes[n++] = 0x80 | ((cp >> 6) & 0x3f);
  }
  bytes[n++] = 0x80 | (cp & 0x3f);
  return n;
}

// 0-15 for a hex digit's char code, else -1 (NaN past the end included).
function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  const l = c | 0x20;
  return l >= 97 && l <= 102 ? l - 87 : -1;
}

/**
 * The canonical form of a path: "." and ".." resolved, repeated slashes
 * folded, a trailing slash kept (Go's cleanPath).
 * @example cleanPath('/a//b/../c/') // → "/a/c/"
 */
export function cleanPath(p: string): string {
  if (p === '') return '/';
  // Most paths are clean already; a scan is ~8x cheaper than splitting and joining (bench/router).
  if (p.charCodeAt(0) === 47 && isClean(p)) return p;
  if (p[0] !== '/') p = '/' + p;
  let np = posixClean(p);
  if (p.endsWith('/') && np !== '/') np += '/';
  return np;
}

// A rooted path without "//", "." or ".." segments.
function isClean(p: string): boolean {
  for (let i = 0; i < p.length; i++) {
    if (p.charCodeAt(i) !== 47) continue;
    const c1 = p.charCodeAt(i + 1); // NaN past the end
    if (c1 === 47) return false; // "//"
    if (c1 === 46) {
      const c2 = p.charCodeAt(i + 2);
      if (c2 !== c2 || c2 === 47) return false; // "/." at the end, or "/./"
      if (c2 === 46) {
        const c3 = p.charCodeAt(i + 3);
        if (c3 !== c3 || c3 === 47) return false; // "/.." at the end, or "/../"
      }
    }
  }
  return true;
}

// Go's path.Clean for a rooted path.
function posixClean(p: string): string {
  const out: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return '/' + out.join('/');
}
