// The page pipeline's one error boundary: every failure of a page request gets its answer here.
//
//   a Response thrown or returned as an error   → sent as it is (with the htmx Vary and the request's cookies)
//   anything else                               → logged (an HttpError only when a parser found the client's fault),
//                                                 then answered by the first of these that answers:
//                                                   1. the nearest error() at or above the node (node.errorPage)
//                                                   2. the mount's errorHandler (default: defaultErrorHandler)
//                                                   3. a bare 500
//                                                 each one's own failure logged and handed to the next
//
// A failure drops what the failed page recorded for its answer (headers, status, htmx triggers and regions) but not
// its Set-Cookie lines: what they record has happened (a flash taken, a session started).

import { requestContext, type RequestContext } from '../request/context.ts';
import { HttpError } from '../errors.ts';
import type { PageRequest } from '../kernel/request.ts';
import type { PageNode } from '../tree/page-node.ts';
import type { RenderTarget } from '../request/render-target.ts';
import { liteResponse, textError } from '../kernel/answer.ts';
import { traceError } from '../observe/tracing.ts';
import { detailsRecord } from '../request/htmx-details.ts';
import { dropRegions } from '../htmx/response.ts';
import { htmlHeaders, mergeVary, withRecorded, withVary } from './page-answer.ts';
import { andThen, orElse } from './then.ts';
import type { ErrorPage, RouteHandlerOptions } from './handler-options.ts';

/**
 * The default error answer: an HttpError's status and message, anything
 * else a bare 500; plain text (a fragment htmx can swap), no stack. The
 * message is HTML-escaped (textError): htmx 4 swaps 4xx and 5xx bodies into
 * the page as HTML whatever their type, and a message may carry user input.
 * It needs only the error, so an `errorHandler` or a section's `error()` can
 * hand it what it does not answer itself.
 * @example error(err: unknown) { return err instanceof HttpError && err.status === 404 ? <NotFound /> : defaultErrorHandler(err); }
 */
export function defaultErrorHandler(err: unknown): Response;
/**
 * @deprecated Since 0.2: pass only the error, `defaultErrorHandler(err)`; the other arguments are not read. This
 * form goes in 0.3.
 */
export function defaultErrorHandler(err: unknown, req: PageRequest, node: PageNode, target: RenderTarget): Response;
export function defaultErrorHandler(err: unknown): Response {
  return err instanceof HttpError
    ? textError(err.status, err.message, err.headers)
    : textError(500, 'Internal Server Error');
}

/** Every failure of a page request comes here, once (see the top of the file). */
export function handleError(
  err: unknown,
  ctx: RequestContext,
  options: RouteHandlerOptions,
): Response | Promise<Response> {
  if (ctx.timedOut) return late; // answered with a 503 already: nobody reads this
  // A streamed page that failed before its first byte: its boundaries are dropped, and the error page renders whole.
  ctx.stream?.abandon();
  ctx.stream = undefined;
  ctx.streamPlan = undefined;
  const { node, logger } = options;
  dropRegions(ctx, logger); // after what the page logs below, once a region fails too
  if (err instanceof Response) return withVary(withRecorded(err, ctx));
  if (ctx.trace !== undefined) traceError(ctx.trace, err);
  const req = ctx.req;
  if (!(err instanceof HttpError)) {
    logger.error(`pagetree: ${node.fieldPath} (${req.pattern || node.pattern}) failed:`, err);
  } else if (err.cause !== undefined) {
    // A client's fault found by a parser (a bad body): one line, no stack.
    const cause = err.cause instanceof Error ? err.cause.message : String(err.cause);
    logger.warn(`pagetree: ${req.method} ${req.url}: ${err.status} ${err.message} (${cause})`);
  }
  // The error answer starts a new head: what the page set for its own is dropped, but not its cookies (a session
  // written, a flash taken), nor what the request read (its cookies, its session) that the error page may read too.
  const answer = ctx.answer;
  if (answer !== undefined) {
    answer.status = undefined;
    answer.headers = undefined;
    answer.triggers = undefined;
    answer.regions = undefined;
  }
  return andThen(errorAnswer(err, ctx, options, 0), finishError, ctx, logger);
}

// The error answer with what the error page recorded (error() may record some), its regions dropped.
function finishError(res: Response, ctx: RequestContext, logger: RouteHandlerOptions['logger']): Response {
  dropRegions(ctx, logger);
  return withVary(withRecorded(res, ctx));
}

/**
 * What a boundary of a streamed page that failed after the first byte shows: the error fragment an htmx request
 * that swaps into an element gets from the same chain, as HTML (a Response's body is taken as HTML, as htmx 4
 * swaps it).
 */
export function boundaryError(
  err: unknown,
  ctx: RequestContext,
  options: RouteHandlerOptions,
): string | Promise<string> {
  const fragment: RequestContext = { ...ctx, htmx: { ...detailsRecord(ctx.htmx), swapsIntoElement: true } };
  return requestContext.run(fragment, () => andThen(errorAnswer(err, fragment, options, 0), bodyText, null, null));
}

function bodyText(res: Response): Promise<string> {
  return res.text();
}

// What a step of the chain answers with; `skip`: the step does not apply (no error() at or above the node).
const skip = Symbol('skip');
type ErrorStep = (err: unknown, ctx: RequestContext, options: RouteHandlerOptions) => unknown;

// The chain, in order: each is named in the log line of its own failure.
const steps: readonly { readonly name: (options: RouteHandlerOptions) => string; readonly answer: ErrorStep }[] = [
  {
    name: (o) => `${o.node.errorPage!.fieldPath}.error()`,
    answer: (err, ctx, o) => {
      const section = o.node.errorPage;
      return section ? errorPageAnswer(section, err, ctx) : skip;
    },
  },
  { name: () => 'the error handler', answer: (err, ctx, o) => o.onError(err, ctx.req, o.node, ctx.target) },
];

// Step `i` of the chain onwards; past the last, a bare 500.
function errorAnswer(
  err: unknown,
  ctx: RequestContext,
  options: RouteHandlerOptions,
  i: number,
): Response | Promise<Response> {
  const step = steps[i];
  if (step === undefined) return textError(500, 'Internal Server Error');
  const failed = (stepErr: unknown) => {
    options.logger.error(`pagetree: ${step.name(options)} failed for ${options.node.fieldPath}:`, stepErr);
    return errorAnswer(err, ctx, options, i + 1); // the original error, not the step's
  };
  const checked = (out: unknown) => {
    if (out instanceof Response) return out;
    throw new TypeError(`${step.name(options)} returned ${typeof out}, not a Response`);
  };
  try {
    const out = step.answer(err, ctx, options);
    if (out === skip) return errorAnswer(err, ctx, options, i + 1);
    return orElse(andThen(out, checked, null, null), failed, null, null);
  } catch (stepErr) {
    return failed(stepErr);
  }
}

// A section's error(): JSX with the error's status and headers, or its own Response.
function errorPageAnswer(section: PageNode, err: unknown, ctx: RequestContext): Response | Promise<Response> {
  const answer = (out: unknown) => {
    if (out instanceof Response) return out;
    if (typeof out !== 'string') {
      throw new TypeError(`${section.fieldPath}.error() returned ${typeof out}, not an HTML string or a Response`);
    }
    return liteResponse(err instanceof HttpError ? err.status : 500, out, errorHeaders(err));
  };
  const out = (section.page as ErrorPage).error(err, ctx.req, ctx.target);
  return andThen(out, answer, null, null);
}

// What handleError gives a page's failure after its timeout answered: dropped by withTimeout.
const late = textError(503, 'Service Unavailable');

// An HttpError's own headers (Allow, Retry-After) under the HTML type and the htmx Vary.
function errorHeaders(err: unknown): Record<string, string> {
  if (!(err instanceof HttpError)) return htmlHeaders;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(err.headers)) headers[name.toLowerCase()] = value;
  return { ...headers, 'content-type': htmlHeaders['content-type']!, vary: mergeVary(headers.vary) };
}
