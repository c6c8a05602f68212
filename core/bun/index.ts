// pagetree/bun: serve a ServeMux with Bun.serve, a synchronous page answered synchronously (issue 43).
//
//   serve(mux, { port: 3000 })   →   Bun.serve({ port: 3000, fetch })   where fetch(req, server) is mux.fetch's work
//                                    (kernel/fetch.ts's fetchAnswer) without its promise
//
// `Bun.serve({ fetch: mux.fetch })` works too and answers alike: mux.fetch hands Bun a promise of the same Response
// (typed as the Web's fetch handlers are), which under wrk cost the same within the noise (bench/README.md, issue 43).
// This entry is where Bun's own server features meet the mux. Everything is as mux.fetch does it: the 500 net, HEAD
// without a body, clientAddress from Bun's `server.requestIP`.

import { fetchAnswer } from '../kernel/fetch.ts';
import type { Logger } from '../kernel/logger.ts';

/** What `serve` serves: a ServeMux, or anything with its `serveHTTP` and `logger` (method-override's wrapper). */
export interface BunHandler {
  serveHTTP(req: Request): Response | Promise<Response>;
  readonly logger: Logger;
}

/** Bun.serve's options but `fetch`, which `serve` gives: `port`, `hostname`, `idleTimeout`, `tls`, … (Bun's docs). */
export interface BunServeOptions {
  /** The port; Bun's default is $BUN_PORT, $PORT, $NODE_PORT, else 3000. 0 picks a free one. */
  port?: number | string;
  /** The address to listen on; Bun's default is "0.0.0.0". */
  hostname?: string;
  /** Any other option Bun.serve takes (`fetch` excepted: serve gives it). */
  [option: string]: unknown;
}

/** The server Bun.serve returned (the part pagetree's docs use; it is Bun's own object, with all of its API). */
export interface BunServer {
  readonly port: number;
  readonly hostname: string;
  readonly url: URL;
  stop(closeActiveConnections?: boolean): Promise<void>;
}

interface BunGlobal {
  serve(options: Record<string, unknown>): BunServer;
}

/**
 * Serves `mux` with Bun.serve: each request routed by the mux, a page that answers synchronously sent without a
 * promise around its Response. Returns Bun's server.
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
  return bun.serve({ ...options, fetch: fetchAnswer((req) => mux.serveHTTP(req), mux.logger) });
}
