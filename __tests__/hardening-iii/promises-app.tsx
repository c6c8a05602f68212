// The app of promises.test.tsx, run in a child process of its own (node --import tsx): a promise that rejects with
// nobody observing it ends a Node process (the default --unhandled-rejections=throw), and jest's workers do not let a
// test watch for that. So this process serves the app as a user's would, with no handler of its own, and the test
// asks whether it is still alive.
//
//   stdout  "ports <serve> <fetch>"   serve()'s port, and a node:http server that answers through mux.fetch
//   GET /probe                        {"rejected": <how many promises of the app rejected>, "logs": [<logged lines>]}

import { createServer } from 'node:http';
import {
  HttpError,
  ServeMux,
  Suspense,
  alsoRender,
  mount,
  redirect,
  renderComponent,
  route,
  type PageRequest,
} from '../../core/index.ts';
import { serve } from '../../core/node/index.ts';

let rejected = 0;
const logs: string[] = [];
const logger = {
  error: (message: string, err?: unknown) => void logs.push(`${message} ${String(err)}`),
  warn: (message: string) => void logs.push(message),
};

const tick = () => new Promise((r) => setTimeout(r, 2));

/** The async count of the issue: its query fails (a database that went away). */
async function OpenCount(): Promise<string> {
  await tick();
  rejected++;
  throw new Error('count query failed');
}

/** A component that fails at once, synchronously. */
function ThrowsSync(): JSX.Element {
  throw new Error('render failed');
}

/** A promise the page makes itself (not through JSX), failing later; HTML, as a component's would be. */
async function loadRaw(): Promise<string> {
  await tick();
  rejected++;
  throw new Error('raw load failed');
}

// --- defect 2a: a region that is never joined ----------------------------------------------------------------------

/** A component that records a region after an await: it goes along with the partial it is part of. */
async function LateRegion(): Promise<string> {
  await tick();
  alsoRender('late-count', '3');
  return '<p>late</p>';
}

/** POST /action/{how}: records the count region, then answers as `how` says. */
class Action {
  async post(req: PageRequest) {
    const how = req.pathValue('how');
    if (how === 'late') return renderComponent(<LateRegion />);
    alsoRender('open-count', <OpenCount />);
    if (how === 'redirect') return redirect('/');
    if (how === 'conflict') throw new HttpError(409, 'Conflict');
    if (how === 'database') throw new Error('insert failed');
    return renderComponent(<p>saved</p>);
  }
}

// --- defect 2b: a tree that throws beside a pending component ------------------------------------------------------

const trees: Record<string, () => JSX.Element> = {
  siblings: () => (
    <div>
      <OpenCount />
      <ThrowsSync />
    </div>
  ),
  nested: () => (
    <main>
      <section>
        <OpenCount />
      </section>
      <ThrowsSync />
    </main>
  ),
  fragment: () => (
    <>
      <OpenCount />
      <ThrowsSync />
    </>
  ),
  // A child kitajs refuses (an object) before a pending child: joining the children throws.
  'object-child': () => (
    <div>
      {{} as never}
      {loadRaw() as never /* the XSS scanner flags a Promise<string> child; this one never renders */}
    </div>
  ),
  // <Suspense> outside a streamed page renders its children in place.
  suspense: () => (
    <div>
      <Suspense fallback="…">
        <OpenCount />
      </Suspense>
      <ThrowsSync />
    </div>
  ),
};

/** GET /tree/{name}: renders one of the trees. */
class Tree {
  props(req: PageRequest) {
    return { name: req.pathValue('name') };
  }
  page(props: { name: string }) {
    return trees[props.name]!();
  }
}

/** GET /streamed: a streamed page whose shell throws beside a pending <Suspense>. */
class Streamed {
  stream = true;
  page() {
    return (
      <html>
        <body>
          <Suspense fallback="…">
            <OpenCount />
          </Suspense>
          <ThrowsSync />
        </body>
      </html>
    );
  }
}

/** GET /probe: what the test reads to know the process lives and what it logged. */
class Probe {
  serveHTTP() {
    return Response.json({ rejected, logs });
  }
}

class App {
  action = route('/action/{how}', Action);
  tree = route('/tree/{name}', Tree);
  streamed = route('/streamed', Streamed);
  probe = route('/probe', Probe);
}

const mux = new ServeMux({ logger });
mount(mux, App, '/', 'App');

const viaServe = serve(mux, { port: 0, hostname: '127.0.0.1', handleSignals: false, onListen: announce });

// The other way in: a Web fetch handler under a plain node:http server, as Bun or Deno would call it.
const viaFetch = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', async () => {
    const body = chunks.length === 0 ? undefined : new Uint8Array(Buffer.concat(chunks));
    const headers = Object.entries(req.headers).map(([n, v]) => [n, String(v)] as [string, string]);
    const answer = await mux.fetch(new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers, body }));
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
});
viaFetch.listen(0, '127.0.0.1', announce);

let listening = 0;
function announce(): void {
  if (++listening < 2) return;
  const port = (s: { address(): unknown }) => (s.address() as { port: number }).port;
  process.stdout.write(`ports ${port(viaServe)} ${port(viaFetch)}\n`);
}
