// What a page tells htmx besides its HTML: response headers, and other regions rendered along.
//
//   props() / an action / a component      the page's answer
//   hxTrigger('task-added', { title })  →  HX-Trigger: {"task-added":{"title":"Milk"}}
//   hxPushUrl(urlFor(TasksPage))        →  HX-Push-Url: /
//   alsoRender(this.openCount, <b>3</b>) →  <ul>…the partial…</ul>
//                                            htmx 4: <hx-partial id="tasks-open-count" hx-swap="innerHTML"><b>3</b></hx-partial>
//                                            htmx 2: <template><div id="tasks-open-count" hx-swap-oob="innerHTML"><b>3</b></div></template>
//
// Each helper records on the current request (context.ts); the pipeline writes the record into the page's answer
// (dispatch.ts), whether it renders or props() returns a Response. The form follows the requesting htmx:
//   - htmx 4 dropped HX-Trigger-After-Swap/-Settle: every trigger goes into HX-Trigger, fired after the swap.
//   - htmx 4 dropped status 286: stopPolling() works for htmx 2 only (htmx 4: swap the poller away).
//   - htmx 2 reads <hx-partial> only from 2.0.11 on, so htmx 2 gets hx-swap-oob, which every 2.x reads.
//
// A region's content may be a promise that only a fragment for htmx awaits (withRegions). An answer that leaves the
// regions out (a Response, an error, a full page) drops them (dropRegions), logging one that fails; a rejection
// nobody handles would end the process.

import {
  answerContext,
  draft,
  idTarget,
  id as idOf,
  type ComponentRef,
  type RequestContext,
} from '../request/context.ts';
import { escapeHtml } from '../kernel/answer.ts';
import { headerUrl, headerValue, hxLocationUrl } from '../kernel/header-value.ts';
import type { Logger } from '../kernel/logger.ts';

// The `hx-swap` styles both versions know, plus htmx 4's `textContent`: the type and the check read this one list.
const swapStyles = [
  'innerHTML',
  'outerHTML',
  'textContent',
  'beforebegin',
  'afterbegin',
  'beforeend',
  'afterend',
  'delete',
  'none',
] as const;

/** How htmx inserts content: `hx-swap` styles both versions know, plus htmx 4's `textContent`. */
export type SwapStyle = (typeof swapStyles)[number];

/** A swap style, optionally with htmx modifiers: "innerHTML", "outerHTML swap:200ms". */
export type Swap = SwapStyle | `${SwapStyle} ${string}`;

/** When htmx fires a triggered event: on receiving the answer (default), after the swap, or after settling. */
export type TriggerTime = 'receive' | 'swap' | 'settle';

/**
 * Fires a client event when htmx gets the answer (`HX-Trigger`); several calls merge into one header. `detail`
 * becomes `event.detail` (an object as is, anything else as `{ value }`). htmx 4 fires every trigger after the
 * swap; htmx 2 honours `after` (`HX-Trigger-After-Swap`, `HX-Trigger-After-Settle`).
 * @example hxTrigger('task-added', { title }) // → HX-Trigger: {"task-added":{"title":"Milk"}}
 */
export function hxTrigger(event: string, detail?: unknown, options: { after?: TriggerTime } = {}): void {
  if (event === '') throw new TypeError('hxTrigger(): the event name is empty');
  // Any other name can go into the header (as JSON when it is not plain ASCII); a control character is a bug.
  if (/[\0-\x1f\x7f]/.test(event)) {
    throw new TypeError(`hxTrigger(): the event name ${JSON.stringify(event)} holds a control character`);
  }
  const ctx = answerContext('hxTrigger');
  const when = options.after ?? 'receive';
  const triggers = (draft(ctx).triggers ??= {});
  (triggers[when] ??= {})[event] = detail;
}

/**
 * Makes htmx swap the answer into another element (`HX-Retarget`): a page method or component (its id), or a
 * CSS selector string.
 * @example hxRetarget(this.errors) // → HX-Retarget: #tasks-errors
 */
export function hxRetarget(target: ComponentRef): void {
  put('hxRetarget', 'hx-retarget', idTarget(target));
}

/**
 * Overrides how htmx swaps the answer (`HX-Reswap`).
 * @example hxReswap('outerHTML')
 */
export function hxReswap(swap: Swap): void {
  put('hxReswap', 'hx-reswap', checkSwap('hxReswap', swap));
}

/**
 * Makes htmx swap only part of the answer (`HX-Reselect`): a CSS selector.
 * @example hxReselect('#results')
 */
export function hxReselect(selector: string): void {
  put('hxReselect', 'hx-reselect', selector);
}

/**
 * Pushes a URL into the browser history (`HX-Push-Url`); `false` prevents the push the element asked for.
 * @example hxPushUrl(urlFor(TasksPage, { q })) // → HX-Push-Url: /?q=milk
 */
export function hxPushUrl(url: string | false): void {
  put('hxPushUrl', 'hx-push-url', url === false ? 'false' : headerUrl('hxPushUrl', url));
}

/**
 * Replaces the current URL in the browser history (`HX-Replace-Url`); `false` prevents it.
 * @example hxReplaceUrl(urlFor(TasksPage))
 */
export function hxReplaceUrl(url: string | false): void {
  put('hxReplaceUrl', 'hx-replace-url', url === false ? 'false' : headerUrl('hxReplaceUrl', url));
}

/**
 * Makes the browser reload the whole page (`HX-Refresh: true`).
 * @example hxRefresh()
 */
export function hxRefresh(): void {
  put('hxRefresh', 'hx-refresh', 'true');
}

/**
 * Makes the browser leave for a URL with a full load (`HX-Redirect`).
 * @example hxRedirect(urlFor(LoginPage))
 */
export function hxRedirect(url: string): void {
  put('hxRedirect', 'hx-redirect', headerUrl('hxRedirect', url));
}

/** The object form of `HX-Location`: where htmx navigates and how it swaps the answer. */
export interface HxLocation {
  /** The URL to GET, e.g. from `urlFor`. */
  path: string;
  /** Where to swap it: a page method or component (its id), or a CSS selector; default `body`. */
  target?: ComponentRef;
  swap?: Swap;
  /** A CSS selector of the part of the answer to swap. */
  select?: string;
  /** Values to send, as form fields. */
  values?: Record<string, unknown>;
  /** Request headers to add. */
  headers?: Record<string, string>;
  /** The URL to push into history instead of `path`, or `false` for none. */
  push?: string | false;
  /** The URL to replace the current one with instead of pushing. */
  replace?: string;
}

/**
 * Navigates without a full load (`HX-Location`): htmx GETs the URL and swaps it in (the body by default) and
 * pushes it into history. Inside a page answering both htmx and plain requests, `redirect(url)` does this for
 * htmx and a 303 for the rest.
 * @example hxLocation({ path: urlFor(TasksPage), target: '#main', select: '#main' }) // → HX-Location: {"path":"/","target":"#main","select":"#main"}
 */
export function hxLocation(location: string | HxLocation): void {
  if (typeof location === 'string') return put('hxLocation', 'hx-location', hxLocationUrl('hxLocation', location));
  const { target, swap, push, ...rest } = location;
  const value: Record<string, unknown> = { ...rest, path: headerUrl('hxLocation', location.path) };
  if (rest.replace !== undefined) value.replace = headerUrl('hxLocation', rest.replace);
  if (target !== undefined) value.target = idTarget(target);
  if (swap !== undefined) value.swap = checkSwap('hxLocation', swap);
  if (push !== undefined) value.push = push === false ? 'false' : headerUrl('hxLocation', push);
  put('hxLocation', 'hx-location', headerJson(value));
}

/**
 * Stops an `hx-trigger="every …"` poll: status 286, which htmx 2 honours. htmx 4 dropped it (a poll there stops
 * when its element leaves the page: answer with `hxReswap('outerHTML')` and markup without the poll).
 * Returns whether the requesting htmx stops.
 * @example if (job.done) stopPolling();
 */
export function stopPolling(): boolean {
  const ctx = answerContext('stopPolling');
  if (ctx.htmx.version !== 2) return false;
  draft(ctx).status = 286;
  return true;
}

/**
 * Renders a component into its region of the page too, beside the answer: "also update the open-task count".
 * The region is a page method or component (its id comes from `id()`) or an id string. htmx 4 gets
 * `<hx-partial>`, htmx 2 `hx-swap-oob`; a full-page answer gets nothing (the page renders every region). `swap`
 * is innerHTML by default. `tag` is the element htmx 2 reads the content from (default `div`): give the region's
 * own tag when the content is table rows or cells (`tbody`, `tr`), which a `div` cannot hold.
 * @example alsoRender(TasksPage.prototype.openCount, <>{open}</>)
 */
export function alsoRender(
  region: ComponentRef,
  element: string | Promise<string>,
  options: { swap?: Swap; tag?: string } = {},
): void {
  const ctx = answerContext('alsoRender');
  if (typeof region === 'string' && (region === '' || region.startsWith('#'))) {
    throw new TypeError(`alsoRender(${JSON.stringify(region)}): give the element id without "#", or the component`);
  }
  const swap = checkSwap('alsoRender', options.swap ?? 'innerHTML');
  const tag = options.tag ?? 'div';
  if (!/^[a-z][a-z0-9-]*$/.test(tag)) throw new TypeError(`alsoRender(): tag ${JSON.stringify(tag)} is no tag name`);
  // Every promise is observed where it is created (STYLE.md, Faults): this one is parked for an answer that may
  // never await it (a redirect, an error, a full page), and a rejection nobody handles ends a Node process. Joined,
  // its failure still takes the error road (withRegions); left out, dropRegions logs it.
  if (element instanceof Promise) element.catch(ignore);
  (draft(ctx).regions ??= []).push({ id: idOf(region), html: element, swap, tag });
}

function ignore(): void {}

/** The headers the helpers, setHeader and the cookie helpers recorded, ready for the answer; undefined when none. */
export function answerHeaders(ctx: RequestContext): Record<string, string | string[]> | undefined {
  const answer = ctx.answer;
  if (answer === undefined) return undefined;
  if (!answer.triggers && !answer.cookies) return answer.headers;
  const headers: Record<string, string | string[]> = { ...answer.headers };
  if (answer.cookies) headers['set-cookie'] = answer.cookies;
  if (!answer.triggers) return headers;
  const { receive, swap, settle } = answer.triggers;
  if (ctx.htmx.version === 4) {
    // One header, fired after the swap, for all three.
    const all = { ...receive, ...swap, ...settle };
    headers['hx-trigger'] = triggerHeader(all);
  } else {
    if (receive) headers['hx-trigger'] = triggerHeader(receive);
    if (swap) headers['hx-trigger-after-swap'] = triggerHeader(swap);
    if (settle) headers['hx-trigger-after-settle'] = triggerHeader(settle);
  }
  return headers;
}

/**
 * The answer's HTML with the regions of alsoRender after it, in the requesting htmx's form. An answer made only of
 * regions (its own HTML empty) still swaps into its target in both versions, as htmx 2 does: htmx 4 skips the main
 * swap of an answer that holds nothing but `<hx-partial>`s, so it gets an inert empty `<template>` to swap in (the
 * book's row deletion, an empty answer into `closest tr` with `outerHTML`, removes the row in both).
 */
export function withRegions(html: string, ctx: RequestContext): string | Promise<string> {
  const regions = ctx.answer!.regions!;
  ctx.answer!.regions = undefined; // taken: if joining them fails, the error road does not drop them again
  const join = (rendered: readonly string[]): string => {
    let out = ctx.htmx.version === 4 && html.trim() === '' ? '<template></template>' : html;
    for (let i = 0; i < regions.length; i++) out += regionHtml(regions[i]!, rendered[i]!, ctx.htmx.version);
    return out;
  };
  const parts = regions.map((r) => r.html);
  return parts.some((p) => p instanceof Promise) ? Promise.all(parts).then(join) : join(parts as string[]);
}

/**
 * Lets go of the regions alsoRender recorded for an answer that leaves them out (a Response such as a redirect, an
 * error's answer, a full page, a plain request): one that fails is logged with its id, never lost unseen.
 * @example dropRegions(ctx, logger) // later: 'pagetree: App.tasks (POST /tasks): alsoRender("tasks-open-count") failed …'
 */
export function dropRegions(ctx: RequestContext, logger: Logger): void {
  const regions = ctx.answer?.regions;
  if (regions === undefined) return;
  ctx.answer!.regions = undefined;
  const where = `${ctx.node.fieldPath} (${ctx.req.pattern || ctx.node.pattern})`;
  for (const { id, html } of regions) {
    if (!(html instanceof Promise)) continue;
    html.catch((err: unknown) =>
      logger.error(`pagetree: ${where}: alsoRender(${JSON.stringify(id)}) failed; the answer had left it out:`, err),
    );
  }
}

function regionHtml(region: { id: string; swap: string; tag: string }, html: string, version: 2 | 4 | null): string {
  const id = escapeHtml(region.id);
  if (version === 4) return `<hx-partial id="${id}" hx-swap="${escapeHtml(region.swap)}">${html}</hx-partial>`;
  // htmx 2 reads only the style, and for outerHTML swaps in the element itself, so that element carries the
  // attribute. Inside its own <template> the wrapper parses wherever it stands (a <tbody> after a <div> would not).
  const style = region.swap.split(' ', 1)[0]!;
  if (style === 'outerHTML') return `<template>${withOobAttribute(html, region.id)}</template>`;
  return `<template><${region.tag} id="${id}" hx-swap-oob="${style}">${html}</${region.tag}></template>`;
}

// htmx 2's outerHTML form: the rendered element itself carries hx-swap-oob, aimed at the region by selector.
function withOobAttribute(html: string, id: string): string {
  const m = /^\s*<([a-zA-Z][^\s/>]*)/.exec(html);
  if (!m) {
    throw new TypeError(
      `alsoRender(${JSON.stringify(id)}, …, { swap: 'outerHTML' }): the element must render one root element`,
    );
  }
  const at = m.index + m[0].length;
  return `${html.slice(0, at)} hx-swap-oob="outerHTML:#${escapeHtml(cssIdent(id))}"${html.slice(at)}`;
}

function put(api: string, name: string, value: string): void {
  const ctx = answerContext(api);
  (draft(ctx).headers ??= {})[name] = headerValue(api, value);
}

function checkSwap(api: string, swap: string): string {
  const style = swap.split(' ', 1)[0]!;
  if (!(swapStyles as readonly string[]).includes(style)) {
    throw new TypeError(`${api}(): unknown swap style ${JSON.stringify(style)}; use one of ${swapStyles.join(', ')}`);
  }
  return swap;
}

// "a, b" when no event has a detail, else JSON (both htmx versions read both forms).
function triggerHeader(events: Record<string, unknown>): string {
  const names = Object.keys(events);
  // Plain ASCII names without detail go as a list; any other name would not survive it (or the header).
  const plain = names.every((n) => events[n] === undefined && /^[\x21-\x2b\x2d-\x7a\x7c\x7e]+$/.test(n));
  if (plain) return names.join(', ');
  const value: Record<string, unknown> = {};
  for (const n of names) value[n] = events[n] ?? null;
  return headerJson(value);
}

// JSON that is a valid header value: non-ASCII escaped as \uXXXX (JSON.stringify escapes the control characters).
function headerJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u007f-\uffff]/g,
    (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'),
  );
}

// CSS.escape (CSSOM "serialize an identifier"), which Node lacks, for an id in a selector.
function cssIdent(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0) out += '\ufffd';
    else if ((c >= 1 && c <= 0x1f) || c === 0x7f) out += `\\${c.toString(16)} `;
    else if (i === 0 && c >= 0x30 && c <= 0x39) out += `\\${c.toString(16)} `;
    else if (i === 1 && c >= 0x30 && c <= 0x39 && s.charCodeAt(0) === 0x2d) out += `\\${c.toString(16)} `;
    else if (i === 0 && c === 0x2d && s.length === 1) out += '\\-';
    else if (c >= 0x80 || c === 0x2d || c === 0x5f || /[0-9A-Za-z]/.test(s[i]!)) out += s[i];
    else out += '\\' + s[i];
  }
  return out;
}
