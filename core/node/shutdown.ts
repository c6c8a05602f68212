// A server's shutdown, kept on the server itself as Go's http.Server keeps `inShutdown` and `onShutdown`:
//
//   server[kShutdown] = Shutdown { started: false, hooks: { end event stream 1, end stream 2, jobs.stop } }
//   shutdown starts → started = true: each hook runs once (a throw is logged; the others run), the set is emptied;
//                     every answer from now on closes its connection; a hook added now runs at once
//   the server closed → done resolves (a second shutdown() meanwhile waits for the same close), and the record is
//                       reset: node lets a closed server listen again
//
// The server serve() returns makes its own at once; any other node server (one of `createServer(toNodeListener(mux))`)
// gets one when first asked (an event stream opened on it, the deprecated free `shutdown(server)`).

import type { Server } from 'node:http';
import type { Logger } from '../adapter.ts';

const kShutdown = Symbol('pagetree.shutdown');

/** What a server's shutdown has to know: whether it has begun, the hooks it runs, and how the close went. */
export class Shutdown {
  /** Whether the shutdown has begun: the answers from then on close their connections. */
  started = false;
  /** The close the first shutdown() began, that every later one waits for. */
  done: Promise<void> | undefined = undefined;
  readonly #hooks = new Set<() => void>();
  /** What runs when the timeout is up: kept from shutdown to shutdown (a server that listens again keeps them). */
  readonly #late = new Set<() => void>();
  readonly #logger: Logger;

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  /**
   * Runs `fn` once when the shutdown starts, or at once when it has. Returns the function that removes it (the
   * same function added twice runs twice, and each removal removes its own).
   * @example const remove = shutdown.onStart(() => jobs.stop())
   */
  onStart(fn: () => void): () => void {
    if (this.started) {
      this.#run(fn);
      return noop;
    }
    const once = () => this.#run(fn);
    this.#hooks.add(once);
    return () => void this.#hooks.delete(once);
  }

  /**
   * Runs `fn` each time a shutdown's timeout is up, beside node's closeAllConnections: for the connections node no
   * longer counts as its own (an upgrade whose answer is not written yet).
   * @example shutdown.onTimeout(() => { for (const s of pending) s.destroy(); })
   */
  onTimeout(fn: () => void): void {
    this.#late.add(fn);
  }

  /** The timeout is up: the onTimeout functions run. */
  timedOut(): void {
    for (const fn of this.#late) this.#run(fn);
  }

  /**
   * Begins the shutdown, once: the hooks run in the order they were added.
   * @example shutdown.start() // → each hook has run; answers close their connections
   */
  start(): void {
    if (this.started) return;
    this.started = true;
    const hooks = [...this.#hooks];
    this.#hooks.clear();
    for (const hook of hooks) hook();
  }

  #run(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.#logger.error('pagetree: an onShutdown hook failed:', err);
    }
  }
}

function noop(): void {}

/**
 * The shutdown of a node server (of the object its sockets name as theirs), made on first use with `logger` for the
 * hooks that fail.
 * @example shutdownOf(server, logger).onStart(() => jobs.stop())
 */
export function shutdownOf(server: object, logger: Logger): Shutdown {
  const owner = server as { [kShutdown]?: Shutdown };
  return (owner[kShutdown] ??= new Shutdown(logger));
}

/**
 * Whether the shutdown of `server` has begun. Read for each answer: one property, no Shutdown made.
 * @example if (shuttingDown(serverOf(incoming))) outgoing.shouldKeepAlive = false;
 */
export function shuttingDown(server: object): boolean {
  return (server as { [kShutdown]?: Shutdown })[kShutdown]?.started === true;
}

/**
 * Shuts `server` down: stops accepting, runs the hooks (event streams end, the user's work stops), closes each
 * keep-alive connection once it is idle, and after `timeout` ms every connection still open. Resolves once the
 * server has closed; a second call meanwhile waits for the first one's close.
 * @example await shutDown(server, shutdownOf(server, logger), 10_000)
 */
export function shutDown(server: Server, shutdown: Shutdown, timeout: number): Promise<void> {
  shutdown.start();
  return (shutdown.done ??= new Promise((resolve) => {
    const timer = setTimeout(() => {
      server.closeAllConnections();
      shutdown.timedOut();
    }, timeout);
    // A keep-alive connection turns idle once its in-flight response is done: close it then.
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    timer.unref();
    sweep.unref();
    server.close(() => {
      clearTimeout(timer);
      clearInterval(sweep);
      // Closed: node lets a server listen again, and then it serves as a new one (the old code did the same).
      shutdown.started = false;
      shutdown.done = undefined;
      resolve();
    });
    server.closeIdleConnections();
  }));
}
