// Path values and queries checked by a Standard Schema (issue 45.9): parsePath turns the matched pattern's wildcards
// into the schema's typed output or a 404, getOr404 turns "no such record" into a 404, and parseQuery gives a query's
// typed output directly (a query its schema refuses is a 400). Each through a mounted tree and mux.fetch.

import * as v from 'valibot';
import { z } from 'zod';
import { getOr404, parsePath } from '../core/forms/path.ts';
import { parseQuery } from '../core/forms/query.ts';
import { HttpError, mount, route, ServeMux, type PageRequest } from '../core/index.ts';

interface Book {
  id: number;
  title: string;
}
const books = new Map<number, Book>([[1, { id: 1, title: 'Dune <1965>' }]]);
const find = (id: number): Promise<Book | undefined> => Promise.resolve(books.get(id));

const BookPath = z.object({ bookId: z.coerce.number().int().positive() });

/** /books/{bookId}: the detail page as a user writes it now, two lines for "parse the id, else 404". */
class BookPage {
  async props(req: PageRequest) {
    const { bookId } = parsePath(req, BookPath);
    return { book: await getOr404(find(bookId), 'No such book') };
  }
  page(props: { book: Book }) {
    return <h1 safe>{props.book.title}</h1>;
  }
}

/** The message a user sees, the same for a malformed id and a missing book. */
class NamedPage {
  async props(req: PageRequest) {
    const { bookId } = parsePath(req, BookPath, 'No such book');
    return { book: await getOr404(find(bookId), 'No such book') };
  }
  page(props: { book: Book }) {
    return <h1 safe>{props.book.title}</h1>;
  }
}

/** Each wildcard kind, decoded: a slug from an enum (valibot), and the rest of the path. */
class FilePage {
  props(req: PageRequest) {
    return parsePath(req, v.object({ shelf: v.picklist(['fiction', 'poetry']), path: v.string() }));
  }
  page(props: { shelf: string; path: string }) {
    return <p safe>{`${props.shelf}|${props.path}`}</p>;
  }
}

/** A schema whose field is no wildcard of the pattern (a typo): the app's fault, a 500 that says so. */
class TypoPage {
  props(req: PageRequest) {
    return parsePath(req, z.object({ bookID: z.coerce.number() }));
  }
  page() {
    return <p>never</p>;
  }
}

/** A schema that validates asynchronously: parsePath is synchronous, and says what to do instead. */
class AsyncPage {
  props(req: PageRequest) {
    return parsePath(req, z.object({ bookId: z.string().refine(async () => true) }));
  }
  page() {
    return <p>never</p>;
  }
}

/** Sync getOr404 on what a synchronous store returns; 0, '' and false are values, not "missing". */
class ValuePage {
  props(req: PageRequest) {
    const key = req.pathValue('key');
    const values: Record<string, unknown> = { zero: 0, empty: '', no: false, nil: null };
    return { value: JSON.stringify(getOr404(values[key])) };
  }
  page(props: { value: string }) {
    return <p safe>{props.value}</p>;
  }
}

/** A store that fails: its error passes through getOr404 untouched (a 500, not a 404). */
class BrokenPage {
  async props() {
    return getOr404(Promise.reject(new Error('the store is down')));
  }
  page() {
    return <p>never</p>;
  }
}

const Filter = z.object({
  status: z.enum(['all', 'open', 'done']).catch('all'),
  page: z.coerce.number().int().min(1).catch(1),
  tag: z.array(z.string()).catch([]),
});

/** A list with a filter query whose every field has a fallback: no request makes it fail. */
class ListPage {
  props(req: PageRequest) {
    return parseQuery(req, Filter);
  }
  post(req: PageRequest) {
    return parseQuery(req, Filter);
  }
  page(props: z.output<typeof Filter>) {
    return <p safe>{JSON.stringify(props)}</p>;
  }
}

/** A query that can fail: a request with a bad one is the client's fault, a 400 naming the field. */
class SearchPage {
  props(req: PageRequest) {
    return parseQuery(req, z.object({ q: z.string().min(1, 'Type something to search for') }));
  }
  page(props: { q: string }) {
    return <p safe>{props.q}</p>;
  }
}

class AsyncQueryPage {
  props(req: PageRequest) {
    return parseQuery(req, z.object({ q: z.string().refine(async () => true) }));
  }
  page() {
    return <p>never</p>;
  }
}

class App {
  book = route('/books/{bookId}', BookPage);
  named = route('/named/{bookId}', NamedPage);
  file = route('/shelves/{shelf}/{path...}', FilePage);
  typo = route('/typo/{bookId}', TypoPage);
  async = route('/async/{bookId}', AsyncPage);
  value = route('/values/{key}', ValuePage);
  broken = route('/broken', BrokenPage);
  list = route('/list', ListPage);
  search = route('/search', SearchPage);
  asyncQuery = route('/async-query', AsyncQueryPage);
}

const errors: string[] = [];
const warnings: string[] = [];
const mux = new ServeMux({
  logger: {
    error: (...args: unknown[]) => errors.push(args.map((a) => (a instanceof Error ? a.message : String(a))).join(' ')),
    warn: (m) => warnings.push(m),
  },
});
mount(mux, App);
beforeEach(() => {
  errors.length = 0;
  warnings.length = 0;
});

async function get(path: string, init?: RequestInit): Promise<{ status: number; body: string }> {
  const res = await mux.fetch(new Request(`http://localhost${path}`, init));
  return { status: res.status, body: await res.text() };
}

describe('parsePath', () => {
  test.each([
    { path: '/books/1', status: 200, body: '<h1>Dune &lt;1965></h1>' },
    { path: '/books/01', status: 200, body: '<h1>Dune &lt;1965></h1>' },
    { path: '/books/2', status: 404, body: 'No such book' },
    { path: '/books/abc', status: 404, body: 'Not Found' },
    { path: '/books/0', status: 404, body: 'Not Found' },
    { path: '/books/1.5', status: 404, body: 'Not Found' },
    { path: '/books/%20', status: 404, body: 'Not Found' },
    { path: '/shelves/poetry/a%20b/c.txt', status: 200, body: '<p>poetry|a b/c.txt</p>' },
    { path: '/shelves/cooking/x', status: 404, body: 'Not Found' },
  ])('$path → $status', async ({ path, status, body }) => {
    const res = await get(path);
    expect(res).toEqual({ status, body: expect.stringContaining(body) });
    expect(errors).toEqual([]);
  });

  test('the 404 names the wildcard, and echoes the value escaped', async () => {
    const res = await get('/books/%3Cb%3E');
    expect(res.status).toBe(404);
    expect(res.body).toContain('bookId');
    expect(res.body).not.toContain('<b>');
    expect(warnings).toEqual([]); // a URL that names nothing is no fault to log
  });

  test.each(['/named/abc', '/named/0', '/named/2'])(
    'with a message, %s is a 404 with only that message',
    async (path) => {
      expect(await get(path)).toEqual({ status: 404, body: 'No such book\n' });
    },
  );

  test('a schema field that is no wildcard of the pattern is a 500 naming the field and the pattern', async () => {
    const res = await get('/typo/1');
    expect(res.status).toBe(500);
    expect(errors).toEqual([
      expect.stringContaining(
        'parsePath(): the schema\'s field "bookID" is not a wildcard of the pattern "/typo/{bookId}"',
      ),
    ]);
    expect(errors[0]).toContain('its wildcards: bookId');
  });

  test('an asynchronous schema is a 500 that says what to do instead', async () => {
    const res = await get('/async/1');
    expect(res.status).toBe(500);
    expect(errors).toEqual([expect.stringContaining('parsePath(): the schema validates asynchronously')]);
  });

  test('outside a route (no pattern) every field is missing: the app is told, not the client', () => {
    const req = new Request('http://localhost/books/1') as PageRequest;
    expect(() => parsePath(Object.assign(req, { pattern: '', pathValue: () => '' }), BookPath)).toThrow(
      /parsePath\(\): the schema's field "bookId" is not a wildcard of the pattern ""/,
    );
  });
});

describe('getOr404', () => {
  test.each([
    { key: 'zero', status: 200, body: '<p>0</p>' },
    { key: 'empty', status: 200, body: '<p>&#34;&#34;</p>' },
    { key: 'no', status: 200, body: '<p>false</p>' },
    { key: 'nil', status: 404, body: 'Not Found' },
    { key: 'missing', status: 404, body: 'Not Found' },
  ])('sync: $key → $status', async ({ key, status, body }) => {
    expect(await get(`/values/${key}`)).toEqual({ status, body: expect.stringContaining(body) });
  });

  test('async: a store that fails is a 500 with its error logged, not a 404', async () => {
    expect((await get('/broken')).status).toBe(500);
    expect(errors).toEqual([expect.stringContaining('the store is down')]);
  });

  test('the message is the 404 error message; a promise gives a promise', async () => {
    expect(() => getOr404(undefined, 'No such book')).toThrow(new HttpError(404, 'No such book'));
    const err = await getOr404(Promise.resolve(null)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect(err).toMatchObject({ status: 404, message: 'Not Found' });
    await expect(getOr404(Promise.resolve(books.get(1)))).resolves.toEqual({ id: 1, title: 'Dune <1965>' });
  });
});

describe('parseQuery', () => {
  test.each([
    { query: '', want: { status: 'all', page: 1, tag: [] } },
    { query: '?status=open&page=3&tag=a', want: { status: 'open', page: 3, tag: ['a'] } },
    { query: '?tag=a&tag=b', want: { status: 'all', page: 1, tag: ['a', 'b'] } },
    { query: '?status=bogus&page=-2', want: { status: 'all', page: 1, tag: [] } },
    { query: '?page=x&page=y', want: { status: 'all', page: 1, tag: [] } },
  ])('a schema that cannot fail: $query → its output', async ({ query, want }) => {
    const res = await get(`/list${query}`);
    expect(res.status).toBe(200);
    expect(res.body).toBe(`<p>${JSON.stringify(want).replaceAll('"', '&#34;')}</p>`);
  });

  test('the query, whatever the method (a POST with a form body keeps its filter in the URL)', async () => {
    const res = await get('/list?status=done', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost' },
      body: 'status=open',
    });
    expect(res.status).toBe(200);
    expect(res.body).toContain('done');
  });

  test('a query the schema refuses is a 400 naming the field and the message, logged as one line', async () => {
    const res = await get('/search?q=');
    expect(res.status).toBe(400);
    expect(res.body).toContain('q: Type something to search for');
    expect(warnings).toEqual([expect.stringContaining('400 Bad Request')]);
    expect(await get('/search?q=dune')).toEqual({ status: 200, body: '<p>dune</p>' });
  });

  test('an asynchronous schema is a 500 that says what to do instead', async () => {
    expect((await get('/async-query?q=x')).status).toBe(500);
    expect(errors).toEqual([expect.stringContaining('parseQuery(): the schema validates asynchronously')]);
  });

  test('the query counts against the form limits (maxFields): a 413', async () => {
    const res = await get(`/list?${'tag=a&'.repeat(1001)}`);
    expect(res.status).toBe(413);
  });
});
