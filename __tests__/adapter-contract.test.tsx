// The adapter contract (core/kernel/adapter.ts, pagetree/adapter): what an adapter hands the core with a request
// (its facts: target, client, abort, guardsBody) and what it reads back (answerOf), and clientAddress on each road in.

import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import {
  clientAddress,
  eventStream,
  HttpError,
  mount,
  route,
  ServeMux,
  type EventStream,
  type PageRequest,
} from '../core/index.ts';
import {
  answerOf,
  bodyTooLarge,
  consoleLogger,
  guardLogger,
  handlerFailed,
  handOver,
  lazyInherit,
  parseTarget,
  readBody,
  readFormBody,
  readJson,
  requestFacts,
  serveHandler,
  takeEvents,
  textError,
  type AdapterRequest,
  type RequestFacts,
} from '../core/adapter.ts';
import * as adapterEntry from '../core/adapter.ts';
import * as pagetree from '../core/index.ts';
import { serve, shutdown } from '../core/node/index.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { send } from './support/node-http.ts';

class WhoPage {
  props(req: PageRequest) {
    return { client: clientAddress(req), path: req.pathValue('rest') };
  }
  page(props: { client: string; path: string }) {
    return <p safe>{`${props.client || '(unknown)'} asked for ${props.path}`}</p>;
  }
}

class FormPage {
  async post(req: PageRequest) {
    const form = await req.formData();
    return { name: String(form.get('name')) };
  }
  page(props: { name: string }) {
    return <p safe>{props.name}</p>;
  }
}

class App {
  who = route('/who/{rest...}', WhoPage);
  form = route('/form', FormPage);
}

function app(): ServeMux {
  const mux = new ServeMux();
  mount(mux, App, '/', 'App', { compress: false });
  mux.handleFunc('POST /only-post', () => new Response('posted'));
  return mux;
}

// An adapter of one's own: a Request it made, carrying its facts.
function adapterRequest(url: string, facts: RequestFacts, init?: RequestInit): AdapterRequest {
  return Object.assign(new Request(url, init), { [requestFacts]: facts });
}

describe('clientAddress', () => {
  test('the node adapter reads it from the socket', async () => {
    const server = serve(app(), { port: 0, hostname: '127.0.0.1', handleSignals: false, onListen: () => {} });
    await once(server, 'listening');
    try {
      const reply = await send((server.address() as AddressInfo).port, '/who/a');
      expect([reply.status, reply.body]).toEqual([200, '<p>127.0.0.1 asked for a</p>']);
    } finally {
      await shutdown(server, 1000);
    }
  });

  test.each([
    [
      'Deno.serve (info.remoteAddr)',
      { remoteAddr: { hostname: '10.0.0.7', port: 5000, transport: 'tcp' } },
      '10.0.0.7',
    ],
    ['Bun.serve (server.requestIP)', { requestIP: () => ({ address: '::1', family: 'IPv6', port: 5000 }) }, '::1'],
    ['Bun.serve, no address (a Unix socket)', { requestIP: () => null }, '(unknown)'],
    ['workerd (env: it does not say)', { KV: {} }, '(unknown)'],
    ['no second argument (a test)', undefined, '(unknown)'],
  ])('mux.fetch with what %s passes', async (_, info, want) => {
    const res = await app().fetch(new Request('http://localhost/who/b'), info);
    expect(await res.text()).toBe(`<p>${want} asked for b</p>`);
  });

  test('handOver records it for a Request an adapter did not make', () => {
    const req = new Request('http://localhost/');
    expect(clientAddress(req)).toBe('');
    handOver(req, { remoteAddr: { hostname: '192.0.2.1' } });
    expect(clientAddress(req)).toBe('192.0.2.1');
  });

  test('an adapter of its own gives it in its facts', async () => {
    const req = adapterRequest('http://localhost/who/c', {
      target: { host: 'localhost', path: '/who/c', query: '' },
      client: '198.51.100.4',
    });
    const res = await app().fetch(req);
    expect(await res.text()).toBe('<p>198.51.100.4 asked for c</p>');
  });
});

describe('the facts an adapter hands over', () => {
  test('the mux routes on facts.target, not on req.url', async () => {
    // The raw target as received: "%2F" stays escaped, as Go routes on the escaped path.
    const req = adapterRequest('http://localhost/elsewhere', {
      target: { host: 'localhost', path: '/who/x%2Fy', query: '' },
      client: '',
    });
    const res = await app().fetch(req);
    expect(await res.text()).toBe('<p>(unknown) asked for x/y</p>');
  });

  test('without guardsBody, a bad form body is a 4xx, not a 500', async () => {
    const facts = { target: { host: 'localhost', path: '/form', query: '' }, client: '' };
    const json = { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } };
    const res = await app().fetch(adapterRequest('http://localhost/form', facts, json));
    expect(res.status).toBe(415);
    const ok = { method: 'POST', body: 'name=Ada', headers: { 'content-type': 'application/x-www-form-urlencoded' } };
    const good = await app().fetch(adapterRequest('http://localhost/form', facts, ok));
    expect([good.status, await good.text()]).toEqual([200, '<p>Ada</p>']);
  });

  test('a Request whose prototype holds the body reads read-only is guarded all the same', async () => {
    // A runtime whose Request.prototype.formData cannot be assigned over: the guard defines its own on the request.
    class ReadOnlyReads extends Request {}
    for (const name of ['formData', 'json'] as const) {
      Object.defineProperty(ReadOnlyReads.prototype, name, { value: Request.prototype[name], writable: false });
    }
    const json = { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } };
    const res = await app().fetch(new ReadOnlyReads('http://localhost/form', json));
    expect(res.status).toBe(415);
  });

  test("the guarded body reads leave the runtime's Request usable as one", async () => {
    // What Deno.upgradeWebSocket, Bun's server.upgrade or fetch(req) do with it: the native methods on it, a copy.
    let seen: unknown[] = [];
    class Copy {
      async post(req: PageRequest) {
        const copy = new Request(req.clone());
        seen = [req instanceof Request, Object.getPrototypeOf(req) === Request.prototype, await copy.text()];
        return await req.json();
      }
      page(props: unknown) {
        return <p safe>{JSON.stringify(props)}</p>;
      }
    }
    const mux = new ServeMux({ logger: { error: () => {}, warn: () => {} } });
    mount(
      mux,
      class {
        copy = route('/copy', Copy);
      },
      '/',
      'Copied',
      { compress: false },
    );
    const post = (body: string) =>
      mux.fetch(
        new Request('http://localhost/copy', { method: 'POST', body, headers: { 'content-type': 'text/json' } }),
      );
    const res = await post('{"a":1}');
    expect([res.status, await res.text()]).toEqual([200, '<p>{&#34;a&#34;:1}</p>']);
    expect(seen).toEqual([true, true, '{"a":1}']);
    expect((await post('{"a":')).status).toBe(400);
  });

  test("a page timeout calls the adapter's abort", async () => {
    const reasons: unknown[] = [];
    class Slow {
      props() {
        return new Promise(() => {}); // never answers
      }
      page() {
        return <p>never</p>;
      }
    }
    const mux = new ServeMux({ logger: { error: () => {}, warn: () => {} } });
    mount(
      mux,
      class {
        slow = route('/slow', Slow);
      },
      '/',
      'App',
      { timeout: 20, compress: false },
    );
    const req = adapterRequest('http://localhost/slow', {
      target: { host: 'localhost', path: '/slow', query: '' },
      client: '',
      abort: (reason) => reasons.push(reason),
    });
    const res = await mux.fetch(req);
    expect(res.status).toBe(503);
    expect(reasons).toHaveLength(1);
    expect((reasons[0] as Error).name).toBe('TimeoutError');
  });
});

describe('answerOf: what an adapter reads back', () => {
  test.each([
    ['a rendered page', '/who/d', 200, 'string'],
    ['the mux’s 404', '/nothing', 404, 'string'],
    ['the mux’s 405', '/only-post', 405, 'string'],
  ])('%s is plain data', async (_, path, status, body) => {
    const mux = app();
    const answer = answerOf(await mux.serveHTTP(new Request(`http://localhost${path}`)));
    expect([answer.status, typeof answer.body]).toEqual([status, body]);
  });

  test('a hand-made Response keeps its status text and its body stream', async () => {
    const answer = answerOf(new Response('hi', { status: 299, statusText: 'Fine', headers: { 'x-a': '1' } }));
    expect(answer).toMatchObject({ status: 299, statusText: 'Fine', headers: { 'x-a': '1' } });
    expect(await new Response(answer.body as ReadableStream<Uint8Array>).text()).toBe('hi');
  });

  test('each Set-Cookie line stays its own', () => {
    const headers = new Headers();
    headers.append('set-cookie', 'a=1');
    headers.append('set-cookie', 'b=2');
    expect(answerOf(new Response(null, { headers })).headers['set-cookie']).toEqual(['a=1', 'b=2']);
  });

  test.each([
    [undefined, 'handler returned undefined, not a Response'],
    ['<p>', 'handler returned "<p>", not a Response'],
    [{ status: 200 }, 'handler returned an object (Object), not a Response'],
    [new HttpError(404, 'x'), 'handler returned an object (HttpError), not a Response'],
  ])('anything else is a TypeError that names it: %p', (value, message) => {
    expect(() => answerOf(value)).toThrow(new TypeError(message));
  });
});

describe("docs/adapters.md's adapter, as written", () => {
  // The block that defines handleEvent, compiled and run with 'pagetree' and 'pagetree/adapter' from this repository.
  const doc = readFileSync(join(__dirname, '../docs/adapters.md'), 'utf8');
  const block = [...doc.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!).find((b) => b.includes('handleEvent'))!;
  const js = ts.transpileModule(block, { compilerOptions: { module: ts.ModuleKind.CommonJS } }).outputText;
  const modules: Record<string, unknown> = { pagetree, 'pagetree/adapter': adapterEntry };
  const exported: { handleEvent?: (mux: ServeMux, event: object) => Promise<Record<string, unknown>> } = {};
  new Function('require', 'exports', js)((name: string) => modules[name], exported);
  const event = (rawPath: string, extra: object = {}) => ({
    method: 'GET',
    host: 'example.com',
    rawPath,
    rawQuery: '',
    headers: {},
    body: null,
    sourceIp: '203.0.113.9',
    ...extra,
  });

  test('a page, with the client address it gave and the target as received', async () => {
    const result = await exported.handleEvent!(app(), event('/who/x%2Fy'));
    expect(result).toMatchObject({ statusCode: 200, body: '<p>203.0.113.9 asked for x/y</p>', cookies: [] });
  });

  test("the mux's 404, and a form", async () => {
    expect(await exported.handleEvent!(app(), event('/nope'))).toMatchObject({ statusCode: 404 });
    const form = event('/form', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name=Ada',
    });
    expect(await exported.handleEvent!(app(), form)).toMatchObject({ statusCode: 200, body: '<p>Ada</p>' });
  });
});

// Issue 42: pagetree/adapter is what the node adapter is written with, and so what any adapter has.
describe('what pagetree/adapter gives an adapter of its own', () => {
  const formType = 'application/x-www-form-urlencoded';
  const quiet = { error: () => {}, warn: () => {} };

  test('serveHandler: a handler that is not a mux gets a PageRequest with no pattern', async () => {
    const fn = (req: PageRequest) => new Response(JSON.stringify([req.pattern, req.pathValue('id')]));
    expect(await (await serveHandler(fn, new Request('http://x/a'), quiet)).text()).toBe('["",""]');
    const object = { serveHTTP: (req: PageRequest) => new Response(`pattern "${req.pattern}"`) };
    expect(await (await serveHandler(object, new Request('http://x/'), quiet)).text()).toBe('pattern ""');
  });

  test('handlerFailed and textError: what an adapter answers a failure with', () => {
    const lines: unknown[] = [];
    const logger = { error: (message: string, err?: unknown) => lines.push(message, err), warn: () => {} };
    const err = new Error('secret');
    const failed = answerOf(handlerFailed(logger, new Request('http://x/a'), err));
    expect([failed.status, failed.body, lines]).toEqual([
      500,
      'Internal Server Error\n',
      ['pagetree: handler for GET http://x/a failed:', err],
    ]);
    expect(answerOf(textError(400, 'Bad <Host>'))).toEqual({
      status: 400,
      headers: { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' },
      body: 'Bad &lt;Host&gt;\n',
    });
  });

  test("guardLogger: a logger that throws costs only its line; consoleLogger is the console's", () => {
    const error = jest.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const throwing = guardLogger({
        error() {
          throw new Error('down');
        },
        warn() {},
      });
      expect(() => throwing.error('pagetree: x')).not.toThrow();
      consoleLogger.error('pagetree: y');
      expect(error.mock.calls.map((call) => call[0])).toEqual([
        'pagetree: x',
        "pagetree: the logger's error() failed on the line above:",
        'pagetree: y',
      ]);
    } finally {
      error.mockRestore();
    }
  });

  const post = (type: string, body: string) =>
    new Request('http://x/', { method: 'POST', body, headers: { 'content-type': type } });
  test.each([
    ['readJson, not JSON', () => readJson(() => post('application/json', '{').json()), 400],
    ['readBody, a body cut short', () => readBody(() => Promise.reject(new TypeError('terminated'))), 400],
    ['readFormBody, a JSON body', () => readFormBody(post('application/json', '{}')), 415],
    ['readFormBody, past the default limits', () => readFormBody(post(formType, 'a&'.repeat(1001))), 413],
  ])('%s: an HttpError of status %p', async (_, read, status) => {
    await expect(read()).rejects.toMatchObject({ name: 'HttpError', status });
  });

  test('readFormBody reads the body of the Request behind a lazy one, made only for a form', async () => {
    const lazy = post(formType, '');
    const made: string[] = [];
    const real = () => (made.push('real'), post(formType, 'title=Milk'));
    expect((await readFormBody(lazy, real)).get('title')).toBe('Milk');
    await expect(readFormBody(post('text/plain', 'x'), real)).rejects.toMatchObject({ status: 415 });
    expect(made).toEqual(['real']);
    expect(bodyTooLarge(1024)).toMatchObject({ status: 413, message: 'Request body larger than 1024 bytes' });
  });

  test("takeEvents: an event stream's bytes, handed to the adapter as they are sent", async () => {
    let stream: EventStream | undefined;
    const res = eventStream(new Request('http://x/'), (s) => void (stream = s), { heartbeat: 0 });
    const written: string[] = [];
    let ended: unknown = 'open';
    const sink = {
      write: (bytes: Uint8Array) => (written.push(new TextDecoder().decode(bytes)), 0),
      end: (err?: unknown) => (ended = err),
    };
    expect(takeEvents(answerOf(res).body as ReadableStream<Uint8Array>, sink)).toBeInstanceOf(Function);
    await stream!.send('<p>hi</p>');
    stream!.close();
    expect([written.join(''), ended]).toEqual([': ok\ndata: <p>hi</p>\n\n', undefined]);
    expect(takeEvents(new Response('x').body!, sink)).toBeUndefined(); // not an event stream: read it as a body
  });

  test('parseTarget and lazyInherit: a raw target split, and a cheap class that passes for a native one', () => {
    expect(parseTarget('http://a.com:80/x%2Fy?q=1')).toEqual({ host: 'a.com:80', path: '/x%2Fy', query: 'q=1' });
    class LiteHeaders {
      get(name: string) {
        return name === 'x' ? 'lite' : null;
      }
    }
    lazyInherit(LiteHeaders, Headers, () => new Headers({ x: 'real', y: '2' }));
    const headers = new LiteHeaders() as unknown as Headers;
    expect([headers instanceof Headers, headers.get('x'), [...headers.keys()]]).toEqual([true, 'lite', ['x', 'y']]);
  });
});

describe("docs/adapters.md's answer(), as written", () => {
  const doc = readFileSync(join(__dirname, '../docs/adapters.md'), 'utf8');
  const block = [...doc.matchAll(/```ts\n([\s\S]*?)```/g)]
    .map((m) => m[1]!)
    .find((b) => b.includes('function answer('))!;
  const js = ts.transpileModule(block, { compilerOptions: { module: ts.ModuleKind.CommonJS } }).outputText;
  const modules: Record<string, unknown> = { pagetree, 'pagetree/adapter': adapterEntry };
  const exported: { answer?: (handler: unknown, req: Request) => Promise<Record<string, unknown>> } = {};
  new Function('require', 'exports', js)((name: string) => modules[name], exported);

  test('a mux, a handler of any other form, and one that throws', async () => {
    expect(await exported.answer!(app(), new Request('http://x/who/z'))).toMatchObject({ status: 200 });
    const fn = (req: PageRequest) => new Response(`pattern "${req.pattern}"`);
    const plain = await exported.answer!(fn, new Request('http://x/'));
    expect(await new Response(plain.body as ReadableStream).text()).toBe('pattern ""');
    const error = jest.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const failed = await exported.answer!(() => {
        throw new Error('x');
      }, new Request('http://x/'));
      expect([failed.status, failed.body, error.mock.calls[0]![0]]).toEqual([
        500,
        'Internal Server Error\n',
        'pagetree: handler for GET http://x/ failed:',
      ]);
    } finally {
      error.mockRestore();
    }
  });
});
