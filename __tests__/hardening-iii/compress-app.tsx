// The app of compress.test.tsx: streamed pages with big parts and a whole page, compressed by default. The test
// calls its `mux.fetch` in process, and runs it under `serve` in a child process of its own (`serveApp`), so that a
// client leaving can be seen to kill the process, as it did before issue 40: jest's sandbox hides the process's
// 'uncaughtException' from a test's listeners, and reports it against whichever test runs.

import { ServeMux, Suspense, mount, route, setHeader } from '../../core/index.ts';
import { serve } from '../../core/node/index.ts';

// Seeded text that compresses badly (random letters), so that a part spans many of zlib's output chunks.
function randomText(bytes: number, seed: number): string {
  let s = seed >>> 0;
  let out = '';
  for (let i = 0; i < bytes; i++) {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    out += String.fromCharCode(97 + (s % 26));
  }
  return out;
}
export const part100k = randomText(100_000, 1);
const shell60k = randomText(60_000, 2);
export const page20k = randomText(20_000, 3);

/** What the mux logged: a client that leaves is no failure of the server's, so a test expects none. */
export const logged: string[] = [];
let printLogged = false;
const logger = {
  error(message: string, err?: unknown) {
    logged.push(`${message} ${String(err)}`);
    if (printLogged) process.stderr.write(`logged: ${message} ${String(err)}\n`);
  },
  warn() {},
};

// The parts waiting to be released (GET /release, or `releaseAll` in process), in the order they were rendered.
const waiting: (() => void)[] = [];
function released(html: string): Promise<string> {
  return new Promise((resolve) => waiting.push(() => resolve(html)));
}
/** Resolves every part rendered so far. */
export function releaseAll(): void {
  for (const release of waiting.splice(0)) release();
}

async function Part({ size }: { size: 'big' | 'small' | 'soon' }) {
  if (size === 'soon') return `<p>${await new Promise<string>((r) => setImmediate(() => r(page20k)))}</p>`;
  return `<section>${await released(size === 'big' ? part100k : 'done')}</section>`;
}

/** GET /part: a ~100 KB <Suspense> part, released by the test. */
class BigPart {
  stream = true;
  page() {
    return (
      <html>
        <body>
          <h1>Top</h1>
          <Suspense fallback={<p>Loading…</p>}>
            <Part size="big" />
          </Suspense>
        </body>
      </html>
    );
  }
}

/** GET /shell: a 60 KB shell and a small part, released by the test. */
class BigShell {
  stream = true;
  page() {
    return (
      <html>
        <body>
          <p safe>{shell60k}</p>
          <Suspense fallback={<p>Loading…</p>}>
            <Part size="small" />
          </Suspense>
        </body>
      </html>
    );
  }
}

/** GET /soon: a 20 KB part that resolves by itself. */
class Soon {
  stream = true;
  page() {
    return (
      <html>
        <body>
          <Suspense fallback={<p>Loading…</p>}>
            <Part size="soon" />
          </Suspense>
        </body>
      </html>
    );
  }
}

/** GET /whole: a 20 KB page rendered whole, with an ETag. */
class Whole {
  props() {
    setHeader('etag', '"v1"');
    return {};
  }
  page() {
    return <p safe>{page20k}</p>;
  }
}

class App {
  part = route('GET /part', BigPart);
  shell = route('GET /shell', BigShell);
  soon = route('GET /soon', Soon);
  whole = route('GET /whole', Whole);
}

/** A streamed page of one `<Suspense>` part. */
function streamedPage(Part: () => Promise<string>) {
  return class {
    stream = true;
    page() {
      return (
        <html>
          <body>
            <Suspense fallback={<p>Loading…</p>}>
              <Part />
            </Suspense>
          </body>
        </html>
      );
    }
  };
}

/** GET /timed/stuck: a part that never resolves, under a mount `timeout` (its expiry logs). */
const Stuck = streamedPage(Never);
async function Never() {
  return await new Promise<string>(() => {});
}

/** GET /timed/late: the same, once its props are released (GET /release). */
class Late extends Stuck {
  async props() {
    await released('');
    return {};
  }
}

/** Pages whose parts the mount's timeout ends: a log line unless the stream was cancelled first. */
class Timed {
  stuck = route('GET /stuck', Stuck);
  late = route('GET /late', Late);
}

/** GET /fails: a part that fails; on `brokenLoggerMux`, whose logger throws as it reports it. */
const Fails = streamedPage(Rejects);
async function Rejects(): Promise<string> {
  await Promise.resolve();
  throw new Error('the part failed');
}
class WithBrokenLogger {
  fails = route('GET /fails', Fails);
}
/** A mux whose logger throws: what it reports must not become a rejection nobody handles. */
export const brokenLoggerMux = new ServeMux({
  logger: {
    error() {
      throw new Error('the logger is down');
    },
    warn() {},
  },
});
mount(brokenLoggerMux, WithBrokenLogger, '/', 'WithBrokenLogger');

export const mux = new ServeMux({ logger });
mount(mux, App, '/', 'App');
mount(mux, Timed, '/timed/', 'Timed', { timeout: 1000 });
mux.handleFunc('GET /release', () => {
  releaseAll();
  return new Response('released');
});

/** The child's entry: serves the app on a free port of 127.0.0.1 and prints `port=N`; what it logs goes to stderr. */
export function serveApp(): void {
  printLogged = true;
  const server = serve(mux, {
    port: 0,
    hostname: '127.0.0.1',
    handleSignals: false,
    onListen: () => process.stdout.write(`port=${(server.address() as { port: number }).port}\n`),
  });
}
