// One path for every failure of a page request (issue 13): the render target is chosen once, before the
// middlewares, and the same object reaches props and the error handler whichever step failed; every failure is
// reported to the mux's one logger; every answer of the pipeline carries the htmx Vary.

import { HttpError, ServeMux, mount, route, type Middleware, type PageRequest, type RenderTarget } from 'pagetree';
import type { Logger } from 'pagetree';
import { toNodeListener } from 'pagetree/node';
import { fetchPage, htmx2, htmx4 } from './support/http.ts';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const VARY = 'HX-Request, HX-Target, HX-Request-Type';

interface Seen {
  targets: RenderTarget[];
  handled: { err: unknown; target: RenderTarget }[];
}

function appFor(seen: Seen, failIn: 'middleware' | 'props' | 'render' | 'async-middleware') {
  class TasksPage {
    props(_req: PageRequest, target: RenderTarget) {
      seen.targets.push(target);
      if (failIn === 'props') throw new Error('props broke');
      return {};
    }
    page() {
      return <main>{this.taskList()}</main>;
    }
    taskList() {
      if (failIn === 'render') throw new Error('render broke');
      return <ul></ul>;
    }
  }
  class App {
    tasks = route('/tasks Tasks', TasksPage);
  }
  const failing: Middleware = (next) => (req) => {
    if (failIn === 'middleware') throw new HttpError(403, 'Forbidden');
    if (failIn === 'async-middleware') return Promise.reject(new HttpError(403, 'Forbidden'));
    return next(req);
  };
  const mux = new ServeMux({ logger: { error: () => {}, warn: () => {} } });
  mount(mux, App, '/', 'App', {
    middlewares: [failing],
    errorHandler: (err, _req, _node, target) => {
      seen.handled.push({ err, target });
      return target.partial
        ? new Response('<p class="error">failed</p>', { status: 500, headers: { 'content-type': 'text/html' } })
        : new Response('<html><body>Error page</body></html>', { status: 500 });
    },
  });
  return mux;
}

describe.each(['middleware', 'async-middleware', 'props', 'render'] as const)('a failure in %s', (failIn) => {
  test.each([
    ['htmx 2', htmx2('tasks-task-list')],
    ['htmx 4', htmx4('ul#tasks-task-list')],
  ])('middleware-error-sees-the-partial-target: %s gets the fragment', async (_name, headers) => {
    const seen: Seen = { targets: [], handled: [] };
    const r = await fetchPage(appFor(seen, failIn), '/tasks', { headers });
    expect(r.body).toBe('<p class="error">failed</p>');
    expect(r.headers.get('vary')).toBe(VARY);
    expect(seen.handled).toHaveLength(1);
    const { target } = seen.handled[0]!;
    expect([target.partial, target.component, target.id]).toEqual([true, 'taskList', 'tasks-task-list']);
    // props saw the very object the error handler got (when props ran at all).
    for (const t of seen.targets) expect(t).toBe(target);
  });

  test('a full load gets the error page, its target not partial', async () => {
    const seen: Seen = { targets: [], handled: [] };
    const r = await fetchPage(appFor(seen, failIn), '/tasks');
    expect(r.body).toBe('<html><body>Error page</body></html>');
    expect(r.headers.get('vary')).toBe(VARY);
    expect(seen.handled[0]!.target.partial).toBe(false);
  });
});

describe('one logger per mux', () => {
  function recording(): { logger: Logger; lines: string[] } {
    const lines: string[] = [];
    return {
      lines,
      logger: {
        error: (message, err) => lines.push(`error ${message} ${err instanceof Error ? err.message : ''}`.trim()),
        warn: (message) => lines.push(`warn ${message}`),
      },
    };
  }

  class Broken {
    props(): never {
      throw new Error('db down');
    }
    page() {
      return <p>never</p>;
    }
  }
  class Reader {
    async props(req: PageRequest) {
      return { n: (await req.formData()).getAll('x').length };
    }
    page(props: { n: number }) {
      return <p>{props.n}</p>;
    }
  }
  class Empty {}
  class App {
    broken = route('/broken', Broken);
    reader = route('POST /reader', Reader);
    empty = route('/empty', Empty);
  }

  let consoleError: jest.SpyInstance;
  let consoleWarn: jest.SpyInstance;
  beforeEach(() => {
    consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
    consoleWarn = jest.spyOn(console, 'warn').mockImplementation(() => {});
  });
  afterEach(() => {
    expect(consoleError).not.toHaveBeenCalled();
    expect(consoleWarn).not.toHaveBeenCalled();
    jest.restoreAllMocks();
  });

  test('mount, pages, bad bodies, mux.fetch and the node adapter all report to it', async () => {
    const { logger, lines } = recording();
    const mux = new ServeMux({ logger });
    mount(mux, App);
    mux.handleFunc('/raw', () => {
      throw new Error('raw handler broke');
    });
    expect(lines).toEqual(['warn pagetree: App.empty has no page(), serveHTTP() or routes; it was skipped']);

    expect((await fetchPage(mux, '/broken')).status).toBe(500);
    expect(lines[1]).toBe('error pagetree: App.broken (/broken) failed: db down');

    const bad = await fetchPage(mux, '/reader', { method: 'POST', body: 'x=1', headers: { 'content-type': 'nope' } });
    expect(bad.status).toBe(415);
    expect(lines[2]).toMatch(/^warn pagetree: POST http:\/\/localhost\/reader: 415 /);

    expect((await fetchPage(mux, '/raw')).status).toBe(500);
    expect(lines[3]).toBe('error pagetree: handler for GET http://localhost/raw failed: raw handler broke');

    const server = createServer(toNodeListener(mux));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/raw`);
      expect([res.status, await res.text()]).toEqual([500, 'Internal Server Error\n']);
    } finally {
      server.close();
    }
    expect(lines[4]).toMatch(
      /^error pagetree: handler for GET http:\/\/127\.0\.0\.1:\d+\/raw failed: raw handler broke$/,
    );
    expect(lines).toHaveLength(5);
  });

  test('the default logger writes to the console', async () => {
    const mux = new ServeMux();
    mount(mux, App, '/', '', { onEmptyRoute: () => {} });
    expect((await fetchPage(mux, '/broken')).status).toBe(500);
    expect(consoleError).toHaveBeenCalledWith('pagetree: App.broken (/broken) failed:', expect.any(Error));
    consoleError.mockClear(); // seen: the afterEach check is for the custom logger
  });
});
