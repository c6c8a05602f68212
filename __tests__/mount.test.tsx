import { MountError, ServeMux, mount, route, type PageNode } from '../core/index.ts';
import { composePath } from '../core/tree/route.ts';
import { parseTag } from '../core/tree/route.ts';
import { fetchPage } from './support/http.ts';

describe('route tags', () => {
  test.each([
    ['/todos Todos', { method: '', path: '/todos', title: 'Todos' }],
    ['GET /users/{id} User page', { method: 'GET', path: '/users/{id}', title: 'User page' }],
    ['post /todos', { method: 'POST', path: '/todos', title: '' }],
    ['  DELETE   /todos/{id}   Remove   it ', { method: 'DELETE', path: '/todos/{id}', title: 'Remove it' }],
    ['/{$} Home', { method: '', path: '/{$}', title: 'Home' }],
    ['FETCH /x', { method: '', path: 'FETCH', title: '/x' }],
    ['OPTIONS /o', { method: 'OPTIONS', path: '/o', title: '' }],
    ['', { method: '', path: '', title: '' }],
  ])('parseTag(%j)', (tag, want) => {
    expect(parseTag(tag)).toEqual(want);
  });

  test.each([
    ['', '/', '/'],
    ['/', '/{$}', '/{$}'],
    ['/', '/todos', '/todos'],
    ['/admin', '/users', '/admin/users'],
    ['/admin', '/{$}', '/admin/{$}'],
    ['/admin', '/', '/admin'],
    ['/admin', '/users/', '/admin/users'],
    ['/admin/', '/users', '/admin/users'],
    ['/a', '/b/../c', '/a/c'],
    ['/a', '/{rest...}', '/a/{rest...}'],
  ])('composePath(%j, %j) → %j', (parent, own, want) => {
    expect(composePath(parent, own)).toBe(want);
  });
});

class Home {
  page() {
    return <p>home</p>;
  }
}
class Dashboard {
  page() {
    return <p>dashboard</p>;
  }
}
class UserPage {
  page() {
    return <p>user</p>;
  }
}
class Admin {
  index = route('/{$} Dashboard', Dashboard);
  user = route('/users/{userId} User', UserPage);
  notARoute = 'ignored';
}
class App {
  index = route('/{$} Home', Home);
  admin = route('/admin Admin', Admin);
}

describe('the tree', () => {
  test('routes register children before parents, with their titles and field paths', () => {
    const tree = mount(new ServeMux(), App, '/', 'Root');
    expect(tree.routes().map((r) => [r.pattern, r.title, r.name, r.fieldPath, r.pageClass])).toEqual([
      ['/{$}', 'Home', 'index', 'App.index', Home],
      ['/admin/{$}', 'Dashboard', 'index', 'App.admin.index', Dashboard],
      ['/admin/users/{userId}', 'User', 'user', 'App.admin.user', UserPage],
    ]);
  });

  test('the root node describes the tree', () => {
    const tree = mount(new ServeMux(), App, '/', 'Root');
    const root = tree.root;
    expect([root.name, root.title, root.kind, root.fullRoute(), root.parent]).toEqual([
      'App',
      'Root',
      'group',
      '/',
      null,
    ]);
    const admin = root.children[1]!;
    expect([admin.name, admin.title, admin.kind, admin.route, admin.fullRoute(), admin.parent]).toEqual([
      'admin',
      'Admin',
      'group',
      '/admin',
      '/admin',
      root,
    ]);
    const user = admin.children[1]!;
    expect([user.name, user.method, user.route, user.fullRoute(), user.pattern]).toEqual([
      'user',
      '',
      '/users/{userId}',
      '/admin/users/{userId}',
      '/admin/users/{userId}',
    ]);
    expect(user.page).toBeInstanceOf(UserPage);
  });

  test('a page group does not register itself; /admin redirects to /admin/', async () => {
    const mux = new ServeMux();
    mount(mux, App);
    const r = await fetchPage(mux, '/admin');
    expect(r.status).toBe(307);
    expect(r.headers.get('location')).toBe('/admin/');
    expect((await fetchPage(mux, '/admin/')).body).toBe('<p>dashboard</p>');
    expect((await fetchPage(mux, '/admin/users/7')).body).toBe('<p>user</p>');
  });

  test('a mount route with a method and prefix applies to the whole tree; the title argument wins', () => {
    const tree = mount(new ServeMux(), App, 'GET /app Application', 'Application');
    expect(tree.root.method).toBe('GET');
    expect(tree.root.title).toBe('Application');
    expect(tree.routes().map((r) => r.pattern)).toEqual([
      'GET /app/{$}',
      'GET /app/admin/{$}',
      'GET /app/admin/users/{userId}',
    ]);
    expect(mount(new ServeMux(), App, '/ Tag title', 'Given').root.title).toBe('Given');
  });

  test('methods in tags register method patterns', async () => {
    class Form {
      page() {
        return <form />;
      }
    }
    class Save {
      serveHTTP() {
        return new Response('saved');
      }
    }
    class Admin {
      page() {
        return <p>admin</p>;
      }
      list = route('/list', Form);
      remove = route('DELETE /list', Save);
    }
    class Root {
      form = route('GET /form', Form);
      save = route('POST /form', Save);
      admin = route('GET /admin', Admin);
    }
    const mux = new ServeMux();
    expect(
      mount(mux, Root)
        .routes()
        .map((r) => r.pattern),
    ).toEqual(['GET /form', 'POST /form', 'GET /admin/list', 'DELETE /admin/list', 'GET /admin']);
    expect((await fetchPage(mux, '/form', { method: 'POST' })).body).toBe('saved');
    const put = await fetchPage(mux, '/form', { method: 'PUT' });
    expect([put.status, put.headers.get('allow')]).toEqual([405, 'GET, HEAD, POST']);
  });

  test('a page can have both page() and children; instances are used as given', async () => {
    const shared = new Home();
    class Parent {
      child = route('/child', shared);
      page() {
        return <p>parent</p>;
      }
    }
    class Root {
      parent = route('/parent', Parent);
    }
    const mux = new ServeMux();
    const tree = mount(mux, Root);
    expect(tree.root.children[0]!.children[0]!.page).toBe(shared);
    expect((await fetchPage(mux, '/parent')).body).toBe('<p>parent</p>');
    expect((await fetchPage(mux, '/parent/child')).body).toBe('<p>home</p>');
  });

  test('deps reach every page constructor; each class is constructed once', () => {
    const seen: unknown[] = [];
    class Leaf {
      constructor(deps: unknown) {
        seen.push(deps);
      }
      page() {
        return '';
      }
    }
    class Root {
      a = route('/a', Leaf);
      b = route('/b', Leaf);
      constructor(deps: unknown) {
        seen.push(deps);
      }
    }
    const deps = { db: 'x' };
    mount(new ServeMux(), Root, '/', '', { deps });
    expect(seen).toEqual([deps, deps, deps]);
  });

  test('an empty route is skipped and reported through onEmptyRoute', () => {
    class Nothing {}
    class Root {
      empty = route('/empty', Nothing);
      home = route('/{$}', Home);
    }
    const reported: PageNode[] = [];
    const tree = mount(new ServeMux(), Root, '/', '', { onEmptyRoute: (n) => reported.push(n) });
    expect(reported.map((n) => n.fieldPath)).toEqual(['Root.empty']);
    expect(tree.routes().map((r) => r.fieldPath)).toEqual(['Root.home']);
  });

  test('init() runs once at mount, children before parents', () => {
    const order: string[] = [];
    class Child {
      init() {
        order.push('child');
      }
      page() {
        return '';
      }
    }
    class Root {
      child = route('/c', Child);
      init() {
        order.push('root');
      }
      page() {
        return '';
      }
    }
    mount(new ServeMux(), Root, '/r');
    expect(order).toEqual(['child', 'root']);
  });
});

describe('mount errors name the field path and the fix', () => {
  function mountError(root: unknown, routeTag = '/'): MountError {
    try {
      mount(new ServeMux(), root as typeof App, routeTag);
    } catch (err) {
      expect(err).toBeInstanceOf(MountError);
      return err as MountError;
    }
    throw new Error('mount did not fail');
  }

  test('invalid pattern in a tag', () => {
    class Root {
      bad = route('/users/{id', Home);
    }
    const err = mountError(Root);
    expect(err.fieldPath).toBe('Root.bad');
    expect(err.message).toMatch(/^mount: Root\.bad: invalid route tag for pattern "\/users\/\{id"/);
    expect(err.message).toContain("bad wildcard segment (must end with '}')");
    expect(err.message).toContain('fix the tag');
  });

  test('a tag without a path', () => {
    class Root {
      bad = route('Users', Home);
    }
    expect(mountError(Root).message).toBe(
      `mount: Root.bad: invalid route tag "Users": the path must start with "/"; write it as '[METHOD] /path [Title]'`,
    );
  });

  test('the same wildcard twice in a composed pattern', () => {
    class Items {
      item = route('/items/{id}', Home);
    }
    class Root {
      orders = route('/orders/{id}', Items);
    }
    const err = mountError(Root);
    expect(err.fieldPath).toBe('Root.orders.item');
    expect(err.message).toContain('"/orders/{id}/items/{id}"');
    expect(err.message).toContain('duplicate wildcard name "id"');
    expect(err.message).toContain('rename one');
  });

  test('conflicting routes name both patterns and both field paths', () => {
    class Root {
      first = route('/a/{x}', Home);
      second = route('/{y}/b', Dashboard);
    }
    const err = mountError(Root);
    expect(err.fieldPath).toBe('Root.second');
    expect(err.message).toContain('pattern "/{y}/b" (registered at Root.second)');
    expect(err.message).toContain('pattern "/a/{x}" (registered at Root.first)');
    expect(err.message).toContain('like "/a/b"');
    expect(err.message).toContain('Fix:');
  });

  test('a child conflicting with its parent', () => {
    class Parent {
      child = route('/', Home);
      page() {
        return '';
      }
    }
    class Root {
      parent = route('/p', Parent);
    }
    const err = mountError(Root);
    expect(err.message).toContain('Root.parent.child');
    expect(err.message).toContain('matches the same requests');
  });

  test('duplicate element ids', () => {
    class Leaf {
      page() {
        return '';
      }
    }
    class Foo {
      bar = route('/bar', Leaf);
    }
    class Root {
      foo = route('/foo', Foo);
      fooBar = route('/foo-bar', Leaf);
    }
    const err = mountError(Root);
    expect(err.fieldPath).toBe('Root.fooBar.page');
    expect(err.message).toBe(
      'mount: Root.fooBar.page: element id "foo-bar-page" is also the id of Root.foo.bar.page; ' +
        'rename one of the fields or methods so their ids differ',
    );
  });

  test('a root that is not a class or object', () => {
    expect(mountError(42).message).toContain('the root must be a page class or an object');
    expect(mountError(() => 1).message).toContain('the root must be a page class');
  });

  test('a route target that is not a class or object', () => {
    class Root {
      bad = route('/x', 'Home' as unknown as object);
    }
    const err = mountError(Root);
    expect(err.fieldPath).toBe('Root.bad');
    expect(err.message).toContain('is not a page class or object');
  });

  test('init() that throws fails the mount', () => {
    class Root {
      init() {
        throw new Error('no database');
      }
      page() {
        return '';
      }
    }
    expect(mountError(Root, '/{$}').message).toBe('mount: Root: init() failed: Error: no database');
  });

  test('a tree that contains itself', () => {
    class Loop {
      self = route('/again', Loop);
    }
    expect(mountError(Loop).message).toContain('Loop.self: routes back to Loop');
  });
});
