// The servers of bench/websockets, started by run.ts. Each answers POST /publish (body: a number k) by sending the
// example dashboard's counts for k (fragment.ts) to every client it holds, and says it is ready to a new client with a
// first message ("ok" on a socket, ": ok" on a stream):
//
//   socket   pagetree: serve() with a socket route (GET /counts) whose open() joins a SocketHub on a MemoryBroker;
//            POST /publish publishes k on the broker, the hub renders the counts once and sends the bytes to all
//   stream   pagetree: serve() with an event stream (GET /events) from an EventHub on a MemoryBroker, the same
//            counts rendered once per message (bench/fanout's dashboard stream, without the app around it)
//   ws       the floor: node:http and a raw `ws` WebSocketServer; POST /publish encodes the same text once and
//            hands the same bytes to every client's send()
//
// WS_PROFILE=<dir>: each server profiles its CPU from the first POST /publish (its clients are all open then) until
// it exits, into <dir>/websockets-<kind>.cpuprofile (`tsx bench/lib/cpuprofile.ts <file>` sums it up): the messages
// alone, where BENCH_CPU_PROF's whole-run profile is mostly the opening of the sockets. WS_HEAP=<dir>: a heap
// snapshot of each server at the same moment, <dir>/websockets-<kind>.heapsnapshot (what an open client holds).
//
// Keep-alives are off in all three (a socket route's ping every 30 s, a stream's `: ping` every 15 s): 5,000 of them
// landing in another server's round would be timed as that server's noise.

import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { Session } from 'node:inspector';
import { join } from 'node:path';
import { writeHeapSnapshot } from 'node:v8';
import { WebSocketServer, type WebSocket } from 'ws';
import { mount, route, ServeMux, type PageRequest } from '../../core/index.ts';
import { EventHub, MemoryBroker, SocketHub, type Socket, type SocketPage } from '../../core/live/index.ts';
import { serve } from '../../core/node/index.ts';
import { listening, serveParent } from '../lib/child.ts';
import { countsHtml, renderCounts } from './fragment.ts';

serveParent('bench/websockets/server.ts');

const kind = process.argv[2];

// At the first POST /publish (every client is open then), once: WS_HEAP writes a heap snapshot, WS_PROFILE starts
// the CPU profiler, whose profile is written when the parent goes away. Nothing without them.
let observed = false;
function observeMessages(): void {
  if (observed) return;
  observed = true;
  const { WS_HEAP: heapDir, WS_PROFILE: profileDir } = process.env;
  if (heapDir) writeHeapSnapshot(join(heapDir, `websockets-${kind}.heapsnapshot`));
  if (!profileDir) return;
  const session = new Session();
  session.connect();
  session.post('Profiler.enable', () => session.post('Profiler.start'));
  process.prependListener('disconnect', () => {
    session.post('Profiler.stop', (err, result) => {
      if (err) console.error(`bench/websockets/server.ts ${kind}: the profiler failed:`, err);
      else writeFileSync(join(profileDir, `websockets-${kind}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}

const topic = 'counts';
// Far longer than a run: no ping or heartbeat is sent while it runs (the module comment).
const never = 2 ** 31 - 1;

function servePagetree(mux: ServeMux): void {
  const server = serve(mux, {
    port: 0,
    hostname: '127.0.0.1',
    handleSignals: false,
    maxConnections: 100_000, // more than a default server takes
    onListen: () => listening((server.address() as { port: number }).port),
  });
}

// POST /publish: k on the broker; every hub renders it once for its clients.
function publishRoute(mux: ServeMux, broker: MemoryBroker): void {
  mux.handleFunc('POST /publish', async (req) => {
    observeMessages();
    await broker.publish(topic, await req.text());
    return new Response(null, { status: 204 });
  });
}

if (kind === 'socket') {
  const broker = new MemoryBroker();
  const hub = new SocketHub({ broker, topic, render: (m) => renderCounts(Number(m.data)) });
  class Counts implements SocketPage {
    socketLimits = { idle: never };
    open(socket: Socket) {
      socket.subscribe(hub);
      return socket.send('ok');
    }
    message() {}
  }
  class App {
    counts = route('/counts', Counts);
  }
  const mux = new ServeMux();
  mount(mux, App, '/', 'App');
  publishRoute(mux, broker);
  servePagetree(mux);
} else if (kind === 'stream') {
  const broker = new MemoryBroker();
  const hub = new EventHub({ broker, topic, render: (m) => renderCounts(Number(m.data)) });
  class Events {
    props(req: PageRequest) {
      return hub.stream(req, { heartbeat: 0 });
    }
  }
  class App {
    events = route('/events', Events);
  }
  const mux = new ServeMux();
  mount(mux, App, '/', 'App');
  publishRoute(mux, broker);
  servePagetree(mux);
} else if (kind === 'ws') {
  const clients = new Set<WebSocket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.once('end', () => {
      if (req.method === 'POST' && req.url === '/publish') {
        observeMessages();
        const bytes = Buffer.from(countsHtml(Number(Buffer.concat(chunks).toString())));
        for (const ws of clients) ws.send(bytes, { binary: false });
        res.writeHead(204).end();
      } else res.writeHead(404).end();
    });
  });
  // As pagetree's: no compression, the server's own set of clients.
  const wss = new WebSocketServer({ server, path: '/counts', perMessageDeflate: false, clientTracking: false });
  wss.on('connection', (ws) => {
    clients.add(ws);
    ws.once('close', () => clients.delete(ws));
    ws.on('error', () => {});
    ws.send('ok');
  });
  server.listen(0, '127.0.0.1', () => listening((server.address() as { port: number }).port));
} else {
  throw new Error(`bench/websockets/server.ts: unknown server ${JSON.stringify(kind)}; give socket, stream or ws`);
}
