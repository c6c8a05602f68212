// The page pipeline: from a matched request to a rendered response.
//
//   every request   → target = selectTarget(node, req)           (once, before the middlewares; in the context)
//   serveHTTP page  → page.serveHTTP(req), as is
//   other pages     → props  = await page.props(req, target)    (once; post/put/patch/delete for their methods)
//                     html   = await page.page(props) | the selected partial(props)
//                     200 text/html, Vary: HX-Request, HX-Target, HX-Request-Type
//   socket route    → an upgrade request: props once, then a WebSocket whose open/message/close get them
//                     (live/socket-route.ts); a plain GET renders page(), or 426 without one
//   any failure     → handleError (error-answer.ts): a Response as is, else the nearest error() at or above
//                     the node, else the error handler, with the same target, + Vary (page-answer.ts)
//   stream = true   → a full page goes out up to its <Suspense> boundaries at once, each boundary as it resolves
//                     (streaming.ts); an htmx request that accepts multipart/mixed gets them as parts; the rest whole
//   traced          → the same, each step published to pagetree:request/props/render (tracing.ts) when they
//                     have subscribers, or the mount asks for Server-Timing or an access log; else untouched
//
// `props` may also return or throw a Response (sent as is), return
// renderComponent(element) (rendered instead) or answerWith(component, props)
// (that component where htmx swaps into an element, page() for the rest:
// htmx/answer-with.ts), or throw an HttpError. The
// body is rendered whole before anything is sent (a streamed page: its shell):
// an error mid-render sends the error handler's answer, never half a page.

import {
  contextStorage,
  releaseContext,
  requestContext,
  type ContextSlot,
  type RequestContext,
  type StreamPlan,
  type StreamState,
} from '../request/context.ts';
import { notHtmx, readHtmx } from '../request/htmx-details.ts';
import { answerHeaders, dropRegions, withRegions } from '../htmx/response.ts';
import { answerOf, isAnswerWith } from '../htmx/answer-with.ts';
import { HttpError, MountError } from '../errors.ts';
import { callHandler, type HandlerFunc, type HandlerObject, type PageRequest } from '../kernel/request.ts';
import type { ComponentInfo, PageNode, VerbMethod } from '../tree/page-node.ts';
import type { Logger } from '../kernel/logger.ts';
import { selectedComponent, selectTarget, type RenderTarget } from '../request/render-target.ts';
import { abortable, guardBody } from '../forms/request-body.ts';
import { ownFacts } from '../kernel/adapter.ts';
import { liteResponse } from '../kernel/answer.ts';
import { traceProps, traceRender, traceRequest, tracing } from '../observe/tracing.ts';
import { boundaryError, handleError } from './error-answer.ts';
import type { RouteHandlerOptions } from './handler-options.ts';
import { htmlHeaders, htmxStreamHeaders, withContext, withVary } from './page-answer.ts';
import { andThen, orElse } from './then.ts';
import { socketAnswer, socketRoute, socketRefusal, type SocketRoute } from '../live/socket-route.ts';

const kElement = Symbol('pagetree.renderComponent');

/** What `renderComponent` returns; `props()` returns it to render that element. */
export interface RenderComponent {
  readonly [kElement]: string | Promise<string>;
}

/**
 * Tells the pipeline to render this element instead of `page`/the partial:
 * return it from `props()`.
 * @example if (target.is(this.todoList)) return renderComponent(this.todoList(await store.active()));
 */
export function renderComponent(element: string | Promise<string>): RenderComponent {
  return { [kElement]: element };
}

function isRenderComponent(value: unknown): value is RenderComponent {
  return typeof value === 'object' && value !== null && kElement in value;
}

interface PageObject {
  props?: (req: PageRequest, target: RenderTarget) => unknown;
  [method: string]: unknown;
}

/**
 * The handler mount registers for a node: the request context entered
 * outermost (with the render target, chosen once), then the middlewares
 * (outermost first), then the page. Every failure on the way, from a
 * middleware, props, a render or the timeout, goes through `handleError`.
 */
export function routeHandler(options: RouteHandlerOptions): HandlerFunc {
  const { tree, node, middlewares, timeout, observe } = options;
  const defaultStatus = options.status ?? 200;
  const stream = (node.page as PageObject).stream;
  if (stream !== undefined && typeof stream !== 'boolean') {
    throw new MountError(
      node.fieldPath,
      `stream is ${typeof stream}; give it true to stream the page (docs/streaming.md), or false`,
    );
  }
  const route: PageRoute = {
    node,
    page: node.page as PageObject,
    answer: options.answer,
    pageComponent: node.components.find((c) => c.name === 'page') ?? null,
    stream: stream === true && node.kind === 'page',
    options,
    // A socket route (a page with message()): its upgrade requests open a WebSocket (live/socket-route.ts).
    socket: options.answer === 'props' ? socketRoute(node, options.logger) : undefined,
  };
  let inner: HandlerFunc =
    node.kind === 'handler'
      ? (req) => serveHandler(node, node.page as HandlerObject, req, options.logger)
      : (req) => {
          const ctx = requestContext.getStore()!;
          ctx.req = req; // a middleware may have replaced it
          return pageStep(route, ctx);
        };
  for (let i = middlewares.length - 1; i >= 0; i--) {
    const h = middlewares[i]!(inner, node);
    inner = typeof h === 'function' ? h : (req) => h.serveHTTP(req);
  }
  const handler = inner;
  // What a request htmx did not send asks for: the same for every such request, so made once (an object less
  // per full-page load).
  const fullPage = Object.freeze(selectTarget(node, notHtmx));
  // A page without middlewares is its own step, called by the context with the route and the context in hand (no
  // AsyncLocalStorage lookup, no closure between); the middlewares' chain gets the same boundary around it, for a
  // middleware's own failure.
  const step: Step =
    middlewares.length === 0 && node.kind !== 'handler'
      ? pageStep
      : (_route, ctx) => answered(callChain, handler, ctx, options);
  const bounded: Step = timeout > 0 ? (r, ctx) => withTimeout(step, r, ctx, options) : step;
  return (req) => {
    // The node adapter's requests answer bad bodies with 4xx themselves (kernel/adapter.ts); others learn it here.
    if (ownFacts(req)?.guardsBody !== true) guardBody(req);
    const htmx = readHtmx(req.headers);
    const ctx: RequestContext = {
      tree,
      node,
      req,
      htmx,
      target: htmx === notHtmx ? fullPage : selectTarget(node, htmx),
      defaultStatus,
      answer: undefined,
      timedOut: false,
      trace: undefined,
      streamPlan: undefined,
      stream: undefined,
      nonce: undefined,
    };
    if (tracing(observe)) return traceRequest(ctx, () => answerInContext(ctx, bounded, route), observe);
    return answerInContext(ctx, bounded, route);
  };
}

// What the context runs for a request of a route: the page step, or the middlewares' chain; the timeout around it.
type Step = (route: PageRoute, ctx: RequestContext) => Response | Promise<Response>;

// Answers a request with `ctx` as its context (core/request/context.ts), entered here so that `step(route, ctx)` is
// called by AsyncLocalStorage itself, and left when the answer is made (releaseContext: unless its body streams).
function answerInContext(ctx: RequestContext, step: Step, route: PageRoute): Response | Promise<Response> {
  const slot: ContextSlot = { ctx };
  return andThen(contextStorage.run(slot, step, route, ctx), releaseContext, slot, undefined);
}

// A page that has not answered within `timeout` ms gets a 503 (through the error
// handler); its late answer is dropped. Its request is aborted: `req.signal`
// fires and a body still being read fails, so a page that checks the signal
// before writing does not write after the client was told it failed. Only a
// safe method's 503 says Retry-After: a retried POST could do its work twice.
function withTimeout(
  step: Step,
  route: PageRoute,
  ctx: RequestContext,
  options: RouteHandlerOptions,
): Response | Promise<Response> {
  const abort = abortable(ctx.req); // before the page can read req.signal
  const res = step(route, ctx);
  if (!(res instanceof Promise)) return res; // answered at once: no timer
  const { node, timeout } = options;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      options.logger.error(
        `pagetree: ${node.fieldPath} (${ctx.req.pattern || node.pattern}) did not answer within ${timeout} ms`,
      );
      abort(new DOMException(`${node.fieldPath} did not answer within ${timeout} ms`, 'TimeoutError'));
      const method = ctx.req.method;
      const safe = method === 'GET' || method === 'HEAD' || method === 'OPTIONS';
      const err = new HttpError(503, 'Service Unavailable', safe ? { 'retry-after': '1' } : {});
      resolve(handleError(err, ctx, options));
      // From now on the page's own answer is dropped, and so is its failure: the line above is the request's one
      // log line (the abort below makes most pages fail, and each would log a stack).
      ctx.timedOut = true;
    }, timeout);
    // Every promise is observed where it is created: a failure past handleError (it throws only on a bug) is the
    // request's, answered by the mux's last net, and not a rejection nobody handles.
    res.then(
      (r) => {
        clearTimeout(timer);
        resolve(r);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}

// What the page step needs of a route, gathered once by routeHandler.
interface PageRoute {
  readonly node: PageNode;
  readonly page: PageObject;
  /** The page method that answers: `props`, or a verb method. */
  readonly answer: 'props' | VerbMethod;
  /** Its `page()` component, or null. */
  readonly pageComponent: ComponentInfo | null;
  /** The page says `stream = true`. */
  readonly stream: boolean;
  readonly options: RouteHandlerOptions;
  /** Set for a socket route: its limits, read once. */
  readonly socket: SocketRoute | undefined;
}

// The page layer's boundary: what `run(arg)` answers, or its failure (thrown, or rejected) through handleError. The
// page step has it around props, the verb method, the render and the regions; the middlewares' chain around itself.
function answered<A>(
  run: (arg: A, ctx: RequestContext) => Response | Promise<Response>,
  arg: A,
  ctx: RequestContext,
  options: RouteHandlerOptions,
): Response | Promise<Response> {
  try {
    const res = run(arg, ctx);
    return orElse(res, handleError, ctx, options);
  } catch (err) {
    return handleError(err, ctx, options);
  }
}

// The middlewares' chain (ending in the page step or a serveHTTP page), called with the request as it stands.
function callChain(handler: HandlerFunc, ctx: RequestContext): Response | Promise<Response> {
  return handler(ctx.req);
}

// The page step: props (or the verb method) → render the selected component with them → the regions → the answer;
// any failure on the way answered by the error page, inside the step (so that it passes back out through the
// middlewares): the page layer's one try, here and not in `answered`, so that a page's request runs through no
// function more than it needs (bench/path). Synchronous while the page is: a props() and a page() that return plain
// values (kitajs renders to a string unless a component is async) answer without a single promise. On Node 20 every
// promise also runs the async hooks that AsyncLocalStorage enables, so this was ~10% of a page's CPU (bench/e2e).
function pageStep(route: PageRoute, ctx: RequestContext): Response | Promise<Response> {
  try {
    const { page } = route;
    // A socket route refuses a cross-site upgrade (403), and a plain GET when it has no page() to show (426).
    const refused = route.socket && socketRefusal(ctx.req, route.pageComponent !== null);
    if (refused) return refused;
    const method = page[route.answer] as PageObject['props'];
    const trace = ctx.trace;
    const props = !method
      ? undefined
      : trace === undefined
        ? method.call(page, ctx.req, ctx.target)
        : traceProps(trace, route.answer, () => method.call(page, ctx.req, ctx.target));
    return orElse(andThen(props, answerProps, route, ctx), handleError, ctx, route.options);
  } catch (err) {
    return handleError(err, ctx, route.options);
  }
}

// Sends what props answered, or renders the selected component (or what props asked for) with the props. Traced, the
// render is tracing's render step: tracedRender calls this again inside it, with `traced` set.
function answerProps(
  props: unknown,
  route: PageRoute,
  ctx: RequestContext,
  traced?: true,
): Response | Promise<Response> {
  if (props instanceof Response) {
    dropRegions(ctx, route.options.logger); // a redirect, a 204: no region goes along
    return withVary(withContext(props, ctx, 'props()'));
  }
  if (route.socket?.upgrade(ctx.req)) return socketAnswer(route.socket, props, ctx);
  const trace = ctx.trace;
  if (trace !== undefined && traced === undefined) return tracedRender(trace, route, props, ctx);
  const { node, page } = route;
  let html: unknown;
  // A fragment (a partial, or what props asked for) may carry other regions along; the full page has them all.
  let fragment = true;
  if (isRenderComponent(props)) {
    html = props[kElement];
  } else {
    let selected = selectedComponent(ctx.target) ?? route.pageComponent ?? node.fragment;
    if (isAnswerWith(props)) {
      const { component, props: own } = answerOf(props);
      props = own;
      // Its component for what htmx swaps into an element; the whole page for the rest (when there is one).
      if (ctx.htmx.swapsIntoElement || !route.pageComponent) return answerComponent(route, component, own, ctx);
      selected = route.pageComponent;
    }
    if (!selected) {
      throw new Error(
        `${node.fieldPath} has no page() to render its props with; add page() or a fragment, or return ` +
          `renderComponent(...) or a Response from props()`,
      );
    }
    if (selected === route.pageComponent) fragment = false;
    if (route.stream) ctx.streamPlan = streamPlan(route, ctx, fragment);
    html = (selected.fn as (this: PageObject, props: unknown) => unknown).call(page, props);
  }
  return andThen(html, fragment && ctx.htmx.isHtmx ? withTheRegions : htmlResponse, route, ctx);
}

// The render as tracing's pagetree:render step, with the name of the component it renders.
function tracedRender(
  trace: NonNullable<RequestContext['trace']>,
  route: PageRoute,
  props: unknown,
  ctx: RequestContext,
): Response | Promise<Response> {
  let component: string | null = null;
  if (isAnswerWith(props) && (ctx.htmx.swapsIntoElement || !route.pageComponent)) {
    component = answerOf(props).component.name || null;
  } else if (!isRenderComponent(props)) {
    const selected = isAnswerWith(props) ? route.pageComponent : selectedComponent(ctx.target);
    component = (selected ?? route.pageComponent ?? route.node.fragment)?.name ?? null;
  }
  return traceRender(trace, ctx.req, component, () => answerProps(props, route, ctx, true));
}

// What answerWith asked for: a component of this page (with the page as `this`) or a standalone function component.
// A method of another page would run with the wrong `this`: refused, with what to give instead.
function answerComponent(
  route: PageRoute,
  component: (props: never) => unknown,
  props: unknown,
  ctx: RequestContext,
): Response | Promise<Response> {
  const { node, page } = route;
  const own = node.componentOf(component);
  if (!own && ctx.tree.hasComponent(component)) {
    const name = component.name || 'component';
    throw new Error(
      `answerWith(${name}): ${name} is a method of another page; answer with a component of ${node.fieldPath} ` +
        `or a standalone function component`,
    );
  }
  const fn = component as (this: PageObject | void, props: unknown) => unknown;
  const html = own ? fn.call(page, props) : fn(props);
  return andThen(html, ctx.htmx.isHtmx ? withTheRegions : htmlResponse, route, ctx);
}

// A fragment for htmx: what alsoRender asked for goes after it, by the time the render is done.
function withTheRegions(html: unknown, route: PageRoute, ctx: RequestContext): Response | Promise<Response> {
  checkHtml(route.node, html);
  if (ctx.answer?.regions === undefined) return htmlResponse(html, route, ctx);
  if (ctx.trace !== undefined) ctx.trace.regions = ctx.answer.regions.length;
  return andThen(withRegions(html, ctx), htmlResponse, route, ctx);
}

function checkHtml(node: PageNode, html: unknown): asserts html is string {
  if (typeof html !== 'string') {
    throw new TypeError(`${node.fieldPath}: rendering returned ${typeof html}, not an HTML string`);
  }
}

// The rendered answer; what alsoRender asked for and did not go along is dropped (and logged when it fails).
function htmlResponse(html: unknown, route: PageRoute, ctx: RequestContext): Response {
  checkHtml(route.node, html);
  dropRegions(ctx, route.options.logger);
  const head = route.stream && ctx.htmx.isHtmx ? htmxStreamHeaders : htmlHeaders;
  const headers = answerHeaders(ctx);
  const stream = ctx.stream;
  if (stream !== undefined && !stream.empty) return streamedResponse(stream, html, ctx, { ...head, ...headers });
  return liteResponse(ctx.answer?.status ?? ctx.defaultStatus, html, headers ? { ...head, ...headers } : head);
}

// What a streaming page's answer streams as, should a <Suspense> wait (streaming.ts makes the stream then): a full
// page for a browser's load, multipart parts for htmx with its hx-multipart extension (Accept: multipart/mixed);
// undefined for the rest (rendered whole, every boundary waited for in place).
function streamPlan(route: PageRoute, ctx: RequestContext, fragment: boolean): StreamPlan | undefined {
  const multipart = ctx.htmx.isHtmx;
  if (multipart && !/\bmultipart\/mixed\b/i.test(ctx.req.headers.get('accept') ?? '')) return undefined;
  if (!multipart && fragment) return undefined; // renderComponent from a plain request: one string
  const { node, options } = route;
  return {
    hooks: {
      failed: (err) => boundaryError(err, ctx, options),
      log: (message, err) =>
        options.logger.error(`pagetree: ${node.fieldPath} (${ctx.req.pattern || node.pattern}): ${message}`, err),
      timeout: options.timeout,
      nonce: () => ctx.nonce,
    },
    multipart,
  };
}

// A streamed answer: the head and the shell now, the boundaries as they come. A HEAD gets the same head at once; its
// boundaries are dropped.
function streamedResponse(
  stream: StreamState,
  shell: string,
  ctx: RequestContext,
  headers: Record<string, string | string[]>,
): Response {
  const status = ctx.answer?.status ?? ctx.defaultStatus;
  headers['content-type'] = stream.contentType;
  const body = ctx.req.method === 'HEAD' ? stream.head() : stream.body(shell);
  return liteResponse(status, body, headers);
}

// A serveHTTP page's answer, with what it set through setHeader and the htmx helpers (a Response carries no region).
function serveHandler(
  node: PageNode,
  page: HandlerObject,
  req: PageRequest,
  logger: Logger,
): Response | Promise<Response> {
  const res = callHandler(page, req);
  const ctx = requestContext.getStore()!;
  return andThen(res, handlerAnswer, ctx, { api: `${node.fieldPath}.serveHTTP()`, logger });
}

function handlerAnswer(res: Response, ctx: RequestContext, { api, logger }: { api: string; logger: Logger }): Response {
  dropRegions(ctx, logger);
  return withContext(res, ctx, api);
}
