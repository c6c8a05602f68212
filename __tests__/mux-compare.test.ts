// How patterns relate and conflict, checked case for case against Go's
// net/http pattern_test.go (TestCompareMethods, TestComparePaths,
// TestConflictsWith, TestRegisterConflict, TestDescribeConflict,
// TestCommonPath, TestDifferencePath) and routing_index_test.go (TestIndex).
// Full describeConflict texts and the extra registration rows were taken from
// Go's net/http itself.

import { ConflictError } from '../core/errors.ts';
import {
  commonPath,
  comparePathsAndMethods,
  conflictsWith,
  describeConflict,
  differencePath,
  type Relationship,
} from '../core/mux/compare.ts';
import { parsePattern, type Pattern } from '../core/mux/pattern.ts';
import { RoutingIndex } from '../core/mux/routing-index.ts';
import { ServeMux } from '../core/mux/serve-mux.ts';

const inverse = (r: Relationship): Relationship =>
  r === 'moreGeneral' ? 'moreSpecific' : r === 'moreSpecific' ? 'moreGeneral' : r;

const ok = (): Response => new Response('ok');

describe('compare methods (Go TestCompareMethods)', () => {
  // The paths are equal, so the relationship is that of the methods alone.
  test.each<[string, string, Relationship]>([
    ['/', '/', 'equivalent'],
    ['GET /', 'GET /', 'equivalent'],
    ['HEAD /', 'HEAD /', 'equivalent'],
    ['POST /', 'POST /', 'equivalent'],
    ['GET /', 'POST /', 'disjoint'],
    ['GET /', '/', 'moreSpecific'],
    ['HEAD /', '/', 'moreSpecific'],
    ['GET /', 'HEAD /', 'moreGeneral'],
  ])('%s vs %s: %s', (s1, s2, want) => {
    const p1 = parsePattern(s1);
    const p2 = parsePattern(s2);
    expect(comparePathsAndMethods(p1, p2)).toBe(want);
    expect(comparePathsAndMethods(p2, p1)).toBe(inverse(want));
  });
});

describe('compare paths (Go TestComparePaths)', () => {
  // A non-final pattern segment can have one of two values: literal or single
  // wildcard. A final pattern segment can have one of 5: empty (trailing
  // slash), literal, dollar, single wildcard, or multi wildcard. Trailing
  // slash and multi wildcard are the same.
  test.each<[string, string, Relationship]>([
    // A literal should be more specific than anything it overlaps, except itself.
    ['/a', '/a', 'equivalent'],
    ['/a', '/b', 'disjoint'],
    ['/a', '/', 'moreSpecific'],
    ['/a', '/{$}', 'disjoint'],
    ['/a', '/{x}', 'moreSpecific'],
    ['/a', '/{x...}', 'moreSpecific'],

    // Adding a segment doesn't change that.
    ['/b/a', '/b/a', 'equivalent'],
    ['/b/a', '/b/b', 'disjoint'],
    ['/b/a', '/b/', 'moreSpecific'],
    ['/b/a', '/b/{$}', 'disjoint'],
    ['/b/a', '/b/{x}', 'moreSpecific'],
    ['/b/a', '/b/{x...}', 'moreSpecific'],
    ['/{z}/a', '/{z}/a', 'equivalent'],
    ['/{z}/a', '/{z}/b', 'disjoint'],
    ['/{z}/a', '/{z}/', 'moreSpecific'],
    ['/{z}/a', '/{z}/{$}', 'disjoint'],
    ['/{z}/a', '/{z}/{x}', 'moreSpecific'],
    ['/{z}/a', '/{z}/{x...}', 'moreSpecific'],

    // Single wildcard on left.
    ['/{z}', '/a', 'moreGeneral'],
    ['/{z}', '/a/b', 'disjoint'],
    ['/{z}', '/{$}', 'disjoint'],
    ['/{z}', '/{x}', 'equivalent'],
    ['/{z}', '/', 'moreSpecific'],
    ['/{z}', '/{x...}', 'moreSpecific'],
    ['/b/{z}', '/b/a', 'moreGeneral'],
    ['/b/{z}', '/b/a/b', 'disjoint'],
    ['/b/{z}', '/b/{$}', 'disjoint'],
    ['/b/{z}', '/b/{x}', 'equivalent'],
    ['/b/{z}', '/b/', 'moreSpecific'],
    ['/b/{z}', '/b/{x...}', 'moreSpecific'],

    // Trailing slash on left.
    ['/', '/a', 'moreGeneral'],
    ['/', '/a/b', 'moreGeneral'],
    ['/', '/{$}', 'moreGeneral'],
    ['/', '/{x}', 'moreGeneral'],
    ['/', '/', 'equivalent'],
    ['/', '/{x...}', 'equivalent'],

    ['/b/', '/b/a', 'moreGeneral'],
    ['/b/', '/b/a/b', 'moreGeneral'],
    ['/b/', '/b/{$}', 'moreGeneral'],
    ['/b/', '/b/{x}', 'moreGeneral'],
    ['/b/', '/b/', 'equivalent'],
    ['/b/', '/b/{x...}', 'equivalent'],

    ['/{z}/', '/{z}/a', 'moreGeneral'],
    ['/{z}/', '/{z}/a/b', 'moreGeneral'],
    ['/{z}/', '/{z}/{$}', 'moreGeneral'],
    ['/{z}/', '/{z}/{x}', 'moreGeneral'],
    ['/{z}/', '/{z}/', 'equivalent'],
    ['/{z}/', '/a/', 'moreGeneral'],
    ['/{z}/', '/{z}/{x...}', 'equivalent'],
    ['/{z}/', '/a/{x...}', 'moreGeneral'],
    ['/a/{z}/', '/{z}/a/', 'overlaps'],
    ['/a/{z}/b/', '/{x}/c/{y...}', 'overlaps'],

    // Multi wildcard on left.
    ['/{m...}', '/a', 'moreGeneral'],
    ['/{m...}', '/a/b', 'moreGeneral'],
    ['/{m...}', '/{$}', 'moreGeneral'],
    ['/{m...}', '/{x}', 'moreGeneral'],
    ['/{m...}', '/', 'equivalent'],
    ['/{m...}', '/{x...}', 'equivalent'],

    ['/b/{m...}', '/b/a', 'moreGeneral'],
    ['/b/{m...}', '/b/a/b', 'moreGeneral'],
    ['/b/{m...}', '/b/{$}', 'moreGeneral'],
    ['/b/{m...}', '/b/{x}', 'moreGeneral'],
    ['/b/{m...}', '/b/', 'equivalent'],
    ['/b/{m...}', '/b/{x...}', 'equivalent'],
    ['/b/{m...}', '/a/{x...}', 'disjoint'],

    ['/{z}/{m...}', '/{z}/a', 'moreGeneral'],
    ['/{z}/{m...}', '/{z}/a/b', 'moreGeneral'],
    ['/{z}/{m...}', '/{z}/{$}', 'moreGeneral'],
    ['/{z}/{m...}', '/{z}/{x}', 'moreGeneral'],
    ['/{z}/{m...}', '/{w}/', 'equivalent'],
    ['/{z}/{m...}', '/a/', 'moreGeneral'],
    ['/{z}/{m...}', '/{z}/{x...}', 'equivalent'],
    ['/{z}/{m...}', '/a/{x...}', 'moreGeneral'],
    ['/a/{m...}', '/a/b/{y...}', 'moreGeneral'],
    ['/a/{m...}', '/a/{x}/{y...}', 'moreGeneral'],
    ['/a/{z}/{m...}', '/a/b/{y...}', 'moreGeneral'],
    ['/a/{z}/{m...}', '/{z}/a/', 'overlaps'],
    ['/a/{z}/{m...}', '/{z}/b/{y...}', 'overlaps'],
    ['/a/{z}/b/{m...}', '/{x}/c/{y...}', 'overlaps'],
    ['/a/{z}/a/{m...}', '/{x}/b', 'disjoint'],

    // Dollar on left.
    ['/{$}', '/a', 'disjoint'],
    ['/{$}', '/a/b', 'disjoint'],
    ['/{$}', '/{$}', 'equivalent'],
    ['/{$}', '/{x}', 'disjoint'],
    ['/{$}', '/', 'moreSpecific'],
    ['/{$}', '/{x...}', 'moreSpecific'],

    ['/b/{$}', '/b', 'disjoint'],
    ['/b/{$}', '/b/a', 'disjoint'],
    ['/b/{$}', '/b/a/b', 'disjoint'],
    ['/b/{$}', '/b/{$}', 'equivalent'],
    ['/b/{$}', '/b/{x}', 'disjoint'],
    ['/b/{$}', '/b/', 'moreSpecific'],
    ['/b/{$}', '/b/{x...}', 'moreSpecific'],
    ['/b/{$}', '/b/c/{x...}', 'disjoint'],
    ['/b/{x}/a/{$}', '/{x}/c/{y...}', 'overlaps'],
    ['/{x}/b/{$}', '/a/{x}/{y}', 'disjoint'],
    ['/{x}/b/{$}', '/a/{x}/c', 'disjoint'],

    ['/{z}/{$}', '/{z}/a', 'disjoint'],
    ['/{z}/{$}', '/{z}/a/b', 'disjoint'],
    ['/{z}/{$}', '/{z}/{$}', 'equivalent'],
    ['/{z}/{$}', '/{z}/{x}', 'disjoint'],
    ['/{z}/{$}', '/{z}/', 'moreSpecific'],
    ['/{z}/{$}', '/a/', 'overlaps'],
    ['/{z}/{$}', '/a/{x...}', 'overlaps'],
    ['/{z}/{$}', '/{z}/{x...}', 'moreSpecific'],
    ['/a/{z}/{$}', '/{z}/a/', 'overlaps'],

    // An empty literal segment is a literal: more specific than a wildcard (issue 12).
    ['//foo', '/{x}/foo', 'moreSpecific'],
    ['//', '/{x}/', 'moreSpecific'],
    ['/a//b', '/a/{x}/b', 'moreSpecific'],
    ['//foo', '/a/foo', 'disjoint'],
    ['//{y}', '/{x}/foo', 'overlaps'],
  ])('%s vs %s: %s', (s1, s2, want) => {
    const p1 = parsePattern(s1);
    const p2 = parsePattern(s2);
    expect(comparePathsAndMethods(p1, p1)).toBe('equivalent');
    expect(comparePathsAndMethods(p2, p2)).toBe('equivalent');
    expect(comparePathsAndMethods(p1, p2)).toBe(want);
    expect(comparePathsAndMethods(p2, p1)).toBe(inverse(want));
  });
});

describe('conflictsWith, both ways round (Go TestConflictsWith)', () => {
  test.each<[string, string, boolean]>([
    ['/a', '/a', true],
    ['/a', '/ab', false],
    ['/a/b/cd', '/a/b/cd', true],
    ['/a/b/cd', '/a/b/c', false],
    ['/a/b/c', '/a/c/c', false],
    ['/{x}', '/{y}', true],
    ['/{x}', '/a', false], // more specific
    ['/{x}/{y}', '/{x}/a', false],
    ['/{x}/{y}', '/{x}/a/b', false],
    ['/{x}', '/a/{y}', false],
    ['/{x}/{y}', '/{x}/a/', false],
    ['/{x}', '/a/{y...}', false], // more specific
    ['/{x}/a/{y}', '/{x}/a/{y...}', false], // more specific
    ['/{x}/{y}', '/{x}/a/{$}', false], // more specific
    ['/{x}/{y}/{$}', '/{x}/a/{$}', false],
    ['/a/{x}', '/{x}/b', true],
    ['/', 'GET /', false],
    ['/', 'GET /foo', false],
    ['GET /', 'GET /foo', false],
    ['GET /', '/foo', true],
    ['GET /foo', 'HEAD /', true],
    ['//foo', '/{x}/foo', false], // an empty literal is more specific (issue 12)
    ['//{y}', '/{x}/foo', true],
  ])('%s vs %s: %s', (s1, s2, want) => {
    const p1 = parsePattern(s1);
    const p2 = parsePattern(s2);
    expect(conflictsWith(p1, p2)).toBe(want);
    expect(conflictsWith(p2, p1)).toBe(want);
  });

  test.each<[string, string]>([
    ['a.com/x', '/x'],
    ['a.com/{x}', 'b.com/{y}'],
    ['a.com/', 'a.com:80/'],
  ])('patterns with different hosts never conflict: %s vs %s', (s1, s2) => {
    expect(conflictsWith(parsePattern(s1), parsePattern(s2))).toBe(false);
    expect(conflictsWith(parsePattern(s2), parsePattern(s1))).toBe(false);
  });
});

describe('describeConflict (Go TestDescribeConflict, full texts from Go)', () => {
  test.each<[string, string, string]>([
    ['/a/{x}', '/a/{y}', '/a/{x} matches the same requests as /a/{y}'],
    ['/', '/{m...}', '/ matches the same requests as /{m...}'],
    [
      '/a/{x}',
      '/{y}/b',
      '/a/{x} and /{y}/b both match some paths, like "/a/b".\n' +
        'But neither is more specific than the other.\n' +
        '/a/{x} matches "/a/x", but /{y}/b doesn\'t.\n' +
        '/{y}/b matches "/y/b", but /a/{x} doesn\'t.',
    ],
    ['/a', 'GET /{x}', '/a matches more methods than GET /{x}, but has a more specific path pattern'],
    ['GET /a', 'HEAD /', 'GET /a matches more methods than HEAD /, but has a more specific path pattern'],
    ['POST /', '/a', 'POST / matches fewer methods than /a, but has a more general path pattern'],
  ])('%s vs %s', (s1, s2, want) => {
    expect(describeConflict(parsePattern(s1), parsePattern(s2))).toBe(want);
  });
});

describe('commonPath (Go TestCommonPath)', () => {
  test.each<[string, string, string]>([
    ['/a/{x}', '/{x}/a', '/a/a'],
    ['/a/{z}/', '/{z}/a/', '/a/a/'],
    ['/a/{z}/{m...}', '/{z}/a/', '/a/a/'],
    ['/{z}/{$}', '/a/', '/a/'],
    ['/{z}/{$}', '/a/{x...}', '/a/'],
    ['/a/{z}/{$}', '/{z}/a/', '/a/a/'],
    ['/a/{x}/b/{y...}', '/{x}/c/{y...}', '/a/c/b/'],
    ['/a/{x}/b/', '/{x}/c/{y...}', '/a/c/b/'],
    ['/a/{x}/b/{$}', '/{x}/c/{y...}', '/a/c/b/'],
    ['/a/{z}/{x...}', '/{z}/b/{y...}', '/a/b/'],
  ])('%s vs %s: %j', (s1, s2, want) => {
    const p1 = parsePattern(s1);
    const p2 = parsePattern(s2);
    expect(comparePathsAndMethods(p1, p2)).toBe('overlaps');
    expect(commonPath(p1, p2)).toBe(want);
  });
});

describe('differencePath (Go TestDifferencePath)', () => {
  test.each<[string, string, string]>([
    ['/a/{x}', '/{x}/a', '/a/x'],
    ['/{x}/a', '/a/{x}', '/x/a'],
    ['/a/{z}/', '/{z}/a/', '/a/z/'],
    ['/{z}/a/', '/a/{z}/', '/z/a/'],
    ['/{a}/a/', '/a/{z}/', '/ax/a/'],
    ['/a/{z}/{x...}', '/{z}/b/{y...}', '/a/z/'],
    ['/{z}/b/{y...}', '/a/{z}/{x...}', '/z/b/'],
    ['/a/b/', '/a/b/c', '/a/b/'],
    ['/a/b/{x...}', '/a/b/c', '/a/b/'],
    ['/a/b/{x...}', '/a/b/c/d', '/a/b/'],
    ['/a/b/{x...}', '/a/b/c/d/', '/a/b/'],
    ['/a/{z}/{m...}', '/{z}/a/', '/a/z/'],
    ['/{z}/a/', '/a/{z}/{m...}', '/z/a/'],
    ['/{z}/{$}', '/a/', '/z/'],
    ['/a/', '/{z}/{$}', '/a/x'],
    ['/{z}/{$}', '/a/{x...}', '/z/'],
    ['/a/{foo...}', '/{z}/{$}', '/a/foo'],
    ['/a/{z}/{$}', '/{z}/a/', '/a/z/'],
    ['/{z}/a/', '/a/{z}/{$}', '/z/a/x'],
    ['/a/{x}/b/{y...}', '/{x}/c/{y...}', '/a/x/b/'],
    ['/{x}/c/{y...}', '/a/{x}/b/{y...}', '/x/c/'],
    ['/a/{c}/b/', '/{x}/c/{y...}', '/a/cx/b/'],
    ['/{x}/c/{y...}', '/a/{c}/b/', '/x/c/'],
    ['/a/{x}/b/{$}', '/{x}/c/{y...}', '/a/x/b/'],
    ['/{x}/c/{y...}', '/a/{x}/b/{$}', '/x/c/'],
  ])('%s vs %s: %j', (s1, s2, want) => {
    const p1 = parsePattern(s1);
    const p2 = parsePattern(s2);
    expect(['overlaps', 'moreGeneral']).toContain(comparePathsAndMethods(p1, p2));
    expect(differencePath(p1, p2)).toBe(want);
  });
});

describe('ServeMux.handle rejects a conflicting pattern with a ConflictError (Go TestRegisterConflict and extra)', () => {
  // [registered first, registered second, describeConflict(second, first) as Go words it]
  test.each<[string, string, string]>([
    ['/a/{x}/', '/a/{y}/{z...}', '/a/{y}/{z...} matches the same requests as /a/{x}/'],
    ['/a', '/a', '/a matches the same requests as /a'],
    ['/a/b/cd', '/a/b/cd', '/a/b/cd matches the same requests as /a/b/cd'],
    ['/{x}', '/{y}', '/{y} matches the same requests as /{x}'],
    ['/', '/{m...}', '/{m...} matches the same requests as /'],
    ['HEAD /x', 'HEAD /x', 'HEAD /x matches the same requests as HEAD /x'],
    [
      '/a/{x}',
      '/{x}/b',
      '/{x}/b and /a/{x} both match some paths, like "/a/b".\n' +
        'But neither is more specific than the other.\n' +
        '/{x}/b matches "/x/b", but /a/{x} doesn\'t.\n' +
        '/a/{x} matches "/a/x", but /{x}/b doesn\'t.',
    ],
    ['GET /', '/foo', '/foo matches more methods than GET /, but has a more specific path pattern'],
    ['GET /foo', 'HEAD /', 'HEAD / matches fewer methods than GET /foo, but has a more general path pattern'],
    ['GET /{x}', '/a', '/a matches more methods than GET /{x}, but has a more specific path pattern'],
    ['/a', 'POST /', 'POST / matches fewer methods than /a, but has a more general path pattern'],
    [
      'a.com/x/{y}',
      'a.com/{z}/y',
      'a.com/{z}/y and a.com/x/{y} both match some paths, like "/x/y".\n' +
        'But neither is more specific than the other.\n' +
        'a.com/{z}/y matches "/z/y", but a.com/x/{y} doesn\'t.\n' +
        'a.com/x/{y} matches "/x/yx", but a.com/{z}/y doesn\'t.',
    ],
    [
      '/a/{z}/b/',
      '/{x}/c/{y...}',
      '/{x}/c/{y...} and /a/{z}/b/ both match some paths, like "/a/c/b/".\n' +
        'But neither is more specific than the other.\n' +
        '/{x}/c/{y...} matches "/x/c/", but /a/{z}/b/ doesn\'t.\n' +
        '/a/{z}/b/ matches "/a/z/b/", but /{x}/c/{y...} doesn\'t.',
    ],
    [
      'GET /b/{x}/a/{$}',
      'GET /{x}/c/{y...}',
      'GET /{x}/c/{y...} and GET /b/{x}/a/{$} both match some paths, like "/b/c/a/".\n' +
        'But neither is more specific than the other.\n' +
        'GET /{x}/c/{y...} matches "/x/c/", but GET /b/{x}/a/{$} doesn\'t.\n' +
        'GET /b/{x}/a/{$} matches "/b/x/a/", but GET /{x}/c/{y...} doesn\'t.',
    ],
    [
      '/a/{z}/{$}',
      '/{z}/a/',
      '/{z}/a/ and /a/{z}/{$} both match some paths, like "/a/a/".\n' +
        'But neither is more specific than the other.\n' +
        '/{z}/a/ matches "/z/a/x", but /a/{z}/{$} doesn\'t.\n' +
        '/a/{z}/{$} matches "/a/z/", but /{z}/a/ doesn\'t.',
    ],
    [
      '/{z}/{$}',
      '/a/{x...}',
      '/a/{x...} and /{z}/{$} both match some paths, like "/a/".\n' +
        'But neither is more specific than the other.\n' +
        '/a/{x...} matches "/a/x", but /{z}/{$} doesn\'t.\n' +
        '/{z}/{$} matches "/z/", but /a/{x...} doesn\'t.',
    ],
    [
      '/a/',
      '/{z}/{$}',
      '/{z}/{$} and /a/ both match some paths, like "/a/".\n' +
        'But neither is more specific than the other.\n' +
        '/{z}/{$} matches "/z/", but /a/ doesn\'t.\n' +
        '/a/ matches "/a/x", but /{z}/{$} doesn\'t.',
    ],
  ])('%s then %s', (first, second, description) => {
    const mux = new ServeMux();
    mux.handleFunc(first, ok, 'first.ts:1');
    let err: unknown;
    try {
      mux.handleFunc(second, ok, 'second.ts:2');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConflictError);
    const conflict = err as ConflictError;
    expect(conflict.pattern).toBe(second);
    expect(conflict.existing).toBe(first);
    expect(conflict.message).toBe(
      `pattern ${JSON.stringify(second)} (registered at second.ts:2) conflicts with pattern ` +
        `${JSON.stringify(first)} (registered at first.ts:1):\n${description}`,
    );
    expect(describeConflict(parsePattern(second), parsePattern(first))).toBe(description);
  });
});

describe('ServeMux.handle accepts patterns that do not conflict, in either order (extra)', () => {
  test.each<[string, string]>([
    ['a.com/x', '/x'],
    ['/{x}', '/a'],
    ['GET /', '/'],
    ['/a/b/{$}', '/a/b/{x}'],
    ['GET /a', 'POST /a'],
    ['GET /a', 'HEAD /a'],
    ['/path/*', '/path/{p...}'], // a literal "*" segment is no multi wildcard
    ['/{x}/{y}/{$}', '/{x}/a/{$}'],
    ['a.com/{x}', 'b.com/{x}'],
    ['/a/{x}/c', '/a/b/z'],
    ['GET /static/', '/static/{path...}'],
  ])('%s and %s', (s1, s2) => {
    for (const [first, second] of [
      [s1, s2],
      [s2, s1],
    ] as const) {
      const mux = new ServeMux();
      mux.handleFunc(first, ok);
      expect(() => mux.handleFunc(second, ok)).not.toThrow();
    }
  });
});

// Go TestIndex: every kind of pattern up to some number of segments; the
// conflicts the index finds must be exactly those an exhaustive comparison finds.
describe('RoutingIndex (Go TestIndex)', () => {
  function generatePatterns(): Pattern[] {
    const methods = ['', 'GET ', 'HEAD ', 'POST '];
    const hosts = ['', 'h1', 'h2'];
    const segs = ['/a', '/b', '/{x}'];
    const finalSegs = ['/a', '/b', '/{f}', '/{m...}', '/{$}'];
    const star: string[] = [];
    for (let n = 0; n <= 3; n++) {
      let level = [''];
      for (let i = 0; i < n; i++) level = level.flatMap((s) => segs.map((seg) => s + seg));
      star.push(...level);
    }
    const pats: Pattern[] = [];
    for (const m of methods) {
      for (const h of hosts) {
        for (const s of star) {
          for (const f of finalSegs) {
            // Replace duplicate wildcards with unique ones.
            let wc = 0;
            const str = (m + h + s + f).replace(/\{x\}/g, () => `{x${wc++}}`);
            pats.push(parsePattern(str));
          }
        }
      }
    }
    return pats;
  }

  test('index conflicts equal true conflicts for every generated pattern', () => {
    const patterns = generatePatterns();
    expect(patterns).toHaveLength(2400);
    const idx = new RoutingIndex();
    const mismatches: string[] = [];
    patterns.forEach((pat, i) => {
      const want = [
        ...new Set(
          patterns
            .slice(0, i)
            .filter((p) => conflictsWith(pat, p))
            .map((p) => p.str),
        ),
      ].sort();
      const got = [
        ...new Set([...idx.possiblyConflicting(pat)].filter((p) => conflictsWith(pat, p)).map((p) => p.str)),
      ].sort();
      if (JSON.stringify(got) !== JSON.stringify(want)) {
        mismatches.push(`${pat.str}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
      }
      idx.add(pat);
    });
    expect(mismatches).toEqual([]);
  });
});
