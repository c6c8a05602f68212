// Section error pages (issue 16.5, second half): any page class may define error(err, req, target); it answers
// the failures of every route at or below it without a nearer one, the mount's error handler the rest. Mount
// refuses an error() no route can reach.

import {
  currentPage,
  defaultErrorHandler,
  htmxDetails,
  htmxRequest,
  HttpError,
  id,
  mount,
  MountError,
  route,
  ServeMux,
  type ErrorHandler,
  type Logger,
  type Middleware,
  type PageNode,
  type PageRequest,
  type RenderTarget,
} from '../core/index.ts';
import { urlFor } from './support/url-for.ts';
import type { ErrorPage } from '../core/pipeline/handler-options.ts';
import { fetchPage } from './support/http.ts';

const VARY = 'HX-Request, HX-Target, HX-Request-Type';
const HTML = 'text/html; charset=utf-8';

const message = (err: unknown) => (err instanceof HttpError ? err.message : 'Something went wrong');
const statusOf = (err: unknown) => (err instanceof HttpError ? err.status : 500);

class UserPage {
  props(req: PageRequest): never {
    const userId = req.pathValue('userId');
    if (userId === 'boom') throw new Error('secret detail of a bug');
    if (userId === 'teapot') throw new Response('short and stout', { status: 418 });
    if (userId === 'busy') throw new HttpError(503, 'Busy', { 'Retry-After': '5', Vary: 'Accept' });
    throw new HttpError(404, `No user <${userId}>`);
  }
  page() {
    return <p>user</p>;
  }
  activity() {
    return <ul></ul>;
  }
  post(): never {
    throw new HttpError(409, 'Conflict');
  }
}

// A page with its own error page: nearer than its group's.
class SettingsPage implements ErrorPage {
  props(): never {
    throw new HttpError(403, 'No settings for you');
  }
  page() {
    return <p>settings</p>;
  }
  error(err: unknown) {
    return (
      <p class="settings-error" safe>
        {message(err)}
      </p>
    );
  }
}

// A serveHTTP handler with its own error page, answering with a Response.
class Api implements ErrorPage {
  serveHTTP(): Response {
    throw new HttpError(422, 'Bad input');
  }
  async error(err: unknown) {
    await Promise.resolve();
    return Response.json({ error: message(err) }, { status: statusOf(err) });
  }
}

class Hanging {
  props() {
    return new Promise<never>(() => {});
  }
  page() {
    return <p>never</p>;
  }
}

const seen: { targets: RenderTarget[] } = { targets: [] };

class Admin implements ErrorPage {
  user = route('/users/{userId} User', UserPage);
  settings = route('/settings Settings', SettingsPage);
  api = route('/api', Api);
  hanging = route('/hanging', Hanging);

  middlewares(): Middleware[] {
    return [
      (next) => (req) => {
        if (new URL(req.url).searchParams.has('deny')) throw new HttpError(401, 'Sign in first');
        return next(req);
      },
    ];
  }

  // Runs inside the request: htmxDetails, currentPage, urlFor and id all work.
  error(err: unknown, _req: PageRequest, target: RenderTarget) {
    seen.targets.push(target);
    const hx = htmxDetails();
    if (hx.isHtmx && !hx.boosted && !hx.historyRestore && hx.requestType !== 'full') {
      return (
        <p class="admin-error" safe>
          {message(err)}
        </p>
      );
    }
    return (
      <html>
        <head>
          <title safe>Admin · {currentPage().title}</title>
        </head>
        <body>
          <h1 safe>{`Admin ${statusOf(err)} (${id(UserPage.prototype.activity)})`}</h1>
          <p safe>{message(err)}</p>
          <a href={urlFor(UserPage, { userId: 1 })}>Users</a>
        </body>
      </html>
    );
  }
}

class Home {
  props(): never {
    throw new HttpError(404, 'Nothing at home');
  }
  page() {
    return <p>home</p>;
  }
}

class App {
  home = route('/{$} Home', Home);
  admin = route('/admin Admin', Admin);
}

function quietLogger(): Logger & { errors: unknown[][] } {
  const errors: unknown[][] = [];
  return { errors, error: (msg, err) => void errors.push([msg, err]), warn: () => {} };
}

function appWith(options: { errorHandler?: ErrorHandler; timeout?: number; middlewares?: Middleware[] } = {}) {
  const logger = quietLogger();
  const mux = new ServeMux({ logger });
  const tree = mount(mux, App, '/', 'App', options);
  return { mux, tree, logger };
}

const fullPage = (title: string, status: number, text: string) =>
  `<html><head><title>Admin · ${title}</title></head><body><h1>Admin ${status} (admin-user-activity)</h1>` +
  `<p>${text}</p><a href="/admin/users/1">Users</a></body></html>`;

describe('the nearest error() answers', () => {
  test.each([
    ['a page under the group: the group', '/admin/users/7', 404, fullPage('User', 404, 'No user &lt;7>')],
    ['a page with its own: the page', '/admin/settings', 403, '<p class="settings-error">No settings for you</p>'],
    ['a page outside the group: the mount handler', '/', 404, 'Nothing at home\n'],
  ])('%s', async (_name, path, status, body) => {
    const r = await fetchPage(appWith().mux, path);
    expect([r.status, r.body]).toEqual([status, body]);
    expect(r.headers.get('vary')).toBe(VARY);
  });

  test('the mount option errorHandler answers what no error() does', async () => {
    const errorHandler: ErrorHandler = (err) => new Response(`handler: ${message(err)}`, { status: 400 });
    const { mux } = appWith({ errorHandler });
    expect((await fetchPage(mux, '/')).body).toBe('handler: Nothing at home');
    expect((await fetchPage(mux, '/admin/users/7')).body).toContain('<p>No user &lt;7></p>');
  });

  test('the choice is made at mount: each node knows its error page', () => {
    const { tree } = appWith();
    const byPath = new Map<string, PageNode>();
    const visit = (n: PageNode) => {
      byPath.set(n.fieldPath, n);
      n.children.forEach(visit);
    };
    visit(tree.root);
    const errorPageOf = (path: string) => byPath.get(path)!.errorPage?.fieldPath ?? null;
    expect(
      ['App', 'App.home', 'App.admin', 'App.admin.user', 'App.admin.settings', 'App.admin.api'].map(errorPageOf),
    ).toEqual([null, null, 'App.admin', 'App.admin', 'App.admin.settings', 'App.admin.api']);
  });
});

describe('a rendered error page', () => {
  test('has the HttpError status, HTML type, the htmx Vary and no stack', async () => {
    const { mux, logger } = appWith();
    const r = await fetchPage(mux, '/admin/users/7');
    expect(r.status).toBe(404);
    expect(r.headers.get('content-type')).toBe(HTML);
    expect(r.headers.get('vary')).toBe(VARY);
    const bug = await fetchPage(mux, '/admin/users/boom');
    expect([bug.status, bug.body]).toEqual([500, fullPage('User', 500, 'Something went wrong')]);
    expect(bug.body).not.toContain('secret detail');
    expect(bug.body).not.toMatch(/\bat \S+ \(/);
    // Logged as before, with the field path of the page that failed.
    expect(logger.errors).toEqual([
      [
        'pagetree: App.admin.user (GET /admin/users/{userId}) failed:',
        expect.objectContaining({ message: 'secret detail of a bug' }),
      ],
    ]);
  });

  test("keeps the HttpError's headers (Retry-After), its Vary merged with htmx's", async () => {
    const r = await fetchPage(appWith().mux, '/admin/users/busy');
    expect(r.status).toBe(503);
    expect(r.headers.get('retry-after')).toBe('5');
    expect(r.headers.get('vary')).toBe(`Accept, ${VARY}`);
    expect(r.headers.get('content-type')).toBe(HTML);
  });

  test('a HEAD request gets the status and headers without the body', async () => {
    const r = await fetchPage(appWith().mux, '/admin/users/7', { method: 'HEAD' });
    expect([r.status, r.body, r.headers.get('content-type')]).toEqual([404, '', HTML]);
  });

  test.each<[string, Parameters<typeof htmxRequest>[1], string]>([
    ['htmx 4 swapping into an element: a fragment', { target: 'admin-user-activity' }, 'fragment'],
    ['htmx 2 swapping into an element: a fragment', { version: 2, target: 'admin-user-activity' }, 'fragment'],
    ['a boosted link: the whole page', { boosted: true }, 'full'],
    ['a history restore: the whole page', { version: 2, historyRestore: true }, 'full'],
  ])('%s', async (_name, options, want) => {
    seen.targets = [];
    const res = await appWith().mux.fetch(htmxRequest('/admin/users/7', options));
    const body = await res.text();
    expect(res.status).toBe(404);
    expect(body).toBe(
      want === 'fragment' ? '<p class="admin-error">No user &lt;7></p>' : fullPage('User', 404, 'No user &lt;7>'),
    );
    expect(seen.targets[0]!.partial).toBe(want === 'fragment');
  });

  test('error() gets the render target props got', async () => {
    seen.targets = [];
    await appWith().mux.fetch(htmxRequest('/admin/users/7', { target: UserPage.prototype.activity }));
    expect([seen.targets[0]!.component, seen.targets[0]!.id]).toEqual(['activity', 'admin-user-activity']);
  });

  test('a Response from error() is sent as it is, plus the Vary (async error())', async () => {
    const r = await fetchPage(appWith().mux, '/admin/api');
    expect([r.status, r.body, r.headers.get('content-type')]).toEqual([
      422,
      '{"error":"Bad input"}',
      'application/json',
    ]);
    expect(r.headers.get('vary')).toBe(VARY);
  });

  test('a thrown Response is still sent as it is', async () => {
    const r = await fetchPage(appWith().mux, '/admin/users/teapot');
    expect([r.status, r.body, r.headers.get('vary')]).toEqual([418, 'short and stout', VARY]);
  });

  test('a verb method that fails gets the error page', async () => {
    const r = await fetchPage(appWith().mux, '/admin/users/7', { method: 'POST' });
    expect([r.status, r.body]).toEqual([409, fullPage('User', 409, 'Conflict')]);
  });
});

describe('every failure goes through it', () => {
  test("a group's middleware", async () => {
    const r = await fetchPage(appWith().mux, '/admin/users/7?deny');
    expect([r.status, r.body]).toEqual([401, fullPage('User', 401, 'Sign in first')]);
  });

  test('a global middleware, sync or async', async () => {
    const sync: Middleware = (next) => (req) => {
      if (req.headers.has('x-sync')) throw new HttpError(403, 'Forbidden');
      return next(req);
    };
    const async: Middleware = (next) => async (req) => {
      if (req.headers.has('x-async')) throw new HttpError(400, 'Bad');
      return next(req);
    };
    const { mux } = appWith({ middlewares: [sync, async] });
    const inSync = await fetchPage(mux, '/admin/users/7', { headers: { 'x-sync': '1' } });
    expect([inSync.status, inSync.body]).toEqual([403, fullPage('User', 403, 'Forbidden')]);
    const inAsync = await fetchPage(mux, '/admin/users/7', { headers: { 'x-async': '1' } });
    expect([inAsync.status, inAsync.body]).toEqual([400, fullPage('User', 400, 'Bad')]);
  });

  test('the timeout: 503 with Retry-After', async () => {
    const { mux } = appWith({ timeout: 20 });
    const r = await fetchPage(mux, '/admin/hanging');
    expect([r.status, r.headers.get('retry-after'), r.headers.get('content-type')]).toEqual([503, '1', HTML]);
    expect(r.body).toBe(fullPage('', 503, 'Service Unavailable'));
  });
});

describe('an error() that fails', () => {
  class Page {
    props(): never {
      throw new HttpError(404, 'the original');
    }
    page() {
      return <p>page</p>;
    }
  }
  const failing = {
    throws: () => {
      throw new Error('error page broke');
    },
    rejects: () => Promise.reject(new Error('error page broke')),
    'returns a number': () => 42,
  };

  test.each(Object.keys(failing) as (keyof typeof failing)[])(
    'that %s: logged, then the mount handler answers the original error',
    async (how) => {
      class Section {
        page = route('/page', Page);
        error = failing[how];
      }
      const logger = quietLogger();
      const mux = new ServeMux({ logger });
      const handled: unknown[] = [];
      mount(mux, Section, '/', 'Section', {
        errorHandler: (err) => {
          handled.push(err);
          return new Response('from the handler', { status: 404 });
        },
      });
      const r = await fetchPage(mux, '/page');
      expect([r.status, r.body, r.headers.get('vary')]).toEqual([404, 'from the handler', VARY]);
      expect(handled).toEqual([expect.objectContaining({ message: 'the original' })]);
      expect(logger.errors).toEqual([['pagetree: Section.error() failed for Section.page:', expect.any(Error)]]);
      if (how === 'returns a number') {
        expect(String(logger.errors[0]![1])).toBe(
          'TypeError: Section.error() returned number, not an HTML string or a Response',
        );
      }
    },
  );

  test('and a failing mount handler: the bare 500', async () => {
    class Section {
      page = route('/page', Page);
      error(): never {
        throw new Error('error page broke');
      }
    }
    const logger = quietLogger();
    const mux = new ServeMux({ logger });
    mount(mux, Section, '/', 'Section', {
      errorHandler: () => {
        throw new Error('handler broke');
      },
    });
    const r = await fetchPage(mux, '/page');
    expect([r.status, r.body, r.headers.get('vary')]).toEqual([500, 'Internal Server Error\n', VARY]);
    expect(logger.errors.map(([m]) => m)).toEqual([
      'pagetree: Section.error() failed for Section.page:',
      'pagetree: the error handler failed for Section.page:',
    ]);
  });
});

test.each([
  ['undefined', () => undefined, 'undefined'],
  ['a string', () => 'oops', 'string'],
  ['a promise of a number', () => Promise.resolve(7), 'number'],
])('an error handler that answers %s, not a Response: logged, then the bare 500', async (_, answer, type) => {
  class Plain {
    page(): never {
      throw new Error('page broke');
    }
  }
  class Root {
    page = route('/page', Plain);
  }
  const logger = quietLogger();
  const mux = new ServeMux({ logger });
  mount(mux, Root, '/', 'Root', { errorHandler: answer as unknown as ErrorHandler });
  const r = await fetchPage(mux, '/page');
  expect([r.status, r.body, r.headers.get('vary')]).toEqual([500, 'Internal Server Error\n', VARY]);
  expect(logger.errors.map(([m, e]) => `${m} ${String(e)}`)).toEqual([
    'pagetree: Root.page (/page) failed: Error: page broke',
    `pagetree: the error handler failed for Root.page: TypeError: the error handler returned ${type}, not a Response`,
  ]);
});

describe('the not-found page', () => {
  class Broken {
    page(): never {
      throw new Error('broken 404 page');
    }
  }
  class Root {
    home = route('/{$}', Home);
    error() {
      return <p>root error page</p>;
    }
  }

  test("has its own error(), not the tree's", async () => {
    class OwnError extends Broken {
      error(err: unknown) {
        return <p safe>{`not-found failed: ${String(err)}`}</p>;
      }
    }
    const m = new ServeMux({ logger: quietLogger() });
    mount(m, Root, '/', 'Root', { notFound: OwnError });
    const r = await fetchPage(m, '/nope');
    expect([r.status, r.body]).toEqual([500, '<p>not-found failed: Error: broken 404 page</p>']);
    // The root's error() still answers the tree.
    expect((await fetchPage(m, '/')).body).toBe('<p>root error page</p>');
  });

  test("without one, the mount handler answers it, not the root's error()", async () => {
    const m = new ServeMux({ logger: quietLogger() });
    mount(m, Root, '/', 'Root', { notFound: Broken });
    const r = await fetchPage(m, '/nope');
    expect([r.status, r.body]).toEqual([500, 'Internal Server Error\n']);
  });
});

describe('an error() is not a component and makes no route', () => {
  class Plain {
    user = route('/users/{userId} User', UserPage);
    settings = route('/settings Settings', SettingsPage);
  }
  class PlainApp {
    home = route('/{$} Home', Home);
    admin = route('/admin Admin', Plain);
  }

  test('a group with error() stays a group: the same routes', () => {
    const { tree } = appWith();
    const plain = mount(new ServeMux(), PlainApp, '/', 'App');
    const patterns = (routes: { pattern: string }[]) => routes.map((r) => r.pattern);
    const withoutExtras = patterns(tree.routes()).filter((p) => !/api|hanging/.test(p));
    expect(withoutExtras).toEqual(patterns(plain.routes()));
    const admin = tree.root.children.find((n) => n.name === 'admin')!;
    expect([admin.kind, admin.registered, admin.pattern, admin.components]).toEqual(['group', false, '', []]);
  });

  test('a page with error() has no error component and no id for it', () => {
    const { tree } = appWith();
    const settings = tree.root.children[1]!.children.find((n) => n.name === 'settings')!;
    expect(settings.components.map((c) => c.name)).toEqual(['page']);
    expect(tree.hasComponent(SettingsPage.prototype.error)).toBe(false);
    const api = tree.root.children[1]!.children.find((n) => n.name === 'api')!;
    expect([api.kind, api.components]).toEqual(['handler', []]);
  });
});

describe('mount refuses an error() no route reaches', () => {
  const hint =
    ' (error(err, req, target) is the error page of the routes at and below it, not a partial: rename a partial ' +
    'called "error")';
  class Page {
    page() {
      return <p>page</p>;
    }
  }
  class WithError extends Page {
    error() {
      return <p>own</p>;
    }
  }
  class EmptySection {
    error() {
      return <p>never</p>;
    }
  }
  class Nested {
    empty = route('/empty', EmptySection);
  }
  class Shadowed {
    one = route('/one', WithError);
    two = route('/two', WithError);
    error() {
      return <p>never</p>;
    }
  }
  class ShadowedDeep {
    inner = route('/inner', Shadowed);
    error() {
      return <p>never</p>;
    }
  }

  test.each<[string, object, string]>([
    [
      'a section without routes',
      { home: route('/{$}', Page), empty: route('/empty', EmptySection) },
      'mount: App.empty: error() can never answer: there is no route at or below it; remove it, or add routes ' +
        `below it${hint}`,
    ],
    [
      'a group of empty sections',
      { home: route('/{$}', Page), nested: route('/nested', Nested) },
      'mount: App.nested.empty: error() can never answer: there is no route at or below it',
    ],
    [
      'every route with its own',
      { home: route('/{$}', Page), s: route('/s', Shadowed) },
      'mount: App.s: error() can never answer: every route below it has its own error() (App.s.one, App.s.two); ' +
        `remove it, or remove theirs${hint}`,
    ],
    [
      'nearer sections (the deepest unreachable one is named)',
      { home: route('/{$}', Page), deep: route('/deep', ShadowedDeep) },
      'mount: App.deep.inner: error() can never answer: every route below it has its own error() ' +
        '(App.deep.inner.one, App.deep.inner.two)',
    ],
  ])('%s', (_name, routes, want) => {
    class App {
      constructor() {
        Object.assign(this, routes);
      }
    }
    const warned: PageNode[] = [];
    const build = () => mount(new ServeMux(), App, '/', 'App', { onEmptyRoute: (n) => warned.push(n) });
    expect(build).toThrow(MountError);
    expect(build).toThrow(want);
    // Not also skipped as an empty route: the mount error says it all.
    expect(warned.map((n) => n.fieldPath)).not.toContain('App.empty');
  });

  class PageWithChildren extends WithError {
    child = route('/child', Page);
  }

  test('reachable: a page with its own error() and children without one, under a root with one', () => {
    class App {
      page = route('/p', PageWithChildren);
      home = route('/{$}', Page);
      error() {
        return <p>root</p>;
      }
    }
    expect(() => mount(new ServeMux(), App)).not.toThrow();
  });
});

// Issue 26.6: a section error page hands what it does not answer itself to the default, with the arguments it has.
describe('an error() that delegates to defaultErrorHandler', () => {
  class Missing {
    props(req: PageRequest): never {
      if (req.pathValue('what') === 'bug') throw new Error('a bug');
      throw new HttpError(req.pathValue('what') === 'gone' ? 410 : 404, 'No <such> page');
    }
    page() {
      return <p>never</p>;
    }
  }
  class Section implements ErrorPage {
    missing = route('/{what}', Missing);
    error(err: unknown) {
      if (err instanceof HttpError && err.status === 404) return <h1>Not here</h1>;
      return defaultErrorHandler(err);
    }
  }
  class Root {
    section = route('/s', Section);
  }
  const logger = { error: () => {}, warn: () => {} };
  const mux = new ServeMux({ logger });
  mount(mux, Root);

  test.each([
    ['/s/x', 404, HTML, '<h1>Not here</h1>'],
    ['/s/gone', 410, 'text/plain; charset=utf-8', 'No &lt;such&gt; page\n'],
    ['/s/bug', 500, 'text/plain; charset=utf-8', 'Internal Server Error\n'],
  ])('%s → %i', async (path, status, type, body) => {
    const r = await fetchPage(mux, path);
    expect([r.status, r.headers.get('content-type'), r.body, r.headers.get('vary')]).toEqual([
      status,
      type,
      body,
      VARY,
    ]);
  });
});
