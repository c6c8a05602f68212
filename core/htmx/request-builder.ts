// The Request an htmx client would send, for tests: no hand-written htmx headers.
//
//   htmxRequest('/tasks', { target: TasksPage.prototype.taskList })
//     htmx 4 (default)  HX-Request: true, HX-Target: div#tasks-task-list, HX-Request-Type: partial
//     { version: 2 }    HX-Request: true, HX-Target: tasks-task-list
//   htmxRequest('/', { boosted: true })
//     htmx 4            HX-Request: true, HX-Boosted: true, HX-Target: body, HX-Request-Type: full
//     { version: 2 }    HX-Request: true, HX-Boosted: true
//   htmxRequest('/', { historyRestore: true })
//     htmx 4            HX-History-Restore-Request: true, HX-Request-Type: full (no HX-Request: a page load)
//     { version: 2 }    HX-Request: true, HX-History-Restore-Request: true
//   htmxRequest('/contacts', { targetTag: 'tr', sourceTag: 'button' })   (elements without an id: a tag alone)
//     htmx 4            HX-Request: true, HX-Target: tr, HX-Source: button, HX-Request-Type: partial
//     { version: 2 }    HX-Request: true (htmx 2 names elements by id only)
//
// A form's values go where each htmx puts them, and with its Content-Type (both seen in Chromium, pinned by
// __tests__/first-hour/htmx-requests.test.tsx):
//
//   method              htmx 4 (Accept: text/html)                       htmx 2 (Accept: */*)
//   GET                 in the URL, no Content-Type                      in the URL, no Content-Type
//   POST, PUT, PATCH    in the body, x-www-form-urlencoded;charset=UTF-8  in the body, x-www-form-urlencoded
//   DELETE              in the URL, no Content-Type                      in the URL, x-www-form-urlencoded, no body
//
// (POST, PUT and PATCH carry the Content-Type and a body, empty without values, in both.) htmx 4 encodes a space
// as "+", htmx 2 as "%20".
//
// A target or source is a page method or component (its id), an id ("row-3" or "#row-3"), a tag and an id
// ("tr#row-3"), or, given as `targetTag`/`sourceTag` alone, a tag.
// `mux.fetch(request)` (or `tree`'s mux) answers it without a server.

import { id, type ComponentRef } from '../request/context.ts';
import { splitTagId } from '../request/htmx-details.ts';

/** What `htmxRequest` builds: which htmx, and what its request says. */
export interface HtmxRequestOptions {
  /** Which htmx sends it; default 4. */
  version?: 2 | 4;
  /** HTTP method; default GET (POST when `form` is given). */
  method?: string;
  /**
   * The element to swap into: a page method or component (its id), an id (`"list"`, `"#list"`), or a tag and an id
   * (`"ul#list"`); default none (body).
   */
  target?: ComponentRef;
  /**
   * That element's tag, which htmx 4 sends with the id (`div#list`; default "div"); alone, without `target`, an
   * element without an id: htmx 4 sends the bare tag (`HX-Target: tr`), htmx 2 no `HX-Target`.
   */
  targetTag?: string;
  /** The element that sent the request (htmx 2 `HX-Trigger`, htmx 4 `HX-Source`), written as `target` is. */
  source?: ComponentRef;
  /** That element's tag (default "button"); alone, without `source`, an element without an id, as `targetTag`. */
  sourceTag?: string;
  /** That element's `name`, which htmx 2 sends as `HX-Trigger-Name`. */
  sourceName?: string;
  /** A boosted link or form. */
  boosted?: boolean;
  /** A history restore: `HX-History-Restore-Request`, with htmx 2's `HX-Request` or htmx 4's `HX-Request-Type: full`. */
  historyRestore?: boolean;
  /** The browser's URL (`HX-Current-URL`). */
  currentUrl?: string;
  /** The answer to `hx-prompt` (`HX-Prompt`). */
  prompt?: string;
  /**
   * Form fields, where that htmx puts them for the method: in the URL for GET and DELETE, else in the body,
   * urlencoded as it encodes them.
   */
  form?: Record<string, string | readonly string[]>;
  /** More request headers. */
  headers?: Record<string, string>;
}

// An element as htmx 4 names it: "tag#id", or the bare tag of one without an id; null for none.
function element(ref: ComponentRef | undefined, tag: string | undefined, defaultTag: string): Named | null {
  if (ref === undefined) return tag === undefined ? null : named(tag.toLowerCase(), null);
  if (typeof ref === 'string' && ref.includes('#')) {
    const [ownTag, ownId] = splitTagId(ref);
    return named(ownTag ?? tag ?? defaultTag, ownId);
  }
  return named(tag ?? defaultTag, id(ref));
}

interface Named {
  readonly id: string | null;
  /** What htmx 4 sends: `tag#id`, or the tag alone. */
  readonly htmx4: string;
}

function named(tag: string, elementId: string | null): Named {
  return { id: elementId, htmx4: elementId === null ? tag : `${tag}#${elementId}` };
}

/**
 * Builds the Request an htmx 2 or htmx 4 client sends, a form's values where that htmx puts them for the method
 * (the table above); a relative URL gets the origin http://localhost.
 * @example await mux.fetch(htmxRequest('/tasks', { target: TasksPage.prototype.taskList, version: 2 }))
 * @example htmxRequest('/contacts', { version: 2, method: 'DELETE', form: { ids: ['1', '2'] } })
 *          // → DELETE http://localhost/contacts?ids=1&ids=2, Content-Type: application/x-www-form-urlencoded, no body
 */
export function htmxRequest(url: string, options: HtmxRequestOptions = {}): Request {
  const version = options.version ?? 4;
  const headers = new Headers();
  if (options.historyRestore && version === 4) {
    // What htmx 4.0 sends on the back button when it restores with a request (seen in Chromium): no HX-Request.
    headers.set('hx-history-restore-request', 'true');
    headers.set('hx-request-type', 'full');
  } else {
    headers.set('hx-request', 'true');
    const target = element(options.target, options.targetTag, 'div');
    const source = element(options.source, options.sourceTag, 'button');
    if (version === 4) {
      const into = target === null ? 'body' : target.htmx4;
      headers.set('hx-target', into);
      headers.set('hx-request-type', into === 'body' ? 'full' : 'partial');
      if (source !== null) headers.set('hx-source', source.htmx4);
    } else {
      // htmx 2 names elements by id only: an element without one sends no header.
      if (target?.id && !options.historyRestore) headers.set('hx-target', target.id);
      if (source?.id) headers.set('hx-trigger', source.id);
      if (options.sourceName !== undefined) headers.set('hx-trigger-name', options.sourceName);
      if (options.historyRestore) headers.set('hx-history-restore-request', 'true');
    }
    if (options.boosted) headers.set('hx-boosted', 'true');
    if (options.currentUrl !== undefined) headers.set('hx-current-url', options.currentUrl);
    // htmx 4's hx-prompt extension sends the answer URI-encoded.
    if (options.prompt !== undefined)
      headers.set('hx-prompt', version === 4 ? encodeURI(options.prompt) : options.prompt);
  }
  const method = (options.method ?? (options.form ? 'POST' : 'GET')).toUpperCase();
  const values = options.form ? encodeForm(options.form, version) : '';
  const where = new URL(url, 'http://localhost');
  let body: string | undefined;
  headers.set('accept', version === 4 ? 'text/html' : '*/*'); // htmx 4 asks for HTML; htmx 2's XHR, the default
  if (method === 'GET' || method === 'HEAD' || method === 'DELETE') {
    if (values !== '') where.search = where.search === '' ? values : `${where.search}&${values}`;
    // htmx 2 labels every request but a GET as a form, a DELETE too, whose values are in the URL and body empty.
    if (method === 'DELETE' && version === 2) headers.set('content-type', 'application/x-www-form-urlencoded');
  } else {
    body = values;
    const type = 'application/x-www-form-urlencoded';
    headers.set('content-type', version === 4 ? `${type};charset=UTF-8` : type);
  }
  for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value);
  return new Request(where, { method, headers, body });
}

// The fields urlencoded as each htmx encodes them: htmx 4 with URLSearchParams (a space is "+"), htmx 2 with
// encodeURIComponent (a space is "%20").
function encodeForm(form: Record<string, string | readonly string[]>, version: 2 | 4): string {
  const pairs: string[] = [];
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(form)) {
    for (const v of typeof value === 'string' ? [value] : value) {
      if (version === 4) params.append(name, v);
      else pairs.push(`${encodeURIComponent(name)}=${encodeURIComponent(v)}`);
    }
  }
  return version === 4 ? params.toString() : pairs.join('&');
}
