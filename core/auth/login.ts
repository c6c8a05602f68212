// Login: a section that requires it, and the way back to where the visitor was.
//
//   mount(mux, App, '/', 'App', { secret })
//   class Admin { middlewares() { return [requireLogin({ login: LoginPage })]; } … }
//
//   GET /admin/users/1 without a login      → 303 Location: /login?next=%2Fadmin%2Fusers%2F1
//   the same from htmx (a table cell asks)  → 200 HX-Location: /login?next=… (htmx loads the login page as a whole
//                                             page: the form is never swapped into the cell)
//   after the login: redirect(safeNext(next)) → back to /admin/users/1; an absolute or protocol-relative `next`
//                                             (https://evil.example, //evil.example, /\evil.example) goes to `/`.

import type { HandlerFunc, PageRequest } from '../kernel/request.ts';
import { htmxDetails } from '../request/context.ts';
import { redirect } from '../pipeline/page-answer.ts';
import { urlFor } from '../request/context.ts';
import type { Middleware } from '../tree/page-node.ts';
import { session, type Session } from './session.ts';

/** How `requireLogin` knows a login and where it sends a visitor without one. */
export interface RequireLoginOptions {
  /** The login page: a page class (or anything `urlFor` takes). Its URL gets `?next=` the page asked for. */
  login: unknown;
  /** Whether the session is logged in; default: it has a `userId`. */
  loggedIn?: (session: Session) => boolean;
}

/**
 * A middleware that lets a logged-in session through and sends anyone else to the login page, with the page they
 * wanted as `next`: a 303 for a browser, `HX-Location` for htmx (as `redirect()` answers each).
 * @example middlewares() { return [requireLogin({ login: LoginPage })]; }
 */
export function requireLogin(options: RequireLoginOptions): Middleware {
  const loggedIn = options.loggedIn ?? ((s: Session) => (s.data as { userId?: unknown }).userId !== undefined);
  return (next: HandlerFunc) => async (req: PageRequest) => {
    if (loggedIn(await session())) return next(req);
    const login = (urlFor as (target: unknown) => string)(options.login);
    return redirect(`${login}?${new URLSearchParams({ next: wanted(req) })}`);
  };
}

/**
 * Where to go after the login: `next` when it is a path of this site, else `fallback`. Only a path that starts with
 * one `/` (not `//`, not `/\`, no control character) is followed: anything else could leave the site.
 * @example return redirect(safeNext(new URL(req.url).searchParams.get('next')));
 */
export function safeNext(next: string | null | undefined, fallback = '/'): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return fallback;
  if (/[\u0000-\u001f\u007f]/.test(next)) return fallback;
  const base = 'http://pagetree.invalid';
  const url = new URL(next, base);
  const path = url.pathname + url.search + url.hash;
  // Dot segments are resolved: `/.//evil.example` is `//evil.example` by now, which a browser reads as a host.
  // (A backslash cannot be left: the URL parser makes each one a slash in an http path.)
  return url.origin === base && !path.startsWith('//') ? path : fallback;
}

// The page the visitor wants: the request's own URL for a GET (or HEAD); for a fragment that htmx swaps into an
// element, the page in the address bar (HX-Current-URL, its path: behind a TLS proxy its scheme differs from the
// request's). Another method's URL is no page to come back to (a GET there after the login would be a 405): the
// home page, `/`.
function wanted(req: PageRequest): string {
  const url = new URL(req.url);
  const htmx = htmxDetails();
  const current = htmx.swapsIntoElement ? htmx.currentUrl : null;
  if (current !== null && URL.canParse(current) && new URL(current).host === url.host) {
    const page = new URL(current);
    return page.pathname + page.search;
  }
  return req.method === 'GET' || req.method === 'HEAD' ? url.pathname + url.search : '/';
}
