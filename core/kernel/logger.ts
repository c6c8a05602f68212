// The logger every layer reports through: the mux's fetch, the node adapter, and the page pipeline of the pages
// mounted on the mux. One per mux, replaced with `new ServeMux({ logger })`, as Go's http.Server has its ErrorLog.
//
//   handler threw            → logger.error('pagetree: handler for GET http://x/a failed:', err)   then a bare 500
//   a client sent a bad body → logger.warn('pagetree: POST http://x/a: 400 Bad Request (…)')         then the 400
//
// A logger is the app's code, and pagetree calls it where a throw has nowhere to go: in a timer (a streamed page's
// timeout), in a promise's handler (a region an answer left out, a failed handler's 500), in a stream's event. There a
// throw would end the process or leave an answer hanging, so every logger is guarded once, where it enters
// (`new ServeMux`, `serve`'s option): a logger that throws, or returns a promise that rejects, costs only its own
// line, which goes to console.error instead, with what the logger threw:
//
//   guardLogger({ error() { throw new Error('down') }, warn() {} }).error('pagetree: …', err)
//     → console.error('pagetree: …', err)
//       console.error("pagetree: the logger's error() failed on the line above:", Error('down'))

import { textError } from './answer.ts';

/** Where pagetree reports failures: `new ServeMux({ logger })`; the default writes to the console. */
export interface Logger {
  /** The server's fault: a handler or page threw, the error handler failed, a page timed out. */
  error(message: string, err?: unknown): void;
  /** Worth a line but not the server's fault: a malformed request body, a route with nothing to serve. */
  warn(message: string): void;
  /** Routine: the access log's lines (mount's `observe: { accessLog: true }`). Optional: a logger without it cannot take them. */
  info?(message: string): void;
}

// The loggers guardLogger made: guarding one again returns it as it is.
const guarded = new WeakSet<Logger>();

/**
 * The logger as pagetree calls it: each method calls `logger`'s (as a method, so a class's `this` holds), and a
 * call that throws, or returns a promise that rejects, is reported to console.error instead of escaping. Keeps
 * `info` absent when `logger` has none. The mux and `serve` guard the logger they are given; guarding twice is free.
 * @example guardLogger(appLogger).error('pagetree: x failed:', err) // → appLogger's line, or console.error's
 */
export function guardLogger(logger: Logger): Logger {
  if (guarded.has(logger)) return logger;
  // The arguments passed on as given: a logger (or a test's mock) sees the calls it saw unguarded.
  const safe: Logger = {
    error: (...args: [string, unknown?]) => call('error', args, () => logger.error(...args)),
    warn: (message) => call('warn', [message], () => logger.warn(message)),
  };
  if (typeof logger.info === 'function') safe.info = (message) => call('info', [message], () => logger.info!(message));
  guarded.add(safe);
  return safe;
}

// One report through the app's logger; its failure, now or later, reported to the console.
function call(method: keyof Logger, args: [string, unknown?], report: () => unknown): void {
  let out: unknown;
  try {
    out = report();
  } catch (loggerErr) {
    loggerFailed(method, args, loggerErr);
    return;
  }
  // An async logger (a line written to a database): its rejection is observed here, where its promise comes back.
  if (typeof out === 'object' && out !== null && typeof (out as { then?: unknown }).then === 'function') {
    try {
      (out as PromiseLike<unknown>).then(undefined, (loggerErr: unknown) => loggerFailed(method, args, loggerErr));
    } catch (loggerErr) {
      loggerFailed(method, args, loggerErr);
    }
  }
}

function loggerFailed(method: keyof Logger, args: [string, unknown?], loggerErr: unknown): void {
  try {
    console.error(...args);
    console.error(`pagetree: the logger's ${method}() failed on the line above:`, loggerErr);
  } catch {
    // the console failed too (an error whose inspection throws): nothing more can be told, and nothing must escape
  }
}

/** The default logger: console.error, console.warn and console.log; guarded (what they cannot print is dropped). */
export const consoleLogger: Logger = guardLogger({
  error: (message, err) => (err === undefined ? console.error(message) : console.error(message, err)),
  warn: (message) => console.warn(message),
  info: (message) => console.log(message),
});

/**
 * The answer to a handler that threw (or answered with something that is not a Response): logged, then a 500
 * with no detail in the body. The last resort of `mux.fetch` and the node adapter; pages answer their own
 * failures through their error handler.
 * @example handlerFailed(mux.logger, req, err) // → 500 "Internal Server Error"
 */
export function handlerFailed(logger: Logger, req: Request, err: unknown): Response {
  guardLogger(logger).error(`pagetree: handler for ${req.method} ${req.url} failed:`, err);
  return textError(500, 'Internal Server Error');
}
