// Pattern parsing, path cleaning and segment unescaping, checked case for case
// against Go's net/http tests (pattern_test.go: TestParsePattern,
// TestParsePatternError; server_test.go: TestCleanPath; routing_tree_test.go:
// TestRoutingFirstSegment). Rows marked "extra" are not in Go's tables; their
// expectations were taken from Go's net/http itself (go1.23 with the go1.26
// ServeMux changes), not from our port.

import { PatternError } from '../core/errors.ts';
import { cleanPath, parsePattern, pathUnescape, type Segment } from '../core/mux/pattern.ts';

const lit = (s: string): Segment => ({ s, wild: false, multi: false });
const wild = (s: string): Segment => ({ s, wild: true, multi: false });
const multi = (s: string): Segment => ({ s, wild: true, multi: true });
const dollar: Segment = { s: '/', wild: false, multi: false, dollar: true };

interface ParseCase {
  in: string;
  method?: string;
  host?: string;
  segments: Segment[];
}

describe('parsePattern: patterns that parse (Go TestParsePattern)', () => {
  const cases: ParseCase[] = [
    { in: '/', segments: [multi('')] },
    { in: '/a', segments: [lit('a')] },
    { in: '/a/', segments: [lit('a'), multi('')] },
    { in: '/path/to/something', segments: [lit('path'), lit('to'), lit('something')] },
    { in: '/{w1}/lit/{w2}', segments: [wild('w1'), lit('lit'), wild('w2')] },
    { in: '/{w1}/lit/{w2}/', segments: [wild('w1'), lit('lit'), wild('w2'), multi('')] },
    { in: 'example.com/', host: 'example.com', segments: [multi('')] },
    { in: 'GET /', method: 'GET', segments: [multi('')] },
    { in: 'POST example.com/foo/{w}', method: 'POST', host: 'example.com', segments: [lit('foo'), wild('w')] },
    { in: '/{$}', segments: [dollar] },
    {
      in: 'DELETE example.com/a/{foo12}/{$}',
      method: 'DELETE',
      host: 'example.com',
      segments: [lit('a'), wild('foo12'), dollar],
    },
    { in: '/foo/{$}', segments: [lit('foo'), dollar] },
    { in: '/{a}/foo/{rest...}', segments: [wild('a'), lit('foo'), multi('rest')] },
    { in: '//', segments: [lit(''), multi('')] },
    { in: '/foo///./../bar', segments: [lit('foo'), lit(''), lit(''), lit('.'), lit('..'), lit('bar')] },
    { in: 'a.com/foo//', host: 'a.com', segments: [lit('foo'), lit(''), multi('')] },
    { in: '/%61%62/%7b/%', segments: [lit('ab'), lit('{'), lit('%')] },
    // Any run of spaces and tabs separates the method from the rest.
    { in: 'GET\t  /', method: 'GET', segments: [multi('')] },
    { in: 'POST \t  example.com/foo/{w}', method: 'POST', host: 'example.com', segments: [lit('foo'), wild('w')] },
    {
      in: 'DELETE    \texample.com/a/{foo12}/{$}',
      method: 'DELETE',
      host: 'example.com',
      segments: [lit('a'), wild('foo12'), dollar],
    },
  ];

  test.each(cases)('$in', ({ in: s, method = '', host = '', segments }) => {
    const p = parsePattern(s);
    expect({ str: p.str, method: p.method, host: p.host, segments: p.segments }).toEqual({
      str: s,
      method,
      host,
      segments,
    });
  });
});

describe('parsePattern: more patterns that parse (extra)', () => {
  const cases: (ParseCase & { name: string })[] = [
    { name: 'tab-separates-method', in: 'GET\t/a/', method: 'GET', segments: [lit('a'), multi('')] },
    { name: 'leading-space-means-no-method', in: ' /a', segments: [lit('a')] },
    { name: 'two-spaces-after-method', in: 'GET  /a/{b}', method: 'GET', segments: [lit('a'), wild('b')] },
    { name: 'lower-case-method-is-a-valid-token', in: 'get /', method: 'get', segments: [multi('')] },
    { name: 'second-space-goes-into-host', in: 'PO ST /', method: 'PO', host: 'ST ', segments: [multi('')] },
    // Go trims only the left of what follows the method: a trailing space is part of the path.
    { name: 'trailing-space-is-part-of-path', in: 'GET /a ', method: 'GET', segments: [lit('a ')] },
    {
      name: 'connect-may-have-unclean-path',
      in: 'CONNECT /a/../b',
      method: 'CONNECT',
      segments: [lit('a'), lit('..'), lit('b')],
    },
    { name: 'connect-double-slash', in: 'CONNECT //', method: 'CONNECT', segments: [lit(''), multi('')] },
    { name: 'host-with-wildcard-path', in: 'example.com/{x}/', host: 'example.com', segments: [wild('x'), multi('')] },
    { name: 'host-with-port', in: 'a.com:8080/{$}', host: 'a.com:8080', segments: [dollar] },
    { name: 'escaped-slash-stays-in-literal', in: '/a%2fb', segments: [lit('a/b')] },
    { name: 'escaped-braces-are-a-literal', in: '/%7Bx%7D', segments: [lit('{x}')] },
    { name: 'utf8-escape-decoded', in: '/caf%C3%A9', segments: [lit('café')] },
    { name: 'unicode-wildcard-name', in: '/{é}', segments: [wild('é')] },
    { name: 'underscore-wildcard-name', in: '/{_}', segments: [wild('_')] },
    { name: 'digit-after-letter-in-name', in: '/{a1}', segments: [wild('a1')] },
    { name: 'unicode-digit-after-letter-in-name', in: '/{a١}', segments: [wild('a١')] },
    { name: 'closing-brace-alone-is-literal', in: '/a}', segments: [lit('a}')] },
  ];

  test.each(cases)('$name: $in', ({ in: s, method = '', host = '', segments }) => {
    const p = parsePattern(s);
    expect({ method: p.method, host: p.host, segments: p.segments }).toEqual({ method, host, segments });
  });
});

describe('parsePattern: wildcard names in order', () => {
  test.each([
    { in: '/{a}/is/{b}/{c...}', wildcards: ['a', 'b', 'c'] },
    { in: '/a/', wildcards: [] },
    { in: '/{$}', wildcards: [] },
    { in: 'GET h.com/x/{y}/{$}', wildcards: ['y'] },
    { in: '/names/{name}/{other...}', wildcards: ['name', 'other'] },
  ])('$in', ({ in: s, wildcards }) => {
    expect(parsePattern(s).wildcards).toEqual(wildcards);
  });
});

describe('parsePattern: errors (Go TestParsePatternError)', () => {
  // Go checks that the message contains the text; these are Go's full messages.
  test.each([
    { in: 'A=B /', message: 'at offset 0: invalid method "A=B"' },
    { in: ' ', message: 'at offset 1: host/path missing /' },
    { in: '/{w}x', message: "at offset 1: bad wildcard segment (must end with '}')" },
    { in: '/x{w}', message: "at offset 1: bad wildcard segment (must start with '{')" },
    { in: '/{wx', message: "at offset 1: bad wildcard segment (must end with '}')" },
    { in: '/a/{/}/c', message: "at offset 3: bad wildcard segment (must end with '}')" },
    { in: '/a/{%61}/c', message: 'at offset 3: bad wildcard name "%61"' }, // wildcard names aren't unescaped
    { in: '/{a$}', message: 'at offset 1: bad wildcard name "a$"' },
    { in: '/{}', message: 'at offset 1: empty wildcard' },
    { in: 'POST a.com/x/{}/y', message: 'at offset 13: empty wildcard' },
    { in: '/{...}', message: 'at offset 1: empty wildcard' },
    { in: '/{$...}', message: 'at offset 1: bad wildcard name "$"' },
    { in: '/{$}/', message: 'at offset 1: {$} not at end' },
    { in: '/{$}/x', message: 'at offset 1: {$} not at end' },
    { in: '/abc/{$}/x', message: 'at offset 5: {$} not at end' },
    { in: '/{a...}/', message: 'at offset 1: {...} wildcard not at end' },
    { in: '/{a...}/x', message: 'at offset 1: {...} wildcard not at end' },
    { in: '{a}/b', message: "at offset 0: host contains '{' (missing initial '/'?)" },
    { in: '/a/{x}/b/{x...}', message: 'at offset 9: duplicate wildcard name "x"' },
    { in: 'GET //', message: 'at offset 4: non-CONNECT pattern with unclean path can never match' },
  ])('$in', ({ in: s, message }) => {
    expect(() => parsePattern(s)).toThrow(PatternError);
    expect(() => parsePattern(s)).toThrow(`parsing ${JSON.stringify(s)}: ${message}`);
  });

  test('empty pattern', () => {
    expect(() => parsePattern('')).toThrow(PatternError);
    expect(() => parsePattern('')).toThrow('empty pattern');
  });
});

describe('parsePattern: more errors (extra)', () => {
  test.each([
    { in: 'GET /a/../b', message: 'at offset 4: non-CONNECT pattern with unclean path can never match' },
    { in: 'POST /a//b', message: 'at offset 5: non-CONNECT pattern with unclean path can never match' },
    { in: 'GET /a/.', message: 'at offset 4: non-CONNECT pattern with unclean path can never match' },
    { in: 'PUT /./', message: 'at offset 4: non-CONNECT pattern with unclean path can never match' },
    { in: 'HEAD /{x}/..', message: 'at offset 5: non-CONNECT pattern with unclean path can never match' },
    { in: '/{1x}', message: 'at offset 1: bad wildcard name "1x"' },
    { in: '/{x-y}', message: 'at offset 1: bad wildcard name "x-y"' },
    { in: '/{١}', message: 'at offset 1: bad wildcard name "١"' },
    { in: '/{x}}', message: 'at offset 1: bad wildcard name "x}"' },
    { in: '/a/{x}/{x}', message: 'at offset 7: duplicate wildcard name "x"' },
    { in: '/{x...}/', message: 'at offset 1: {...} wildcard not at end' },
    { in: '/a/{$}x', message: "at offset 3: bad wildcard segment (must end with '}')" },
    { in: '/a{', message: "at offset 1: bad wildcard segment (must start with '{')" },
    { in: '/a/b{c}', message: "at offset 3: bad wildcard segment (must start with '{')" },
    { in: 'GET', message: 'at offset 0: host/path missing /' },
    { in: 'GET ', message: 'at offset 4: host/path missing /' },
    { in: 'example.com', message: 'at offset 0: host/path missing /' },
    { in: 'GET a.com{x}/', message: "at offset 9: host contains '{' (missing initial '/'?)" },
    { in: 'GET{x} /', message: 'at offset 0: invalid method "GET{x}"' },
    // A space anywhere splits off a "method": a wildcard with a space reads as a bad method.
    { in: '/{x y}', message: 'at offset 0: invalid method "/{x"' },
    { in: '/a b', message: 'at offset 0: invalid method "/a"' },
  ])('$in', ({ in: s, message }) => {
    expect(() => parsePattern(s)).toThrow(PatternError);
    expect(() => parsePattern(s)).toThrow(`parsing ${JSON.stringify(s)}: ${message}`);
  });
});

describe('parsePattern: PatternError fields', () => {
  test('offset and reason are exposed', () => {
    let err: unknown;
    try {
      parsePattern('POST a.com/x/{}/y');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(PatternError);
    expect(err).toMatchObject({ pattern: 'POST a.com/x/{}/y', offset: 13, reason: 'empty wildcard' });
  });
});

describe('cleanPath (Go TestCleanPath)', () => {
  test.each([
    ['//', '/'],
    ['/x', '/x'],
    ['//x', '/x'],
    ['x//', '/x/'],
    ['a//b/////c', '/a/b/c'],
    ['/foo/../bar/./..//baz', '/baz'],
  ])('%j → %j', (input, want) => {
    expect(cleanPath(input)).toBe(want);
  });
});

describe('cleanPath (extra)', () => {
  test.each([
    ['', '/'],
    ['/', '/'],
    ['/a/b/', '/a/b/'],
    ['/a/./b', '/a/b'],
    ['/a/../../b', '/b'],
    ['/a/..', '/'],
    ['/a/../', '/'],
    ['/./', '/'],
    ['/..//', '/'],
    ['/a/b/c/../../d/', '/a/d/'],
    ['/a/.', '/a'],
    ['/a/./', '/a/'],
    ['/a/b/..//', '/a/'],
    ['..', '/'],
    ['a', '/a'],
    ['/.../', '/.../'],
    // Escaped dots and slashes are not path syntax: cleaning works on the escaped path.
    ['/a%2F..%2Fb', '/a%2F..%2Fb'],
    ['/%2e%2e/a', '/%2e%2e/a'],
  ])('%j → %j', (input, want) => {
    expect(cleanPath(input)).toBe(want);
  });
});

describe('pathUnescape: one segment, as url.PathUnescape (Go TestRoutingFirstSegment and extra)', () => {
  test.each([
    ['a%2Fb%2fc', 'a/b/c'],
    ['%62', 'b'],
    ['%61', 'a'],
    ['plain', 'plain'],
    ['a+b', 'a+b'], // "+" is not a space in a path
    ['%25', '%'],
    ['%7B%7d', '{}'],
    ['caf%C3%A9', 'café'],
    ['a%20b', 'a b'],
    // An invalid escape leaves the segment as it is.
    ['%', '%'],
    ['%zz', '%zz'],
    ['a%2', 'a%2'],
    ['%2F%', '%2F%'],
  ])('%j → %j', (input, want) => {
    expect(pathUnescape(input)).toBe(want);
  });

  // Go yields the raw bytes 0xFF / 0xE2 0x82, which a JavaScript string cannot
  // hold; our documented stand-in keeps each such byte as an upper-case escape.
  test.each([
    ['%ff', '%FF'],
    ['a%E2%82', 'a%E2%82'],
    ['%E2%82%AC%ff', '€%FF'],
  ])('non-UTF-8 bytes stay escaped: %j → %j', (input, want) => {
    expect(pathUnescape(input)).toBe(want);
  });
});
