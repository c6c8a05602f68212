// Tracing: the page pipeline's steps published to node:diagnostics_channel tracing channels, for OpenTelemetry
// (docs/observability.md), a profiler or a test; and, per mount, a Server-Timing header and an access log line.
//
//   GET /tasks/3   HX-Request: true, HX-Target: task-list
//   pagetree:request  start ───────────────────────────────────────────────────── end | asyncStart, asyncEnd
//                     { request, pattern: "/tasks/{taskId}", page: "App.task", htmx, target }  → result, regions, error
//     pagetree:props    start ── end | asyncStart, asyncEnd     { request, page, method: "props", target, parent }
//     pagetree:render   start ── end | asyncStart, asyncEnd     { request, page, component: "taskList", partial, parent }
//   a failure: `error` on the step that threw (props, render), then `error` on pagetree:request when the error
//   handler takes it (the request still ends, with the error answer as its result)
//
// Each step publishes the events TracingChannel.traceSync and tracePromise publish (start through runStores, so
// bindStore works; end; asyncStart and asyncEnd when the step answered with a promise), except that a step that
// answers synchronously stays synchronous: with or without subscribers, a sync page creates no promise.
//
// Cost without subscribers: one check of each channel's subscribers per request (diagnostics_channel swaps a
// channel's prototype when it gains one, so `hasSubscribers` is a constant getter), and the pipeline takes its
// untraced road: no context object, no closure, no clock read (bench/README.md, "Tracing").
//
// The channels come from process.getBuiltinModule, never an import, so a worker bundle pulls no Node module; on a
// runtime without tracingChannel nothing is published (Node 20.19+, Bun 1.4 and Deno 2.9 have it; Bun's
// TracingChannel has no `hasSubscribers`, hence `subscribed`).

import type { TracingChannel } from 'node:diagnostics_channel';
import { optionalNodeModule } from '../kernel/node-modules.ts';
import type { Logger } from '../kernel/logger.ts';
import { isThenable, type PageRequest } from '../kernel/request.ts';
import { answerOf, answerResponse } from '../kernel/answer.ts';
import type { RequestContext } from '../request/context.ts';
import type { HtmxDetails } from '../request/htmx-details.ts';
import type { RenderTarget } from '../request/render-target.ts';
import type { PropsTrace, RenderTrace, RequestTrace } from '../request/trace.ts';

/** One line of the access log (mount's `accessLog`): a JSON object per request. */
export interface AccessLogEntry {
  /** When the request came in (ISO 8601). */
  time: string;
  method: string;
  /** The request's path, without the query. */
  path: string;
  /** The matched pattern ("" for the not-found page). */
  pattern: string;
  /** The page's field path. */
  page: string;
  status: number;
  /** From the route's handler being called to its answer, in milliseconds. */
  ms: number;
  /** "partial" (htmx swaps the answer into an element), "full" (an htmx navigation), null (not htmx). */
  htmx: 'partial' | 'full' | null;
  /** The HX-Target id, or null. */
  target: string | null;
  /** The partial rendered (a component's method name), or null for the full page. */
  partial: string | null;
  regions: number;
  /** The body's size as the page answered it (before any compression), or null when unknown (a stream). */
  bytes: number | null;
}

/** mount's `observe`: what the tree reports of its requests (docs/observability.md). */
export interface ObserveOptions {
  /**
   * A `Server-Timing` header on every answer of the tree (`props;dur=…, render;dur=…, total;dur=…`), for the
   * browser's devtools; default: `dev`. It tells anyone how long your pages take: leave it off in production unless
   * that is fine (docs/observability.md).
   */
  serverTiming?: boolean;
  /**
   * One entry per request of the tree: `true` writes it as a JSON line to the mux's logger's `info`; a function
   * receives it, to hand it to a logger of your own. Default: none (docs/observability.md#access-log).
   */
  accessLog?: boolean | ((entry: AccessLogEntry) => void);
}

/** What mount asks of every route's requests beyond the channels. */
export interface Observe {
  /** Add `Server-Timing: props;dur=…, render;dur=…, total;dur=…`. */
  serverTiming: boolean;
  /** Where each request's access log entry goes, or null. */
  accessLog: ((entry: AccessLogEntry) => void) | null;
}

/**
 * mount's `accessLog` option as a function: true writes one JSON line to the mux's logger's `info`.
 * Returns a message instead when the logger has no `info` (a mount error).
 */
export function accessLogger(option: boolean | ((entry: AccessLogEntry) => void) | undefined, logger: Logger) {
  if (typeof option === 'function') return option;
  if (!option) return null;
  const info = logger.info;
  if (typeof info !== 'function')
    return "the mux's logger has no info(); give it one, or pass observe: { accessLog: (entry) => … }";
  return (entry: AccessLogEntry) => info.call(logger, JSON.stringify(entry));
}

const dc = optionalNodeModule('node:diagnostics_channel');
const make = (name: string): TracingChannel<unknown, object> | undefined => dc?.tracingChannel?.(name);
const requestChannel = make('pagetree:request');
const propsChannel = make('pagetree:props');
const renderChannel = make('pagetree:render');

// The channels whose subscribers make a request traced: each tracing channel's five, read one by one because Bun's
// TracingChannel lacks hasSubscribers. Kept in one array so that a request nobody traces runs one function of this
// file (bench/path), not one per channel.
const watched = [requestChannel, propsChannel, renderChannel].flatMap((tc) =>
  tc === undefined ? [] : [tc.start, tc.end, tc.asyncStart, tc.asyncEnd, tc.error],
);

/**
 * Whether a request needs its record: someone subscribes to a channel, or the mount observes its requests.
 * @example if (tracing(observe)) return traceRequest(ctx, run, observe) // else run() alone
 */
export function tracing(observe: Observe | undefined): boolean {
  if (observe !== undefined) return true;
  // A subscriber may come at any time (a tracer attached to a running process), so this is asked per request.
  for (const channel of watched) if (channel.hasSubscribers) return true;
  return false;
}

// TracingChannel.hasSubscribers, which Bun's lacks.
function subscribed(tc: TracingChannel<unknown, object> | undefined): tc is TracingChannel<unknown, object> {
  return (
    tc !== undefined &&
    (tc.start.hasSubscribers ||
      tc.end.hasSubscribers ||
      tc.asyncStart.hasSubscribers ||
      tc.asyncEnd.hasSubscribers ||
      tc.error.hasSubscribers)
  );
}

// The record of one observed request: the public context of pagetree:request, and the clock of its steps.
class RequestRecord implements RequestTrace {
  readonly request: PageRequest;
  readonly pattern: string;
  readonly page: string;
  readonly htmx: HtmxDetails;
  readonly target: RenderTarget;
  regions = 0;
  async = false;
  result?: Response = undefined;
  error?: unknown = undefined;
  readonly startMs = performance.now();
  propsMs = -1;
  renderMs = -1;

  constructor(ctx: RequestContext) {
    this.request = ctx.req;
    this.pattern = ctx.req.pattern;
    this.page = ctx.node.fieldPath;
    this.htmx = ctx.htmx;
    this.target = ctx.target;
  }
}

/**
 * Runs a request (`run`: the route's handler) as an observed one: its record in `ctx.trace` for the steps, its
 * events on pagetree:request, its Server-Timing header and access log entry.
 */
export function traceRequest(
  ctx: RequestContext,
  run: () => Response | Promise<Response>,
  observe: Observe | undefined,
): Response | Promise<Response> {
  const record = new RequestRecord(ctx);
  ctx.trace = record;
  const time = observe?.accessLog ? new Date().toISOString() : '';
  const finish = (res: Response): Response => {
    if (observe === undefined) return res;
    const total = performance.now() - record.startMs;
    if (observe.serverTiming) res = withServerTiming(res, record, total);
    if (observe.accessLog) observe.accessLog(accessEntry(record, res, time, total));
    return res;
  };
  return step(requestChannel, record, () => {
    const res = run();
    return res instanceof Promise ? res.then(finish) : finish(res);
  });
}

/** Runs props() (or the verb method) as a step of an observed request. */
export function traceProps<T>(trace: RequestTrace, method: string, fn: () => T): T {
  const record = trace as RequestRecord;
  const context: PropsTrace = {
    request: record.request,
    page: record.page,
    method,
    target: record.target,
    parent: record,
    async: false,
    result: undefined,
    error: undefined,
  };
  const t0 = performance.now();
  return step(propsChannel, context, fn, () => (record.propsMs = performance.now() - t0));
}

/** Runs the render of `component` (null: an element from renderComponent) as a step of an observed request. */
export function traceRender(
  trace: RequestTrace,
  req: PageRequest,
  component: string | null,
  fn: () => Response | Promise<Response>,
): Response | Promise<Response> {
  const record = trace as RequestRecord;
  const context: RenderTrace = {
    request: req,
    page: record.page,
    component,
    partial: record.target.partial,
    parent: record,
    regions: 0,
    async: false,
    result: undefined,
    error: undefined,
  };
  const t0 = performance.now();
  return step(renderChannel, context, fn, () => {
    record.renderMs = performance.now() - t0;
    context.regions = record.regions;
  });
}

/** Records a failure that the error handler takes, and publishes it on pagetree:request. */
export function traceError(trace: RequestTrace, err: unknown): void {
  trace.error = err;
  trace.regions = 0; // what the failed page asked for is dropped with its answer
  if (subscribed(requestChannel)) requestChannel.error.publish(trace);
}

interface StepContext {
  async: boolean;
  result?: unknown;
  error?: unknown;
}

// One step: fn's events on `tc` when it has subscribers (as traceSync/tracePromise, without making a sync step
// async), `done` when it settles. A thrown Response is an answer (a redirect), not an error.
function step<T>(
  tc: TracingChannel<unknown, object> | undefined,
  context: StepContext,
  fn: () => T,
  done?: () => void,
): T {
  if (!subscribed(tc)) {
    if (done === undefined) return fn();
    let out: T;
    try {
      out = fn();
    } catch (err) {
      done();
      throw err;
    }
    if (!isThenable(out)) done();
    else out = Promise.resolve(out).finally(done) as T;
    return out;
  }
  const settle = (error: boolean, value: unknown) => {
    done?.();
    if (!error || value instanceof Response) context.result = value;
    else {
      context.error = value;
      tc.error.publish(context);
    }
  };
  return tc.start.runStores(context, () => {
    try {
      const out = fn();
      if (!isThenable(out)) {
        settle(false, out);
        return out;
      }
      context.async = true;
      return Promise.resolve(out).then(
        (value) => {
          settle(false, value);
          tc.asyncStart.publish(context);
          tc.asyncEnd.publish(context);
          return value;
        },
        (err: unknown) => {
          settle(true, err);
          tc.asyncStart.publish(context);
          tc.asyncEnd.publish(context);
          throw err;
        },
      ) as T;
    } catch (err) {
      settle(true, err);
      throw err;
    } finally {
      tc.end.publish(context);
    }
  });
}

// "props;dur=1.20, render;dur=0.35, total;dur=1.80": the steps that ran, in milliseconds.
function withServerTiming(res: Response, record: RequestRecord, total: number): Response {
  let value = '';
  if (record.propsMs >= 0) value += `props;dur=${record.propsMs.toFixed(2)}, `;
  if (record.renderMs >= 0) value += `render;dur=${record.renderMs.toFixed(2)}, `;
  value += `total;dur=${total.toFixed(2)}`;
  const answer = answerOf(res);
  return answerResponse({ ...answer, headers: { ...answer.headers, 'server-timing': value } });
}

function accessEntry(record: RequestRecord, res: Response, time: string, total: number): AccessLogEntry {
  const { htmx, request } = record;
  const url = request.url;
  const start = url.indexOf('/', url.indexOf('//') + 2);
  const query = url.indexOf('?', start);
  return {
    time,
    method: request.method,
    path: start < 0 ? '/' : url.slice(start, query < 0 ? undefined : query),
    pattern: record.pattern,
    page: record.page,
    status: res.status,
    ms: Math.round(total * 100) / 100,
    htmx: htmx.isHtmx ? (htmx.swapsIntoElement ? 'partial' : 'full') : null,
    target: htmx.target,
    partial: record.target.partial ? record.target.component : null,
    regions: record.regions,
    bytes: bodySize(res),
  };
}

function bodySize(res: Response): number | null {
  const { body, headers } = answerOf(res);
  if (body === null) return 0;
  if (typeof body === 'string') return utf8Length(body);
  if (body instanceof Uint8Array) return body.byteLength;
  const length = headers['content-length'];
  return typeof length === 'string' ? Number(length) : null;
}

// The UTF-8 size of a string: Buffer.byteLength where the runtime has it (Node, Bun, Deno, workerd with nodejs_compat;
// 43 ns for 2.6 KB of ASCII, where a charCodeAt loop takes 9 µs), else encoded.
const encoder = new TextEncoder();
const utf8Length: (s: string) => number =
  typeof Buffer === 'function' ? (s) => Buffer.byteLength(s) : (s) => encoder.encode(s).byteLength;
