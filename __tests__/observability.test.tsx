// Tracing (issue 29, item 3): the page pipeline publishes its steps to the diagnostics_channel tracing channels
// pagetree:request, pagetree:props and pagetree:render, with nothing published (and a sync page still sync) when
// nobody subscribes; the OpenTelemetry recipe of docs/observability.md, run as the doc prints it, gives spans named
// by the route with htmx attributes; Server-Timing in dev only; the access log's entry.

import { tracingChannel } from 'node:diagnostics_channel';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Tracer } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import ts from 'typescript';
import {
  HttpError,
  ServeMux,
  alsoRender,
  id,
  mount,
  route,
  type AccessLogEntry,
  type Logger,
  type MountOptions,
  type PageRequest,
  type PropsTrace,
  type RenderTrace,
  type RequestTrace,
} from 'pagetree';
import { fetchPage, htmx2, htmx4 } from './support/http.ts';

class TaskPage {
  props(req: PageRequest) {
    const taskId = req.pathValue('taskId');
    if (taskId === 'props-fails') throw new Error('props failed');
    if (taskId === 'missing') throw new HttpError(404, 'No such task');
    return { taskId };
  }
  page(props: { taskId: string }) {
    return (
      <main>
        <p id={id(this.openCount)}>{this.openCount()}</p>
        <ul id={id(this.taskList)}>{this.taskList(props)}</ul>
      </main>
    );
  }
  taskList(props: { taskId: string }) {
    if (props.taskId === 'render-fails') throw new Error('render failed');
    if (props.taskId === 'with-region') alsoRender(this.openCount, <>{'2'}</>);
    return <li safe>{props.taskId}</li>;
  }
  openCount() {
    return <>1</>;
  }
}

// At least 2 ms of waiting, however early a timer fires (libuv's clock is read once per turn of the loop).
async function tick(): Promise<void> {
  const start = performance.now();
  while (performance.now() - start < 2) await new Promise((resolve) => setTimeout(resolve, 1));
}

class SlowPage {
  async props(req: PageRequest) {
    await tick();
    if (req.pathValue('what') === 'props-fails') throw new Error('slow props failed');
    return { what: req.pathValue('what') };
  }
  async page(props: { what: string }) {
    await tick();
    if (props.what === 'render-fails') throw new Error('slow render failed');
    return <main safe>{props.what}</main>;
  }
}

class NotFoundPage {
  page() {
    return <main>Not here</main>;
  }
}

class App {
  task = route('GET /tasks/{taskId} Task', TaskPage);
  slow = route('/slow/{what}', SlowPage);
}

function appWith(options: MountOptions = {}, logger?: Logger): ServeMux {
  const mux = new ServeMux(logger ? { logger } : {});
  mount(mux, App, '/', 'Home', { notFound: NotFoundPage, ...options });
  return mux;
}

const quiet: Logger = { error: () => {}, warn: () => {}, info: () => {} };

type Event = [channel: string, event: string, context: Record<string, unknown>];

// Records every event of the three channels, with a copy of the context as it was then.
function recordEvents(): { events: Event[]; stop: () => void } {
  const events: Event[] = [];
  const stops = ['request', 'props', 'render'].map((step) => {
    const channel = tracingChannel<unknown, object>(`pagetree:${step}`);
    const on = (event: string) => (ctx: object) => events.push([step, event, { ...ctx }]);
    const subscribers = {
      start: on('start'),
      end: on('end'),
      asyncStart: on('asyncStart'),
      asyncEnd: on('asyncEnd'),
      error: on('error'),
    };
    channel.subscribe(subscribers);
    return () => channel.unsubscribe(subscribers);
  });
  return { events, stop: () => stops.forEach((stop) => stop()) };
}

async function eventsOf(path: string, headers: Record<string, string> = {}) {
  const mux = appWith({}, quiet);
  const recorder = recordEvents();
  try {
    const res = await fetchPage(mux, path, { headers });
    return { res, events: recorder.events };
  } finally {
    recorder.stop();
  }
}

const names = (events: Event[]) => events.map(([channel, event]) => `${channel}:${event}`);
const contextOf = (events: Event[], channel: string, event: string) =>
  events.find(([c, e]) => c === channel && e === event)![2];

describe('the channels', () => {
  test('a full page: request, props and render, synchronously', async () => {
    const { res, events } = await eventsOf('/tasks/7');
    expect(res.status).toBe(200);
    expect(names(events)).toEqual([
      'request:start',
      'props:start',
      'props:end',
      'render:start',
      'render:end',
      'request:end',
    ]);
    const request = contextOf(events, 'request', 'end') as unknown as RequestTrace;
    expect(request).toMatchObject({ pattern: 'GET /tasks/{taskId}', page: 'App.task', regions: 0, async: false });
    expect(request.request.url).toBe('http://localhost/tasks/7');
    expect(request.htmx.isHtmx).toBe(false);
    expect(request.target.partial).toBe(false);
    expect(request.result?.status).toBe(200);
    const props = contextOf(events, 'props', 'end') as unknown as PropsTrace;
    expect(props).toMatchObject({ page: 'App.task', method: 'props', result: { taskId: '7' }, async: false });
    const render = contextOf(events, 'render', 'end') as unknown as RenderTrace;
    expect(render).toMatchObject({ page: 'App.task', component: 'page', partial: false, regions: 0 });
    expect(render.result?.status).toBe(200);
  });

  test('props and render contexts point at the request context', async () => {
    const mux = appWith({}, quiet);
    const seen: object[] = [];
    const channel = tracingChannel<unknown, object>('pagetree:request');
    const onStart = (ctx: unknown) => void seen.push(ctx as object);
    channel.start.subscribe(onStart);
    const parents: unknown[] = [];
    const onStep = (ctx: unknown) => void parents.push((ctx as PropsTrace).parent);
    tracingChannel('pagetree:props').start.subscribe(onStep);
    tracingChannel('pagetree:render').start.subscribe(onStep);
    try {
      await fetchPage(mux, '/tasks/7');
    } finally {
      channel.start.unsubscribe(onStart);
      tracingChannel('pagetree:props').start.unsubscribe(onStep);
      tracingChannel('pagetree:render').start.unsubscribe(onStep);
    }
    expect(parents).toEqual([seen[0], seen[0]]);
  });

  test.each([
    ['htmx 2', htmx2('task-list')],
    ['htmx 4', htmx4('ul#task-list')],
  ])('an htmx partial (%s): the target and the partial', async (_, headers) => {
    const { res, events } = await eventsOf('/tasks/7', headers);
    expect(res.body).toBe('<li>7</li>');
    const request = contextOf(events, 'request', 'start') as unknown as RequestTrace;
    expect(request.htmx).toMatchObject({ isHtmx: true, target: 'task-list', swapsIntoElement: true });
    expect(request.target).toMatchObject({ partial: true, component: 'taskList' });
    expect(contextOf(events, 'render', 'end')).toMatchObject({ component: 'taskList', partial: true });
  });

  test('a region: the count on the render and the request', async () => {
    const { res, events } = await eventsOf('/tasks/with-region', htmx4('ul#task-list'));
    expect(res.body).toContain('<hx-partial');
    expect(contextOf(events, 'render', 'end')).toMatchObject({ component: 'taskList', regions: 1 });
    expect(contextOf(events, 'request', 'end')).toMatchObject({ regions: 1 });
  });

  test('the not-found page: pattern "", status 404', async () => {
    const { res, events } = await eventsOf('/nowhere');
    expect(res.status).toBe(404);
    expect(names(events)).toEqual(['request:start', 'render:start', 'render:end', 'request:end']);
    const request = contextOf(events, 'request', 'end') as unknown as RequestTrace;
    expect(request).toMatchObject({ pattern: '', page: 'App (notFound)' });
    expect(request.result?.status).toBe(404);
  });

  test('an HttpError from props: error on props and on the request, which ends with its answer', async () => {
    const { res, events } = await eventsOf('/tasks/missing');
    expect(res.status).toBe(404);
    expect(names(events)).toEqual([
      'request:start',
      'props:start',
      'props:error',
      'props:end',
      'request:error',
      'request:end',
    ]);
    expect((contextOf(events, 'props', 'error').error as HttpError).status).toBe(404);
    const request = contextOf(events, 'request', 'end') as unknown as RequestTrace;
    expect((request.error as HttpError).message).toBe('No such task');
    expect(request.result?.status).toBe(404);
  });

  test.each([
    ['props', '/tasks/props-fails', 'props failed'],
    ['render', '/tasks/render-fails', 'render failed'],
  ])('a sync %s that throws: error events, then the 500', async (step, path, message) => {
    const { res, events } = await eventsOf(path);
    expect(res.status).toBe(500);
    expect(names(events)).toContain(`${step}:error`);
    expect((contextOf(events, step, 'error').error as Error).message).toBe(message);
    expect((contextOf(events, 'request', 'error').error as Error).message).toBe(message);
    expect((contextOf(events, 'request', 'end').result as Response).status).toBe(500);
  });

  test('an async page: asyncStart and asyncEnd carry the results', async () => {
    const { res, events } = await eventsOf('/slow/fine');
    expect(res.body).toBe('<main>fine</main>');
    expect(names(events)).toEqual([
      'request:start',
      'props:start',
      'props:end',
      'request:end',
      'props:asyncStart',
      'props:asyncEnd',
      'render:start',
      'render:end',
      'render:asyncStart',
      'render:asyncEnd',
      'request:asyncStart',
      'request:asyncEnd',
    ]);
    expect(contextOf(events, 'props', 'end')).toMatchObject({ async: true, result: undefined });
    expect(contextOf(events, 'props', 'asyncEnd')).toMatchObject({ async: true, result: { what: 'fine' } });
    expect((contextOf(events, 'request', 'asyncEnd').result as Response).status).toBe(200);
    expect(contextOf(events, 'request', 'asyncEnd').pattern).toBe('/slow/{what}');
  });

  test.each([
    ['props', '/slow/props-fails', 'slow props failed'],
    ['render', '/slow/render-fails', 'slow render failed'],
  ])('an async %s that fails: error before asyncStart', async (step, path, message) => {
    const { res, events } = await eventsOf(path);
    expect(res.status).toBe(500);
    const list = names(events);
    expect(list.indexOf(`${step}:error`)).toBe(list.indexOf(`${step}:asyncStart`) - 1);
    expect((contextOf(events, step, 'error').error as Error).message).toBe(message);
    expect((contextOf(events, 'request', 'asyncEnd').result as Response).status).toBe(500);
  });
});

describe('without subscribers', () => {
  test('nothing is published, and a sync page answers synchronously', () => {
    const mux = appWith({}, quiet);
    const channels = ['request', 'props', 'render'].map((s) => tracingChannel(`pagetree:${s}`));
    const spies = channels.flatMap((c) =>
      [c.start, c.end, c.asyncStart, c.asyncEnd, c.error].flatMap((ch) => [
        jest.spyOn(ch, 'publish'),
        jest.spyOn(ch, 'runStores'),
      ]),
    );
    try {
      for (const headers of [{}, htmx4('ul#task-list')]) {
        const res = mux.serveHTTP(new Request('http://localhost/tasks/7', { headers }));
        expect(res).toBeInstanceOf(Response); // not a Promise
      }
      for (const spy of spies) expect(spy).not.toHaveBeenCalled();
    } finally {
      spies.forEach((spy) => spy.mockRestore());
    }
  });

  test('with a subscriber a sync page still answers synchronously', () => {
    const mux = appWith({}, quiet);
    const recorder = recordEvents();
    try {
      expect(mux.serveHTTP(new Request('http://localhost/tasks/7'))).toBeInstanceOf(Response);
      expect(recorder.events.length).toBe(6);
    } finally {
      recorder.stop();
    }
  });
});

// The recipe as docs/observability.md prints it: its ```ts title="src/tracing.ts" block, compiled and run here.
function recipe(): { tracePagetree(tracer: Tracer): () => void } {
  const doc = readFileSync(join(__dirname, '../docs/observability.md'), 'utf8');
  const block = /```ts title="src\/tracing\.ts"\n([\s\S]*?)\n```/.exec(doc)![1]!;
  const js = ts.transpileModule(block, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  const module = { exports: {} as Record<string, unknown> };
  new Function('require', 'module', 'exports', js)(require, module, module.exports);
  return module.exports as never;
}

describe('the OpenTelemetry recipe', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  let stop: () => void;
  beforeAll(() => (stop = recipe().tracePagetree(provider.getTracer('test'))));
  afterAll(() => stop());
  beforeEach(() => exporter.reset());

  const spans = () =>
    exporter.getFinishedSpans().map((s) => ({
      name: s.name,
      attributes: s.attributes,
      status: s.status.code,
      parent: s.parentSpanContext?.spanId,
      id: s.spanContext().spanId,
      exceptions: s.events.filter((e) => e.name === 'exception').length,
    }));

  test('a partial: a span named by the route with htmx attributes, props and render below it', async () => {
    const mux = appWith({}, quiet);
    await fetchPage(mux, '/tasks/with-region', { headers: htmx4('ul#task-list') });
    const [props, render, request] = spans();
    expect(request).toMatchObject({
      name: 'GET /tasks/{taskId}',
      parent: undefined,
      attributes: {
        'http.request.method': 'GET',
        'http.route': '/tasks/{taskId}',
        'url.path': '/tasks/with-region',
        'http.response.status_code': 200,
        'pagetree.page': 'App.task',
        'htmx.request_type': 'partial',
        'htmx.target': 'task-list',
        'pagetree.partial': 'taskList',
        'pagetree.regions': 1,
      },
    });
    expect(props).toMatchObject({ name: 'props App.task', parent: request!.id });
    expect(render).toMatchObject({ name: 'render taskList', parent: request!.id });
  });

  test('a full page of an async route: no htmx attributes, the method and the route as the name', async () => {
    const mux = appWith({}, quiet);
    await fetchPage(mux, '/slow/fine');
    const request = spans().find((s) => s.parent === undefined)!;
    expect(request.name).toBe('GET /slow/{what}');
    expect(request.attributes['htmx.request_type']).toBeUndefined();
    expect(request.attributes['pagetree.partial']).toBeUndefined();
    expect(spans().map((s) => s.name)).toEqual(['props App.slow', 'render page', 'GET /slow/{what}']);
  });

  test('a failing render: the exception on its span, the request span an error with status 500', async () => {
    const mux = appWith({}, quiet);
    await fetchPage(mux, '/tasks/render-fails');
    const [, render, request] = spans();
    expect(render).toMatchObject({ name: 'render page', exceptions: 1, status: 2 });
    expect(request).toMatchObject({ exceptions: 1, status: 2 });
    expect(request!.attributes['http.response.status_code']).toBe(500);
  });

  test('the not-found page: the method alone, status 404, not an error', async () => {
    const mux = appWith({}, quiet);
    await fetchPage(mux, '/nowhere');
    const request = spans().find((s) => s.parent === undefined)!;
    expect(request).toMatchObject({ name: 'GET', status: 0 });
    expect(request.attributes['http.response.status_code']).toBe(404);
  });
});

describe('Server-Timing', () => {
  test.each([
    ['dev', { dev: true }, true],
    ['serverTiming', { serverTiming: true }, true],
    ['dev without serverTiming', { dev: true, serverTiming: false }, false],
    ['observe: { serverTiming }', { observe: { serverTiming: true } }, true],
    ['dev without observe.serverTiming', { dev: true, observe: { serverTiming: false } }, false],
    ['production', {}, false],
  ])('%s', async (_, options, present) => {
    const mux = appWith(options as MountOptions, quiet);
    const res = await fetchPage(mux, '/tasks/7');
    const timing = res.headers.get('server-timing');
    if (!present) return expect(timing).toBeNull();
    expect(timing).toMatch(/^props;dur=\d+\.\d\d, render;dur=\d+\.\d\d, total;dur=\d+\.\d\d$/);
    const slow = await fetchPage(mux, '/slow/fine');
    const [props, render, total] = [...slow.headers.get('server-timing')!.matchAll(/dur=([\d.]+)/g)].map((m) => +m[1]!);
    expect(props).toBeGreaterThanOrEqual(2); // a tick each
    expect(render).toBeGreaterThanOrEqual(2);
    expect(total).toBeGreaterThanOrEqual(props! + render! - 0.1);
  });
});

describe('the access log', () => {
  test("one JSON line per request through the logger's info", async () => {
    const lines: string[] = [];
    const mux = appWith({ accessLog: true }, { ...quiet, info: (line) => lines.push(line) });
    await fetchPage(mux, '/tasks/with-region?secret=1', { headers: htmx4('ul#task-list') });
    await fetchPage(mux, '/tasks/missing');
    await fetchPage(mux, '/nowhere');
    const [partial, missing, notFound] = lines.map((line) => JSON.parse(line) as AccessLogEntry);
    expect(lines.length).toBe(3);
    expect(partial).toEqual({
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      method: 'GET',
      path: '/tasks/with-region',
      pattern: 'GET /tasks/{taskId}',
      page: 'App.task',
      status: 200,
      ms: expect.any(Number),
      htmx: 'partial',
      target: 'task-list',
      partial: 'taskList',
      regions: 1,
      bytes: expect.any(Number),
    });
    expect(missing).toMatchObject({ status: 404, htmx: null, target: null, partial: null, regions: 0 });
    expect(notFound).toMatchObject({ pattern: '', page: 'App (notFound)', status: 404, path: '/nowhere' });
  });

  test('bytes are the UTF-8 size of the body', async () => {
    const entries: AccessLogEntry[] = [];
    const mux = appWith({ accessLog: (entry) => entries.push(entry) });
    const res = await fetchPage(mux, '/tasks/été-😀', { headers: htmx2('task-list') });
    expect(entries[0]!.bytes).toBe(Buffer.byteLength(res.body));
    expect(entries[0]!.htmx).toBe('partial');
  });

  test('observe: { accessLog } (the 0.2 form of the flat option): one entry per request', async () => {
    const entries: AccessLogEntry[] = [];
    const mux = appWith({ observe: { accessLog: (entry) => entries.push(entry) } });
    await fetchPage(mux, '/tasks/7');
    expect(entries).toEqual([expect.objectContaining({ method: 'GET', path: '/tasks/7', status: 200 })]);
  });

  test('an option given both ways is a mount error that names both', () => {
    expect(() =>
      mount(new ServeMux(), App, '/', 'Home', { observe: { accessLog: true }, accessLog: () => {} }),
    ).toThrow('App (observe.accessLog): given twice, as observe.accessLog and accessLog; keep observe.accessLog');
    expect(() =>
      mount(new ServeMux(), App, '/', 'Home', { observe: { serverTiming: true }, serverTiming: false }),
    ).toThrow(
      'App (observe.serverTiming): given twice, as observe.serverTiming and serverTiming; keep observe.serverTiming',
    );
  });

  test('a logger without info() is a mount error', () => {
    const mux = new ServeMux({ logger: { error: () => {}, warn: () => {} } });
    expect(() => mount(mux, App, '/', 'Home', { observe: { accessLog: true } })).toThrow(
      "App (observe.accessLog): the mux's logger has no info(); give it one, or pass observe: { accessLog: (entry) => … }",
    );
  });
});
