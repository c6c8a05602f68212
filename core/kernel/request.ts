// What a handler receives: the standard Web Request plus the path values of
// the pattern that matched, as Go's Request.PathValue gives them.
//
// The mux does not wrap the request: it sets `pathValue`, `setPathValue` and
// `pattern` on it, so `req instanceof Request` stays true and nothing is copied.

import { consoleLogger, type Logger } from './logger.ts';

/** The standard `Request` plus the matched pattern and its path values. */
export interface PageRequest extends Request {
  /**
   * The decoded value of a wildcard of the matched pattern; `''` when the
   * pattern has no wildcard of that name.
   * @example req.pathValue('userId') // "/users/{userId}" on "/users/a%20b" → "a b"
   */
  pathValue(name: string): string;
  /** Sets a path value, as Go's Request.SetPathValue (for middleware). */
  setPathValue(name: string, value: string): void;
  /** The pattern that matched, as registered (`''` for the mux's own 404/405/redirects). */
  readonly pattern: string;
}

/** A handler function: what `ServeMux.handleFunc` takes. */
export type HandlerFunc = (req: PageRequest) => Response | Promise<Response>;

/** A handler object, as Go's http.Handler: a ServeMux is one, so is a page with `serveHTTP`. */
export interface HandlerObject {
  serveHTTP(req: PageRequest): Response | Promise<Response>;
}

/** Either form of handler. */
export type Handler = HandlerFunc | HandlerObject;

const kValues = Symbol('pagetree.pathValues');

interface PathValues {
  names: readonly string[];
  values: string[];
  extra: Map<string, string> | undefined;
  /** The logger of the mux that routed the request: what runs later for it (a stream's cleanup) reports there. */
  logger: Logger | undefined;
}

function pathValue(this: Request & { [kValues]?: PathValues }, name: string): string {
  const pv = this[kValues];
  if (!pv) return '';
  const i = pv.names.indexOf(name);
  return i >= 0 ? pv.values[i]! : (pv.extra?.get(name) ?? '');
}

function setPathValue(this: Request & { [kValues]?: PathValues }, name: string, value: string): void {
  const pv = (this[kValues] ??= { names: [], values: [], extra: undefined, logger: undefined });
  const i = pv.names.indexOf(name);
  if (i >= 0) pv.values[i] = value;
  else (pv.extra ??= new Map()).set(name, value);
}

/**
 * Makes `req` a PageRequest for the matched pattern: sets its pattern and
 * path values (names in pattern order, values in the same order), and the
 * logger of the mux that routed it (`loggerOf`).
 */
export function setRoute(
  req: Request,
  pattern: string,
  names: readonly string[],
  values: string[],
  logger?: Logger,
): PageRequest {
  const r = req as Request & { [kValues]?: PathValues; pathValue?: unknown; setPathValue?: unknown; pattern?: string };
  r[kValues] = { names, values, extra: undefined, logger };
  r.pathValue = pathValue;
  r.setPathValue = setPathValue;
  r.pattern = pattern;
  return r as PageRequest;
}

/**
 * The logger of the mux that routed `req` (the innermost, when muxes nest); the console's for a request no mux
 * routed. For what a handler starts and something else ends, such as an event stream's cleanup.
 * @example loggerOf(req).error('pagetree: the cleanup failed:', err)
 */
export function loggerOf(req: Request): Logger {
  return (req as { [kValues]?: PathValues })[kValues]?.logger ?? consoleLogger;
}

/**
 * Calls a handler of either form.
 * @example callHandler(mux, req) // → mux.serveHTTP(req)
 */
export function callHandler(h: Handler, req: PageRequest): Response | Promise<Response> {
  return typeof h === 'function' ? h(req) : h.serveHTTP(req);
}

/**
 * Whether a value a page or handler returned is a promise or another thenable: the pipeline awaits it then, and stays
 * synchronous otherwise.
 * @example isThenable(Promise.resolve(1)) // → true; isThenable('<p>') // → false
 */
export function isThenable(x: unknown): x is PromiseLike<unknown> {
  return typeof x === 'object' && x !== null && typeof (x as { then?: unknown }).then === 'function';
}
