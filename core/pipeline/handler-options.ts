// What a page route's handler is built from (mount → routeHandler), and the error handlers it answers failures with:
// types only, read by the page step (dispatch.ts) and its error boundary (error-answer.ts) alike.

import type { Logger } from '../kernel/logger.ts';
import type { PageRequest } from '../kernel/request.ts';
import type { Observe } from '../observe/tracing.ts';
import type { RenderTarget } from '../request/render-target.ts';
import type { Tree } from '../tree/tree.ts';
import type { Middleware, PageNode, VerbMethod } from '../tree/page-node.ts';

/** Replaces the default error answer: `mount(..., { errorHandler })`. */
export type ErrorHandler = (
  err: unknown,
  req: PageRequest,
  node: PageNode,
  target: RenderTarget,
) => Response | Promise<Response>;

/**
 * A section's error page: any page class (a group, a page, a serveHTTP handler) may define `error()`; it answers
 * the failures of every route at or below it that has no nearer one, the mount's error handler the rest.
 * @example class Admin implements ErrorPage { error(err: unknown) { return <Layout title="Admin">…</Layout>; } }
 */
export interface ErrorPage {
  /** JSX (sent with the HttpError's status, else 500, and its headers) or a Response (sent as is). */
  error(err: unknown, req: PageRequest, target: RenderTarget): string | Response | Promise<string | Response>;
}

/** What `routeHandler` builds a node's handler from. */
export interface RouteHandlerOptions {
  tree: Tree;
  node: PageNode;
  /** The page method that answers this pattern: `props`, or a verb method (`post`, …). */
  answer: 'props' | VerbMethod;
  /** Outermost first. */
  middlewares: Middleware[];
  onError: ErrorHandler;
  logger: Logger;
  /** Milliseconds before a page that has not answered gets a 503; 0 for no limit. */
  timeout: number;
  /** The status of a rendered answer; default 200 (404 for the not-found page). */
  status?: number;
  /** Server-Timing and the access log (mount's `serverTiming`, `accessLog`); undefined for neither. */
  observe?: Observe;
}
