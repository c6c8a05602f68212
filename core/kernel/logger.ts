// The logger every layer reports through: the mux's fetch, the node adapter, and the page pipeline of the pages
// mounted on the mux. One per mux, replaced with `new ServeMux({ logger })`, as Go's http.Server has its ErrorLog.
//
//   handler threw            → logger.error('pagetree: handler for GET http://x/a failed:', err)   then a bare 500
//   a client sent a bad body → logger.warn('pagetree: POST http://x/a: 400 Bad Request (…)')         then the 400

import { textError } from './answer.ts';

/** Where pagetree reports failures: `new ServeMux({ logger })`; the default writes to the console. */
export interface Logger {
  /** The server's fault: a handler or page threw, the error handler failed, a page timed out. */
  error(message: string, err?: unknown): void;
  /** Worth a line but not the server's fault: a malformed request body, a route with nothing to serve. */
  warn(message: string): void;
  /** Routine: the access log's lines (mount's `accessLog: true`). Optional: a logger without it cannot take them. */
  info?(message: string): void;
}

/** The default logger: console.error, console.warn and console.log. */
export const consoleLogger: Logger = {
  error: (message, err) => (err === undefined ? console.error(message) : console.error(message, err)),
  warn: (message) => console.warn(message),
  info: (message) => console.log(message),
};

/**
 * The answer to a handler that threw (or answered with something that is not a Response): logged, then a 500
 * with no detail in the body. The last resort of `mux.fetch` and the node adapter; pages answer their own
 * failures through their error handler.
 * @example handlerFailed(mux.logger, req, err) // → 500 "Internal Server Error"
 */
export function handlerFailed(logger: Logger, req: Request, err: unknown): Response {
  logger.error(`pagetree: handler for ${req.method} ${req.url} failed:`, err);
  return textError(500, 'Internal Server Error');
}
