// The Request an htmx client would send, for tests: no hand-written htmx headers.
//
//   htmxRequest('/tasks', { target: TasksPage.prototype.taskList })
//     htmx 4 (default)  HX-Request: true, HX-Target: div#tasks-task-list, HX-Request-Type: partial
//     { version: 2 }    HX-Request: true, HX-Target: tasks-task-list
//   htmxRequest('/', { boosted: true })
//     htmx 4            HX-Request: true, HX-Boosted: true, HX-Target: body, HX-Request-Type: full
//     { version: 2 }    HX-Request: true, HX-Boosted: true
//   htmxRequest('/', { historyRestore: true })
//     htmx 4            no htmx header at all (htmx 4 restores history with a plain load)
//     { version: 2 }    HX-Request: true, HX-History-Restore-Request: true
//
// `mux.fetch(request)` (or `tree`'s mux) answers it without a server.

import { id, type ComponentRef } from './context.ts';

/** What `htmxRequest` builds: which htmx, and what its request says. */
export interface HtmxRequestOptions {
  /** Which htmx sends it; default 4. */
  version?: 2 | 4;
  /** HTTP method; default GET (POST when `form` is given). */
  method?: string;
  /** The element to swap into: a page method or component (its id), or an id string; default none (body). */
  target?: ComponentRef;
  /** That element's tag, which htmx 4 sends with the id (`div#list`); default "div". */
  targetTag?: string;
  /** The element that sent the request (htmx 2 `HX-Trigger`, htmx 4 `HX-Source`): its id or component. */
  source?: ComponentRef;
  /** That element's tag, for htmx 4; default "button". */
  sourceTag?: string;
  /** That element's `name`, which htmx 2 sends as `HX-Trigger-Name`. */
  sourceName?: string;
  /** A boosted link or form. */
  boosted?: boolean;
  /** A history restore: htmx 2's `HX-History-Restore-Request`, a plain load for htmx 4. */
  historyRestore?: boolean;
  /** The browser's URL (`HX-Current-URL`). */
  currentUrl?: string;
  /** The answer to `hx-prompt` (`HX-Prompt`). */
  prompt?: string;
  /** Form fields, sent urlencoded as htmx does. */
  form?: Record<string, string | readonly string[]>;
  /** More request headers. */
  headers?: Record<string, string>;
}

/**
 * Builds the Request an htmx 2 or htmx 4 client sends; a relative URL gets the origin http://localhost.
 * @example await mux.fetch(htmxRequest('/tasks', { target: TasksPage.prototype.taskList, version: 2 }))
 */
export function htmxRequest(url: string, options: HtmxRequestOptions = {}): Request {
  const version = options.version ?? 4;
  const headers = new Headers();
  if (!(options.historyRestore && version === 4)) {
    headers.set('hx-request', 'true');
    const target = options.target === undefined ? null : id(options.target);
    if (version === 4) {
      headers.set('hx-target', target === null ? 'body' : `${options.targetTag ?? 'div'}#${target}`);
      headers.set('hx-request-type', target === null ? 'full' : 'partial');
      if (options.source !== undefined)
        headers.set('hx-source', `${options.sourceTag ?? 'button'}#${id(options.source)}`);
    } else {
      if (target !== null && !options.historyRestore) headers.set('hx-target', target);
      if (options.source !== undefined) headers.set('hx-trigger', id(options.source));
      if (options.sourceName !== undefined) headers.set('hx-trigger-name', options.sourceName);
      if (options.historyRestore) headers.set('hx-history-restore-request', 'true');
    }
    if (options.boosted) headers.set('hx-boosted', 'true');
    if (options.currentUrl !== undefined) headers.set('hx-current-url', options.currentUrl);
    // htmx 4's hx-prompt extension sends the answer URI-encoded.
    if (options.prompt !== undefined)
      headers.set('hx-prompt', version === 4 ? encodeURI(options.prompt) : options.prompt);
  }
  for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value);
  let body: URLSearchParams | undefined;
  if (options.form) {
    body = new URLSearchParams();
    for (const [name, value] of Object.entries(options.form)) {
      for (const v of typeof value === 'string' ? [value] : value) body.append(name, v);
    }
    headers.set('content-type', 'application/x-www-form-urlencoded');
  }
  const method = options.method ?? (body ? 'POST' : 'GET');
  return new Request(new URL(url, 'http://localhost'), { method, headers, body });
}
