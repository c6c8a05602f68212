// The records a traced request carries (observe/tracing.ts publishes them on node:diagnostics_channel): kept with the
// request's context, which holds the request's record while it is traced.

import type { PageRequest } from '../kernel/request.ts';
import type { HtmxDetails } from './htmx-details.ts';
import type { RenderTarget } from './render-target.ts';

/** The context of `pagetree:request`: one request through a mounted route or the not-found page. */
export interface RequestTrace {
  /** The request as the mux handed it to the route (a middleware may pass another one on). */
  readonly request: PageRequest;
  /** The ServeMux pattern that matched, as Go's `r.Pattern`: "GET /tasks/{taskId}"; "" for the not-found page. */
  readonly pattern: string;
  /** The page's field path: "App.task"; "App (notFound)" for the not-found page. */
  readonly page: string;
  /** What htmx says about the request (version, request type, target, boosted, …). */
  readonly htmx: HtmxDetails;
  /** The render target chosen for it: `target.component` names the partial (null: the full page). */
  readonly target: RenderTarget;
  /** How many `alsoRender` regions the answer carries. */
  regions: number;
  /** Whether it answered with a promise: then it ends at `asyncEnd` (with `result`), else at `end`. */
  async: boolean;
  /** The answer, at `end` (a synchronous request) or `asyncStart`/`asyncEnd`. */
  result?: Response;
  /** A failure the error handler answered (published at `error`); `result` is then the error's answer. */
  error?: unknown;
}

/** The context of `pagetree:props`: the page's `props()`, or the verb method that answers (`post`, …). */
export interface PropsTrace {
  /** The request as the page receives it. */
  readonly request: PageRequest;
  readonly page: string;
  /** "props", or the verb method: "post", "put", "patch", "delete". */
  readonly method: string;
  readonly target: RenderTarget;
  /** The request's own context (`pagetree:request`), to hang a span on. */
  readonly parent: RequestTrace;
  /** Whether it answered with a promise: then it ends at `asyncEnd` (with `result`), else at `end`. */
  async: boolean;
  /** What it returned (its props, a Response, renderComponent(…)); a thrown Response is a result, not an error. */
  result?: unknown;
  error?: unknown;
}

/** The context of `pagetree:render`: the selected component rendered with the props, and the regions with it. */
export interface RenderTrace {
  readonly request: PageRequest;
  readonly page: string;
  /** The method rendered: "page", a partial ("taskList"), or null for an element props gave renderComponent(). */
  readonly component: string | null;
  /** Whether a partial answers (`target.partial`). */
  readonly partial: boolean;
  readonly parent: RequestTrace;
  /** How many `alsoRender` regions were rendered with it (set at its end). */
  regions: number;
  /** Whether it answered with a promise: then it ends at `asyncEnd` (with `result`), else at `end`. */
  async: boolean;
  /** The rendered answer. */
  result?: Response;
  error?: unknown;
}
