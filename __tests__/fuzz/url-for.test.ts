// Property tests of urlFor: a URL built for a page, with any param values,
// routes back through the mux to that page with the same path values, and
// query template values come back out of `searchParams`.

import fc from 'fast-check';
import { mount, route, ServeMux, UrlForError, type PageRequest } from '../../core/index.ts';
import { anyChar } from './mixed-mux.ts';

// Every page answers with its name and the path values it sees.
function answer(page: string, req: PageRequest, names: string[]): Response {
  const values = Object.fromEntries(names.map((name) => [name, req.pathValue(name)]));
  return Response.json({ page, values });
}

class HomePage {
  readonly kind = 'home';
  serveHTTP(req: PageRequest) {
    return answer(this.kind, req, []);
  }
}
class ItemPage {
  readonly kind = 'item';
  serveHTTP(req: PageRequest) {
    return answer(this.kind, req, ['id']);
  }
}
class FilesPage {
  readonly kind = 'files';
  serveHTTP(req: PageRequest) {
    return answer(this.kind, req, ['rest']);
  }
}
class SearchPage {
  readonly kind = 'search';
  serveHTTP(req: PageRequest) {
    return answer(this.kind, req, []);
  }
}
class Dashboard {
  readonly kind = 'dashboard';
  serveHTTP(req: PageRequest) {
    return answer(this.kind, req, []);
  }
}
class UserPage {
  readonly kind = 'user';
  serveHTTP(req: PageRequest) {
    return answer(this.kind, req, ['userId']);
  }
}
class ProjectHome {
  readonly kind = 'project';
  serveHTTP(req: PageRequest) {
    return answer(this.kind, req, ['project']);
  }
}
class DocPage {
  readonly kind = 'doc';
  serveHTTP(req: PageRequest) {
    return answer(this.kind, req, ['project', 'doc', 'path']);
  }
}
// Nested groups: a group below a wildcard, below a group.
class Projects {
  index = route('/{$}', ProjectHome);
  doc = route('/docs/{doc}/{path...}', DocPage);
}
class Admin {
  index = route('/{$} Dashboard', Dashboard);
  user = route('/users/{userId}', UserPage);
  projects = route('/projects/{project}', Projects);
}
class App {
  index = route('/{$} Home', HomePage);
  item = route('/items/{id}', ItemPage);
  files = route('GET /files/{rest...}', FilesPage);
  search = route('GET /search', SearchPage);
  admin = route('/admin Admin', Admin);
}

const mux = new ServeMux();
const tree = mount(mux, App);

interface Seen {
  status: number;
  page?: string;
  values?: Record<string, string>;
}

async function visit(url: string): Promise<Seen> {
  const res = await mux.fetch(new Request(new URL(url, 'http://localhost/')));
  if (res.status !== 200) return { status: res.status };
  const { page, values } = (await res.json()) as { page: string; values: Record<string, string> };
  return { status: 200, page, values };
}

// Any text: URL syntax, escapes, dots, unicode (well-formed; lone surrogates have their own test).
const special = fc.constantFrom(
  '/',
  '?',
  '#',
  '%',
  '%2F',
  '%25',
  '%zz',
  ' ',
  '+',
  '&',
  '=',
  '.',
  '..',
  '\\',
  'é',
  '😀',
);
const text = fc
  .array(fc.oneof(special, fc.string({ unit: anyChar, maxLength: 3 })), { maxLength: 6 })
  .map((parts) => parts.join(''));

// A {name} value: anything but "", "." and "..", which cannot be one path segment (urlFor refuses those).
const segmentValue = fc.oneof(
  text.filter((v) => v !== '' && v !== '.' && v !== '..'),
  fc.integer().map(String),
);

// A {rest...} value that a path can hold: segments that are not "", "." or ".."
// (the mux cleans "a//b" and URL parsing resolves "." and ".."), except that
// the value may be "" or end in "/" (the trailing slash is kept).
const restValue = fc
  .tuple(
    fc.array(
      segmentValue.map((s) => s.replaceAll('/', '_')),
      { maxLength: 4 },
    ),
    fc.boolean(),
  )
  .map(([segs, trailing]) => segs.join('/') + (trailing && segs.length > 0 ? '/' : ''));

describe('urlFor round-trips through the mux', () => {
  test('{name} values in flat and nested pages', async () => {
    await fc.assert(
      fc.asyncProperty(segmentValue, segmentValue, async (a, b) => {
        expect(await visit(tree.urlFor(ItemPage, { id: a }))).toEqual({ status: 200, page: 'item', values: { id: a } });
        expect(await visit(tree.urlFor(UserPage, { userId: a }))).toEqual({
          status: 200,
          page: 'user',
          values: { userId: a },
        });
        expect(await visit(tree.urlFor(ProjectHome, { project: b }))).toEqual({
          status: 200,
          page: 'project',
          values: { project: b },
        });
      }),
      { numRuns: 300 },
    );
  });

  test('{rest...} values a path can hold, next to {name} values', async () => {
    await fc.assert(
      fc.asyncProperty(restValue, segmentValue, segmentValue, async (rest, project, doc) => {
        expect(await visit(tree.urlFor(FilesPage, { rest }))).toEqual({ status: 200, page: 'files', values: { rest } });
        expect(await visit(tree.urlFor(DocPage, { project, doc, path: rest }))).toEqual({
          status: 200,
          page: 'doc',
          values: { project, doc, path: rest },
        });
      }),
      { numRuns: 300 },
    );
  });

  test('a {rest...} value either round-trips or urlFor refuses it', async () => {
    // "a//b", "/a", "." or "../admin/" have no URL that routes back to them: the mux
    // redirects "//" away, and URL parsing resolves "." and ".." before the mux sees
    // the path. A strict urlFor refuses them, as it refuses "", "." and ".." for {name}.
    await fc.assert(
      fc.asyncProperty(text, async (rest) => {
        let url: string;
        try {
          url = tree.urlFor(FilesPage, { rest });
        } catch (err) {
          expect(err).toBeInstanceOf(UrlForError);
          return;
        }
        expect({ url, ...(await visit(url)) }).toEqual({ url, status: 200, page: 'files', values: { rest } });
      }),
      { numRuns: 300 },
    );
  });

  test('groups and /{$} indexes', async () => {
    // The root group by its field path, and the index page itself.
    expect(await visit(tree.urlFor('App'))).toEqual({ status: 200, page: 'home', values: {} });
    expect(await visit(tree.urlFor(HomePage))).toEqual({ status: 200, page: 'home', values: {} });
    expect(await visit(tree.urlFor(Admin))).toEqual({ status: 200, page: 'dashboard', values: {} });
    await fc.assert(
      fc.asyncProperty(segmentValue, async (project) => {
        expect(await visit(tree.urlFor([Admin, Projects], { project }))).toEqual({
          status: 200,
          page: 'project',
          values: { project },
        });
      }),
      { numRuns: 100 },
    );
  });

  test('"", "." and ".." are refused for a {name}', () => {
    for (const id of ['', '.', '..']) expect(() => tree.urlFor(ItemPage, { id })).toThrow(UrlForError);
  });
});

// Strings that are not well-formed UTF-16 (a lone surrogate somewhere) have no UTF-8, so no URL.
const loneSurrogate = /[\uD800-\uDFFF]/u;
const malformed = fc
  .string({
    unit: fc.oneof(fc.constantFrom('\uD800', '\uDBFF', '\uDC00', '\uDFFF'), anyChar),
    minLength: 1,
    maxLength: 4,
  })
  .filter((v) => loneSurrogate.test(v));

describe('values that no URL can hold', () => {
  test('a string with a lone surrogate is a UrlForError, in the path and in a template', () => {
    fc.assert(
      fc.property(malformed, (v) => {
        expect(() => tree.urlFor(ItemPage, { id: v })).toThrow(UrlForError);
        expect(() => tree.urlFor(FilesPage, { rest: v })).toThrow(UrlForError);
        expect(() => tree.urlFor([SearchPage, '?q={q}'], { q: v })).toThrow(UrlForError);
      }),
      { numRuns: 50 },
    );
  });
});

describe('template values round-trip', () => {
  test('query values through searchParams, fragment values through the hash', async () => {
    await fc.assert(
      fc.asyncProperty(text, text, text, async (q, page, section) => {
        const url = tree.urlFor([SearchPage, '?q={q}&page={page}#{section}'], { q, page, section });
        const parsed = new URL(url, 'http://localhost/');
        expect([...parsed.searchParams]).toEqual([
          ['q', q],
          ['page', page],
        ]);
        expect(decodeURIComponent(parsed.hash.slice(1))).toBe(section);
        expect(await visit(url)).toEqual({ status: 200, page: 'search', values: {} });
      }),
      { numRuns: 300 },
    );
  });
});

// The minimal counterexamples the properties above found, pinned.
describe('regressions', () => {
  // "{name} values" shrinks to "/": urlFor gives "/items/%2F", and the mux takes the
  // segment "%2F" (unescaped "/") for a trailing slash, so "/items/{id}" does not match: 404.
  test('url-for-slash-value-routes-back', async () => {
    expect(await visit(tree.urlFor(ItemPage, { id: '/' }))).toEqual({ status: 200, page: 'item', values: { id: '/' } });
  });

  // "a {rest...} value either round-trips or urlFor refuses it" shrinks to "/": urlFor gives
  // "/files//", which the mux redirects to "/files/" (rest ""). Worse, "../admin/" gives
  // "/files/../admin/", which URL parsing turns into "/admin/": a link to another page.
  test.each(['/', 'a//b', '.', '..', '../admin/', 'a/./b'])(
    'url-for-rest-with-empty-or-dot-segments-is-refused: %j',
    (rest) => {
      expect(() => tree.urlFor(FilesPage, { rest })).toThrow(UrlForError);
    },
  );

  // "a string with a lone surrogate" shrinks to "\uD800": encodeURIComponent throws a bare
  // "URIError: URI malformed" that names neither the call, the param nor the value.
  test('url-for-lone-surrogate-is-a-url-for-error', () => {
    expect(() => tree.urlFor(ItemPage, { id: '\uD800' })).toThrow(UrlForError);
  });
});
