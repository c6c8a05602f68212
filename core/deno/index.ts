// pagetree/deno: serve a ServeMux with Deno.serve, its socket routes opened with Deno.upgradeWebSocket (issue 44).
//
//   serve(mux, { port: 3000 })   →   Deno.serve({ port: 3000 }, handler)   where handler(req, info) is mux.fetch's
//                                    work (kernel/fetch.ts's fetchAnswer) without its promise, and a socket route's
//                                    answer is upgraded (websocket.ts)
//   server.shutdown(), or options.signal aborted
//                                →   every socket closes with 1012, then Deno's shutdown
//
// `Deno.serve(mux.fetch)` still serves the pages alike; it opens no socket (a 501). Everything is as mux.fetch does
// it: the 500 net, HEAD without a body, clientAddress from Deno's `info.remoteAddr`.

import { fetchAnswer } from '../kernel/fetch.ts';
import { guardLogger, type Logger } from '../kernel/logger.ts';
import { DenoSockets, type DenoUpgrade } from './websocket.ts';

/** What `serve` serves: a ServeMux, or anything with its `serveHTTP` and `logger` (method-override's wrapper). */
export interface DenoHandler {
  serveHTTP(req: Request): Response | Promise<Response>;
  readonly logger: Logger;
}

/** Deno.serve's options but its `handler`, which `serve` gives: `port`, `hostname`, `onListen`, `cert`, … (Deno's docs). */
export interface DenoServeOptions {
  /** The port; Deno's default is 8000. 0 picks a free one. */
  port?: number;
  /** The address to listen on; Deno's default is "0.0.0.0". */
  hostname?: string;
  /** Aborting it shuts the server down as `shutdown()` does: the sockets close with 1012 first. */
  signal?: AbortSignal;
  /** Any other option Deno.serve takes (`handler` excepted: serve gives it). */
  [option: string]: unknown;
}

/** The server Deno.serve returned (the part pagetree's docs use; it is Deno's own object, with all of its API). */
export interface DenoServer {
  /** Where it listens: `{ hostname, port }` for TCP. */
  readonly addr: { readonly hostname?: string; readonly port?: number };
  /** Resolves once the server has shut down. */
  readonly finished: Promise<void>;
  /**
   * Stops taking connections once every WebSocket has closed with 1012 (service restart: htmx reconnects, to another
   * instance if there is one), or a second later; the requests in flight finish. Resolves when Deno's shutdown does.
   */
  shutdown(): Promise<void>;
}

interface DenoGlobal {
  serve(
    options: Record<string, unknown>,
    handler: (req: Request, info: unknown) => Response | Promise<Response>,
  ): DenoServer;
  upgradeWebSocket: DenoUpgrade;
}

/**
 * Serves `mux` with Deno.serve: each request routed by the mux, a page that answers synchronously sent without a
 * promise around its Response, a socket route's upgrade opened with Deno's WebSockets. Returns Deno's server, whose
 * `shutdown()` closes the sockets with 1012 first.
 * @example
 * import { serve } from 'pagetree/deno';
 * const server = serve(mux, { hostname: '127.0.0.1', port: 3000 }); // → Listening on http://127.0.0.1:3000/
 * Deno.addSignalListener('SIGTERM', () => void server.shutdown());
 */
export function serve(mux: DenoHandler, options: DenoServeOptions = {}): DenoServer {
  const deno = (globalThis as { Deno?: Partial<DenoGlobal> }).Deno;
  if (typeof deno?.serve !== 'function' || typeof deno.upgradeWebSocket !== 'function') {
    throw new Error(
      "pagetree/deno serve(): Deno.serve is missing, so this is not Deno; run the app with deno, or serve it with pagetree/node's serve",
    );
  }
  if (mux == null || typeof mux.serveHTTP !== 'function') {
    throw new TypeError(
      `pagetree/deno serve(mux): mux is ${String(mux)}, not a ServeMux; pass the mux your pages are mounted on`,
    );
  }
  for (const name of ['handler', 'fetch']) {
    if (name in options) {
      throw new TypeError(
        `pagetree/deno serve(mux, options): options.${name} is given, but serve answers with the mux; drop it`,
      );
    }
  }
  // The signal is not Deno's: its shutdown would close the sockets with 1001 before they get their 1012.
  const { signal, ...denoOptions } = options;
  const sockets = new DenoSockets(mux.logger, deno.upgradeWebSocket.bind(deno));
  const answer = fetchAnswer((req) => sockets.take(req, mux.serveHTTP(req)), mux.logger);
  const server = deno.serve(denoOptions, (req, info) => {
    const res = answer(req, info);
    // Never rejects: fetchAnswer's promise does not, and sockets.answer does not throw.
    if (res instanceof Promise) return res.then((r) => sockets.answer(req, r));
    return sockets.answer(req, res);
  });
  const shutdown = server.shutdown.bind(server);
  let done: Promise<void> | undefined;
  const stop = () => (done ??= sockets.stop().then(shutdown));
  Object.defineProperty(server, 'shutdown', { configurable: true, writable: true, value: stop });
  if (signal) {
    const logger = guardLogger(mux.logger);
    const abort = () => void stop().catch((err: unknown) => logger.error('pagetree/deno: shutdown failed:', err));
    if (signal.aborted) abort();
    else signal.addEventListener('abort', abort, { once: true });
  }
  return server;
}
