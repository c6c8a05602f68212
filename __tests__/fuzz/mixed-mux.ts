// Shared by the mux and adapter fuzz tests: a mux with one pattern of every
// kind (host, method, wildcard, {x...}, {$}, trailing slash, escaped literal),
// and generators for the hostile pieces a request line is made of.

import fc from 'fast-check';
import { ServeMux, type HandlerFunc } from '../../core/index.ts';

/** Registered on the mixed mux; none conflicts with another (mixedMux would throw). */
export const mixedPatterns = [
  '/{$}',
  'GET /a/b',
  'GET /a/{x}',
  'POST /a/{x}',
  '/a/{x}/c/{$}',
  'h.com/a/',
  'h.com/b/{x}',
  'GET /files/{rest...}',
  'DELETE /files/{rest...}',
  '/files/',
  'HEAD /h',
  'GET /h',
  '/%61%2Fb/{y}',
  'PUT /b/',
  'OPTIONS /b/{x}/{$}',
  '/*',
  '/é/{x}',
  'GET /q/{a}/{b}',
  'PATCH /q/',
  'h.com/{$}',
  'h.com/{x}/',
] as const;

/** The wildcard names of a pattern, in order: "/a/{x}/{y...}" → ["x", "y"]. */
export function wildcardNames(pattern: string): string[] {
  return [...pattern.matchAll(/\{([^{}$.]+)(?:\.\.\.)?\}/g)].map((m) => m[1]!);
}

/** A mux with every mixed pattern, each answered by `handlerFor(pattern)`. */
export function mixedMux(handlerFor: (pattern: string) => HandlerFunc): ServeMux {
  const mux = new ServeMux();
  for (const p of mixedPatterns) mux.handleFunc(p, handlerFor(p), 'mixedPatterns');
  return mux;
}

/** The status the mux answers with from its own handlers; anything else comes from a page. */
export const muxStatuses = [307, 400, 404, 405];

// Pieces of paths that cleaning, unescaping and matching treat specially.
const pathPieces = [
  '/',
  '//',
  '.',
  '..',
  '/./',
  '/../',
  '%',
  '%zz',
  '%E0%A4%A',
  '%00',
  '%2F',
  '%2f',
  '%2e',
  '%2E%2e',
  '%61',
  '%C3%A9',
  '%FF',
  '%5C',
  'a',
  'b',
  'c',
  'd',
  'h',
  'q',
  'files',
  'é',
  '*',
  '{$}',
  '{x}',
  '?',
  '?x=1&y',
  '#',
  '\\',
  ' ',
  '😀',
];

/**
 * A path-ish string: special pieces and arbitrary text made of `chars`, in any
 * order; `ascii` keeps only the pieces an HTTP/1.1 request line may carry.
 */
export function pathText(chars: fc.Arbitrary<string>, ascii = false): fc.Arbitrary<string> {
  const pieces = ascii ? pathPieces.filter((p) => /^[\x21-\x7e]+$/.test(p)) : pathPieces;
  return fc
    .array(fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...pieces) }, fc.string({ unit: chars, maxLength: 4 })), {
      maxLength: 8,
    })
    .map((parts) => parts.join(''));
}

/**
 * Any code point but a surrogate, a third of them ASCII. (fast-check's own
 * `unit: 'binary'` builds a map of all 1.1M code points on first use: 0.7 s.)
 */
export const anyChar = fc
  .oneof(
    fc.integer({ min: 0, max: 0x7f }),
    fc.integer({ min: 0x80, max: 0xd7ff }),
    fc.integer({ min: 0xe000, max: 0x10ffff }),
  )
  .map((c) => String.fromCodePoint(c));

/** Request methods: the usual ones, odd but valid tokens, lower case, and strings that are no token. */
export const methods = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      'GET',
      'HEAD',
      'POST',
      'PUT',
      'DELETE',
      'OPTIONS',
      'PATCH',
      'get',
      'head',
      'post',
      'patch',
      'Delete',
      'PROPFIND',
      'M-SEARCH',
      'QUERY',
      'CONNECT',
      'TRACE',
      'TRACK',
    ),
  },
  fc.stringMatching(/^[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,8}$/),
  fc.string({ minLength: 1, maxLength: 6 }),
);

/** Header names the framework or the platform treat specially, and any token. */
export const headerNames = fc.oneof(
  fc.constantFrom('HX-Request', 'HX-Target', 'HX-Current-URL', 'Content-Type', 'Cookie', 'Accept', 'X-Fuzz'),
  fc.stringMatching(/^[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,12}$/),
);
