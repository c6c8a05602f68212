// ServeMux: Go's net/http.ServeMux (Go 1.22+ patterns, as of Go 1.26) on the
// Web Request/Response.
//
// handle() parses the pattern, rejects it if it conflicts with one already
// registered, and adds it to the routing tree. A request is routed by
//   1. cleaning its path ("/a//b/../c" → 307 to "/a/c", query kept; the empty path of
//      "GET http://a.com HTTP/1.1" → 307 to "/"),
//   2. matching host, method and path in the tree (most specific wins),
//   3. failing that, redirecting "/x" to "/x/" when only "/x/" would match (307),
//   4. failing that, 405 with Allow when another method would match, else 404 (handleNotFound replaces it).

import { ConflictError } from './errors.ts';
import { consoleLogger, guardLogger, type Logger } from '../kernel/logger.ts';
import { redirectResponse, textError } from '../kernel/answer.ts';
import { fetchHandler } from '../kernel/fetch.ts';
import { requestTarget } from '../kernel/adapter.ts';
import { conflictsWith, describeConflict } from './compare.ts';
import { cleanPath, parsePattern, type Pattern } from './pattern.ts';
import {
  callHandler,
  setRoute,
  type Handler,
  type HandlerFunc,
  type HandlerObject,
  type PageRequest,
} from '../kernel/request.ts';
import { RoutingIndex } from './routing-index.ts';
import { Route, RoutingNode } from './routing-tree.ts';
import { SplitPath } from './split-path.ts';

/** What `ServeMux.handler` finds for a request, as Go's ServeMux.Handler. */
export interface HandlerMatch {
  /** The registered handler, or the mux's own 404, 405 or redirect handler. */
  handler: Handler;
  /** The matched pattern; for a redirect, the path that will match after it; else "". */
  pattern: string;
}

const notFound: HandlerFunc = () => textError(404, '404 page not found');
const badRequest = new Route<Handler>(() => textError(400, 'Bad Request'), null);
const noValues: string[] = []; // never written: setPathValue adds names that are not the pattern's elsewhere

/**
 * An HTTP request multiplexer with Go's pattern syntax and precedence.
 * @example
 * const mux = new ServeMux();
 * mux.handleFunc('GET /users/{id}', (req) => new Response(req.pathValue('id')));
 * await mux.fetch(new Request('http://x/users/7')); // → 200 "7"
 */
export class ServeMux implements HandlerObject {
  #tree = new RoutingNode<Handler>();
  #index = new RoutingIndex();
  /** Where this mux, the node adapter serving it and the pages mounted on it report failures. */
  readonly logger: Logger;
  #notFound = new Route<Handler>(notFound, null);
  // The path of the request being routed, reused: routing is synchronous and copies the path values out.
  #split = new SplitPath();

  constructor(options: { logger?: Logger } = {}) {
    this.logger = guardLogger(options.logger ?? consoleLogger); // a logger that throws costs only its line
    // The mux itself rather than a closure: its serveHTTP is called from the fetch handler's frame (bench/path).
    this.fetch = fetchHandler(this, this.logger);
  }

  /**
   * Answers the requests that no pattern matches (Go's 404) with `handler` instead of the plain-text 404. The
   * 405 with Allow, the trailing-slash redirect and path cleaning stay Go's (a catch-all "/" pattern would turn
   * every 405 into a 404). mount's `notFound` option sets a page here.
   * @example mux.handleNotFound(() => new Response('<h1>Nothing here</h1>', { status: 404 }))
   */
  handleNotFound(handler: Handler): void {
    if (handler == null) throw new TypeError(`ServeMux.handleNotFound(): handler is ${handler}`);
    this.#notFound = new Route<Handler>((req: PageRequest) => callHandler(handler, req), null);
  }

  /**
   * Registers a handler for a pattern. Throws a PatternError for a malformed
   * pattern and a ConflictError when it conflicts with a registered one. A
   * pattern parsed already (mount parses each route's once) keeps its own `loc`.
   * @example mux.handle('GET /static/', files)
   */
  handle(pattern: string | Pattern, handler: Handler, source?: string): void {
    if (handler == null) {
      const str = typeof pattern === 'string' ? pattern : pattern.str;
      throw new TypeError(`ServeMux.handle(${JSON.stringify(str)}): handler is ${handler}`);
    }
    const p = typeof pattern === 'string' ? parsePattern(pattern, source ?? callerLocation()) : pattern;
    for (const q of this.#index.possiblyConflicting(p)) {
      if (conflictsWith(p, q)) {
        throw new ConflictError(
          p.str,
          q.str,
          `pattern ${JSON.stringify(p.str)} (registered at ${p.loc}) conflicts with pattern ` +
            `${JSON.stringify(q.str)} (registered at ${q.loc}):\n${describeConflict(p, q)}`,
        );
      }
    }
    this.#tree.addPattern(p, handler);
    this.#index.add(p);
  }

  /**
   * Registers a handler function for a pattern (see `handle`).
   * @example mux.handleFunc('/{$}', () => new Response('home'))
   */
  handleFunc(pattern: string, handler: HandlerFunc, source?: string): void {
    this.handle(pattern, handler, source);
  }

  /**
   * The handler and pattern for a request without calling it, as Go's ServeMux.Handler.
   * @example mux.handler(new Request('http://x/a')).pattern // → "/a/" (a redirect to "/a/")
   */
  handler(req: Request): HandlerMatch {
    const r = this.#route(req);
    return { handler: r.handler, pattern: r.str };
  }

  /**
   * Routes the request and calls the handler; the request becomes a PageRequest.
   * @example mux.serveHTTP(req) // → Response | Promise<Response>
   */
  serveHTTP(req: Request): Response | Promise<Response> {
    const r = this.#route(req);
    const p = r.pattern;
    const routed =
      p === null || p.wildcards.length === 0
        ? setRoute(req, r.str, noValues, noValues, this.logger)
        : setRoute(req, r.str, p.wildcards, this.#split.values(p), this.logger);
    // callHandler's test, here: the handler is called from this frame (bench/path's hops).
    const h = r.handler;
    return typeof h === 'function' ? h(routed) : h.serveHTTP(routed);
  }

  /**
   * The Web fetch handler: routes and answers with a real `Response` (what
   * Bun, Deno and workerd require), never rejects. A handler that throws, or
   * answers with something that is not a Response, gets a 500 with no detail in
   * the body (the error is logged), and a HEAD answer loses its body. Bound to
   * its mux, so it can be passed as it is. Deno's and Bun's second argument (`info`, `server`) tells
   * `clientAddress(req)` the client's address.
   * @example Deno.serve(mux.fetch); Bun.serve({ fetch: mux.fetch }); export default { fetch: mux.fetch }
   */
  readonly fetch: (req: Request, info?: unknown) => Promise<Response>;

  // Go's findHandler: the route for the request, or one of the mux's own answers. When it is a registered
  // pattern's, #split holds the request's path for its values.
  #route(req: Request): Route<Handler> {
    const method = req.method;
    const target = requestTarget(req);
    // Go's ServeMux answers the request target "*" with 400 before routing (Go's server, and serve(), answer
    // "OPTIONS *" themselves before it gets here).
    if (target.path === '*') return badRequest;
    const tree = this.#tree;
    const sp = this.#split;
    let host = '';
    let path = target.path;
    sp.reset(path);
    // CONNECT requests are not canonicalized, but the "/tree" → "/tree/" redirect applies.
    if (method !== 'CONNECT') {
      // Without host patterns the host decides nothing, and is not read: on Deno and Bun it is a header read.
      if (tree.hasHosts) host = stripHostPort(target.host);
      if (!sp.clean) sp.reset((path = cleanPath(path)));
    } else host = target.host;
    const r = tree.match(host, method, sp);
    // The path with a trailing slash, for the redirect and the 405 (Go issue 67657: not for one that has it).
    const slashable = path !== '' && path.charCodeAt(path.length - 1) !== 47;
    // For a miss: the methods that match the path or the path with a slash (null: no pattern does).
    let allow: string | null = null;
    if (slashable && (r === null || (r.multi && !sp.exactFor(r.pattern!)))) {
      sp.withSlash(true);
      // A miss asks which methods would match first: when no pattern matches "/x/", no redirect goes there,
      // and a 404 then costs one walk instead of two (bench/router misses).
      if (r === null) allow = tree.allowedMethods(host, sp);
      if (r !== null || allow !== null) {
        // If "/x/" would match exactly, redirect "/x" there (reporting the pattern it leads to).
        const r2 = tree.match(host, method, sp);
        if (r2 !== null && sp.exactFor(r2.pattern!)) return redirect(withQuery(path + '/', target.query), r2.str);
      }
      sp.withSlash(false);
    } else if (r === null) {
      allow = tree.allowedMethods(host, sp);
    }
    if (path !== target.path) return redirect(withQuery(path, target.query), r !== null ? r.str : '');
    if (r !== null) return r;
    // Not Found, or Method Not Allowed when another method would match (patterns without one would have).
    if (allow === null || allow === '') return this.#notFound;
    return new Route<Handler>(() => textError(405, 'Method Not Allowed', { allow }), null);
  }
}

// The mux's own 307 to location, reporting the pattern Go reports for it.
function redirect(location: string, pattern: string): Route<Handler> {
  return new Route<Handler>((r: Request) => redirectResponse(r.method, location, 307), null, pattern);
}

// A redirect Location from the request's own path and query. The path is escaped as Go's url.URL escapes one
// (shouldEscape for a path): every byte but letters, digits, "-._~", "$&+,;=:@" and "/", so "/x/../a*b" goes to
// "/a%2Ab" as in Go, though a URL may hold "!'()*" unescaped. A raw "\\" from node's request line would otherwise
// make "/\\evil.com/" a link to another origin, since browsers read "\\" as "/". Unlike Go, a valid "%XX" stays as
// sent (Go escapes its "%" again: "/a%2Fb" would become "/a%252Fb", another path). The query is kept as it came, as
// in Go: it cannot change where the link goes.
function withQuery(path: string, query: string): string {
  unsafeInPath.lastIndex = 0;
  const p = unsafeInPath.test(path) ? path.replace(unsafeInPath, escapeChar) : path;
  return query === '' ? p : `${p}?${query}`;
}

const unsafeInPath = /[^A-Za-z0-9\-._~$&+,;=:@/%]|%(?![0-9A-Fa-f]{2})/g;

function escapeChar(c: string): string {
  return Array.from(Buffer.from(c, 'utf8'), (b) => '%' + b.toString(16).toUpperCase().padStart(2, '0')).join('');
}

/**
 * The host without a trailing ":port", as Go's stripHostPort: unchanged when
 * there is no colon or when net.SplitHostPort refuses it; "[::1]:80" → "::1"
 * (the brackets go too, so a pattern host "[::1]" never matches a port).
 */
function stripHostPort(h: string): string {
  const i = h.lastIndexOf(':');
  if (i < 0) return h;
  let host: string;
  let j = 0; // no "[" may stand at or after j,
  let k = 0; // no "]" at or after k
  if (h[0] === '[') {
    const end = h.indexOf(']');
    if (end < 0 || end + 1 !== i) return h; // no "]", no port, or a colon after the port's
    host = h.slice(1, end);
    j = 1;
    k = end + 1;
  } else {
    host = h.slice(0, i);
    if (host.includes(':')) return h; // too many colons
  }
  if (h.includes('[', j) || h.includes(']', k)) return h;
  return host;
}

// The first stack frame outside core/mux, for conflict messages (Go uses runtime.Caller).
function callerLocation(): string {
  const stack = new Error().stack?.split('\n').slice(1) ?? [];
  const frame = stack.find((l) => !/[\\/]core[\\/]mux[\\/]/.test(l));
  return frame ? frame.trim().replace(/^at /, '') : 'unknown location';
}
