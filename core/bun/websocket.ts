// WebSockets on Bun.serve (issue 44): the `websocket` handlers of serve()'s server, and the upgrade in its fetch.
//
//   upgrade request → the mux, as any request → a socket route's answer carries its endpoint (takeSocket)
//                   → server.upgrade(req, { data: { endpoint } }) → Bun's open(ws) → openSocket(endpoint, peer)
//                     message(ws, data) → connection.message; close(ws, code, reason) → connection.closed
//                   → any other answer (403 cross-site, 404, a redirect from props) is sent as it is
//
// Bun's socket settings are the server's, a route's limits are its own, so:
//   maxMessage  Bun reads frames of at most `maxSocketMessage` bytes (serve's option, default 64 KiB, the routes'
//               default): past it Bun closes with 1009 from the frame's header, before buffering it. A route's own
//               limit, below that, is checked on each message here, in UTF-8 bytes as a frame counts them (1009).
//   idle        a ping every `idle` ms, one timer per route's idle time as pagetree/node has (live/ping-sweep.ts);
//               Bun's own idle timeout and pings are off.
//   maxQueued   Bun's getBufferedAmount() is the queue (connection.ts closes with 1013 past it); Bun's own
//               backpressure limit is set above any route's, so Bun never drops a message on its own.
// No permessage-deflate: a fan-out sends the same bytes to thousands of sockets, compressed once each otherwise.
// Shutdown: server.stop() closes every socket with 1012 first (htmx reconnects), and ends, a second later, those
// whose peer did not finish the close handshake (Bun's stop waits for them).
// Two things of Bun's shape this file: ws.close() runs the close handler at once, inside the call (so a socket may
// close while open() still runs, before its connection is known), and a throw out of any socket handler ends the
// process (so each handler here catches, and logs).

import {
  frameText,
  guardLogger,
  guardSocketHandler,
  handlerFailed,
  openSocket,
  PingSweeps,
  SocketAnswers,
  textError,
  utf8Over,
} from '../adapter.ts';
import { toResponse } from '../kernel/answer.ts';
import type { Logger, SocketConnection, SocketEndpoint } from '../adapter.ts';

/** What Bun gives a socket's handlers: the part of its ServerWebSocket used here. */
interface BunWebSocket {
  readonly data: SocketData;
  sendText(data: string): number;
  close(code?: number, reason?: string): void;
  terminate(): void;
  ping(): number;
  getBufferedAmount(): number;
}

/** What one socket carries from its upgrade to its handlers (Bun's `ws.data`). */
interface SocketData {
  readonly endpoint: SocketEndpoint;
  connection?: SocketConnection;
  /** The close that came while open() ran (Bun's close() reports it at once), for the connection once it exists. */
  closedWith?: readonly [code: number, reason: string];
}

/** The part of Bun's server an upgrade needs. */
export interface BunUpgrader {
  upgrade(req: Request, options: { data: SocketData }): boolean;
}

/** How long a socket closed at stop may take to finish the close handshake before it is ended. */
const closeGraceMs = 1000;

/** The sockets of one Bun server: Bun.serve's `websocket` option, the upgrade, and the 1012 at stop. */
export class BunSockets {
  readonly #open = new Set<BunWebSocket>();
  readonly #maxFrame: number;
  readonly #logger: Logger;
  /** The endpoints of the upgrade requests being answered, taken from the mux's own answer (see take). */
  readonly #answers = new SocketAnswers();
  readonly #warned = new Set<string>();
  /** The open sockets' pings, one timer per idle time of their routes. */
  readonly #pings = new PingSweeps<BunWebSocket>();
  #stopping = false;

  constructor(logger: Logger, maxFrame: number) {
    this.#logger = guardLogger(logger);
    this.#maxFrame = maxFrame;
  }

  /** Bun.serve's `websocket` option. */
  options(): Record<string, unknown> {
    return {
      maxPayloadLength: this.#maxFrame,
      idleTimeout: 0, // the per-route ping below does it
      sendPings: false,
      perMessageDeflate: false,
      backpressureLimit: 2 ** 31, // above any maxQueued (resolveSocketLimits: < 2^31): connection.ts closes first
      closeOnBackpressureLimit: false,
      // A fault below the page (a hub's leave() that throws, as the socket ends): logged, the server goes on.
      open: guardSocketHandler(this.#logger, 'pagetree/bun', 'open', (ws: BunWebSocket) => this.#opened(ws)),
      message: guardSocketHandler(
        this.#logger,
        'pagetree/bun',
        'message',
        (ws: BunWebSocket, data: string | Uint8Array) => this.#message(ws, data),
      ),
      close: guardSocketHandler(
        this.#logger,
        'pagetree/bun',
        'close',
        (ws: BunWebSocket, code: number, reason: string) => this.#closed(ws, code, reason),
      ),
      pong: (ws: BunWebSocket) => this.#pings.answered(ws),
    };
  }

  /** The mux's answer to `req`, as it is, its socket endpoint noted for `answer` (SocketAnswers). */
  take(req: Request, res: Response | Promise<Response>): Response | Promise<Response> {
    return this.#answers.note(req, res);
  }

  /**
   * The answer to send for `res`: `res` itself, or undefined once a socket route's answer upgraded the request
   * (Bun then sends the 101); a 400 when the request is no WebSocket handshake Bun can complete.
   */
  answer(req: Request, res: Response, server: BunUpgrader): Response | undefined {
    if (res.status !== 501) return res; // upgradeAnswer's status: no lookup on the way of every other answer
    const endpoint = this.#answers.take(req);
    if (endpoint === undefined) return res;
    const { maxMessage } = endpoint.limits;
    if (maxMessage > this.#maxFrame) this.#warnFrame(endpoint, maxMessage);
    try {
      if (server.upgrade(req, { data: { endpoint } })) return undefined;
    } catch (err) {
      return toResponse(handlerFailed(this.#logger, req, err));
    }
    // textError's answer made the real Response Bun takes (this is after fetchAnswer, which makes the others).
    return toResponse(textError(400, 'Bad Request: not a WebSocket handshake (Sec-WebSocket-Key or -Version)'));
  }

  /** Closes every socket with 1012 (service restart), and ends those still open a second later. */
  stop(): void {
    this.#stopping = true;
    for (const ws of this.#open) goAway(ws);
  }

  #opened(ws: BunWebSocket): void {
    const data = ws.data;
    this.#open.add(ws);
    const connection = openSocket(data.endpoint, {
      send: (text) => void ws.sendText(typeof text === 'string' ? text : frameText(text)),
      close: (code, reason) => ws.close(code, reason),
      get bufferedAmount() {
        return ws.getBufferedAmount();
      },
    });
    // open() closed the socket, or threw (1011), before it awaited anything: the close handler has run already.
    if (data.closedWith) return connection.closed(...data.closedWith);
    data.connection = connection;
    this.#pings.add(ws, data.endpoint.limits.idle);
    // Opened after stop() began (its props were still loading): it goes at once, as the others went.
    if (this.#stopping) goAway(ws);
  }

  #message(ws: BunWebSocket, data: string | Uint8Array): void {
    const { connection, endpoint } = ws.data;
    if (typeof data === 'string' && utf8Over(data, endpoint.limits.maxMessage)) {
      return ws.close(1009, 'message too big');
    }
    // A binary frame comes as a Buffer: a Uint8Array for connection.ts, which closes with 1003.
    connection?.message(typeof data === 'string' ? data : new Uint8Array(data));
  }

  #closed(ws: BunWebSocket, code: number, reason: string): void {
    const data = ws.data;
    this.#pings.delete(ws);
    this.#open.delete(ws);
    if (data.connection) data.connection.closed(code, reason);
    else data.closedWith = [code, reason];
  }

  // Once per route: its maxMessage cannot hold on this server, and what to do.
  #warnFrame(endpoint: SocketEndpoint, maxMessage: number): void {
    const name = endpoint.handlers.name;
    if (this.#warned.has(name)) return;
    this.#warned.add(name);
    this.#logger.warn(
      `pagetree/bun: ${name} allows messages of ${maxMessage} bytes (socketLimits.maxMessage), but this server reads ` +
        `frames of at most ${this.#maxFrame}: a larger one closes the socket with 1009; ` +
        `pass serve(mux, { maxSocketMessage: ${maxMessage} })`,
    );
  }
}

function goAway(ws: BunWebSocket): void {
  ws.close(1012, 'server shutting down');
  const timer = setTimeout(() => ws.terminate(), closeGraceMs);
  timer.unref?.();
}
