// The current request, for plain functions that templates call anywhere.
//
//   mount's handler ─ answerInContext({ tree, node, req, target, … }) ─ middlewares ─ props ─ page
//                                                                          urlFor(UserPage)      → ctx.tree.urlFor
//                                                                          id(this.todoList)     → ctx.tree.id
//                                                                          setStatus(201)        → ctx.answer.status
//
// `urlFor`, `id`, `idTarget`, `staticUrl`, `currentPage`, `currentRequest`, `setStatus`, `setHeader` and the htmx
// helpers (htmx-response.ts) find the request through AsyncLocalStorage, entered once per request at mount's
// handler (pipeline/dispatch.ts), outermost (so middleware sees it too), and left when the answer is made (unless
// its body streams).
// Outside a request, the mounted trees are searched instead and anything ambiguous is an error.

import { AsyncLocalStorage } from 'node:async_hooks';
import { UrlForError } from '../errors.ts';
import { headerName, headerValue } from '../kernel/header-value.ts';
import { kebab } from '../tree/names.ts';
import type { PageRequest } from '../kernel/request.ts';
import type { PageNode } from '../tree/page-node.ts';
import { readHtmx, type HtmxDetails } from './htmx-details.ts';
import type { RenderTarget } from './render-target.ts';
import type { Tree } from '../tree/tree.ts';
import type { RequestTrace } from './trace.ts';
import { base64url } from '../kernel/base64url.ts';
import { liteBody } from '../kernel/answer.ts';
import type { RegisteredRoot, UrlParamsArg, PageRef } from '../tree/url-types.ts';

/** The state of one request inside the page pipeline. */
export interface RequestContext {
  readonly tree: Tree;
  readonly node: PageNode;
  req: PageRequest;
  /** What htmx says in the request's headers, read once. */
  readonly htmx: HtmxDetails;
  /** What the request asks the page for, chosen once before the middlewares run; every step reads this one. */
  readonly target: RenderTarget;
  /** The status of a rendered answer unless setStatus says otherwise: 200, or 404 for the not-found page. */
  readonly defaultStatus: number;
  /** What the page recorded for its answer so far; undefined until it records something (`draft`). */
  answer: AnswerDraft | undefined;
  /** The page timed out and its 503 is answered: what the page does later is dropped, its failure not logged. */
  timedOut: boolean;
  /** The request's record when it is traced or observed (tracing.ts), else undefined. */
  trace: RequestTrace | undefined;
  /**
   * A streaming page's plan (`stream = true`, and a request that can take a stream), set before it renders: the
   * first `<Suspense>` that waits makes `stream` from it. Undefined: every boundary renders in place.
   */
  streamPlan: StreamPlan | undefined;
  /**
   * The boundaries of a streamed page (pipeline/streaming.ts) while it renders and streams, else undefined: made by
   * the first `<Suspense>` that waits, so that a page that streams nothing runs, and an app that imports no
   * `Suspense` bundles, none of the streaming code.
   */
  stream: StreamState | undefined;
  /** The request's CSP nonce, once `cspNonce()` made one. */
  nonce: string | undefined;
}

/**
 * What a page records for its answer while it runs, apart from what it reads of its request: the helpers write it
 * (setStatus, setHeader, the htmx and cookie helpers), and the pipeline reads it once, when it makes the answer.
 */
export interface AnswerDraft {
  /** Status set by `setStatus`, for the page's answer; undefined: the context's `defaultStatus`. */
  status: number | undefined;
  /** Headers set by `setHeader` and the htmx header helpers (lower-case names), for the page's answer. */
  headers: Record<string, string> | undefined;
  /** Events for `HX-Trigger` and its after-swap/after-settle forms, merged at the answer. */
  triggers: Triggers | undefined;
  /** Components to render into other regions of the page too (`alsoRender`). */
  regions: Region[] | undefined;
  /** Set-Cookie lines for the page's answer (`setCookie`, `deleteCookie`, `flash`), in call order. */
  cookies: string[] | undefined;
  /**
   * The request's Cookie header, parsed once (auth/cookies.ts), with the request it was read from: a middleware that
   * passes on another request has its cookies read again.
   */
  requestCookies: { readonly req: Request; readonly values: Record<string, string> } | undefined;
  /** `flash()`'s message this request has not taken yet, and the one `takeFlash()` took (auth/cookies.ts). */
  flash: { pending: string | undefined; taken: string | undefined } | undefined;
  /** The request's session, opened once (auth/session.ts's `Session`, which this folder, below auth/, does not name). */
  session: Promise<object> | undefined;
}

/**
 * The request's answer draft, made on the first thing recorded (most pages record nothing: no object for them).
 * @example draft(ctx).status = 201
 */
export function draft(ctx: RequestContext): AnswerDraft {
  return (ctx.answer ??= {
    status: undefined,
    headers: undefined,
    triggers: undefined,
    regions: undefined,
    cookies: undefined,
    requestCookies: undefined,
    flash: undefined,
    session: undefined,
  });
}

/**
 * What the request's helpers, `<Suspense>` and the page step see of a streamed page: pipeline/streaming.ts's
 * PageStream, which the first `<Suspense>` that waits makes from the context's `streamPlan`.
 */
export interface StreamState {
  /** Whether the head (status, headers, cookies) went out: what a helper records after it is lost. */
  readonly committed: boolean;
  /** Whether no boundary waits: the page rendered whole, and goes as one string. */
  readonly empty: boolean;
  /** The Content-Type of the streamed answer. */
  readonly contentType: string;
  /** Registers a boundary's content; returns its id. */
  defer(content: Promise<string>): string;
  /** The boundary's fallback with the markers its content replaces. */
  placeholder(id: string, fallback: string): string;
  /** The answer's body: the shell now, each boundary as it is ready (compressed as it streams, where it is). */
  body(shell: string): ReadableStream<Uint8Array>;
  /** A HEAD's body: empty; what is pending is dropped. */
  head(): ReadableStream<Uint8Array>;
  /** Drops every boundary (the page failed before its first byte): what they do later is not sent. */
  abandon(): void;
}

/** How a page stream reports and renders a failed boundary; made by the page step (pipeline/dispatch.ts). */
export interface StreamHooks {
  /** The HTML of a failed boundary: the section's error fragment. Called once per failure, after it is logged. */
  failed(err: unknown): string | Promise<string>;
  /** Reports a failure once (the mux's logger). */
  log(message: string, err?: unknown): void;
  /** Milliseconds the boundaries may take once the first byte is sent; 0 for no limit (the mount's `timeout`). */
  timeout: number;
  /** The request's CSP nonce for the inline script, if the page asked for one (`cspNonce()`). */
  nonce(): string | undefined;
}

/** What a streaming page's stream is made of, once a `<Suspense>` needs it. */
export interface StreamPlan {
  readonly hooks: StreamHooks;
  /** Parts of multipart/mixed for htmx (its hx-multipart extension), else an HTML document. */
  readonly multipart: boolean;
}

/** Client events by when htmx fires them: name → detail. */
export type Triggers = Partial<Record<'receive' | 'swap' | 'settle', Record<string, unknown>>>;

/** One `alsoRender` call. */
export interface Region {
  readonly id: string;
  readonly html: string | Promise<string>;
  readonly swap: string;
  /** The element htmx 2's hx-swap-oob wrapper uses. */
  readonly tag: string;
}

// What AsyncLocalStorage keeps for a request: its context until the answer is made, then nothing. The store outlives
// the request (Deno keeps it through one more scavenge, and a promise or timer made during the request holds it),
// and with it everything the context reaches: the request, its headers, the htmx details. Released, the GC copies
// one small object instead: on Deno that was 5% of a partial's instructions (bench/runtimes/instructions.ts, issue 28).
/** What the request's AsyncLocalStorage holds: the context while the request runs, then undefined. */
export interface ContextSlot {
  ctx: RequestContext | undefined;
}

/**
 * The storage the page pipeline enters once per request, with a slot of its own (pipeline/dispatch.ts's
 * answerInContext, so that no function of this file is on a page's way: bench/path), and leaves with releaseContext.
 * Everything else reads it through requestContext.
 */
export const contextStorage = new AsyncLocalStorage<ContextSlot>();

/** The current request's context, found through AsyncLocalStorage. */
export const requestContext = {
  /** The context of the request being answered here, or undefined (outside a request, or after its answer). */
  getStore(): RequestContext | undefined {
    return contextStorage.getStore()?.ctx;
  },
  /** Runs `fn` with `ctx` as the request context (an error fragment's, inside a request that has its own). */
  run<R>(ctx: RequestContext, fn: () => R): R {
    return contextStorage.run({ ctx }, fn);
  },
};

/**
 * Ends a request's context once its answer `res` is made: what runs after it (a timer, a promise nobody awaited)
 * finds no request, as a Go handler's `r.Context()` is cancelled when ServeHTTP returns. Unless the body is a
 * stream: a streamed page, an event stream or a hand-made Response keep their context for as long as they run.
 * @example andThen(contextStorage.run(slot, step, route, ctx), releaseContext, slot, undefined)
 */
export function releaseContext(res: Response, slot: ContextSlot): Response {
  const body = liteBody(res);
  if (body !== undefined && !(body instanceof ReadableStream)) slot.ctx = undefined;
  return res;
}

/**
 * The page node serving the current request.
 * @example currentPage().name // → "todos" inside TodosPage's render
 */
export function currentPage(): PageNode {
  const ctx = requestContext.getStore();
  if (!ctx) throw new Error('currentPage(): called outside a request; call it while rendering a page');
  return ctx.node;
}

/**
 * Sets the status of the rendered response, from `props()` or a component: 200–599, as a `Response` takes.
 * @example setStatus(201)
 */
export function setStatus(status: number): void {
  const ctx = answerContext('setStatus');
  if (!Number.isInteger(status) || status < 200 || status > 599) {
    throw new RangeError(`setStatus(${status}): a status is a whole number from 200 to 599`);
  }
  draft(ctx).status = status;
}

/**
 * Sets a header of the rendered response, from `props()` or a component. A name that is not a token, or a value
 * with a line break or another control character, is a TypeError (the page answers 500).
 * @example setHeader('Cache-Control', 'no-store')
 */
export function setHeader(name: string, value: string): void {
  const ctx = answerContext('setHeader');
  (draft(ctx).headers ??= {})[headerName('setHeader', name).toLowerCase()] = headerValue('setHeader', value);
}

/**
 * The request being served, for code deep in a layout that was not handed it.
 * @example new URL(currentRequest().url).searchParams.get('q')
 */
export function currentRequest(): PageRequest {
  return context('currentRequest').req;
}

/**
 * What htmx says in a request: the current one by default (read once per request), or the one given.
 * @example htmxDetails().sourceId === 'delete-from-row' // htmx 2 HX-Trigger, htmx 4 HX-Source "button#delete-from-row"
 */
export function htmxDetails(req?: Request): HtmxDetails {
  const ctx = requestContext.getStore();
  if (ctx && (req === undefined || req === ctx.req)) return ctx.htmx;
  if (req === undefined) throw new Error('htmxDetails(): called outside a request; pass the request');
  return readHtmx(req.headers);
}

/**
 * The request's nonce for a Content-Security-Policy: made on the first call (16 random bytes), the same for the rest
 * of the request. Give it to your own `<script>`s and to the policy; a streamed page's inline script carries it.
 * @example setHeader('Content-Security-Policy', `script-src 'self' 'nonce-${cspNonce()}'`) // → "…'nonce-q3H…'"
 */
export function cspNonce(): string {
  const ctx = context('cspNonce');
  return (ctx.nonce ??= base64url(crypto.getRandomValues(new Uint8Array(16))));
}

/**
 * The current request's context for a helper that records something for the answer's head (status, a header, a
 * cookie, an htmx header or region): an error once a streamed page sent its first byte, since the head went with it.
 */
export function answerContext(api: string): RequestContext {
  const ctx = context(api);
  checkHeadOpen(ctx, api);
  return ctx;
}

/**
 * The one check of everything that records for the answer's head (answerContext, a queued cookie, a session write):
 * an error once a streamed page sent its first byte. Made again where an async helper records, after its awaits,
 * since the first byte may have gone out meanwhile.
 * @example checkHeadOpen(ctx, 'session.set') // throws inside a <Suspense> part that resolved after the first byte
 */
export function checkHeadOpen(ctx: RequestContext, api: string): void {
  if (ctx.stream?.committed) {
    throw new Error(
      `${api}(): called after the streamed page's first byte went out, with its status, headers and cookies; ` +
        `call it from props(), or from a part of the page outside <Suspense>`,
    );
  }
}

/** The current request's context; `api` names the caller in the error outside a request. */
export function context(api: string): RequestContext {
  const ctx = requestContext.getStore();
  if (!ctx) throw new Error(`${api}(): called outside a request; call it from props() or a component`);
  return ctx;
}

// The trees mounted on a mux that is still alive, for id() and urlFor() outside a request. Weak: a mux dropped (a
// test's, a dev reload's) takes its tree along, instead of the tree staying here, and counting as mounted, for
// ever. The mux's handlers hold their tree, so a tree lives as long as its mux.
const mountedTrees = new Set<WeakRef<Tree>>();
const forgetTree = new FinalizationRegistry<WeakRef<Tree>>((ref) => mountedTrees.delete(ref));

// The trees mounted now.
function liveTrees(): Tree[] {
  const trees: Tree[] = [];
  for (const ref of mountedTrees) {
    const tree = ref.deref();
    if (tree === undefined) mountedTrees.delete(ref);
    else trees.push(tree);
  }
  return trees;
}

/** Makes a tree's components known to id()/idTarget() outside a request. */
export function rememberTree(tree: Tree): void {
  const ref = new WeakRef(tree);
  mountedTrees.add(ref);
  forgetTree.register(tree, ref);
}

/**
 * The element id of a page method (`this.todoList`), a chain ending in a method
 * name (`[Admin, Dashboard, 'header']`), or a standalone component
 * function; a string passes through unchanged.
 * @example id(this.todoList) // → "todos-todo-list"
 */
export function id(x: ComponentRef): string {
  if (typeof x === 'string') return x;
  const ctx = requestContext.getStore();
  if (ctx) return ctx.tree.id(x, ctx.node);
  if (typeof x !== 'function') return chainId(x);
  const trees = liveTrees().filter((t) => t.hasComponent(x));
  if (trees.length === 0) return kebab(x.name);
  // The same app mounted twice (a test each) gives the method the same id: not ambiguous.
  const ids = new Set(trees.map((t) => t.id(x)));
  if (ids.size === 1) return [...ids][0]!;
  throw new Error(
    `id(${x.name}): the method is mounted in ${trees.length} trees with different ids (${[...ids].join(', ')}); ` +
      `use tree.id() on the one you mean`,
  );
}

// A chain outside a request: the trees that hold it must agree on its id.
function chainId(chain: readonly unknown[]): string {
  const ids = new Set<string>();
  let firstError: unknown;
  for (const tree of liveTrees()) {
    try {
      ids.add(tree.id(chain));
    } catch (err) {
      firstError ??= err;
    }
  }
  if (ids.size === 1) return [...ids][0]!;
  if (ids.size === 0) throw firstError ?? onlyTree('id([...])', 'id');
  throw new Error(`id([...]): the mounted trees give the chain different ids (${[...ids].join(', ')}); use tree.id()`);
}

/**
 * `#` + id(x), for `hx-target`; a string passes through unchanged.
 * @example idTarget(this.todoList) // → "#todos-todo-list"
 */
export function idTarget(x: ComponentRef): string {
  return typeof x === 'string' ? x : '#' + id(x);
}

/** What id() takes: a page method, a chain ending in a method name, or an id string. */
export type ComponentRef = ((...args: never[]) => unknown) | readonly [unknown, ...unknown[]] | string;

/**
 * The URL of a page, for links inside templates. Checked at compile time once
 * the root is registered (`interface Register { root: App }`); inside a
 * request, missing params take the current route's values.
 * @example urlFor(UserPage, { userId: 7 }) // → "/admin/users/7"
 */
export function urlFor<const T extends PageRef<RegisteredRoot>, TArgs extends unknown[] = never>(
  target: T,
  ...params: UrlParamsArg<RegisteredRoot, T, TArgs>
): string {
  const ctx = requestContext.getStore();
  const tree = (ctx ? ctx.tree : onlyTree('urlFor()', 'urlFor')) as Tree;
  return (tree.urlFor as (t: unknown, p?: unknown) => string)(target, params[0]);
}

/**
 * The URL of a static file with its content hash in the name (cache it forever).
 * @example staticUrl('app.css') // → "/static/app.3f2a9c1d.css"
 */
export function staticUrl(path: string): string {
  const ctx = requestContext.getStore();
  return (ctx ? ctx.tree : onlyTree('staticUrl()', 'staticUrl')).staticUrl(path);
}

function onlyTree(api: string, method: string): Tree {
  const trees = liveTrees();
  if (trees.length === 1) return trees[0]!;
  throw new UrlForError(
    `${api}: called outside a request with ${trees.length} mounted trees; use tree.${method}() on the one you mean`,
  );
}
