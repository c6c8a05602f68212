// What a handler receives: the standard Web Request plus the path values of
// the pattern that matched, as Go's Request.PathValue gives them.
//
// The mux does not wrap the request: it sets `pathValue`, `setPathValue` and
// `pattern` on it, so `req instanceof Request` stays true and nothing is copied.

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
}

function pathValue(this: Request & { [kValues]?: PathValues }, name: string): string {
  const pv = this[kValues];
  if (!pv) return '';
  const i = pv.names.indexOf(name);
  return i >= 0 ? pv.values[i]! : (pv.extra?.get(name) ?? '');
}

function setPathValue(this: Request & { [kValues]?: PathValues }, name: string, value: string): void {
  const pv = (this[kValues] ??= { names: [], values: [], extra: undefined });
  const i = pv.names.indexOf(name);
  if (i >= 0) pv.values[i] = value;
  else (pv.extra ??= new Map()).set(name, value);
}

/**
 * Makes `req` a PageRequest for the matched pattern: sets its pattern and
 * path values (names in pattern order, values in the same order).
 */
export function setRoute(req: Request, pattern: string, names: readonly string[], values: string[]): PageRequest {
  const r = req as Request & { [kValues]?: PathValues; pathValue?: unknown; setPathValue?: unknown; pattern?: string };
  r[kValues] = { names, values, extra: undefined };
  r.pathValue = pathValue;
  r.setPathValue = setPathValue;
  r.pattern = pattern;
  return r as PageRequest;
}

/**
 * Calls a handler of either form.
 * @example callHandler(mux, req) // → mux.serveHTTP(req)
 */
export function callHandler(h: Handler, req: PageRequest): Response | Promise<Response> {
  return typeof h === 'function' ? h(req) : h.serveHTTP(req);
}

/** The parts of a request URL the mux routes on. */
export interface RequestTarget {
  /** The host as sent, port included (the mux strips it as Go does). */
  host: string;
  /** The escaped path, starting with "/" (or "*" for `OPTIONS *`). */
  path: string;
  /** The raw query without "?", or "". */
  query: string;
}

/** Where an adapter that already knows the target (node:http) puts it, to skip URL parsing. */
export const kTarget = Symbol('pagetree.requestTarget');

/**
 * Splits an absolute URL string into host, escaped path and query without
 * building a URL object (several times cheaper per request).
 * @example parseTarget('http://a.com:80/x%2Fy?q=1') // → { host: "a.com:80", path: "/x%2Fy", query: "q=1" }
 */
export function parseTarget(url: string): RequestTarget {
  const scheme = url.indexOf('://');
  const authStart = scheme < 0 ? 0 : scheme + 3;
  let pathStart = authStart;
  while (pathStart < url.length && !'/?#'.includes(url[pathStart]!)) pathStart++;
  let hash = url.indexOf('#', pathStart);
  if (hash < 0) hash = url.length;
  let q = url.indexOf('?', pathStart);
  if (q < 0 || q > hash) q = hash;
  const host = url.slice(authStart, pathStart);
  const at = host.lastIndexOf('@');
  return {
    host: at < 0 ? host : host.slice(at + 1),
    path: q > pathStart ? url.slice(pathStart, q) : '/',
    query: q < hash ? url.slice(q + 1, hash) : '',
  };
}

/**
 * The request's target: the adapter's, or parsed from `req.url` with the host
 * of the `Host` header when there is one. Go routes on `r.Host`, the header as
 * sent; a URL drops a default port (`[::1]:80` → `[::1]`), which would let a
 * host pattern match what Go's does not.
 */
export function requestTarget(req: Request): RequestTarget {
  const known = (req as Request & { [kTarget]?: RequestTarget })[kTarget];
  if (known) return known;
  const target = parseTarget(req.url);
  const host = req.headers.get('host');
  if (host !== null) target.host = host;
  return target;
}
