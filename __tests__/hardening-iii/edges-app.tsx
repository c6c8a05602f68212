// The app of edges.test.tsx, run in a child process of its own (node --import tsx) with Node's defaults, where a
// rejection nobody handles or a throw from a timer ends the process, as it would a user's app. Three muxes:
//
//   throws    its logger throws from error(), warn() and info() (the access log is on): every report it gets
//   rejects   its logger's methods are async and reject (a line written to a database that went away)
//   quiet     its logger keeps the lines for GET /probe: a HEAD of a feed, <Suspense> beside a rejected promise
//
// Each is served twice: by serve() and by a node:http server that answers through mux.fetch, as Bun or Deno would
// call it (a fetch that rejects is answered 500 and printed, as those runtimes do). On stdout, once listening:
//
//   ports {"throws":{"serve":P,"fetch":P},"rejects":{…},"quiet":{…}}

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import {
  ServeMux,
  Suspense,
  alsoRender,
  mount,
  redirect,
  route,
  type Logger,
  type PageRequest,
} from '../../core/index.ts';
import { serve } from '../../core/node/index.ts';

const tick = () => new Promise((r) => setTimeout(r, 2));

// --- a logger that fails ---------------------------------------------------------------------------------------------

const throwing: Logger = {
  error() {
    throw new Error('the logger is down');
  },
  warn() {
    throw new Error('the logger is down');
  },
  info() {
    throw new Error('the logger is down');
  },
};

const rejecting = {
  async error() {
    await tick();
    throw new Error('the log database is down');
  },
  async warn() {
    await tick();
    throw new Error('the log database is down');
  },
  async info() {
    await tick();
    throw new Error('the log database is down');
  },
} satisfies Logger;

async function Rejects(): Promise<string> {
  await tick();
  throw new Error('the part failed');
}

/** A part that never answers: the mount's timeout (300 ms) ends it. */
function Never(): Promise<string> {
  return new Promise(() => {});
}

function streamedPage(Part: () => Promise<string>) {
  return class {
    stream = true;
    page() {
      return (
        <html>
          <body>
            <h1>Top</h1>
            <Suspense fallback={<p>Loading…</p>}>
              <Part />
            </Suspense>
          </body>
        </html>
      );
    }
  };
}

/** GET /page: a page whose props fail: the error page, reported through the logger first. */
class FailingPage {
  props(): never {
    throw new Error('the page failed');
  }
  page() {
    return <p>never</p>;
  }
}

/** POST /region: a region whose count fails, then a redirect: the region's failure is reported later. */
class Region {
  post() {
    alsoRender('count', <Rejects />);
    return redirect('/');
  }
}

class LoggerApp {
  page = route('GET /page', FailingPage);
  part = route('GET /part', streamedPage(Rejects));
  slow = route('GET /slow', streamedPage(Never));
  region = route('/region', Region);
}

function loggerMux(logger: Logger): ServeMux {
  const mux = new ServeMux({ logger });
  mount(mux, LoggerApp, '/', 'LoggerApp', { timeout: 300, observe: { accessLog: true } });
  // A bare handler that throws: no page pipeline, the mux's last resort (handlerFailed) reports it.
  mux.handleFunc('GET /bare', () => {
    throw new Error('the handler failed');
  });
  return mux;
}

// --- quiet: HEAD of a feed, <Suspense> beside a rejected promise ----------------------------------------------------

const logs: string[] = [];
let rejected = 0;
let feedsOpen = 0;

/** A promise the page makes itself (not through JSX), failing later; HTML, as a component's would be. */
async function loadRaw(): Promise<string> {
  await tick();
  rejected++;
  throw new Error('raw load failed');
}

// <Suspense> with children kitajs refuses (an object) before a pending one, or a fallback it refuses, or a pending
// fallback it never shows. `as never`: the types refuse these children; the XSS scanner flags a Promise<string> child.
const suspenses: Record<string, () => JSX.Element> = {
  'object-beside-promise': () => (
    <Suspense fallback="…">
      {{} as never}
      {loadRaw() as never}
    </Suspense>
  ),
  'object-fallback': () => <Suspense fallback={{} as never}>{loadRaw() as never}</Suspense>,
  'unshown-fallback': () => <Suspense fallback={loadRaw() as never}>ready</Suspense>,
};

/** GET /suspense/{name}: a page (not streamed) with one of them; GET /streamed/{name}: a streamed page with it. */
class SuspensePage {
  props(req: PageRequest) {
    return { name: req.pathValue('name') };
  }
  page(props: { name: string }) {
    return <main>{suspenses[props.name]!()}</main>;
  }
}
class StreamedSuspensePage extends SuspensePage {
  stream = true;
}

class QuietApp {
  suspense = route('GET /suspense/{name}', SuspensePage);
  streamed = route('GET /streamed/{name}', StreamedSuspensePage);
}

const quiet = new ServeMux({
  logger: { error: (message, err) => void logs.push(`${message} ${String(err)}`), warn: (m) => void logs.push(m) },
});
mount(quiet, QuietApp, '/', 'QuietApp');

// A feed made by hand: bytes pushed every 5 ms until it is cancelled.
quiet.handleFunc('GET /feed', () => {
  let timer: ReturnType<typeof setInterval>;
  const bytes = new TextEncoder().encode('data\n');
  return new Response(
    new ReadableStream<Uint8Array>({
      start(controller) {
        feedsOpen++;
        timer = setInterval(() => controller.enqueue(bytes), 5);
      },
      cancel() {
        feedsOpen--;
        clearInterval(timer);
      },
    }),
    { headers: { 'content-type': 'text/plain' } },
  );
});
quiet.handleFunc('GET /probe', () => Response.json({ logs, rejected, feedsOpen }));

// --- the two ways in ------------------------------------------------------------------------------------------------

/** A node:http listener that answers through mux.fetch, as a runtime's fetch handler would be called. */
function viaFetch(mux: ServeMux) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = chunks.length === 0 ? undefined : new Uint8Array(Buffer.concat(chunks));
      const headers = Object.entries(req.headers).map(([n, v]) => [n, String(v)] as [string, string]);
      const request = new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers, body });
      mux.fetch(request).then(
        async (answer) => {
          res.writeHead(answer.status, Object.fromEntries(answer.headers));
          try {
            res.end(Buffer.from(await answer.arrayBuffer()));
          } catch {
            res.destroy(); // an answer cut short
          }
        },
        (err: unknown) => {
          // Bun and Deno answer a handler that rejects with a 500 and print the error: mux.fetch must not reject.
          process.stderr.write(`mux.fetch rejected: ${String(err)}\n`);
          res.writeHead(500).end();
        },
      );
    });
  };
}

const muxes = { throws: loggerMux(throwing), rejects: loggerMux(rejecting), quiet };

/** The child's entry: serves each mux both ways on free ports of 127.0.0.1 and prints them. */
export function serveApp(): void {
  const ports: Record<string, { serve: number; fetch: number }> = {};
  let waiting = 0;
  const listening = (name: string, via: 'serve' | 'fetch', server: { address(): unknown }) => () => {
    (ports[name] ??= { serve: 0, fetch: 0 })[via] = (server.address() as { port: number }).port;
    if (--waiting === 0) process.stdout.write(`ports ${JSON.stringify(ports)}\n`);
  };
  for (const [name, mux] of Object.entries(muxes)) {
    waiting += 2;
    const s = serve(mux, {
      port: 0,
      hostname: '127.0.0.1',
      handleSignals: false,
      onListen: () => listening(name, 'serve', s)(),
    });
    const f = createServer(viaFetch(mux));
    f.listen(0, '127.0.0.1', listening(name, 'fetch', f));
  }
}
