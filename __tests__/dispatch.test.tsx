import {
  HttpError,
  ServeMux,
  id,
  idTarget,
  mount,
  redirect,
  renderComponent,
  route,
  setHeader,
  setStatus,
  type PageRequest,
  type RenderTarget,
} from '../core/index.ts';
import { fetchPage, htmx2, htmx4 } from './support/http.ts';

interface Todo {
  title: string;
  done: boolean;
}

class Store {
  todos: Todo[] = [
    { title: 'milk', done: false },
    { title: 'eggs', done: true },
  ];
  propsCalls = 0;
}

class TodosPage {
  readonly #deps: { store: Store };

  constructor(deps: { store: Store }) {
    this.#deps = deps;
  }
  props(req: PageRequest, target: RenderTarget) {
    this.#deps.store.propsCalls++;
    const q = new URL(req.url).searchParams.get('q') ?? '';
    return { todos: this.#deps.store.todos.filter((t) => t.title.includes(q)), target };
  }
  page(props: { todos: Todo[] }) {
    return (
      <html>
        <body>
          <h1>Todos</h1>
          <input name="q" hx-get="/todos" hx-target={idTarget(this.todoList)} />
          <div id={id(this.todoList)}>{this.todoList(props)}</div>
          <footer id={id(this.stats)}>{this.stats(props)}</footer>
        </body>
      </html>
    );
  }
  todoList(props: { todos: Todo[] }) {
    return (
      <ul>
        {props.todos.map((t) => (
          <li safe>{t.title}</li>
        ))}
      </ul>
    );
  }
  stats(props: { todos: Todo[] }) {
    return <span>{props.todos.length} items</span>;
  }
  listStats() {
    return <b>list stats</b>;
  }
  _helper() {
    return 'never a component';
  }
  titleProps() {
    return 'never a component';
  }
}

class AsyncPage {
  async props() {
    await new Promise((r) => setTimeout(r, 1));
    return { name: 'async' };
  }
  async page(props: { name: string }) {
    await new Promise((r) => setTimeout(r, 1));
    return <p safe>{props.name}</p>;
  }
}

class NoPropsPage {
  page(props: unknown) {
    return <p>{props === undefined ? 'no props' : 'props!'}</p>;
  }
}

class ResponsePage {
  props(req: PageRequest) {
    const mode = req.pathValue('mode');
    if (mode === 'return') return new Response('returned', { status: 202 });
    if (mode === 'throw') throw new Response(null, { status: 204 });
    if (mode === 'redirect') return redirect('/todos');
    if (mode === 'http') throw new HttpError(404, 'No such thing');
    if (mode === 'status') {
      setStatus(201);
      setHeader('Cache-Control', 'no-store');
    }
    if (mode === 'boom') throw new Error('secret detail');
    if (mode === 'builtin') return Response.redirect('http://localhost/elsewhere', 302);
    return {};
  }
  page() {
    return <p>rendered</p>;
  }
  detail() {
    return <p>detail</p>;
  }
}

class MidRenderFailure {
  page() {
    return (
      <main>
        <h1>Half a page</h1>
        {this.broken()}
      </main>
    );
  }
  broken(): JSX.Element {
    return Promise.reject(new Error('render failed at the bottom'));
  }
}

class PartialDataPage {
  async props(_req: PageRequest, target: RenderTarget) {
    if (target.is(this.results)) return renderComponent(this.results(['only', 'the', 'results']));
    return { all: ['a', 'b'] };
  }
  page(props: { all: string[] }) {
    return <div id={id(this.results)}>{this.results(props.all)}</div>;
  }
  results(items: string[]) {
    return (
      <ol>
        {items.map((i) => (
          <li safe>{i}</li>
        ))}
      </ol>
    );
  }
}

function searchBox() {
  return <input />;
}

class StandaloneTargetPage {
  props(_req: PageRequest, target: RenderTarget) {
    return { wantsSearch: target.is(searchBox), component: target.component, partial: target.partial };
  }
  page(props: { wantsSearch: boolean; component: string | null; partial: boolean }) {
    return <p safe>{`${props.wantsSearch} ${props.component} ${props.partial}`}</p>;
  }
}

class Handled {
  serveHTTP(req: PageRequest) {
    return new Response(`handled ${req.pathValue('x')}`, { headers: { 'content-type': 'text/plain' } });
  }
  page() {
    return <p>never rendered</p>;
  }
  props() {
    throw new Error('props must not run for a serveHTTP page');
  }
}

class App {
  todos = route('/todos Todos', TodosPage);
  async = route('/async', AsyncPage);
  noProps = route('/no-props', NoPropsPage);
  response = route('/response/{mode}', ResponsePage);
  midRender = route('/mid-render', MidRenderFailure);
  partialData = route('/partial-data', PartialDataPage);
  standalone = route('/standalone', StandaloneTargetPage);
  handled = route('/handled/{x}', Handled);
}

let store: Store;
let mux: ServeMux;
beforeEach(() => {
  store = new Store();
  mux = new ServeMux();
  mount(mux, App, '/', 'Home', { deps: { store } });
  jest.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => jest.restoreAllMocks());

describe('full page', () => {
  test('a normal load renders the whole page as text/html, calling props once', async () => {
    const r = await fetchPage(mux, '/todos');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(r.body).toContain('<h1>Todos</h1>');
    expect(r.body).toContain('<div id="todos-todo-list"><ul><li>milk</li><li>eggs</li></ul></div>');
    expect(r.body).toContain('hx-target="#todos-todo-list"');
    expect(store.propsCalls).toBe(1);
  });

  test('async props and an async page are awaited', async () => {
    expect((await fetchPage(mux, '/async')).body).toBe('<p>async</p>');
  });

  test('a page without props renders with undefined', async () => {
    expect((await fetchPage(mux, '/no-props')).body).toBe('<p>no props</p>');
  });

  test('HEAD gets the headers and no body', async () => {
    const r = await fetchPage(mux, '/todos', { method: 'HEAD' });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(r.body).toBe('');
  });
});

describe('htmx partials', () => {
  const list = '<ul><li>milk</li><li>eggs</li></ul>';
  test.each([
    ['htmx 2, exact generated id', htmx2('todos-todo-list'), list],
    ['htmx 4, tag#id', htmx4('div#todos-todo-list'), list],
    ['htmx 2, kebab method name', htmx2('todo-list'), list],
    ['htmx 4, kebab method name', htmx4('ul#todo-list'), list],
    ['hyphen-boundary suffix', htmx2('main-todo-list'), list],
    ['longest suffix wins (list-stats over stats)', htmx2('my-list-stats'), '<b>list stats</b>'],
    ['other component', htmx4('footer#todos-stats'), '<span>2 items</span>'],
    // htmx 2 sends no HX-Target on a history restore: a request that names one is no restore.
    ['htmx 2 history header with a target', htmx2('todos-todo-list', { 'HX-History-Restore-Request': 'true' }), list],
  ])('%s renders only that component', async (_, headers, want) => {
    const r = await fetchPage(mux, '/todos', { headers });
    expect(r.status).toBe(200);
    expect(r.body).toBe(want);
    expect(store.propsCalls).toBe(1);
  });

  test.each([
    ['no HX-Request', { 'HX-Target': 'todos-todo-list' }],
    ['htmx 2 history restore', htmx2(undefined, { 'HX-History-Restore-Request': 'true' })],
    ['htmx 4 full request', htmx4('div#todos-todo-list', { 'HX-Request-Type': 'full' })],
    ['htmx 4 bare tag (no id)', htmx4('body')],
    ['no target', htmx2()],
    ['an id no component matches', htmx2('sidebar')],
    ['a suffix not at a hyphen', htmx2('mytodo-list-x')],
    ['boosted navigation', htmx2(undefined, { 'HX-Boosted': 'true' })],
    ['_helper is not a component', htmx2('helper')],
    ['...Props methods are not components', htmx2('title-props')],
    ['props is not a component', htmx2('props')],
  ])('%s renders the full page', async (_, headers) => {
    const r = await fetchPage(mux, '/todos', { headers });
    expect(r.body).toContain('<h1>Todos</h1>');
  });

  test('props sees the render target', async () => {
    // The id names a standalone component, not a method: is() says so, and the page renders whole (not partial).
    const r = await fetchPage(mux, '/standalone', { headers: htmx4('div#search-box') });
    expect(r.body).toBe('<p>true null false</p>');
    const full = await fetchPage(mux, '/standalone');
    expect(full.body).toBe('<p>false null false</p>');
  });

  test('props can answer a partial with partial data through renderComponent', async () => {
    const r = await fetchPage(mux, '/partial-data', { headers: htmx2('results') });
    expect(r.body).toBe('<ol><li>only</li><li>the</li><li>results</li></ol>');
    const full = await fetchPage(mux, '/partial-data');
    expect(full.body).toBe('<div id="partial-data-results"><ol><li>a</li><li>b</li></ol></div>');
  });

  test.each([
    ['full page', {}],
    ['partial', htmx2('todo-list')],
  ])('every pipeline response carries Vary (%s)', async (_, headers) => {
    const r = await fetchPage(mux, '/todos', { headers });
    expect(r.headers.get('vary')).toBe('HX-Request, HX-Target, HX-Request-Type');
  });
});

describe('props answers', () => {
  test('a returned Response is sent as is, with Vary', async () => {
    const r = await fetchPage(mux, '/response/return');
    expect([r.status, r.body]).toEqual([202, 'returned']);
    expect(r.headers.get('vary')).toBe('HX-Request, HX-Target, HX-Request-Type');
  });

  test('a thrown Response is sent as is', async () => {
    const r = await fetchPage(mux, '/response/throw');
    expect(r.status).toBe(204);
    expect(r.headers.get('vary')).toBe('HX-Request, HX-Target, HX-Request-Type');
  });

  test('an immutable Response (Response.redirect) still gets Vary', async () => {
    const r = await fetchPage(mux, '/response/builtin');
    expect(r.status).toBe(302);
    expect(r.headers.get('location')).toBe('http://localhost/elsewhere');
    expect(r.headers.get('vary')).toBe('HX-Request, HX-Target, HX-Request-Type');
  });

  test('HttpError answers with its status and message as text', async () => {
    const r = await fetchPage(mux, '/response/http');
    expect(r.status).toBe(404);
    expect(r.body).toBe('No such thing\n');
    expect(r.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(console.error).not.toHaveBeenCalled();
  });

  test('props sets status and headers of the rendered page', async () => {
    const r = await fetchPage(mux, '/response/status');
    expect(r.status).toBe(201);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.body).toBe('<p>rendered</p>');
  });

  test('redirect() answers htmx with HX-Location and others with 303', async () => {
    const plain = await fetchPage(mux, '/response/redirect');
    expect(plain.status).toBe(303);
    expect(plain.headers.get('location')).toBe('/todos');
    const hx = await fetchPage(mux, '/response/redirect', { headers: htmx4('body') });
    expect(hx.status).toBe(200);
    expect(hx.headers.get('hx-location')).toBe('/todos');
    expect(hx.headers.get('location')).toBeNull();
  });
});

describe('errors', () => {
  test('a failing props gets a 500 without its stack, and the error is logged with the field path', async () => {
    const r = await fetchPage(mux, '/response/boom');
    expect(r.status).toBe(500);
    expect(r.body).toBe('Internal Server Error\n');
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(r.headers.get('vary')).toBe('HX-Request, HX-Target, HX-Request-Type');
    expect(console.error).toHaveBeenCalledWith(expect.stringContaining('App.response'), expect.any(Error));
  });

  test('a render that fails mid-way sends none of the page', async () => {
    const r = await fetchPage(mux, '/mid-render');
    expect(r.status).toBe(500);
    expect(r.body).not.toContain('Half a page');
  });

  test('an error on a partial request is a fragment, not the layout', async () => {
    const r = await fetchPage(mux, '/response/boom', { headers: htmx4('div#x') });
    expect(r.status).toBe(500);
    expect(r.body).toBe('Internal Server Error\n');
    expect(r.body).not.toContain('<html');
  });

  test('a custom error handler sees the error, request, node and target', async () => {
    const seen: unknown[] = [];
    const m = new ServeMux();
    mount(m, App, '/', '', {
      deps: { store },
      errorHandler: (err, req, node, target) => {
        seen.push(
          err instanceof HttpError ? err.status : 'other',
          new URL(req.url).pathname,
          node.fieldPath,
          target.partial,
        );
        return target.partial
          ? new Response('<p class="error">oops</p>', { status: 500, headers: { 'content-type': 'text/html' } })
          : new Response('<html><body>Error page</body></html>', {
              status: 500,
              headers: { 'content-type': 'text/html' },
            });
      },
    });
    const partial = await fetchPage(m, '/response/boom', { headers: htmx2('detail') });
    expect(partial.body).toBe('<p class="error">oops</p>');
    const full = await fetchPage(m, '/response/http');
    expect(full.body).toContain('Error page');
    expect(seen).toEqual([
      'other',
      '/response/boom',
      'App.response',
      true,
      404,
      '/response/http',
      'App.response',
      false,
    ]);
  });

  test('an error handler that fails falls back to a bare 500', async () => {
    const m = new ServeMux();
    mount(m, App, '/', '', {
      deps: { store },
      errorHandler: () => {
        throw new Error('handler broke');
      },
    });
    const r = await fetchPage(m, '/response/boom');
    expect([r.status, r.body]).toEqual([500, 'Internal Server Error\n']);
  });
});

describe('pages without page()', () => {
  class Action {
    props(req: PageRequest) {
      return req.method === 'POST' ? renderComponent(<p>done</p>) : { nothing: 'to render' };
    }
    status() {
      return <i>status</i>;
    }
  }
  class Root {
    action = route('/action', Action);
  }
  let m: ServeMux;
  beforeEach(() => {
    m = new ServeMux();
    mount(m, Root);
  });

  test('props that answer with renderComponent need no page()', async () => {
    expect((await fetchPage(m, '/action', { method: 'POST' })).body).toBe('<p>done</p>');
  });

  test('a partial of a page without page() renders', async () => {
    expect((await fetchPage(m, '/action', { headers: htmx2('status') })).body).toBe('<i>status</i>');
  });

  test('data with nothing to render it is a 500 that says what is missing', async () => {
    const r = await fetchPage(m, '/action');
    expect(r.status).toBe(500);
    expect(console.error).toHaveBeenCalledWith(
      expect.stringContaining('Root.action'),
      expect.objectContaining({
        message: expect.stringContaining('Root.action has no page() to render its props with'),
      }),
    );
  });
});

describe('serveHTTP pages', () => {
  test('serveHTTP answers alone: props and page never run', async () => {
    const r = await fetchPage(mux, '/handled/7', { headers: htmx2('page') });
    expect(r.body).toBe('handled 7');
    expect(r.headers.get('content-type')).toBe('text/plain');
    expect(console.error).not.toHaveBeenCalled();
  });
});
