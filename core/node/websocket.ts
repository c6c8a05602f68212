// WebSockets on node:http: the `upgrade` event of serve()'s server, opened by the `ws` package.
//
//   upgrade request → the mux, as any request (listener.ts: host checks, routing, middlewares, props)
//                     → a socket route's answer carries its endpoint (takeSocket) → ws completes the handshake
//                       (101) → openSocket(endpoint, peer); each frame → connection.message; the close → connection.closed
//                     → any other answer (403 cross-site, 404, 405, a redirect from props) is written on the socket,
//                       which then closes
//
// Why `ws` and not crossws: ws is what Node's WebSocket servers run on (crossws's own Node adapter wraps it), has
// no dependencies, and gives what the limits need directly: maxPayload (a bigger frame closes with 1009 before it is
// buffered), bufferedAmount (the queue of a slow client), ping/pong. crossws's value is one API over Bun, Deno and
// Cloudflare; pagetree already has that seam (core/live/socket.ts: a SocketPeer is three members, a runtime's adapter
// ~50 lines), so crossws would be a second abstraction over the same thing and a dependency of every runtime's bundle.
// ws is an optional peer: loaded from the app's node_modules on the first upgrade that opens a socket.
//
// Per route's idle time: one sweep pings its sockets every `idle` ms (live/ping-sweep.ts); a peer that has not
// answered the previous ping is dropped (1006 on its side). One timer and shared listeners, not a timer and closures
// per socket (issue 44.7).
// At shutdown every socket is closed with 1012 (service restart: htmx reconnects, to another instance if there is one;
// not 1001, which htmx 2's ws extension does not reconnect on), and destroyed if its peer has not finished the close
// handshake a second later.

import type { IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import type { Duplex } from 'node:stream';
import {
  openSocket,
  PingSweeps,
  type Logger,
  type SocketConnection,
  type SocketEndpoint,
  type SocketPeer,
} from '../adapter.ts';
import type { Shutdown } from './shutdown.ts';

type WsModule = typeof import('ws');
type WebSocketServer = import('ws').WebSocketServer;

let ws: WsModule | null | undefined;
// ws from the app's node_modules (an optional peer: an app without sockets need not install it); null when absent.
// Looked up from the app's main script first (an app started from another directory, `node /srv/app/dist/main.js`,
// still finds its own), then from the working directory.
function loadWs(): WsModule | null {
  if (ws === undefined) {
    ws = null;
    const main = process.argv[1];
    for (const base of [main ? resolve(main) : undefined, join(process.cwd(), 'package.json')]) {
      if (base === undefined) continue;
      try {
        ws = createRequire(base)('ws') as WsModule;
        break;
      } catch {
        // not from here; the next place, else null (an upgrade to a socket route answers 501 and says why)
      }
    }
  }
  return ws;
}

/** How long a socket closed at shutdown may take to finish the close handshake before it is destroyed. */
const closeGraceMs = 1000;

/** The open sockets of one server, and the ws servers that open them (one per frame size limit). */
export class WebSockets {
  readonly #servers = new Map<number, WebSocketServer>();
  /** The open sockets and the connection each reports to. */
  readonly #open = new Map<import('ws').WebSocket, SocketConnection>();
  /** One ping sweep per idle time of the open sockets' routes. */
  readonly #pings = new PingSweeps<import('ws').WebSocket>();
  /** The connections of upgrade requests, until they close: node no longer counts them as its own. */
  readonly #pending = new Set<Duplex>();
  readonly #logger: Logger;
  #warned = false;

  readonly #shutdown: Shutdown;
  #hooked = false;

  constructor(logger: Logger, shutdown: Shutdown) {
    this.#logger = logger;
    this.#shutdown = shutdown;
    // The shutdown's timeout is up: an upgrade still waiting for its props is dropped (its client reconnects), and
    // so is every socket that has not finished its close handshake; else server.close() would wait for them forever.
    shutdown.onTimeout(() => {
      for (const socket of this.#pending) socket.destroy();
      for (const open of this.#open.keys()) open.terminate();
    });
  }

  // The listeners every open socket shares, made once per server: a function whose `this` is the socket that emits
  // (how EventEmitter calls a listener), reading the state of this instance it closes over.

  // Each frame, to the connection of the socket it came on.
  readonly #onMessage = (() => {
    const open = this.#open;
    return function (this: import('ws').WebSocket, data: import('ws').RawData, isBinary: boolean): void {
      // A Buffer (ws's default binaryType); ws has checked a text frame's UTF-8 already (1007 otherwise).
      const bytes = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
      open.get(this)?.message(isBinary ? new Uint8Array(bytes) : bytes.toString('utf8'));
    };
  })();

  // A pong: the socket answered its sweep's ping.
  readonly #onPong = (() => {
    const pings = this.#pings;
    return function (this: import('ws').WebSocket): void {
      pings.answered(this);
    };
  })();

  // The socket has closed: it leaves the open sockets and its ping sweep, and its connection learns how it ended.
  readonly #onClose = (() => {
    const open = this.#open;
    const pings = this.#pings;
    return function (this: import('ws').WebSocket, code: number, reason: Buffer): void {
      const connection = open.get(this);
      open.delete(this);
      pings.delete(this);
      connection?.closed(code, reason.toString('utf8'));
    };
  })();

  /**
   * Follows the connection of an upgrade request until it closes, for the shutdown's timeout.
   * @example server.on('upgrade', (incoming, socket, head) => { sockets.follow(socket); upgrade(incoming, socket, head); })
   */
  follow(socket: Duplex): void {
    if (socket.destroyed) return;
    this.#pending.add(socket);
    socket.once('close', () => this.#pending.delete(socket));
  }

  /** The sockets open now. */
  get size(): number {
    return this.#open.size;
  }

  /**
   * Completes the upgrade of `incoming` on `socket` for `endpoint`: false when ws is not installed (the caller
   * answers 501), else true.
   */
  open(endpoint: SocketEndpoint, incoming: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const lib = loadWs();
    if (!lib) {
      if (!this.#warned) {
        this.#warned = true;
        this.#logger.error(
          'pagetree: a socket route was asked to open a WebSocket, and the ws package is not installed; ' +
            'npm install ws (pagetree/node opens WebSockets with it)',
        );
      }
      return false;
    }
    const { maxMessage, idle } = endpoint.limits;
    let server = this.#servers.get(maxMessage);
    if (!server) {
      // No compression: a compressed frame costs CPU per socket, and a fan-out sends the same bytes to thousands.
      // clientTracking off: the open sockets are this class's own set.
      server = new lib.WebSocketServer({
        noServer: true,
        maxPayload: maxMessage,
        perMessageDeflate: false,
        clientTracking: false,
      });
      this.#servers.set(maxMessage, server);
    }
    server.handleUpgrade(incoming, socket, head, (webSocket) => this.#connect(endpoint, webSocket, idle));
    return true;
  }

  #connect(endpoint: SocketEndpoint, webSocket: import('ws').WebSocket, idle: number): void {
    if (this.#shutdown.started) {
      // Opened after the shutdown began (its props were still loading): it goes at once, as the others went.
      this.#goAway(webSocket);
    } else if (!this.#hooked) {
      // Hooked per shutdown: a server that listens again after one starts with no hooks.
      this.#hooked = true;
      this.#shutdown.onStart(() => {
        this.#hooked = false;
        for (const open of this.#open.keys()) this.#goAway(open);
      });
    }
    this.#open.set(webSocket, openSocket(endpoint, new WsPeer(webSocket)));
    this.#pings.add(webSocket, idle);
    webSocket.on('pong', this.#onPong);
    // The listeners are the same functions for every socket (`this` is the socket), not closures made per socket;
    // `on`, not `once`, for close: ws emits it once, and `once` wraps each listener in an object and a bound function.
    webSocket.on('message', this.#onMessage);
    // ws has closed the socket itself for what it refuses (a frame past maxPayload: 1009; a malformed frame: 1002);
    // its error is the client's, not the server's: nothing to log.
    webSocket.on('error', ignore);
    webSocket.on('close', this.#onClose);
  }

  #goAway(webSocket: import('ws').WebSocket): void {
    webSocket.close(1012, 'server shutting down');
    setTimeout(() => webSocket.terminate(), closeGraceMs).unref();
  }
}

const ignore = () => {};

// One options object for every send: ws copies it (`{ ...options }`), so a fan-out to 5,000 sockets allocates none.
const textFrame = { binary: false } as const;

/** A ws socket as the core sees it: methods on the prototype, so an open socket holds one small object. */
class WsPeer implements SocketPeer {
  readonly #ws: import('ws').WebSocket;
  constructor(ws: import('ws').WebSocket) {
    this.#ws = ws;
  }
  send(data: string | Uint8Array): void {
    this.#ws.send(data, textFrame);
  }
  close(code: number, reason: string): void {
    this.#ws.close(code, reason);
  }
  get bufferedAmount(): number {
    return this.#ws.bufferedAmount;
  }
}
