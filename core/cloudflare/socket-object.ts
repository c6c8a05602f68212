// A Durable Object that opens a mux's socket routes (issue 44): every socket of one object name lives in one object,
// so a SocketHub there reaches all of them, and the object may hibernate while they stay open.
//
//   fetch(req)                  → the mux, as any request → a socket route's answer carries its endpoint (takeSocket)
//                                 → new WebSocketPair(); ctx.acceptWebSocket(server)          (the hibernation API)
//                                 → server.serializeAttachment({ url, headers })   what rebuilds it after hibernation
//                                 → openSocket(endpoint, peer) → 101 with the client end
//                               → any other answer as it is (a POST forwarded here runs here, beside the sockets)
//   webSocketMessage(ws, data)  → its connection → connection.message(data)
//   webSocketClose / …Error     → connection.closed(code, reason), once
//
// Hibernation evicts the object's memory (the connections, the app's module state: its hubs) and keeps the sockets
// open. The first event of the fresh instance (a message, a close, a request) rebuilds every socket still open, not
// only the one that spoke: each one's upgrade request, kept in its attachment, runs through the mux again, so props()
// and open() run again and the hubs are joined again; a hub's send then reaches every socket, as before the sleep.
// When the isolate outlived the evicted instance (the app's module state with it), the new instance first ends the old
// one's connections (close() with 1012, no write: their sockets now belong to the new instance).

import { fetchAnswer } from '../kernel/fetch.ts';
import { guardLogger, type Logger } from '../kernel/logger.ts';
import {
  frameText,
  openSocket,
  SocketAnswers,
  utf8Over,
  type SocketConnection,
  type SocketEndpoint,
} from '../adapter.ts';
import type { DurableObjectContext, WebSocketPairConstructor, WorkerdWebSocket } from './workerd.ts';

/** What `socketObject` and `workerFetch` run: a ServeMux, or anything with its `serveHTTP` and `logger`. */
export interface WorkerHandler {
  serveHTTP(req: Request): Response | Promise<Response>;
  readonly logger: Logger;
}

/** Options of `socketObject`. */
export interface SocketObjectOptions {
  /**
   * More headers of the upgrade request to keep for the rebuild after hibernation, beside the defaults (cookie,
   * authorization, origin, user-agent, accept-language, sec-websocket-protocol, cf-connecting-ip,
   * x-forwarded-for, x-forwarded-proto). workerd keeps at most 2 KiB with a socket, URL included.
   */
  headers?: readonly string[];
}

/** The Durable Object `socketObject` returns: the methods workerd calls. */
export interface SocketObject {
  fetch(req: Request): Response | Promise<Response>;
  webSocketMessage(ws: WorkerdWebSocket, data: string | ArrayBuffer): void | Promise<void>;
  webSocketClose(ws: WorkerdWebSocket, code: number, reason: string, wasClean: boolean): void | Promise<void>;
  webSocketError(ws: WorkerdWebSocket, error: unknown): void | Promise<void>;
}

/** The class `socketObject` returns, as workerd constructs it. */
export type SocketObjectClass = new (ctx: DurableObjectContext, env: unknown) => SocketObject;

/** What a socket keeps in its attachment: its upgrade request, as props may read it. */
interface Saved {
  url: string;
  headers: [string, string][];
}

const keptHeaders = [
  'cookie',
  'authorization',
  'origin',
  'user-agent',
  'accept-language',
  'sec-websocket-protocol',
  'cf-connecting-ip',
  'x-forwarded-for',
  'x-forwarded-proto',
];

/** One open socket of the object: its connection and the route's frame limit. */
interface Open {
  connection: SocketConnection;
  maxMessage: number;
}

/**
 * A Durable Object class that serves `mux`: its socket routes open WebSockets with the hibernation API, and every
 * other request is answered by the mux inside the object. Export it under the name wrangler.toml binds.
 * @example
 * export const Sockets = socketObject(mux); // wrangler.toml: [[durable_objects.bindings]] name = "SOCKETS", class_name = "Sockets"
 */
export function socketObject(mux: WorkerHandler, options: SocketObjectOptions = {}): SocketObjectClass {
  if (mux == null || typeof mux.serveHTTP !== 'function') {
    throw new TypeError(
      `pagetree/cloudflare socketObject(mux): mux is ${String(mux)}, not a ServeMux; pass the mux your pages are mounted on`,
    );
  }
  const logger = guardLogger(mux.logger);
  const answer = socketAnswers(mux, logger);
  const keep = [...keptHeaders, ...(options.headers ?? []).map((h) => h.toLowerCase())];
  // The live instance of each object in this isolate, by id. An evicted instance gets no event, but the isolate (and
  // the app's module state: its hubs) may outlive it: the next instance of the same object ends the connections of
  // the one before, so no hub keeps a socket that only the dead instance could write to.
  const instances = new Map<string, ObjectState>();
  return class Sockets implements SocketObject {
    readonly #state: ObjectState;
    // workerd passes (ctx, env); the mux was mounted at module scope, so env is not read here.
    constructor(ctx: DurableObjectContext) {
      this.#state = new ObjectState(ctx, answer, logger, keep, instances);
    }
    fetch(req: Request) {
      return this.#state.fetch(req);
    }
    webSocketMessage(ws: WorkerdWebSocket, data: string | ArrayBuffer) {
      return this.#state.message(ws, data);
    }
    webSocketClose(ws: WorkerdWebSocket, code: number, reason: string) {
      return this.#state.closed(ws, code, reason, true);
    }
    webSocketError(ws: WorkerdWebSocket) {
      return this.#state.closed(ws, 1006, '', false);
    }
  };
}

/** The mux's answers as workerd takes them, and the socket endpoint each upgrade request's answer carried. */
interface Answers {
  fetch: (req: Request) => Response | Promise<Response>;
  endpoints: SocketAnswers;
}

// The endpoint is taken from the mux's own answer, before fetchAnswer makes it the Response workerd sends: that one
// no longer carries it.
function socketAnswers(mux: WorkerHandler, logger: Logger): Answers {
  const endpoints = new SocketAnswers();
  const fetch = fetchAnswer((req) => endpoints.note(req, mux.serveHTTP(req)), logger);
  return { fetch, endpoints };
}

/** One object's sockets: the connections of this instance, rebuilt from the attachments after a hibernation. */
class ObjectState {
  readonly #ctx: DurableObjectContext;
  readonly #answer: Answers;
  readonly #logger: Logger;
  readonly #keep: readonly string[];
  readonly #instances: Map<string, ObjectState>;
  readonly #id: string;
  readonly #open = new Map<WorkerdWebSocket, Open>();
  /** Undefined until the first event; then the rebuild of the sockets this instance did not open; true once done. */
  #awake: Promise<void> | true | undefined;

  constructor(
    ctx: DurableObjectContext,
    answer: Answers,
    logger: Logger,
    keep: readonly string[],
    instances: Map<string, ObjectState>,
  ) {
    this.#ctx = ctx;
    this.#answer = answer;
    this.#logger = logger;
    this.#keep = keep;
    this.#instances = instances;
    this.#id = String(ctx.id);
    // Only an instance with open sockets is kept (#connect): one per object name a request ever reached would hold
    // every evicted instance (its ctx) for as long as the isolate lives.
    instances.get(this.#id)?.abandon();
  }

  // This instance was evicted: its connections end (the page's close() runs with 1012, as the rebuild's open() will
  // run), without a write to their sockets, which belong to the instance that replaces it.
  abandon(): void {
    for (const ws of [...this.#open.keys()]) this.#end(ws, 1012, 'service restart');
  }

  fetch(req: Request): Response | Promise<Response> {
    const waking = this.#wake();
    if (waking) return waking.then(() => this.#serve(req));
    return this.#serve(req);
  }

  message(ws: WorkerdWebSocket, data: string | ArrayBuffer): void | Promise<void> {
    const waking = this.#wake();
    if (waking) return waking.then(() => this.#message(ws, data));
    this.#message(ws, data);
  }

  closed(ws: WorkerdWebSocket, code: number, reason: string, clean: boolean): void | Promise<void> {
    const waking = this.#wake();
    if (waking) return waking.then(() => this.#closed(ws, code, reason, clean));
    this.#closed(ws, code, reason, clean);
  }

  // Every event waits for the rebuild (one promise, so messages keep their order); later events find it done.
  #wake(): Promise<void> | undefined {
    if (this.#awake === true) return undefined;
    // Each rebuild's failure closes its socket: one rejection here would fail every later event of the object.
    const rebuild = (ws: WorkerdWebSocket) =>
      this.#rebuild(ws).catch((err: unknown) => {
        this.#logger.error(
          'pagetree/cloudflare: a WebSocket could not be rebuilt after hibernation; closing it with 1011:',
          err,
        );
        closeQuietly(ws, 1011, 'internal error');
      });
    this.#awake ??= Promise.all(this.#ctx.getWebSockets().map(rebuild)).then(() => {
      this.#awake = true;
    });
    return this.#awake;
  }

  #serve(req: Request): Response | Promise<Response> {
    const res = this.#answer.fetch(req);
    if (res instanceof Promise) return res.then((r) => this.#upgrade(req, r));
    return this.#upgrade(req, res);
  }

  // A socket route's answer opens the socket; any other is the answer.
  #upgrade(req: Request, res: Response): Response {
    const endpoint = this.#answer.endpoints.take(req);
    if (!endpoint) return res;
    const Pair = (globalThis as { WebSocketPair?: WebSocketPairConstructor }).WebSocketPair;
    if (Pair === undefined) return res; // not workerd: the 501 says this server cannot open sockets
    const { 0: client, 1: server } = new Pair();
    this.#ctx.acceptWebSocket(server);
    this.#attach(server, req);
    this.#connect(server, endpoint);
    return new Response(null, { status: 101, webSocket: client } as ResponseInit);
  }

  #attach(ws: WorkerdWebSocket, req: Request): void {
    const headers: [string, string][] = [];
    for (const name of this.#keep) {
      const value = req.headers.get(name);
      if (value !== null) headers.push([name, value]);
    }
    const saved: Saved = { url: req.url, headers };
    try {
      ws.serializeAttachment(saved);
    } catch (err) {
      // The socket works until the object hibernates; then it closes with 1012 and htmx reconnects.
      this.#logger.error(
        `pagetree/cloudflare: the upgrade request of ${req.url} is too big to keep with its socket ` +
          `(${JSON.stringify(saved).length} bytes of URL and headers; workerd keeps 2 KiB): ` +
          'it cannot be rebuilt after hibernation and will close with 1012 then; keep fewer or smaller cookies',
        err,
      );
    }
  }

  #connect(ws: WorkerdWebSocket, endpoint: SocketEndpoint): void {
    const open: Open = { connection: undefined!, maxMessage: endpoint.limits.maxMessage };
    this.#open.set(ws, open);
    this.#instances.set(this.#id, this);
    open.connection = openSocket(endpoint, {
      // A hub's bytes as a string: workerd sends bytes as a binary frame, which a browser hands htmx as a Blob.
      send: (data) => ws.send(typeof data === 'string' ? data : frameText(data)),
      close: (code, reason) => {
        // The page's close() runs now, not when the client answers the close frame (it may never answer).
        closeQuietly(ws, code, reason);
        queueMicrotask(() => this.#end(ws, code, reason));
      },
      // workerd counts what waits to be written to the network (seen with wrangler 4.164), so maxQueued applies.
      get bufferedAmount() {
        return ws.bufferedAmount ?? 0;
      },
    });
  }

  // A socket this instance did not open (the object hibernated): its upgrade request through the mux again.
  async #rebuild(ws: WorkerdWebSocket): Promise<void> {
    if (this.#open.has(ws)) return;
    const saved = savedOf(ws);
    if (!saved) return closeQuietly(ws, 1012, 'service restart');
    const headers = new Headers(saved.headers);
    headers.set('upgrade', 'websocket');
    headers.set('connection', 'Upgrade');
    const req = new Request(saved.url, { headers });
    const res = await this.#answer.fetch(req);
    const endpoint = this.#answer.endpoints.take(req);
    if (endpoint) return this.#connect(ws, endpoint);
    // Refused this time (the session ended, the page is gone): closed as the status says.
    if (res.body) res.body.cancel().catch(() => {});
    closeQuietly(ws, res.status >= 500 ? 1011 : 1008, `HTTP ${res.status}`);
  }

  #message(ws: WorkerdWebSocket, data: string | ArrayBuffer): void {
    const open = this.#open.get(ws);
    if (!open) return; // closed by this side, or not rebuilt (closed then)
    // The frame's size in bytes, a string's in UTF-8 (counted only as far as needed).
    if (typeof data === 'string' ? utf8Over(data, open.maxMessage) : data.byteLength > open.maxMessage) {
      closeQuietly(ws, 1009, 'message too big');
      return this.#end(ws, 1009, 'message too big');
    }
    open.connection.message(typeof data === 'string' ? data : new Uint8Array(data));
  }

  #closed(ws: WorkerdWebSocket, code: number, reason: string, clean: boolean): void {
    // Answer the client's close frame (a runtime that already answered it throws, which is fine).
    if (clean) closeQuietly(ws, sendable(code) ? code : 1000, reason);
    this.#end(ws, code, reason);
  }

  #end(ws: WorkerdWebSocket, code: number, reason: string): void {
    const open = this.#open.get(ws);
    if (!open) return;
    this.#open.delete(ws);
    if (this.#open.size === 0 && this.#instances.get(this.#id) === this) this.#instances.delete(this.#id);
    open.connection.closed(code, reason);
  }
}

function savedOf(ws: WorkerdWebSocket): Saved | undefined {
  let value: unknown;
  try {
    value = ws.deserializeAttachment();
  } catch {
    return undefined;
  }
  const saved = value as Partial<Saved> | null | undefined;
  return typeof saved?.url === 'string' && Array.isArray(saved.headers) ? (saved as Saved) : undefined;
}

function closeQuietly(ws: WorkerdWebSocket, code: number, reason: string): void {
  try {
    ws.close(code, reason);
  } catch {
    // already closed or closing
  }
}

// A code a close frame may carry (1005 and 1006 only report what happened).
function sendable(code: number): boolean {
  return (
    (code >= 1000 && code <= 1014 && code !== 1004 && code !== 1005 && code !== 1006) || (code >= 3000 && code <= 4999)
  );
}
