// Cross-origin protection (CSRF), with the semantics of Go 1.25's
// http.CrossOriginProtection:
//
//   GET, HEAD, OPTIONS                              → allowed (safe methods)
//   Sec-Fetch-Site: same-origin | none              → allowed
//   Sec-Fetch-Site: cross-site | same-site          → 403, unless a trusted origin or a bypass pattern
//   no Sec-Fetch-Site, no Origin                    → allowed (same-origin, or not a browser)
//   no Sec-Fetch-Site, Origin host == Host          → allowed
//   no Sec-Fetch-Site, another Origin               → 403, unless a trusted origin or a bypass pattern

import type { Handler, HandlerFunc, PageRequest } from '../kernel/request.ts';
import { requestTarget } from '../kernel/adapter.ts';
import { ServeMux } from '../mux/serve-mux.ts';
import { textError } from '../kernel/answer.ts';

/** Options of `crossOriginProtection`. */
export interface CrossOriginOptions {
  /** Origins (`scheme://host[:port]`) whose requests are always allowed. */
  trustedOrigins?: string[];
  /** ServeMux patterns whose requests skip the check (e.g. a webhook: `POST /hooks/{name}`). */
  insecureBypassPatterns?: string[];
  /** Answers a rejected request (default: 403 with the reason as plain text). */
  deny?: HandlerFunc;
}

/**
 * Rejects unsafe cross-origin browser requests, as Go's http.CrossOriginProtection.
 * @example const csrf = new CrossOriginProtection(); csrf.addTrustedOrigin('https://admin.example.com');
 */
export class CrossOriginProtection {
  #bypass = new ServeMux();
  #hasBypass = false;
  #trusted = new Set<string>();
  #deny: HandlerFunc | null = null;

  /**
   * Allows every request whose Origin header is exactly `origin` (`scheme://host[:port]`).
   * @example csrf.addTrustedOrigin('https://example.com')
   */
  addTrustedOrigin(origin: string): void {
    const m = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]+)(.*)$/.exec(origin);
    if (!m)
      throw new TypeError(`addTrustedOrigin: invalid origin ${JSON.stringify(origin)}: scheme and host are required`);
    if (m[3] !== '') {
      throw new TypeError(
        `addTrustedOrigin: invalid origin ${JSON.stringify(origin)}: path, query, and fragment are not allowed`,
      );
    }
    this.#trusted.add(origin);
  }

  /**
   * Lets every request matching a ServeMux pattern skip the check.
   * @example csrf.addInsecureBypassPattern('POST /hooks/{name}')
   */
  addInsecureBypassPattern(pattern: string): void {
    this.#bypass.handleFunc(pattern, () => new Response(null, { status: 204 })); // only its pattern is used
    this.#hasBypass = true;
  }

  /** Sets the handler that answers a rejected request (default: 403). */
  setDenyHandler(deny: HandlerFunc | null): void {
    this.#deny = deny;
  }

  /**
   * Why the request must be rejected, or null when it may pass.
   * @example csrf.check(req) // → null for a same-origin POST
   */
  check(req: Request): string | null {
    const method = req.method;
    if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return null;
    const site = req.headers.get('sec-fetch-site');
    if (site === 'same-origin' || site === 'none') return null;
    if (site !== null && site !== '') {
      return this.#exempt(req) ? null : 'cross-origin request detected from Sec-Fetch-Site header';
    }
    const origin = req.headers.get('origin');
    if (origin === null || origin === '') return null;
    if (originHost(origin) === requestTarget(req).host) return null;
    return this.#exempt(req)
      ? null
      : 'cross-origin request detected, and/or browser is out of date: Sec-Fetch-Site is missing, and Origin does not match Host';
  }

  /**
   * Wraps a handler with the check.
   * @example mux.handle('POST /todos', csrf.handler(saveTodo))
   */
  handler(h: Handler): HandlerFunc {
    const call: HandlerFunc = typeof h === 'function' ? h : (req) => h.serveHTTP(req);
    return (req: PageRequest) => {
      const reason = this.check(req);
      if (reason === null) return call(req);
      return this.#deny ? this.#deny(req) : textError(403, reason);
    };
  }

  /**
   * The check as a pagetree middleware (it needs no page node, so it is typed without one and fits
   * `mount`'s `middlewares`).
   */
  middleware(): (next: HandlerFunc) => Handler {
    return (next) => this.handler(next);
  }

  // Bypass patterns and trusted origins are consulted last, as in Go.
  #exempt(req: Request): boolean {
    if (this.#hasBypass && this.#bypass.handler(req).pattern !== '') return true;
    const origin = req.headers.get('origin');
    return origin !== null && origin !== '' && this.#trusted.has(origin);
  }
}

// The host[:port] of an Origin header value, as Go's url.Parse gives it ("" when it does not parse).
function originHost(origin: string): string {
  const m = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^/?#]*)/.exec(origin);
  return m ? m[1]! : '';
}

/**
 * A middleware that rejects unsafe cross-origin browser requests (CSRF), as
 * Go 1.25's http.CrossOriginProtection does.
 * @example mount(mux, App, '/', 'Home', { middlewares: [crossOriginProtection()] })
 */
export function crossOriginProtection(options: CrossOriginOptions = {}): (next: HandlerFunc) => Handler {
  const c = new CrossOriginProtection();
  for (const origin of options.trustedOrigins ?? []) c.addTrustedOrigin(origin);
  for (const pattern of options.insecureBypassPatterns ?? []) c.addInsecureBypassPattern(pattern);
  if (options.deny) c.setDenyHandler(options.deny);
  return c.middleware();
}
