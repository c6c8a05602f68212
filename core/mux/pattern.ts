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
// paths are unescaped segment by segment before matching.

import { PatternError } from '../errors';

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
  /** Names of the named wildcards, in order of appearance. */
  readonly wildcards: readonly string[];
  /** Where the pattern was registered, for conflict messages. */
  loc: string;
}

// RFC 9110 token characters, as Go's validMethod accepts.
const tokenRe = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// A Go identifier: a letter or "_", then letters, digits and "_".
const identRe = /^[\p{L}_][\p{L}\p{Nd}_]*$/u;

/**
 * Parses a ServeMux pattern, reporting errors as Go does: `at offset N: problem`.
 * @example parsePattern('GET /b/{bucket}/o/{name...}').segments.length // → 4
 */
export function parsePattern(s: string): Pattern {
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
    if (method !== '' && !tokenRe.test(method)) fail(`invalid method ${goQuote(method)}`);
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
  const wildcards: string[] = [];
  while (rest.length > 0) {
    // Invariant: rest starts with "/".
    rest = rest.slice(1);
    off = s.length - rest.length;
    if (rest.length === 0) {
      segments.push({ s: '', wild: true, multi: true }); // trailing slash
      break;
    }
    let end = rest.indexOf('/');
    if (end < 0) end = rest.length;
    const seg = rest.slice(0, end);
    rest = rest.slice(end);
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
    if (!identRe.test(name)) fail(`bad wildcard name ${goQuote(name)}`);
    if (wildcards.includes(name)) fail(`duplicate wildcard name ${goQuote(name)}`);
    wildcards.push(name);
    segments.push({ s: name, wild: true, multi });
  }
  return { str: s, method, host, segments, wildcards, loc: '' };
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
    return decodeURIComponent(seg);
  } catch {
    return unescapeBytes(seg);
  }
}

function unescapeBytes(seg: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < seg.length; i++) {
    if (seg[i] !== '%') {
      bytes.push(...Buffer.from(seg[i]!, 'utf8'));
      continue;
    }
    const hex = seg.slice(i + 1, i + 3);
    if (!/^[0-9a-fA-F]{2}$/.test(hex)) return seg; // Go: invalid escape, keep the original
    bytes.push(parseInt(hex, 16));
    i += 2;
  }
  // Decode valid UTF-8 runs; re-escape each byte that is not part of one.
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let out = '';
  let start = 0;
  while (start < bytes.length) {
    let end = bytes.length;
    for (; end > start; end--) {
      try {
        out += decoder.decode(Uint8Array.from(bytes.slice(start, end)));
        break;
      } catch {
        // shrink the run until it decodes
      }
    }
    if (end === start) {
      out += '%' + bytes[start]!.toString(16).toUpperCase().padStart(2, '0');
      end = start + 1;
    }
    start = end;
  }
  return out;
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

/** Quotes a string like Go's %q, for error messages that read as Go's. */
export function goQuote(s: string): string {
  return JSON.stringify(s);
}
