// pagetree/bun: serve a ServeMux with Bun.serve, a synchronous page answered synchronously (issue 43), its socket
// routes opened with Bun's own WebSockets (issue 44, websocket.ts).
//
//   serve(mux, { port: 3000 })   →   Bun.serve({ port: 3000, fetch, websocket })   where fetch(req, server) is
//                                    mux.fetch's work (kernel/fetch.ts's fetchAnswer) without its promise, and a
//                                    socket route's answer upgrades the request
//   server.stop()                →   every socket closes with 1012, then Bun's stop
//
// `Bun.serve({ fetch: mux.fetch })` works too and answers alike: mux.fetch hands Bun a promise of the same Response
// (typed as the Web's fetch handlers are), which under wrk cost the same within the noise (bench/README.md, issue 43).
// This entry is where Bun's own server features meet the mux. Everything is as mux.fetch does it: the 500 net, HEAD
// without a body, clientAddress from Bun's `server.requestIP`. `mux.fetch` alone opens no socket (a 501).

import { fetchAnswer } from '../kernel/fetch.ts';
import type { Logger } from '../kernel/logger.ts';
import { BunSockets, type BunUpgrader } from './websocket.ts';

/** What `serve` serves: a ServeMux, or anything with its `serveHTTP` and `logger` (method-override's wrapper). */
export interface BunHandler {
  serveHTTP(req: Request): Response | Promise<Response>;
  readonly logger: Logger;
}

/**
 * Bun.serve's options but `fetch` and `websocket`, which `serve` gives: `port`, `hostname`, `idleTimeout`, `tls`, …
 * (Bun's docs), and the largest WebSocket frame the server reads.
 */
export interface BunServeOptions {
  /** The port; Bun's default is $BUN_PORT, $PORT, $NODE_PORT, else 3000. 0 picks a free one. */
  port?: number | string;
  /** The address to listen on; Bun's default is "0.0.0.0". */
  hostname?: string;
  /**
   * The largest WebSocket message any socket route of this server reads, in bytes (default 64 KiB, the routes'
   * default `maxMessage`): Bun's limit is per server, and a larger frame closes with 1009 before it is buffered.
   * Raise it when a route's `socketLimits.maxMessage` is larger; each route's own limit still holds.
   */
  maxSocketMessage?: number;
  /** Any other option Bun.serve takes (`fetch` and `websocket` excepted: serve gives them). */
  [option: string]: unknown;
}

/** The server Bun.serve returned (the part pagetree's docs use; it is Bun's own object, with all of its API). */
export interface BunServer {
  readonly port: number;
  readonly hostname: string;
  readonly url: URL;
  /**
   * Stops listening; every WebSocket closes with 1012 (service restart: htmx reconnects, to another instance if there
   * is one) and is ended a second later if its peer has not closed. Resolves when Bun's stop does (it waits for the
   * requests in flight; `true` ends them at once).
   */
  stop(closeActiveConnections?: boolean): Promise<void>;
}

interface BunGlobal {
  serve(options: Record<string, unknown>): BunServer & BunUpgrader;
}

/**
 * Serves `mux` with Bun.serve: each request routed by the mux, a page that answers synchronously sent without a
 * promise around its Response, a socket route's upgrade opened with Bun's WebSockets. Returns Bun's server, whose
 * `stop()` closes the sockets with 1012 first.
 * @example
 * import { serve } from 'pagetree/bun';
 * const server = serve(mux, { hostname: '127.0.0.1', port: 3000 });
 * console.log(`listening on ${server.url}`); // → listening on http://127.0.0.1:3000/
 */
export function serve(mux: BunHandler, options: BunServeOptions = {}): BunServer {
  const bun = (globalThis as { Bun?: BunGlobal }).Bun;
  if (bun === undefined) {
    throw new Error(
      "pagetree/bun serve(): Bun.serve is missing, so this is not Bun; run the app with bun, or serve it with pagetree/node's serve",
    );
  }
  if (mux == null || typeof mux.serveHTTP !== 'function') {
    throw new TypeError(
      `pagetree/bun serve(mux): mux is ${String(mux)}, not a ServeMux; pass the mux your pages are mounted on`,
    );
  }
  if ('fetch' in options) {
    throw new TypeError(
      'pagetree/bun serve(mux, options): options.fetch is given, but serve answers with the mux; drop it',
    );
  }
  if ('websocket' in options) {
    throw new TypeError(
      'pagetree/bun serve(mux, options): options.websocket is given, but serve opens the WebSockets of socket routes ' +
        "itself; drop it (a route's limits are its page's socketLimits; the largest frame Bun reads is options.maxSocketMessage)",
    );
  }
  const { maxSocketMessage = 64 * 1024, ...bunOptions } = options;
  if (!(Number.isInteger(maxSocketMessage) && maxSocketMessage > 0)) {
    throw new TypeError(
      `pagetree/bun serve(mux, options): options.maxSocketMessage ${String(maxSocketMessage)} is not a positive ` +
        'whole number of bytes; give e.g. 1048576',
    );
  }
  const sockets = new BunSockets(mux.logger, maxSocketMessage);
  const answer = fetchAnswer((req) => sockets.take(req, mux.serveHTTP(req)), mux.logger);
  const server = bun.serve({
    ...bunOptions,
    fetch: (req: Request, server: BunUpgrader) => {
      const res = answer(req, server);
      // Never rejects: fetchAnswer's promise does not, and sockets.answer does not throw.
      if (res instanceof Promise) return res.then((r) => sockets.answer(req, r, server));
      return sockets.answer(req, res, server);
    },
    websocket: sockets.options(),
  });
  // Bun's own stop leaves WebSockets open, and waits for them: closed with 1012 first.
  const stop = server.stop.bind(server);
  Object.defineProperty(server, 'stop', {
    configurable: true,
    writable: true,
    value: (closeActiveConnections?: boolean) => {
      sockets.stop();
      return stop(closeActiveConnections);
    },
  });
  return server;
}
