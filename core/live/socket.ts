// WebSockets (issue 44): one open connection of a socket route, between the page's methods and a runtime's socket.
//
//   upgrade request → the page's props(req) → upgradeAnswer(endpoint)       a Response that carries the endpoint
//   the adapter     → takeSocket(res) → openSocket(endpoint, peer)      (node: ws; next: Bun, Deno, workerd)
//                     connection.message(text) per frame, connection.closed(code, reason) once
//   the page        → open(socket, props), message(socket, data, props), close(socket, code, reason)
//                     socket.send(<List />, { regions: [[this.count, <Count n={3} />]] })
//
//   socket.send(html)  → one text frame: html, then each region as <div id="…" hx-swap-oob="innerHTML">…</div>,
//                        which htmx 4's hx-ws swaps (the html into the hx-ws element or hx-target, the regions by
//                        id) and htmx 2's ws extension swaps (every top-level element by its id)
//
// The runtime-neutral half: no node import, so an adapter is the ~50 lines that turn its runtime's socket into a
// SocketPeer and call `message`/`closed`. The adapter owns what its runtime does best (the frame size limit, closing
// with 1009; ping/pong and the idle timeout); this file owns what every runtime needs the same: a cap on what waits
// for a slow client (1013), the per-connection rate limit (1008), the order of sends, and failures (1011).

import { liteData, liteResponse } from '../kernel/answer.ts';
import { isThenable } from '../kernel/request.ts';
import type { Logger } from '../kernel/logger.ts';

/** The limits of a socket route: a page's `socketLimits` field, each value optional. */
export interface SocketLimits {
  /** The largest message a client may send, in bytes (default 64 KiB); a larger one closes the socket with 1009. */
  maxMessage?: number;
  /** Bytes that may wait for a slow client (default 1 MiB); past it the socket closes with 1013 (try again later). */
  maxQueued?: number;
  /** Milliseconds between pings (default 30000); a peer that has not answered the last one by the next is closed. */
  idle?: number;
  /** Messages a client may send per second, on average (default 20). */
  rate?: number;
  /** Messages a client may send at once, above the rate (default 40); past it the socket closes with 1008. */
  burst?: number;
}

const defaults: Required<SocketLimits> = {
  maxMessage: 64 * 1024,
  maxQueued: 1024 * 1024,
  idle: 30_000,
  rate: 20,
  burst: 40,
};

/**
 * What an adapter gives the core for one open socket: its runtime's WebSocket, seen through three members.
 * @example const peer: SocketPeer = { send: (d) => ws.send(d, { binary: false }), close: (c, r) => ws.close(c, r), get bufferedAmount() { return ws.bufferedAmount } }
 */
export interface SocketPeer {
  /** Sends one text frame: a string, or its UTF-8 bytes (the same bytes for every socket of a fan-out). */
  send(data: string | Uint8Array): void;
  /** Starts the closing handshake with `code` and `reason`. */
  close(code: number, reason: string): void;
  /** Bytes sent and not yet written to the network: what waits for the client. */
  readonly bufferedAmount: number;
}

/** What an adapter calls for one open socket, as its runtime reports frames and the end. */
export interface SocketConnection {
  /** One whole message from the client (a text frame's text; a binary frame's bytes). */
  message(data: string | Uint8Array): void;
  /** The socket has closed (`code` 1006 when it was not closed cleanly); call it once. */
  closed(code: number, reason: string): void;
}

/** A socket route's answer to an upgrade request, which an adapter takes with `takeSocket`. */
export interface SocketEndpoint {
  /** The route's limits, defaults filled in: the adapter applies `maxMessage` and `idle`. */
  readonly limits: Readonly<Required<SocketLimits>>;
  /** The route's methods, bound to the upgrade request's props and context: `openSocket` runs them. */
  readonly handlers: SocketHandlers;
}

/** The page methods a socket runs, bound to the upgrade request's props and context (pipeline/dispatch.ts). */
export interface SocketHandlers {
  open?: (socket: Socket) => unknown;
  message: (socket: Socket, data: string) => unknown;
  close?: (socket: Socket, code: number, reason: string) => unknown;
  /** The element id of a region target (`id(this.count)` in the upgrade request's context). */
  idOf: (target: RegionTarget) => string;
  /** Names the route in log lines: "App.chat (GET /chat)". */
  readonly name: string;
  readonly logger: Logger;
}

/** Where a region goes: a page method or component (its `id()`), or an element id. */
export type RegionTarget = ((...args: never[]) => unknown) | string;

/** One more region in a message: its target, its HTML, and how htmx swaps it (default innerHTML). */
export type SocketRegion = readonly [target: RegionTarget, html: string | Promise<string>, swap?: string];

/** Options of `socket.send`. */
export interface SendOptions {
  /** Other regions rendered into the same message, each swapped by its id (alsoRender for sockets). */
  regions?: readonly SocketRegion[];
}

// Keyed by the answer's body, not the Response: the steps that pass an answer on re-made (Server-Timing, dev mode's)
// keep its body, so the endpoint reaches the adapter through them. A middleware that reads the body, or makes a new
// Response of it, ends the upgrade: the client gets the 501.
const answers = new WeakMap<object, SocketEndpoint>();
const utf8 = new TextEncoder();

/**
 * The answer a socket route gives an upgrade request: a Response an adapter that can upgrade takes the endpoint
 * from (`takeSocket`); one that cannot sends it as it is, a 501 that says so.
 * @example return upgradeAnswer(endpoint) // node's serve(): 101 Switching Protocols, then openSocket(endpoint, peer)
 */
export function upgradeAnswer(endpoint: SocketEndpoint): Response {
  const body = utf8.encode(
    'Not Implemented: this server cannot open WebSockets; serve with pagetree/node, pagetree/bun or pagetree/deno, or on Workers with pagetree/cloudflare',
  );
  answers.set(body, endpoint);
  // no-transform: the compression step passes it on as it is, the body the endpoint is keyed by.
  return liteResponse(501, body, {
    'content-type': 'text/plain; charset=utf-8',
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store, no-transform',
  });
}

/**
 * The socket endpoint a response carries (a socket route's answer to an upgrade request), or undefined for any
 * other answer: that one is sent as it is (a 403 for another site's page, a 404, a redirect from props).
 * @example const endpoint = takeSocket(res); if (endpoint) upgrade(socket, endpoint); else write(res)
 */
export function takeSocket(res: Response): SocketEndpoint | undefined {
  const body = liteData(res)?.body;
  return typeof body === 'object' && body !== null ? answers.get(body) : undefined;
}

/**
 * A runtime's socket event handler that logs what it throws instead of ending the process (a throw out of a socket
 * handler is an uncaught error on Bun and Deno): a fault below the page, such as a hub's leave() that throws as the
 * socket ends. Up to three arguments, passed as they come (no rest array per message).
 * @example message: guardSocketHandler(logger, 'pagetree/bun', 'message', (ws, data) => sockets.message(ws, data))
 */
export function guardSocketHandler<A = undefined, B = undefined, C = undefined>(
  logger: Logger,
  adapter: string,
  handler: string,
  fn: (a: A, b: B, c: C) => void,
): (a: A, b?: B, c?: C) => void {
  return (a, b, c) => {
    try {
      fn(a, b as B, c as C);
    } catch (err) {
      logger.error(`${adapter}: a WebSocket's ${handler} handler failed:`, err);
    }
  };
}

/**
 * The socket endpoints of a mux's answers, by request, for an adapter that serves with fetchAnswer (Bun, Deno,
 * workerd): fetchAnswer makes each answer the one Response it sends, a copy the endpoint does not follow, so the
 * endpoint is noted from the answer the route made and taken once, by request, when the adapter upgrades.
 * @example const sockets = new SocketAnswers(); const fetch = fetchAnswer((req) => sockets.note(req, mux.serveHTTP(req)), logger); … sockets.take(req)
 */
export class SocketAnswers {
  readonly #pending = new WeakMap<Request, SocketEndpoint>();

  /** `res` as it is, its endpoint (if it has one) noted for `req`. Only an upgrade request waits for an async one. */
  note(req: Request, res: Response | Promise<Response>): Response | Promise<Response> {
    if (!isThenable(res)) {
      this.#note(req, res);
      return res;
    }
    if (req.headers.get('upgrade') === null) return res;
    return Promise.resolve(res).then((r) => {
      this.#note(req, r);
      return r;
    });
  }

  /** The endpoint noted for `req`, once; undefined when its answer was no socket route's. */
  take(req: Request): SocketEndpoint | undefined {
    const endpoint = this.#pending.get(req);
    if (endpoint !== undefined) this.#pending.delete(req);
    return endpoint;
  }

  #note(req: Request, res: Response): void {
    if (res?.status !== 501) return; // upgradeAnswer's status: no lookup on the way of every other answer
    const endpoint = takeSocket(res);
    if (endpoint !== undefined) this.#pending.set(req, endpoint);
  }
}

/**
 * Whether a request asks to open a WebSocket: GET with `Upgrade: websocket`.
 * @example isUpgrade(new Request(url, { headers: { upgrade: 'websocket' } })) // → true
 */
export function isUpgrade(req: Request): boolean {
  return req.method === 'GET' && /^websocket$/i.test(req.headers.get('upgrade')?.trim() ?? '');
}

/**
 * The socket endpoint of a socket route: its limits, and the connection each upgrade opens.
 * @example upgradeAnswer(socketEndpoint(handlers, resolveSocketLimits(page.socketLimits, 'App.chat')))
 */
export function socketEndpoint(handlers: SocketHandlers, limits: Required<SocketLimits>): SocketEndpoint {
  return { limits, handlers };
}

/**
 * A route's limits with the defaults filled in; one that is not a positive number is an error naming the route.
 * @example resolveSocketLimits({ maxMessage: 1024 }, 'App.chat').burst // → 40
 */
export function resolveSocketLimits(limits: SocketLimits | undefined, name: string): Required<SocketLimits> {
  const out = { ...defaults };
  for (const key of Object.keys(defaults) as (keyof SocketLimits)[]) {
    const value = limits?.[key];
    if (value === undefined) continue;
    if (!(typeof value === 'number' && value > 0 && value < 2 ** 31)) {
      throw new TypeError(
        `${name}: socketLimits.${key} ${String(value)} is not a positive number; give e.g. ${defaults[key]}`,
      );
    }
    out[key] = value;
  }
  return out;
}

/**
 * One open WebSocket, as a socket route's methods see it: send rendered HTML, join hubs, close.
 * @example socket.send(<CommentList comments={list} />, { regions: [[this.count, <b safe>{list.length}</b>]] })
 */
export interface Socket {
  /** The htmx that sent the last message: 2 (`HEADERS`), 4 (`headers`), or undefined before any. */
  readonly htmx: 2 | 4 | undefined;
  /** Aborts when the socket closes, for whatever reason. */
  readonly signal: AbortSignal;
  /**
   * Sends one message: `html` (a JSX element, a string or a Promise of one) and the regions after it. Messages go
   * out in send() order. Resolves true once handed to the socket, false when it has closed; never rejects (a render
   * that fails is logged and closes the socket with 1011). A region whose target has no id throws, as id() does.
   * @example await socket.send(<CommentList comments={list} />) // → true
   */
  send(html: string | Promise<string>, options?: SendOptions): Promise<boolean>;
  /**
   * Follows a hub (`SocketHub`): what it sends reaches this socket, until the socket closes or the returned
   * function is called.
   * @example socket.subscribe(comments)
   */
  subscribe(hub: { join(socket: Socket): () => void }): () => void;
  /**
   * Closes the socket (default 1000, a normal close); nothing is sent after it.
   * @example socket.close(1000, 'bye')
   */
  close(code?: number, reason?: string): void;
}

// What a hub writes with: the same encoded bytes to every socket (true when handed over, false when closed).
export const byteSenders = new WeakMap<Socket, (bytes: Uint8Array) => boolean | Promise<boolean>>();

/**
 * Sends the UTF-8 bytes of one message to `socket`, as encoded once for every socket of a hub.
 * @example sendBytes(socket, bytes) // → true
 */
export function sendBytes(socket: Socket, bytes: Uint8Array): boolean | Promise<boolean> {
  return byteSenders.get(socket)?.(bytes) ?? false;
}
