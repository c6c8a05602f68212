// Every report pagetree makes goes through the logger of the mux that serves the request (`new ServeMux({ logger })`),
// or serve()'s: none reaches the console behind it. Each case below used to write to the console directly.

import { once } from 'node:events';
import type { Server } from 'node:http';
import { join } from 'node:path';
import {
  EventHub,
  eventStream,
  MemoryBroker,
  mount,
  route,
  ServeMux,
  staticFiles,
  type Logger,
  type MountedOn,
  type PageRequest,
} from '../core/index.ts';
import { onShutdown, serve, shutdown } from '../core/node/index.ts';

interface Line {
  level: 'error' | 'warn' | 'info';
  message: string;
  err?: unknown;
}

function recording(): { logger: Logger; lines: Line[] } {
  const lines: Line[] = [];
  return {
    lines,
    logger: {
      error: (message, err) => lines.push({ level: 'error', message, err }),
      warn: (message) => lines.push({ level: 'warn', message }),
      info: (message) => lines.push({ level: 'info', message }),
    },
  };
}

let console_: jest.SpyInstance[] = [];
beforeEach(() => {
  console_ = (['error', 'warn', 'log'] as const).map((m) => jest.spyOn(console, m).mockImplementation(() => {}));
});
afterEach(() => {
  for (const spy of console_) {
    expect(spy).not.toHaveBeenCalled();
    spy.mockRestore();
  }
});

async function until(ok: () => boolean): Promise<void> {
  const end = Date.now() + 3000;
  while (!ok() && Date.now() < end) await new Promise((r) => setTimeout(r, 5));
  expect(ok()).toBe(true);
}

test("an event stream's cleanup that throws is logged by the mux that served the stream", async () => {
  const { logger, lines } = recording();
  const mux = new ServeMux({ logger });
  mux.handleFunc('GET /events', (req) =>
    eventStream(req, () => () => {
      throw new Error('unsubscribe failed');
    }),
  );
  const res = await mux.fetch(new Request('http://localhost/events'));
  await res.body!.cancel();
  await until(() => lines.length > 0);
  expect(lines).toEqual([
    {
      level: 'error',
      message: 'pagetree: the cleanup of eventStream for GET http://localhost/events failed:',
      err: new Error('unsubscribe failed'),
    },
  ]);
});

test("an EventHub's failed render is logged by the mux that served the stream that follows the topic", async () => {
  const { logger, lines } = recording();
  const broker = new MemoryBroker();
  const hub = new EventHub({
    broker,
    topic: 'news',
    render: (m) => {
      if (m.data === 'bad') throw new Error('no');
      return `<p>${m.data}</p>`;
    },
  });
  const mux = new ServeMux({ logger });
  mux.handleFunc('GET /news', (req) => hub.stream(req));
  const res = await mux.fetch(new Request('http://localhost/news'));
  const events = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  await broker.publish('news', 'bad');
  await broker.publish('news', 'good');
  let text = '';
  while (!text.includes('good')) text += (await events.read()).value;
  expect(text).toContain('data: <p>good</p>');
  expect(lines).toEqual([
    { level: 'error', message: 'pagetree: EventHub could not render message 1 of news:', err: new Error('no') },
  ]);
  hub.close();
  await broker.close();
});

test("staticFiles' unreadable directory is a warning on the mux's logger, at mount; init() is given the logger", () => {
  const { logger, lines } = recording();
  const given: Logger[] = [];
  class Probe {
    init({ logger }: MountedOn) {
      given.push(logger);
    }
    page() {
      return <p>probe</p>;
    }
  }
  class App {
    assets = route('GET /files/{path...}', staticFiles(join(__dirname, 'no-such-directory')));
    probe = route('GET /probe', Probe);
  }
  const mux = new ServeMux({ logger });
  mount(mux, App);
  expect(given).toEqual([mux.logger]); // the mux's logger: yours, guarded (a throw from it costs only its line)
  expect(lines).toHaveLength(1);
  expect(lines[0]!.level).toBe('warn');
  expect(lines[0]!.message).toMatch(
    /^pagetree: staticFiles\(".*no-such-directory"\) cannot read the directory; every request will be a 404: ENOENT/,
  );
});

describe('serve()', () => {
  let server: Server | undefined;
  afterEach(async () => {
    if (server?.listening) await shutdown(server, 100);
    server = undefined;
  });

  test("prints its address through the mux's logger (info), and an onShutdown hook that throws as an error", async () => {
    const { logger, lines } = recording();
    const mux = new ServeMux({ logger });
    mux.handleFunc('GET /', (req: PageRequest) => new Response(req.pattern));
    server = serve(mux, { port: 0, hostname: '127.0.0.1', handleSignals: false });
    await once(server, 'listening');
    const { port } = server.address() as { port: number };
    expect(lines).toEqual([{ level: 'info', message: `pagetree: listening on http://127.0.0.1:${port}` }]);
    onShutdown(server, () => {
      throw new Error('the job would not stop');
    });
    await shutdown(server, 100);
    expect(lines[1]).toEqual({
      level: 'error',
      message: 'pagetree: an onShutdown hook failed:',
      err: new Error('the job would not stop'),
    });
  });

  test("without info(), the address goes to the console as before; serve's own logger option wins", async () => {
    const { logger, lines } = recording();
    const mux = new ServeMux(); // the console's: serve's option replaces it
    const noInfo: Logger = { error: logger.error, warn: logger.warn };
    server = serve(mux, { port: 0, hostname: '127.0.0.1', handleSignals: false, logger: noInfo });
    await once(server, 'listening');
    const log = console_[2]!;
    expect(log).toHaveBeenCalledTimes(1);
    expect(log.mock.calls[0]![0]).toMatch(/^pagetree: listening on http:\/\/127\.0\.0\.1:\d+$/);
    log.mockClear(); // seen; afterEach checks that nothing else went to the console
    onShutdown(server, () => {
      throw new Error('x');
    });
    await shutdown(server, 100);
    expect(lines).toEqual([{ level: 'error', message: 'pagetree: an onShutdown hook failed:', err: new Error('x') }]);
  });
});
