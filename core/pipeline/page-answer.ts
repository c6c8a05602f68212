// What every answer of the page pipeline carries besides its body:
//
//   Vary: HX-Request, HX-Target, HX-Request-Type   the same URL answers a full page or a fragment (withVary)
//   what the request recorded                      setHeader, setStatus, the htmx and cookie helpers (withRecorded)
//
// and the htmx-aware `redirect`.

import { requestContext, type RequestContext } from '../request/context.ts';
import { answerHeaders } from '../htmx/response.ts';
import { headerUrl, hxLocationUrl } from '../kernel/header-value.ts';
import { answerOf, answerResponse, liteResponse } from '../kernel/answer.ts';

/** The htmx request headers a page's answer depends on. */
export const VARY = 'HX-Request, HX-Target, HX-Request-Type';

/** The head of a rendered answer. */
export const htmlHeaders: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  vary: VARY,
};

/** A streaming page's answers to htmx depend on Accept too (multipart/mixed or not). */
export const htmxStreamHeaders: Readonly<Record<string, string>> = { ...htmlHeaders, vary: `${VARY}, Accept` };

/**
 * An htmx-aware redirect: `HX-Location` for htmx requests (htmx navigates
 * without a full reload), 303 See Other for the rest. The URL is percent-encoded
 * as a browser would (non-ASCII as UTF-8); control characters and `javascript:`,
 * `data:` or `vbscript:` URLs are a TypeError (the page answers 500). htmx reads
 * the URL as a URL, never as options (`{…}`, htmx 4's `path:…`): see hxLocationUrl.
 * @example return redirect(urlFor(TodosPage)); // in props(), after a POST
 */
export function redirect(url: string): Response {
  const ctx = requestContext.getStore();
  if (ctx?.htmx.isHtmx) return liteResponse(200, '', { 'hx-location': hxLocationUrl('redirect', url), vary: VARY });
  return liteResponse(303, null, { location: headerUrl('redirect', url), vary: VARY });
}

/**
 * A Response from the page keeps its own status and headers and gains the headers set through setHeader and the htmx
 * helpers that it does not have. A status set by setStatus that differs from its own is an error, not something to
 * drop silently.
 */
export function withContext(res: Response, ctx: RequestContext, api: string): Response {
  const status = ctx.answer?.status;
  if (status !== undefined && status !== res.status) {
    throw new Error(
      `${api} returned a Response with status ${res.status} after setStatus(${status}); ` +
        `give the status to the Response, or render instead of returning one`,
    );
  }
  return withRecorded(res, ctx);
}

/**
 * A Response with what the request recorded for its answer (setHeader, the htmx helpers, the cookie helpers) that it
 * does not set itself; Set-Cookie lines add up, the context's first.
 */
export function withRecorded(res: Response, ctx: RequestContext): Response {
  const headers = answerHeaders(ctx);
  if (!headers) return res;
  const answer = answerOf(res);
  const own = answer.headers['set-cookie'];
  const merged = Object.assign({}, headers, answer.headers);
  const cookies = ctx.answer?.cookies;
  if (own !== undefined && cookies) merged['set-cookie'] = [...cookies, ...[own].flat()];
  return answerResponse({ ...answer, headers: merged });
}

/** Adds the htmx Vary to a Response from props() or the error chain. */
export function withVary(res: Response): Response {
  const answer = answerOf(res);
  const vary = answer.headers.vary;
  const merged = mergeVary(typeof vary === 'string' ? vary : vary?.join(', '));
  if (merged === vary) return res;
  return answerResponse({ ...answer, headers: { ...answer.headers, vary: merged } });
}

/** A Vary value with the htmx headers in it. */
export function mergeVary(existing: string | undefined): string {
  if (!existing || existing === VARY) return VARY;
  return existing.includes('HX-Request') ? existing : `${existing}, ${VARY}`;
}
