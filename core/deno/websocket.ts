// WebSockets on Deno.serve (issue 44): a socket route's answer upgraded with Deno.upgradeWebSocket.
//
//   upgrade request → the mux, as any request → a socket route's answer carries its endpoint (takeSocket)
//                   → Deno.upgradeWebSocket(req) → its response (101) is sent; on open → openSocket(endpoint, peer)
//                     each message event → connection.message; the close event → connection.closed
//                   → any other answer (403 cross-site, 404, a redirect from props) is sent as it is
//
// Deno's limits are set per socket, where they can be:
//   maxMessage  Deno reads a whole message before pagetree sees it (it has no frame limit to set); its size in UTF-8
//               bytes is checked then (1009).
//   idle        Deno's idleTimeout, 2 × idle: Deno pings after `idle` ms without a frame, and closes a peer that has
//               not answered another `idle` later (1001 on its side), as pagetree/node drops one by its next ping.
//   maxQueued   the WebSocket's bufferedAmount is the queue (connection.ts closes with 1013 past it).
// Shutdown: every socket is closed with 1012 (htmx reconnects) before Deno's own shutdown, which would close them
// with 1001 (htmx 2's ws extension does not reconnect on it); a peer that has not finished the close handshake a
// second later is left to Deno's shutdown.
// A throw out of a socket's event handler is an uncaught error in Deno, which ends the process: each handler here
// catches, and logs.

import {
  frameText,
  guardLogger,
  guardSocketHandler,
  handlerFailed,
  openSocket,
  SocketAnswers,
  textError,
  utf8Over,
} from '../adapter.ts';
import { toResponse } from '../kernel/answer.ts';
import type { Logger, SocketConnection } from '../adapter.ts';

/** The part of Deno's upgradeWebSocket used here. */
export type DenoUpgrade = (req: Request, options: { idleTimeout: number }) => { socket: WebSocket; response: Response };

/** How long the sockets closed at shutdown may take to finish the close handshake before Deno's shutdown. */
const closeGraceMs = 1000;

/** The sockets of one Deno server: the upgrade, and the 1012 at shutdown. */
export class DenoSockets {
  readonly #open = new Set<WebSocket>();
  readonly #upgrade: DenoUpgrade;
  readonly #logger: Logger;
  /** The endpoints of the upgrade requests being answered, taken from the mux's own answer (see take). */
  readonly #answers = new SocketAnswers();
  #stopping = false;
  #closedAll: (() => void) | undefined;

  constructor(logger: Logger, upgrade: DenoUpgrade) {
    this.#logger = guardLogger(logger);
    this.#upgrade = upgrade;
  }

  /** The mux's answer to `req`, as it is, its socket endpoint noted for `answer` (SocketAnswers). */
  take(req: Request, res: Response | Promise<Response>): Response | Promise<Response> {
    return this.#answers.note(req, res);
  }

  /**
   * The answer to send for `res`: `res` itself, or Deno's 101 when it is a socket route's answer; a 400 when the
   * request is no WebSocket handshake Deno can complete.
   */
  answer(req: Request, res: Response): Response {
    if (res.status !== 501) return res; // upgradeAnswer's status: no lookup on the way of every other answer
    const endpoint = this.#answers.take(req);
    if (endpoint === undefined) return res;
    let upgraded: { socket: WebSocket; response: Response };
    try {
      upgraded = this.#upgrade(req, { idleTimeout: (endpoint.limits.idle * 2) / 1000 });
    } catch (err) {
      // Deno throws a TypeError for a request that is no handshake (no Sec-WebSocket-Key, …): the client's fault.
      // textError's answer made the real Response Deno takes (this is after fetchAnswer, which makes the others).
      if (!(err instanceof TypeError)) return toResponse(handlerFailed(this.#logger, req, err));
      return toResponse(textError(400, `Bad Request: not a WebSocket handshake (${err.message})`));
    }
    const { socket } = upgraded;
    const { maxMessage } = endpoint.limits;
    socket.binaryType = 'arraybuffer';
    let connection: SocketConnection | undefined;
    socket.onopen = guardSocketHandler(this.#logger, 'pagetree/deno', 'open', () => {
      this.#open.add(socket);
      connection = openSocket(endpoint, {
        send: (text) => socket.send(typeof text === 'string' ? text : frameText(text)),
        close: (code, reason) => socket.close(code, reason),
        get bufferedAmount() {
          return socket.bufferedAmount;
        },
      });
      // Opened after the shutdown began (its props were still loading): it goes at once, as the others went.
      if (this.#stopping) socket.close(1012, 'server shutting down');
    });
    socket.onmessage = guardSocketHandler(this.#logger, 'pagetree/deno', 'message', (event: { data: unknown }) => {
      const data = event.data as string | ArrayBuffer; // binaryType above
      if (typeof data === 'string' && utf8Over(data, maxMessage)) return socket.close(1009, 'message too big');
      // A binary message: connection.ts closes with 1003.
      connection?.message(typeof data === 'string' ? data : new Uint8Array(data));
    });
    // A reset or a malformed frame from the client: the close event follows; nothing for the server to log.
    socket.onerror = (event) => event.preventDefault();
    socket.onclose = guardSocketHandler(
      this.#logger,
      'pagetree/deno',
      'close',
      (event: { code: number; reason: string }) => {
        this.#open.delete(socket);
        if (this.#open.size === 0) this.#closedAll?.();
        connection?.closed(event.code, event.reason);
      },
    );
    return upgraded.response;
  }

  /** Closes every socket with 1012 (service restart); resolves once they closed, or a second later. */
  stop(): Promise<void> {
    this.#stopping = true;
    if (this.#open.size === 0) return Promise.resolve();
    for (const socket of this.#open) socket.close(1012, 'server shutting down');
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, closeGraceMs);
      this.#closedAll = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
