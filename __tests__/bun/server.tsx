// The app of bun-serve.test.ts, run by the real bun binary: `bun __tests__/bun/server.tsx` (Bun reads the JSX
// settings and pagetree/jsx-runtime's path from tsconfig.json). It prints the URL pagetree/bun's serve listens on.
// Its socket routes (issue 44) have small limits, so that a test reaches each with a few bytes; SIGTERM stops the
// server as an app would (server.stop(): the sockets close with 1012), then the process ends.

import { ServeMux, clientAddress, mount, route, type PageRequest } from '../../core/index.ts';
import { serve } from '../../core/bun/index.ts';
import { SocketHub, type Socket } from '../../core/live/index.ts';

class ItemPage {
  props(req: PageRequest) {
    return { name: req.pathValue('name') };
  }
  page({ name }: { name: string }) {
    return <p safe>item {name}</p>;
  }
}

class SlowPage {
  async props() {
    await new Promise((resolve) => setTimeout(resolve, 5));
    return { when: 'later' };
  }
  page({ when }: { when: string }) {
    return <p safe>{when}</p>;
  }
}

const room = new SocketHub();

/** /echo: says hello, echoes each message, follows the room (POST /say sends to it). */
class Echo {
  socketLimits = { maxMessage: 1024, maxQueued: 64 * 1024 };
  open(socket: Socket) {
    socket.subscribe(room);
    return socket.send('<p id="hello">hello</p>');
  }
  message(socket: Socket, data: string) {
    return socket.send(`<p id="echo">${data.length}</p>`);
  }
}

/** /wide: a route that allows more than the server's frame limit (serve's maxSocketMessage, 64 KiB here). */
class Wide {
  socketLimits = { maxMessage: 1024 * 1024 };
  message(socket: Socket, data: string) {
    return socket.send(`<p id="echo">${data.length}</p>`);
  }
}

/** /idle: a ping every 100 ms. */
class Idle {
  socketLimits = { idle: 100 };
  message() {}
}

// What each page's close() got, in order: GET /closes reads it.
const closes: string[] = [];

/** /refuse: open() closes the socket at once (a visitor it does not want); close() still runs. */
class Refuse {
  open(socket: Socket) {
    socket.close(4001, 'not now');
  }
  message() {}
  close(_socket: Socket, code: number) {
    closes.push(`refuse ${code}`);
  }
}

/** /fails: open() throws before it awaits anything (1011); close() still runs. */
class Fails {
  open(): void {
    throw new Error('open failed');
  }
  message() {}
  close(_socket: Socket, code: number) {
    closes.push(`fails ${code}`);
  }
}

/** /bad-hub: follows a hand-written hub whose leave() throws, as a buggy one would when the socket ends. */
class BadHub {
  open(socket: Socket) {
    socket.subscribe({
      join: () => () => {
        throw new Error('leave failed');
      },
    });
    return socket.send('<p id="hello">hello</p>');
  }
  message() {}
}

class App {
  refuse = route('/refuse', Refuse);
  fails = route('/fails', Fails);
  badHub = route('/bad-hub', BadHub);
  idle = route('/idle', Idle);
  item = route('GET /items/{name}', ItemPage);
  slow = route('GET /slow', SlowPage);
  echo = route('/echo', Echo);
  wide = route('/wide', Wide);
}

const mux = new ServeMux({
  logger: { error: (message) => console.error(`logged: ${message}`), warn: (message) => console.error(message) },
});
mount(mux, App, '/', '', { compress: false });
mux.handleFunc('GET /who', (req) => new Response(clientAddress(req)));
mux.handleFunc('GET /closes', () => new Response(closes.join(',')));
mux.handleFunc('GET /throws', () => {
  throw new Error('boom');
});
// POST /say?bytes=n: n bytes to every socket of the room; answers how many sockets it was handed to.
mux.handleFunc('POST /say', async (req) => {
  const bytes = Number(new URL(req.url).searchParams.get('bytes') ?? 10);
  return new Response(String(await room.send(() => `<p id="said">${'x'.repeat(bytes)}</p>`)));
});

const server = serve(mux, { hostname: '127.0.0.1', port: 0 });
console.log(`listening on ${server.url}`);
process.on('SIGTERM', () => {
  void server.stop().then(() => {
    console.log('stopped');
    process.exit(0);
  });
});
