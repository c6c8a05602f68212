// The contract between a server adapter and the core: what an adapter hands over with each request, and what it gets
// back.
//
//   adapter                                        core
//   ───────                                        ────
//   a Web Request (method, url, headers, body)  →  ServeMux routes on facts.target; a page reads clientAddress(req);
//   + RequestFacts, for what it knows beyond it:    a page timeout calls facts.abort
//       target      the request target as received
//       client      the client's address
//       abort       aborts the request whole
//       guardsBody  its body reads answer 4xx themselves
//                                               ←  a Response; answerOf(res) reads the Answer in it once:
//                                                  status, headers, body (a string, bytes or a stream)
//
// The node adapter (core/node) makes its own Request class, which carries its facts under `requestFacts`.
// `mux.fetch` gets the runtime's Request: its facts are derived from it, with what the runtime passed besides
// (`handOver`: Deno's `info`, Bun's `server`) for the client's address. An adapter of your own does either
// (docs/adapters.md). A ServeMux routes the request itself (`mux.serveHTTP(req)`); any other handler is called
// through `serveHandler`, which gives the request the route the mux would have (none).

import type { Logger } from './logger.ts';
import { callHandler, setRoute, type Handler } from './request.ts';

/** The parts of a request target the mux routes on. */
export interface RequestTarget {
  /** The host as sent, port included (the mux strips it as Go does). */
  host: string;
  /**
   * The escaped path, starting with "/"; "*" for `OPTIONS *`; '' for an absolute-form target without one
   * (`GET http://a.com HTTP/1.1`), which the mux redirects to "/" as Go's does.
   */
  path: string;
  /** The raw query without "?", or "". */
  query: string;
}

/** What an adapter knows of a request that a Web Request does not say. */
export interface RequestFacts {
  /** The request target as received: it spares the core a URL parse, and keeps a host a URL would normalise. */
  readonly target: RequestTarget;
  /** The client's IP address as the connection saw it (no proxy header is read); '' when the adapter cannot tell. */
  readonly client: string;
  /**
   * Aborts the request whole: its `signal` fires and a body still being read fails with `reason`. Without it, a page
   * timeout gives the request a signal of its own joined with the original.
   */
  readonly abort?: (reason: unknown) => void;
  /**
   * The request's `formData()` and `json()` already fail with a 4xx HttpError on a body that cannot be parsed, and
   * count a form against limits (the node adapter's do). Without it, the page pipeline gives the request its own.
   */
  readonly guardsBody?: boolean;
}

/** The key under which an adapter's own Request class carries its facts. */
export const requestFacts: unique symbol = Symbol.for('pagetree.requestFacts');

/** A Request made by an adapter, with its facts. */
export interface AdapterRequest extends Request {
  readonly [requestFacts]: RequestFacts;
}

// No pattern and no path values, shared: a handler called without a mux reads '' for each.
const noValues: string[] = [];

/**
 * Calls a handler that is not a ServeMux (a function, or an object with `serveHTTP`) for a request an adapter made:
 * the request becomes a PageRequest with no pattern (`req.pattern` is '', every `pathValue` '') whose later
 * failures (an event stream's cleanup) are reported to `logger`, as a mux leaves the requests it routes. A ServeMux
 * is called as `mux.serveHTTP(req)`: it sets the route it matched itself.
 * @example serveHandler((req) => new Response(req.pattern), req, logger) // → Response with body ""
 */
export function serveHandler(handler: Handler, req: Request, logger: Logger): Response | Promise<Response> {
  return callHandler(handler, setRoute(req, '', noValues, noValues, logger));
}

// What a runtime passed mux.fetch besides each Request it made (Deno's `info`, Bun's `server`), for clientAddress: one
// property on the Request (the mux sets its route there too), and the address asked for only when a page wants it.
// Not a WeakMap: an entry per request cost Deno.serve ~2 µs of its ~40 (bench/runtimes, issue 28), GC's share.
const kHandedOver = Symbol('pagetree.handedOver');

/**
 * Records what a runtime passed a fetch handler besides the Request (Deno's `info`, Bun's `server`): `mux.fetch`
 * calls it; `clientAddress` reads the address from it.
 * @example handOver(req, info) // in Deno.serve's handler
 */
export function handOver(req: Request, info: object): void {
  (req as { [kHandedOver]?: object })[kHandedOver] = info;
}

/**
 * The request's facts: its adapter's, else derived from the Request itself: the target from `req.url` with the host
 * of the `Host` header when there is one (Go routes on `r.Host`, the header as sent; a URL drops a default port,
 * `[::1]:80` → `[::1]`, which would let a host pattern match what Go's does not); its client is '' (clientAddress
 * reads what the runtime handed over).
 * @example factsOf(new Request('http://a.com/x?q=1')).target // → { host: "a.com", path: "/x", query: "q=1" }
 */
export function factsOf(req: Request): RequestFacts {
  const own = ownFacts(req);
  if (own !== undefined) return own;
  return { target: new UrlTarget(req, parseTarget(req.url)), client: '' };
}

// A Request's target derived from its URL, the host from its Host header when it has one. The header is read when the
// host is first asked for: the mux asks only when it has host patterns, and on Deno a header read costs ~1,500
// instructions, 1% of a request (bench/runtimes/instructions.ts).
class UrlTarget implements RequestTarget {
  path: string;
  query: string;
  #host: string;
  #req: Request | undefined;
  constructor(req: Request, parsed: RequestTarget) {
    this.path = parsed.path;
    this.query = parsed.query;
    this.#host = parsed.host;
    this.#req = req;
  }
  get host(): string {
    if (this.#req !== undefined) {
      this.#host = this.#req.headers.get('host') ?? this.#host;
      this.#req = undefined;
    }
    return this.#host;
  }
  set host(host: string) {
    this.#host = host;
    this.#req = undefined;
  }
}

/**
 * The facts an adapter's own Request carries, or undefined (a Request it did not make).
 * @example ownFacts(new Request('http://x/')) // → undefined
 */
export function ownFacts(req: Request): RequestFacts | undefined {
  return (req as Partial<AdapterRequest>)[requestFacts];
}

/**
 * The request's target (see `factsOf`).
 * @example requestTarget(req).path // → "/users/7"
 */
export function requestTarget(req: Request): RequestTarget {
  return factsOf(req).target;
}

/**
 * The IP address of the client that sent the request, as the connection saw it: the node adapter's socket's, or
 * Deno's and Bun's (when they call `mux.fetch` themselves, with their `info` or `server`); '' where the runtime does not
 * say (a Request made in a test, workerd). No `X-Forwarded-For` is read: behind a proxy, read the header your proxy
 * sets, and trust it only from that proxy (docs/adapters.md).
 * @example clientAddress(req) // → "127.0.0.1"
 */
export function clientAddress(req: Request): string {
  const own = ownFacts(req);
  if (own !== undefined) return own.client;
  const info = (req as { [kHandedOver]?: object })[kHandedOver];
  return info === undefined ? '' : runtimeClient(req, info);
}

// Deno's `info.remoteAddr.hostname`, or Bun's `server.requestIP(req).address`.
function runtimeClient(req: Request, info: object): string {
  let client: unknown;
  const deno = (info as { remoteAddr?: { hostname?: unknown } }).remoteAddr;
  if (deno !== undefined) client = deno.hostname;
  else if (typeof (info as { requestIP?: unknown }).requestIP === 'function') {
    client = (info as { requestIP(req: Request): { address?: unknown } | null }).requestIP(req)?.address;
  }
  return typeof client === 'string' ? client : '';
}

/**
 * Splits an absolute URL string into host, escaped path and query without
 * building a URL object (several times cheaper per request). A target without
 * a path keeps it empty, as Go's url.ParseRequestURI does (a WHATWG URL of
 * http or https always has one).
 * @example parseTarget('http://a.com:80/x%2Fy?q=1') // → { host: "a.com:80", path: "/x%2Fy", query: "q=1" }
 * @example parseTarget('http://a.com?q=1') // → { host: "a.com", path: "", query: "q=1" }
 */
export function parseTarget(url: string): RequestTarget {
  const scheme = url.indexOf('://');
  const authStart = scheme < 0 ? 0 : scheme + 3;
  const pathStart = authorityEnd(url, authStart);
  let hash = url.indexOf('#', pathStart);
  if (hash < 0) hash = url.length;
  let q = url.indexOf('?', pathStart);
  if (q < 0 || q > hash) q = hash;
  const host = url.slice(authStart, pathStart);
  const at = host.lastIndexOf('@');
  return {
    host: at < 0 ? host : host.slice(at + 1),
    path: url.slice(pathStart, q),
    query: q < hash ? url.slice(q + 1, hash) : '',
  };
}

// Whether a host makes a URL, by host: hosts repeat, so the answer is cached (a bounded map: a scanner's random hosts
// are parsed each time).
const hostVerdicts = new Map<string, boolean>();

/**
 * Whether a request's host (its Host header, or the authority of an absolute-form target) makes a URL: what a page's
 * `new URL(req.url)` needs, and what a Request needs to be made at all. No userinfo (a Request refuses credentials in
 * its URL), nothing that would end the authority, a port of 0–65535. An adapter answers a request whose host is not
 * valid with a 400 before any handler, as Go's server does ("malformed Host header").
 * @example validHost('example.com:8080') // → true
 * @example validHost('ex ample') // → false
 */
export function validHost(host: string): boolean {
  let ok = hostVerdicts.get(host);
  if (ok === undefined) {
    ok = host === '' || (!/[@/\\?#]/.test(host) && parses(`http://${host}/`));
    if (hostVerdicts.size < 256) hostVerdicts.set(host, ok);
  }
  return ok;
}

// URL.canParse where the runtime has it (Node ≥ 19.9, Bun, Deno, workerd of 2023 on); an older workerd
// compatibility date may lack it, and this runs on every request of mux.fetch.
function parses(url: string): boolean {
  if (typeof URL.canParse === 'function') return URL.canParse(url);
  try {
    new URL(url);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether the authority of an absolute URL string is a valid host (validHost): the check of a request a Web runtime
 * made, whose `url` holds the Host header as the client sent it (Bun: "http://ex ample/"; Deno: "http://x:99999/").
 * @example validUrlHost('http://x:99999/') // → false
 */
export function validUrlHost(url: string): boolean {
  const scheme = url.indexOf('://');
  if (scheme < 0) return false;
  return validHost(url.slice(scheme + 3, authorityEnd(url, scheme + 3)));
}

// Where the authority that begins at `start` ends: at the first '/', '?' or '#', else the end of the URL.
function authorityEnd(url: string, start: number): number {
  let end = start;
  for (; end < url.length; end++) {
    const c = url.charCodeAt(end);
    if (c === 0x2f || c === 0x3f || c === 0x23) break;
  }
  return end;
}
