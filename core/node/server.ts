// serve(): a ServeMux (or any handler) on node:http, as a server that owns its shutdown (Go's http.Server, with
// `Shutdown` and `RegisterOnShutdown`):
//
//   const server = serve(mux)                  node's http.Server (listen, address, maxConnections, … as ever)
//   server.onShutdown(() => jobs.stop())       runs once when the shutdown starts
//   await server.shutdown({ timeout: 5000 })   stop accepting, end event streams, run the hooks, drain, close
//
// SIGINT and SIGTERM call server.shutdown() unless `handleSignals: false`. The free functions shutdown(server) and
// onShutdown(server, fn) of 0.x stay for a minor version, deprecated: they work on any node server.

import { Server, type IncomingMessage, type ServerOptions } from 'node:http';
import type { Duplex } from 'node:stream';
import { consoleLogger, type Handler, type Logger } from '../adapter.ts';
import type { ServeMux } from '../mux/serve-mux.ts';
import { loggerFor, toNodeListener, toUpgradeListener, type ListenerOptions, type NodeListener } from './listener.ts';
import { WebSockets } from './websocket.ts';
import { shutDown, shutdownOf, type Shutdown } from './shutdown.ts';

/** serve()'s default `maxConnections` (see there). */
const defaultMaxConnections = 10_000;

/** Options of `serve`. */
export interface ServeOptions extends ListenerOptions {
  /** Port to listen on; 0 picks a free one. Default: `PORT` from the environment (0 too), else 3000. */
  port?: number;
  /** How long a client may take to send the request headers, in ms (default 15000; node's own is 60000). */
  headersTimeout?: number;
  /** How long a client may take to send the whole request, body included, in ms (default 60000; node's 300000). */
  requestTimeout?: number;
  /** How long an idle keep-alive connection stays open, in ms (default: node's, 5000). */
  keepAliveTimeout?: number;
  /**
   * Connections beyond this many are refused (closed at once, and a warning logged at most once a minute).
   * Default 10,000: an open event stream costs the process ~21 KiB, and one change sent to 10,000 of them ~0.11 s
   * of CPU on a small VM, nearly all of it the kernel's socket writes (bench/fanout); past that, run more instances. `Infinity` for no limit (node's default).
   */
  maxConnections?: number;
  /** Address to bind. Default: node's (all interfaces). */
  hostname?: string;
  /** Stop gracefully on SIGINT and SIGTERM (default true). */
  handleSignals?: boolean;
  /** Called once listening, with the URL; default prints it. */
  onListen?: (url: string) => void;
  /** How long in-flight requests may take to finish at shutdown, in ms (default 10000): `server.shutdown()`'s default. */
  shutdownTimeout?: number;
}

/** Options of `server.shutdown()`. */
export interface ShutdownOptions {
  /** Connections still open after this many ms are closed (default: serve's `shutdownTimeout`, else 10000). */
  timeout?: number;
}

/**
 * The server `serve()` returns: node's `http.Server` (listen, address, close, maxConnections, … as ever), which owns
 * its shutdown as Go's `http.Server` does: `shutdown()` is its `Shutdown`, `onShutdown()` its `RegisterOnShutdown`.
 * @example const server = serve(mux); server.onShutdown(() => jobs.stop()); await server.shutdown({ timeout: 5000 })
 */
class NodeServer extends Server {
  readonly #shutdown: Shutdown;
  readonly #timeout: number;

  constructor(options: ServerOptions, listener: NodeListener, logger: Logger, timeout: number) {
    super(options, listener);
    this.#shutdown = shutdownOf(this, logger); // on the server, where its answers look for it
    this.#timeout = timeout;
  }

  /**
   * Shuts the server down gracefully: stops accepting connections, ends its open event streams (cleanly: htmx's
   * clients reconnect, to another instance if there is one) and runs the `onShutdown` hooks, lets in-flight
   * requests finish (their answers say `Connection: close`), closes each keep-alive connection once it is idle, and
   * after `timeout` ms every connection still open. Resolves once the server has closed; a second call meanwhile
   * waits for the same close.
   * @example await server.shutdown({ timeout: 5000 })
   */
  shutdown(options: ShutdownOptions = {}): Promise<void> {
    return shutDown(this, this.#shutdown, options.timeout ?? this.#timeout);
  }

  /**
   * Runs `fn` once when the shutdown starts (`shutdown()`, or SIGINT/SIGTERM under `serve`), as Go's
   * `Server.RegisterOnShutdown`: end long-lived work there (a poll loop, a stream of your own), so that the shutdown
   * need not wait for its timeout. Added during a shutdown, it runs at once; one that throws is logged through the
   * server's logger, and the others still run. Returns the function that removes it.
   * @example const remove = server.onShutdown(() => jobs.stop())
   */
  onShutdown(fn: () => void): () => void {
    return this.#shutdown.onStart(fn);
  }
}
export type { NodeServer };

/**
 * Serves a ServeMux or handler on node:http, prints the URL, and shuts down
 * gracefully on SIGINT/SIGTERM: stop accepting, let in-flight requests
 * finish, then exit. A port in use is one line through the logger (which port, and how to pick another) and exit
 * status 1 (with `handleSignals: false`, the status is set and the process left running); a listener of the
 * server's own `'error'` gets the error instead. Returns the server: node's `http.Server`, with a `shutdown()` and
 * an `onShutdown()` of its own (`NodeServer`).
 * @example const server = serve(mux, { port: 3000 }) // prints "pagetree: listening on http://localhost:3000"
 */
export function serve(handler: Handler | ServeMux, options: ServeOptions = {}): NodeServer {
  const headersTimeout = options.headersTimeout ?? 15_000;
  const requestTimeout = options.requestTimeout ?? 60_000;
  const logger = loggerFor(handler, options);
  const server = new NodeServer(
    {
      headersTimeout,
      requestTimeout,
      // Node checks both timeouts every 30 s: a 15 s limit could hold for 45. Check at a quarter of the shorter.
      connectionsCheckingInterval: Math.max(50, Math.min(30_000, Math.min(headersTimeout, requestTimeout) / 4)),
      ...(options.keepAliveTimeout === undefined ? {} : { keepAliveTimeout: options.keepAliveTimeout }),
    },
    toNodeListener(handler, options),
    logger,
    options.shutdownTimeout ?? 10_000,
  );
  server.maxConnections = options.maxConnections ?? defaultMaxConnections;
  // WebSockets: an upgrade request is routed as any other; a socket route's answer opens the socket (websocket.ts).
  const sockets = new WebSockets(logger, shutdownOf(server, logger));
  const upgrade = toUpgradeListener(handler, options, (...args) => sockets.open(...args));
  server.on('upgrade', (incoming: IncomingMessage, socket: Duplex, head: Buffer) => {
    sockets.follow(socket);
    upgrade(incoming, socket, head);
  });
  let warned = 0;
  server.on('drop', () => {
    if (Date.now() - warned < 60_000) return;
    warned = Date.now();
    logger.warn(
      `pagetree: refused a connection: ${server.maxConnections} are open (serve's maxConnections); ` +
        `run more instances, or raise the limit if the process has room`,
    );
  });
  const port = options.port ?? envPort(process.env.PORT);
  const info = (message: string) => (logger.info ? logger.info(message) : console.log(message));
  const onListen = options.onListen ?? ((url: string) => info(`pagetree: listening on ${url}`));
  server.listen(port, options.hostname, () => onListen(serverUrl(server, options.hostname)));
  const listenFailed = (err: NodeJS.ErrnoException) => portInUse(server, err, port, options, logger);
  server.once('error', listenFailed);
  server.once('listening', () => server.off('error', listenFailed));
  if (options.handleSignals ?? true) {
    const stop = (signal: string) => {
      info(`pagetree: ${signal}, finishing in-flight requests`);
      server.shutdown().then(
        () => process.exit(0),
        (err: unknown) => {
          logger.error('pagetree: shutdown failed', err);
          process.exit(1);
        },
      );
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    server.once('close', () => {
      process.removeListener('SIGINT', stop);
      process.removeListener('SIGTERM', stop);
    });
  }
  return server;
}

// A port in use (`npm start` twice, another server on it) is a mistake of the set-up, said in one line that names
// the port and how to pick another, not node's stack of an unhandled 'error'. An app that listens for the server's
// 'error' itself (`server.on('error', …)`, `await once(server, 'listening')`) gets it instead. serve() owns the
// process unless handleSignals is false: then the line is logged and the exit status set, and the caller decides.
// Any other failure to listen is thrown, as node would.
function portInUse(
  server: Server,
  err: NodeJS.ErrnoException,
  port: number,
  options: ServeOptions,
  logger: Logger,
): void {
  if (server.listenerCount('error') > 0) return;
  if (err.code !== 'EADDRINUSE') throw err;
  const other = port === 65535 ? 3000 : port + 1;
  const pick =
    options.port === undefined
      ? `pick another port: PORT=${other}`
      : `give serve() another port: serve(mux, { port: ${other} })`;
  const where = options.hostname ? `port ${port} of ${options.hostname}` : `port ${port}`;
  logger.error(
    `pagetree: ${where} is in use (another server listens on it, or this app runs already); stop that one, or ${pick}`,
  );
  process.exitCode = 1;
  // A moment for a logger that writes asynchronously; the timer does not hold a process that has nothing else to do.
  if (options.handleSignals ?? true) setTimeout(() => process.exit(1), 100).unref();
}

/**
 * Shuts a node server down, as `server.shutdown({ timeout })` does; any node server, `createServer(toNodeListener(mux))`
 * too: stops accepting, ends its event streams and runs its `onShutdown` hooks, lets in-flight requests finish, and
 * closes the connections still open after `timeout` ms.
 * @deprecated Call the method of the server `serve()` returns: `await server.shutdown({ timeout })`.
 * @example await shutdown(server, 5000) // → await server.shutdown({ timeout: 5000 })
 */
export function shutdown(server: Server, timeout = 10_000): Promise<void> {
  if (server instanceof NodeServer) return server.shutdown({ timeout });
  return shutDown(server, shutdownOf(server, consoleLogger), timeout);
}

/**
 * Runs `fn` once when the shutdown of `server` starts, as `server.onShutdown(fn)` does; any node server too.
 * @deprecated Call the method of the server `serve()` returns: `server.onShutdown(fn)`.
 * @example const remove = onShutdown(server, () => jobs.stop()) // → server.onShutdown(() => jobs.stop())
 */
export function onShutdown(server: Server, fn: () => void): () => void {
  if (server instanceof NodeServer) return server.onShutdown(fn);
  return shutdownOf(server, consoleLogger).onStart(fn);
}

// PORT from the environment: unset or empty, 3000; "0", a free port (as the port option); anything that is not a
// port number is an error, not a silent 3000.
function envPort(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return 3000;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new RangeError(`serve(): PORT=${JSON.stringify(value)} is not a port number; set it to 0–65535 or unset it`);
  }
  return port;
}

function serverUrl(server: Server, hostname: string | undefined): string {
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  const host = !hostname || hostname === '0.0.0.0' || hostname === '::' ? 'localhost' : hostname;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}
