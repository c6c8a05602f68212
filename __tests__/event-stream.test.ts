// eventStream: server-sent events through mux.fetch and through a real node:http server (the node adapter),
// alone and as the answer of a page's props() (the page pipeline's Vary and timeout).

import { once } from 'node:events';
import { createServer, get as httpGet, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  eventStream,
  htmxRequest,
  mount,
  route,
  ServeMux,
  type EventStream,
  type EventStreamOptions,
  type PageRequest,
} from '../core/index.ts';
import { shutdown, toNodeListener } from '../core/node/index.ts';
import { inChild } from './hardening-iii/in-child.ts';

const quiet = { error: jest.fn(), warn: () => {} };

// A publisher with subscribers, as an app's store would have.
class Hub {
  readonly listeners = new Set<() => void>();
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  publish(): void {
    for (const l of this.listeners) l();
  }
}

// An event stream's text as it arrives, read chunk by chunk.
function textOf(body: ReadableStream<Uint8Array> | null) {
  const reader = body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  return {
    get text() {
      return text;
    },
    /** Reads until the text contains `part` (or the stream ends: then it throws). */
    async until(part: string): Promise<string> {
      while (!text.includes(part)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`the stream ended before ${JSON.stringify(part)}; got ${JSON.stringify(text)}`);
        text += decoder.decode(value, { stream: true });
      }
      return text;
    },
    /** Reads to the end. */
    async rest(): Promise<string> {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return text;
        text += decoder.decode(value, { stream: true });
      }
    },
    cancel: () => reader.cancel(),
  };
}

// A mux with one event-stream route whose start the test gives.
function streamMux(
  start: (stream: EventStream, req: Request) => void | (() => void) | Promise<void | (() => void)>,
  options: EventStreamOptions = { heartbeat: 0 },
): ServeMux {
  const mux = new ServeMux({ logger: quiet });
  mux.handleFunc('GET /events', (req) => eventStream(req, (stream) => start(stream, req), options));
  return mux;
}

const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));
const later = <T>(value: T, ms: number) => new Promise<T>((r) => setTimeout(() => r(value), ms));

afterEach(() => {
  jest.useRealTimers();
  quiet.error.mockClear();
});

describe('through mux.fetch', () => {
  test('the headers say event-stream and keep caches and proxies from holding events', async () => {
    const res = await streamMux(() => {}).fetch(new Request('http://x/events'));
    expect(res.status).toBe(200);
    expect(Object.fromEntries(res.headers)).toEqual({
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
    });
    await res.body!.cancel();
  });

  test.each<{ name: string; sends: [string, { event?: string; id?: string }?][]; want: string }>([
    { name: 'text', sends: [['hi']], want: 'data: hi\n\n' },
    { name: 'an empty event', sends: [['']], want: 'data: \n\n' },
    { name: 'a leading space is kept', sends: [['  x']], want: 'data:   x\n\n' },
    {
      name: 'event and id',
      sends: [['<p>1</p>', { event: 'counts', id: '7' }]],
      want: 'event: counts\nid: 7\ndata: <p>1</p>\n\n',
    },
    { name: 'an empty id resets it', sends: [['x', { id: '' }]], want: 'id: \ndata: x\n\n' },
    {
      name: 'multi-line HTML',
      sends: [['<ul>\n<li>a</li>\n</ul>']],
      want: 'data: <ul>\ndata: <li>a</li>\ndata: </ul>\n\n',
    },
    { name: 'CRLF and CR become LF', sends: [['a\r\nb\rc\n']], want: 'data: a\ndata: b\ndata: c\ndata: \n\n' },
    { name: 'several events', sends: [['a', { event: 'x' }], ['b']], want: 'event: x\ndata: a\n\ndata: b\n\n' },
  ])('framing: $name', async ({ sends, want }) => {
    const results: Promise<boolean>[] = [];
    const mux = streamMux((stream) => {
      for (const [data, options] of sends) results.push(stream.send(data, options));
      stream.close();
    });
    const res = await mux.fetch(new Request('http://x/events'));
    await expect(textOf(res.body).rest()).resolves.toBe(': ok\n' + want);
    await expect(Promise.all(results)).resolves.toEqual(sends.map(() => true));
  });

  test('retry goes first, with no blank line, so that it belongs to the first event', async () => {
    const mux = streamMux(
      (stream) => {
        void stream.send('a');
        stream.close();
      },
      { retry: 2000, heartbeat: 0 },
    );
    const res = await mux.fetch(new Request('http://x/events'));
    await expect(textOf(res.body).rest()).resolves.toBe('retry: 2000\ndata: a\n\n');
  });

  test('the heartbeat sends a comment every interval and stops with the stream', async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask'] });
    let stream!: EventStream;
    const mux = streamMux((s) => void (stream = s), { heartbeat: 1000 });
    const body = textOf((await mux.fetch(new Request('http://x/events'))).body);
    expect(jest.getTimerCount()).toBe(1);
    jest.advanceTimersByTime(3000);
    await body.until(': ping\n: ping\n: ping\n');
    expect(body.text).toBe(': ok\n: ping\n: ping\n: ping\n');
    stream.close();
    expect(jest.getTimerCount()).toBe(0);
    await expect(body.rest()).resolves.toBe(': ok\n: ping\n: ping\n: ping\n');
  });

  test('events go out in send() order, also when earlier HTML renders later', async () => {
    const results: Promise<boolean>[] = [];
    const mux = streamMux((stream) => {
      results.push(stream.send(later('slow', 30)), stream.send('sync'), stream.send(later('fast', 1)));
      void Promise.all(results).then(() => {
        results.push(stream.send('after'));
        stream.close();
      });
    });
    const res = await mux.fetch(new Request('http://x/events'));
    await expect(textOf(res.body).rest()).resolves.toBe(
      ': ok\ndata: slow\n\ndata: sync\n\ndata: fast\n\ndata: after\n\n',
    );
    await expect(Promise.all(results)).resolves.toEqual([true, true, true, true]);
  });

  test.each([
    [{ event: 'a\nb' }, 'the event name "a\\nb" contains a line break; use a name without CR or LF'],
    [{ event: 'a\rb' }, 'use a name without CR or LF'],
    [{ id: '1\r\n2' }, 'the id "1\\r\\n2" contains a line break or NUL; use an id without CR, LF or NUL'],
    [{ id: '1\u00002' }, 'use an id without CR, LF or NUL'],
  ])('send(%j) throws a TypeError that names the fix', async (options, message) => {
    let stream!: EventStream;
    const res = await streamMux((s) => void (stream = s)).fetch(new Request('http://x/events'));
    expect(() => stream.send('x', options)).toThrow(TypeError);
    expect(() => stream.send('x', options)).toThrow(message);
    stream.close();
    await expect(textOf(res.body).rest()).resolves.toBe(': ok\n'); // nothing of it was written
  });

  test.each<[EventStreamOptions, string]>([
    [{ heartbeat: -1 }, 'eventStream: heartbeat -1 is not a number of ms; give 0 for none, or e.g. 15000'],
    [{ heartbeat: NaN }, 'heartbeat NaN'],
    [{ retry: 1.5 }, 'eventStream: retry 1.5 is not a whole number of ms; give e.g. 2000'],
    [{ retry: -1 }, 'retry -1'],
  ])('options %j are refused before anything starts', (options, message) => {
    const start = jest.fn();
    expect(() => eventStream(new Request('http://x/'), start, options)).toThrow(message);
    expect(start).not.toHaveBeenCalled();
  });

  test('HEAD gets the headers and no body, and nothing starts', async () => {
    const start = jest.fn();
    const res = eventStream(new Request('http://x/', { method: 'HEAD' }), start);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(res.body).toBeNull();
    expect(start).not.toHaveBeenCalled();
  });

  // Each way a stream ends: the cleanup runs once, the stream's signal aborts, later sends resolve false.
  test.each<[string, (s: EventStream, res: Response, client: AbortController) => Promise<unknown>]>([
    ['close()', async (s, res) => (s.close(), s.close(), textOf(res.body).rest())],
    ['the client cancels the body (it left)', (_, res) => res.body!.cancel()],
    [
      'the request is aborted',
      async (_, res, client) => (
        client.abort(),
        textOf(res.body)
          .rest()
          .catch(() => {})
      ),
    ],
  ])('ended by %s: cleanup runs exactly once', async (_, end) => {
    const hub = new Hub();
    const cleanup = jest.fn();
    let stream!: EventStream;
    const mux = streamMux((s) => {
      stream = s;
      const unsubscribe = hub.subscribe(() => void s.send('tick'));
      return () => (unsubscribe(), cleanup());
    });
    const client = new AbortController();
    const res = await mux.fetch(new Request('http://x/events', { signal: client.signal }));
    expect(hub.listeners.size).toBe(1);
    await end(stream, res, client);
    await tick();
    expect(cleanup).toHaveBeenCalledTimes(1);
    expect(hub.listeners.size).toBe(0);
    expect(stream.signal.aborted).toBe(true);
    await expect(stream.send('late')).resolves.toBe(false);
    stream.close();
    client.abort();
    expect(cleanup).toHaveBeenCalledTimes(1);
  });

  test('an async start: its cleanup runs when it arrives after the stream ended', async () => {
    const cleanup = jest.fn();
    const mux = streamMux(async (s) => {
      s.close();
      await tick();
      return cleanup;
    });
    await textOf((await mux.fetch(new Request('http://x/events'))).body).rest();
    await tick(5);
    expect(cleanup).toHaveBeenCalledTimes(1);
  });

  test('a request already aborted ends the stream before start', async () => {
    const start = jest.fn();
    const res = eventStream(new Request('http://x/', { signal: AbortSignal.abort() }), start);
    await expect(textOf(res.body).rest()).rejects.toThrow();
    expect(start).not.toHaveBeenCalled();
  });

  // Whether the rejected promise goes unhandled is asked of a child process with Node's defaults: inside jest, a
  // test's process.on('unhandledRejection') never fires (hardening-iii/in-child.ts).
  test('a rejected render errors the stream; the sends after it resolve false; no unhandled rejection', async () => {
    const run = await inChild(join(__dirname, 'hardening-iii', 'event-stream-scenario.ts'), 'renderRejects');
    const text = JSON.stringify(': ok\ndata: first\n\ndata: never\n\n');
    expect(run).toEqual({
      code: 0,
      signal: null,
      stdout:
        `fetch: ${text} failed (render failed) [true, true, false, false] cleanups=1 logged=0\n` +
        `serve: ${text} cut [true, true, false, false] cleanups=1 logged=1\n`,
      stderr: '',
    });
  }, 30_000);

  test('start that throws: eventStream throws (the handler fails as any other); that rejects: the stream errors', async () => {
    const mux = streamMux(() => {
      throw new Error('subscribe failed');
    });
    const res = await mux.fetch(new Request('http://x/events'));
    expect(res.status).toBe(500);
    expect(quiet.error).toHaveBeenCalledWith('pagetree: handler for GET http://x/events failed:', expect.any(Error));

    const rejects = streamMux(async () => {
      await tick();
      throw new Error('subscribe failed later');
    });
    const body = textOf((await rejects.fetch(new Request('http://x/events'))).body);
    await expect(body.rest()).rejects.toThrow('subscribe failed later');
  });

  test('a client that stops reading is dropped once 1 MiB waits for it', async () => {
    const cleanup = jest.fn();
    let stream!: EventStream;
    const res = await streamMux((s) => ((stream = s), cleanup)).fetch(new Request('http://x/events'));
    const chunk = 'x'.repeat(64 * 1024);
    const results: boolean[] = [];
    for (let i = 0; i < 40 && (results.length === 0 || results.at(-1)); i++) results.push(await stream.send(chunk));
    // Each event is 64 KiB and 8 bytes of framing: the 16th, after the first line, is over 1 MiB.
    expect(results.length).toBe(16);
    expect(results.at(-1)).toBe(false);
    expect(cleanup).toHaveBeenCalledTimes(1);
    expect(stream.signal.aborted).toBe(true);
    await expect(res.body!.getReader().read()).rejects.toThrow('fell more than 1048576 bytes behind');
  });
});

// A client of the real server: the answer's head and its text as it arrives.
function connect(port: number, path: string, headers: Record<string, string> = {}) {
  let text = '';
  const req = httpGet({ host: '127.0.0.1', port, path, headers });
  const head = new Promise<IncomingMessage>((resolve, reject) => {
    req.on('response', (res) => {
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      resolve(res);
    });
    req.on('error', reject);
  });
  return {
    head,
    get text() {
      return text;
    },
    /** Waits until the text contains `part` (within a second). */
    async until(part: string): Promise<void> {
      const end = Date.now() + 1000;
      while (!text.includes(part)) {
        if (Date.now() > end) throw new Error(`no ${JSON.stringify(part)} within 1 s; got ${JSON.stringify(text)}`);
        await tick(5);
      }
    },
    leave: () => req.destroy(),
  };
}

// Polls until `ok()` (jest has no expect.poll).
async function eventually(ok: () => boolean, timeout = 1000): Promise<void> {
  const end = Date.now() + timeout;
  while (!ok() && Date.now() < end) await tick(5);
  expect(ok()).toBe(true);
}

describe('through the node adapter and the page pipeline', () => {
  const hub = new Hub();
  const cleanups = jest.fn();
  const signals: AbortSignal[] = [];
  let last: EventStream | undefined;

  class Live {
    props(req: PageRequest) {
      signals.push(req.signal);
      return eventStream(
        req,
        (stream) => {
          last = stream;
          const unsubscribe = hub.subscribe(() => void stream.send(later('<p>changed</p>', 5), { event: 'counts' }));
          return () => (unsubscribe(), cleanups());
        },
        { heartbeat: 0 },
      );
    }
  }
  class App {
    live = route('/live', Live);
  }

  let server: Server;
  let port: number;
  beforeAll(async () => {
    const mux = new ServeMux({ logger: quiet });
    // A page timeout far shorter than the stream lives: it must not cut it.
    mount(mux, App, '/', '', { timeout: 100 });
    mux.handleFunc('GET /raw', (req) =>
      eventStream(req, (s) => ((last = s), hub.subscribe(() => void s.send('raw'))), { heartbeat: 0 }),
    );
    mux.handleFunc('GET /failing', (req) =>
      eventStream(
        req,
        (s) => {
          void s.send('fine');
          return hub.subscribe(() => void s.send(Promise.reject(new Error('render failed'))));
        },
        { heartbeat: 0 },
      ),
    );
    server = createServer(toNodeListener(mux));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => shutdown(server, 1000));
  beforeEach(() => {
    cleanups.mockClear();
    signals.length = 0;
    last = undefined;
  });
  afterEach(async () => {
    await eventually(() => hub.listeners.size === 0);
  });

  test('a page whose props return eventStream: headers at once, Vary, events after the page timeout', async () => {
    const client = connect(port, '/live', Object.fromEntries(htmxRequest('http://x/live', { version: 4 }).headers));
    const res = await client.head; // before any event: the first line flushed the headers
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(res.headers['x-accel-buffering']).toBe('no');
    expect(res.headers.vary).toBe('HX-Request, HX-Target, HX-Request-Type');
    expect(res.headers['content-length']).toBeUndefined();
    await client.until(': ok\n');
    await tick(150); // past the page's 100 ms timeout
    hub.publish();
    await client.until('event: counts\ndata: <p>changed</p>\n\n');
    hub.publish(); // each event arrives while the stream stays open: nothing is buffered
    await client.until('data: <p>changed</p>\n\nevent: counts\ndata: <p>changed</p>\n\n');
    expect(res.complete).toBe(false);
    client.leave();
    await eventually(() => cleanups.mock.calls.length === 1);
    expect(signals[0]!.aborted).toBe(true); // the request's signal says the client left
    expect(quiet.error).not.toHaveBeenCalled(); // neither the timeout nor the disconnect is an error
  });

  test('a plain handler: the client leaving cancels the stream and runs the cleanup once', async () => {
    const client = connect(port, '/raw');
    await client.until(': ok\n');
    hub.publish();
    await client.until('data: raw\n\n');
    client.leave();
    await eventually(() => hub.listeners.size === 0);
    expect(last!.signal.aborted).toBe(true);
    await expect(last!.send('late')).resolves.toBe(false);
  });

  test('close() ends the answer: the client sees its end', async () => {
    const client = connect(port, '/live');
    const res = await client.head;
    await client.until(': ok\n');
    const ended = once(res, 'end');
    last!.close();
    await ended;
    expect(cleanups).toHaveBeenCalledTimes(1);
    expect(signals[0]!.aborted).toBe(false); // the answer was complete: the request was not aborted
  });

  test('a client that stops reading is disconnected, not buffered for without bound', async () => {
    const client = connect(port, '/raw');
    const res = await client.head;
    await client.until(': ok\n');
    res.pause(); // reads nothing more: the socket's buffers fill, then the stream's queue
    const chunk = 'x'.repeat(64 * 1024);
    let sent = 0;
    while (sent < 1024 && (await last!.send(chunk))) {
      sent++;
      await new Promise(setImmediate); // node moves to the socket what it takes
    }
    expect(sent).toBeLessThan(1024); // at most 64 MiB tried: it stops once the socket's buffers and 1 MiB fill
    await eventually(() => hub.listeners.size === 0 && quiet.error.mock.calls.length > 0);
    expect(quiet.error).toHaveBeenCalledWith(
      'pagetree: streaming the response to GET http://127.0.0.1:' + port + '/raw failed:',
      expect.objectContaining({ message: expect.stringContaining('fell more than 1048576 bytes behind') }),
    );
    client.leave();
  });

  test('streamed-body-failure-is-logged: a render that fails mid-stream is logged, the connection dropped', async () => {
    const client = connect(port, '/failing');
    const res = await client.head;
    await client.until('data: fine\n\n');
    const aborted = once(res, 'aborted');
    hub.publish();
    await aborted;
    await eventually(() => hub.listeners.size === 0);
    expect(quiet.error).toHaveBeenCalledWith(
      'pagetree: streaming the response to GET http://127.0.0.1:' + port + '/failing failed:',
      expect.objectContaining({ message: 'render failed' }),
    );
  });
});
