import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ServeMux, UrlForError, idTarget, mount, route, type PageRequest } from '../core/index.ts';
import { fetchPage } from './support/http.ts';
import { urlFor } from './support/url-for.ts';

class Home {
  page() {
    return <a href={urlFor(UserPage, { userId: 'a b' })}>user</a>;
  }
}
class Dashboard {
  page() {
    return '';
  }
  header() {
    return '';
  }
}
class UserPage {
  props(req: PageRequest) {
    return { id: req.pathValue('userId') };
  }
  page() {
    // userId comes from the current request
    return <a href={urlFor(ActivityPage)}>activity</a>;
  }
}
class ActivityPage {
  page() {
    return '';
  }
}
class FilesPage {
  page() {
    return '';
  }
}
class ListPage {
  page() {
    return '';
  }
}
class EntryPage {
  page() {
    return '';
  }
}
class Components {
  entry = route('/entries/{entryId}', EntryPage);
}
class Admin {
  index = route('/{$} Dashboard', Dashboard);
  user = route('/users/{userId} User', UserPage);
  activity = route('/users/{userId}/activity', ActivityPage);
}
class OtherPage {
  page() {
    return '';
  }
}
class NoIndex {
  other = route('/other', OtherPage);
}
class App {
  index = route('/{$} Home', Home);
  admin = route('/admin Admin', Admin);
  files = route('GET /files/{path...}', FilesPage);
  list = route('/list', ListPage);
  docs = route('/docs', Components);
  api = route('/api', Components);
  noIndex = route('/no-index', NoIndex);
}

const mux = new ServeMux();
const tree = mount(mux, App);

describe('tree.urlFor', () => {
  test.each<[string, () => string, string]>([
    ['a leaf with params', () => tree.urlFor(UserPage, { userId: 7 }), '/admin/users/7'],
    ['the /{$} index', () => tree.urlFor(Home), '/'],
    ['a page group resolves to its index, with the slash', () => tree.urlFor(Admin), '/admin/'],
    ['a group index directly', () => tree.urlFor(Dashboard), '/admin/'],
    [
      'a path value is one segment',
      () => tree.urlFor(UserPage, { userId: 'a b/c?d#e%f' }),
      '/admin/users/a%20b%2Fc%3Fd%23e%25f',
    ],
    [
      'a {rest...} value keeps its slashes',
      () => tree.urlFor(FilesPage, { path: 'docs/a b/c.txt' }),
      '/files/docs/a%20b/c.txt',
    ],
    [
      'a query template',
      () => tree.urlFor([ListPage, '?page={page}&q={q}'], { page: 2, q: 'a&b=c+d#e' }),
      '/list?page=2&q=a%26b%3Dc%2Bd%23e',
    ],
    ['a fragment template', () => tree.urlFor([ListPage, '#{section}'], { section: 'part 2' }), '/list#part%202'],
    ['a path suffix template', () => tree.urlFor([UserPage, '/edit'], { userId: 1 }), '/admin/users/1/edit'],
    ['a field path', () => tree.urlFor('Admin.user', { userId: 3 }), '/admin/users/3'],
    [
      'a field path from a root child by field name',
      () => tree.urlFor('admin.activity', { userId: 3 }),
      '/admin/users/3/activity',
    ],
    ['a field path of a group', () => tree.urlFor('admin'), '/admin/'],
    ['a field path anchored at the root', () => tree.urlFor('App.list'), '/list'],
    ['a mounted pattern', () => tree.urlFor('/admin/users/{userId}', { userId: 9 }), '/admin/users/9'],
  ])('%s', (_, call, want) => {
    expect(call()).toBe(want);
  });

  test('a chain disambiguates a class mounted twice', () => {
    const docs = tree.root.children.find((n) => n.name === 'docs')!.page as Components;
    expect(tree.urlFor([docs, EntryPage], { entryId: 'x' })).toBe('/docs/entries/x');
    expect(tree.urlFor('api.entry', { entryId: 'y' })).toBe('/api/entries/y');
  });

  test('urlPrefix is prepended', () => {
    const t = mount(new ServeMux(), App, '/', '', { urlPrefix: '/app' });
    expect(t.urlFor(UserPage, { userId: 1 })).toBe('/app/admin/users/1');
  });

  test('urlFor output routes back to the same page with the same params', async () => {
    for (const value of ['plain', 'a b', 'a/b', '100%', 'ü', "'quoted'", 'x?y', 'x#y']) {
      const url = tree.urlFor(UserPage, { userId: value });
      const { pattern } = mux.handler(new Request(`http://localhost${url}`));
      expect(pattern).toBe('/admin/users/{userId}');
      let seen = '';
      const probe = new ServeMux();
      probe.handleFunc('/admin/users/{userId}', (req) => new Response((seen = req.pathValue('userId'))));
      await probe.fetch(new Request(`http://localhost${url}`));
      expect(seen).toBe(value);
    }
  });
});

describe('errors name the call, the pattern and the param', () => {
  test.each<[string, () => string, string]>([
    [
      'missing param',
      () => tree.urlFor(UserPage, {} as { userId: string }),
      'urlFor(UserPage): missing param "userId" for "/admin/users/{userId}"',
    ],
    [
      'unknown param (a typo must not drop a value)',
      () => tree.urlFor(UserPage, { userId: 1, userID: 2 } as { userId: number }),
      'urlFor(UserPage): unknown param "userID" for "/admin/users/{userId}" (its params: userId)',
    ],
    [
      'params for a page that takes none',
      () => (tree.urlFor as (t: unknown, p: unknown) => string)(ListPage, { page: 1 }),
      'urlFor(ListPage): unknown param "page" for "/list" (it takes no params)',
    ],
    [
      'a class mounted twice',
      () => tree.urlFor(EntryPage, { entryId: 'x' }),
      'urlFor(EntryPage): EntryPage is mounted at 2 places: App.docs.entry (/docs/entries/{entryId}), App.api.entry (/api/entries/{entryId}); disambiguate with a chain from a page above it, e.g. urlFor([Components, EntryPage]), or a field path, e.g. urlFor("docs.entry")',
    ],
    [
      'a class that is not mounted',
      () => (tree.urlFor as (t: unknown) => string)(class Stray {}),
      'urlFor(Stray): Stray is not mounted in this tree',
    ],
    [
      'a group without an index',
      () => tree.urlFor(NoIndex),
      'urlFor(NoIndex): App.noIndex is a page group with no index page',
    ],
    [
      'a chain whose first step is ambiguous',
      () => tree.urlFor([Components, EntryPage], { entryId: 'x' }),
      'urlFor([Components, EntryPage]): Components is mounted at 2 places: App.docs (/docs), App.api (/api)',
    ],
    ['an unknown field path anchor', () => tree.urlFor('Nope.user'), 'urlFor("Nope.user"): no route named "Nope"'],
    [
      'a missing field path segment',
      () => tree.urlFor('admin.users'),
      'urlFor("admin.users"): App.admin has no route "users" (its routes: index, user, activity)',
    ],
    [
      'an ambiguous anchor',
      () => tree.urlFor('entry'),
      'urlFor("entry"): "entry" is ambiguous: App.docs.entry, App.api.entry',
    ],
    [
      'an unknown pattern',
      () => tree.urlFor('/admin/people/{id}', { id: 1 }),
      'urlFor("/admin/people/{id}"): no mounted route has the pattern',
    ],
    [
      'an empty segment value',
      () => tree.urlFor(UserPage, { userId: '' }),
      'urlFor(UserPage): param "userId" is "", which cannot be a path',
    ],
    [
      'a dot-dot segment value',
      () => tree.urlFor(UserPage, { userId: '..' }),
      'urlFor(UserPage): param "userId" is "..", which cannot be a path',
    ],
    [
      'a missing template param',
      () => tree.urlFor([ListPage, '?q={q}'], {} as { q: string }),
      'urlFor([ListPage, "?q={q}"]): missing param "q" for "/list?q={q}"',
    ],
  ])('%s', (_, call, message) => {
    expect(call).toThrow(UrlForError);
    expect(call).toThrow(message);
  });
});

describe('urlFor in templates', () => {
  test('inside a request, it builds links and fills params from the current route', async () => {
    expect((await fetchPage(mux, '/')).body).toBe('<a href="/admin/users/a%20b">user</a>');
    expect((await fetchPage(mux, '/admin/users/42')).body).toBe('<a href="/admin/users/42/activity">activity</a>');
  });

  test('outside a request with several trees mounted, the context urlFor refuses to guess', () => {
    mount(new ServeMux(), App);
    expect(() => urlFor(ListPage)).toThrow('called outside a request with');
  });

  test('a tree whose mux is gone no longer counts as mounted', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    let other: ServeMux | undefined = new ServeMux();
    mount(other, App);
    await new Promise(setImmediate); // a WeakRef's target is kept until the job that made it ends
    gc();
    expect(() => urlFor(ListPage)).toThrow('called outside a request with');
    other = undefined;
    await new Promise(setImmediate);
    gc();
    expect(urlFor(ListPage)).toBe('/list');
  });
});

describe('chains for ids', () => {
  test('idTarget([Admin, Dashboard, "header"])', () => {
    expect(tree.idTarget([Admin, Dashboard, 'header'])).toBe('#admin-index-header');
    expect(() => tree.id([Admin, Dashboard, 'footer'])).toThrow(
      'id([Admin, Dashboard, "footer"]): App.admin.index has no component "footer" (its components: page, header)',
    );
    expect(idTarget('#plain')).toBe('#plain');
  });
});

describe('tree.validate', () => {
  test('returns the URLs when all resolve', () => {
    expect(tree.validate([[UserPage, { userId: 1 }], [Admin], ['admin.user', { userId: 2 }]])).toEqual([
      '/admin/users/1',
      '/admin/',
      '/admin/users/2',
    ]);
  });

  test('lists every call that does not resolve', () => {
    expect(() => tree.validate([[UserPage], [Admin], [EntryPage, { entryId: 1 }]])).toThrow(
      /tree\.validate: 2 of 3 URLs do not resolve:\n- urlFor\(UserPage\): missing param "userId".*\n- urlFor\(EntryPage\): EntryPage is mounted at 2 places/,
    );
  });
});
