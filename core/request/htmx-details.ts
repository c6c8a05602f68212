// What an htmx request says about itself, read once per request.
//
// htmx 2 and htmx 4 say the same things with different headers:
//
//   fact                htmx 2                          htmx 4
//   an htmx request     HX-Request: true                HX-Request: true (not on history restore)
//   version             (no HX-Request-Type)            HX-Request-Type: partial | full
//   target id           HX-Target: todos-list           HX-Target: ul#todos-list ("body": a tag, no id)
//   source element      HX-Trigger: delete-btn          HX-Source: button#delete-btn
//                       HX-Trigger-Name: action
//   boosted             HX-Boosted: true                HX-Boosted: true
//   history restore     HX-History-Restore-Request      HX-History-Restore-Request and HX-Request-Type: full,
//                       (and no HX-Target)              but no HX-Request: not an htmx request, a page load
//   current URL         HX-Current-URL                  HX-Current-URL
//   prompt answer       HX-Prompt                       HX-Prompt, URI-encoded (its hx-prompt extension)
//
// And one answer derived from them: whether htmx swaps the answer into an element of the page (so it must be a
// fragment: a whole layout inside a table row is the bug this prevents) or navigates with it (a boosted link, a
// history restore, htmx 4's full-page request, or no htmx at all: the page).
//
//   HX-Request  also                                         swapsIntoElement
//   (none)                                                   false   a plain load (and htmx 4's history restore)
//   true        HX-Target: tr#row-3 / closest tr / main      true    whatever the target, component or not
//   true        HX-Boosted: true                             false
//   true        HX-History-Restore-Request: true (htmx 2)    false   (with no HX-Target: htmx 2 sends none then)
//   true        HX-Request-Type: full (htmx 4)               false
// A request that is not from htmx gets one shared object with every field empty.

/** What an htmx request says, the same for htmx 2 and htmx 4: `htmxDetails(req)`. */
export interface HtmxDetails {
  /** Whether htmx sent the request (`HX-Request: true`). */
  readonly isHtmx: boolean;
  /** 4 when the request carries htmx 4's `HX-Request-Type`, 2 for other htmx requests, null for the rest. */
  readonly version: 2 | 4 | null;
  /** Whether a boosted link or form sent it (`HX-Boosted`). */
  readonly boosted: boolean;
  /** Whether htmx 2 asks for a page to restore history (htmx 4 then sends a plain request). */
  readonly historyRestore: boolean;
  /** htmx 4's `HX-Request-Type`: "partial" or "full"; null from htmx 2. */
  readonly requestType: 'partial' | 'full' | null;
  /** The id of the element htmx will swap into, without "#"; null when it has no id. */
  readonly target: string | null;
  /** The id of the element that sent the request (htmx 2 `HX-Trigger`, htmx 4 `HX-Source`), or null. */
  readonly sourceId: string | null;
  /** The tag of that element, lower case (htmx 4 only: `HX-Source` "button#delete"), or null. */
  readonly sourceTag: string | null;
  /** The `name` of that element (htmx 2 only: `HX-Trigger-Name`), or null. */
  readonly sourceName: string | null;
  /** The URL of the page in the browser (`HX-Current-URL`), or null. */
  readonly currentUrl: string | null;
  /** The user's answer to `hx-prompt` (`HX-Prompt`), or null. */
  readonly prompt: string | null;
  /**
   * Whether htmx swaps the answer into an element of the page, so that it must be a fragment (an error message, not
   * a second layout): an htmx request that is not boosted, not a history restore and not htmx 4's full-page request.
   * False for a page load. Unlike `target.partial`, it does not depend on the target naming a component.
   */
  readonly swapsIntoElement: boolean;
}

/** The details of a request htmx did not send. */
export const notHtmx: HtmxDetails = Object.freeze({
  isHtmx: false,
  version: null,
  boosted: false,
  historyRestore: false,
  requestType: null,
  target: null,
  sourceId: null,
  sourceTag: null,
  sourceName: null,
  currentUrl: null,
  prompt: null,
  swapsIntoElement: false,
});

/**
 * Reads the htmx headers of a request: at once those that decide what to render (`HX-Request`, `HX-Request-Type`,
 * `HX-Target`, and htmx 2's `HX-History-Restore-Request` when there is no `HX-Target`), each of the others when its
 * field is first read.
 * @example readHtmx(new Headers({ 'hx-request': 'true', 'hx-target': 'ul#list', 'hx-request-type': 'partial' })).target // → "list"
 */
export function readHtmx(headers: Headers): HtmxDetails {
  if (headers.get('hx-request') !== 'true') return notHtmx;
  return new HtmxRequestDetails(headers, headers.get('hx-request-type'));
}

// An htmx request's details. A header read is not free: on Deno each `headers.get` runs ~1,500 instructions of
// JavaScript (it validates the name and scans the whole header list), and reading all nine htmx headers up front
// cost a partial ~7% of its instructions (bench/runtimes/instructions.ts, issue 28). So a field that picks no
// component (where htmx put the answer, what sent it, the prompt) reads its header when a page first asks, once.
// They are getters on this class: `JSON.stringify` (toJSON) and `detailsRecord` give every field, a spread only the
// five read at once.
class HtmxRequestDetails implements HtmxDetails {
  readonly isHtmx = true;
  readonly version: 2 | 4;
  readonly requestType: 'partial' | 'full' | null;
  readonly historyRestore: boolean;
  readonly target: string | null;
  readonly #headers: Headers;
  // Each read on first use; undefined until then.
  #boosted: boolean | undefined = undefined;
  #source: [tag: string | null, id: string | null] | undefined = undefined;
  #sourceName: string | null | undefined = undefined;
  #currentUrl: string | null | undefined = undefined;
  #prompt: string | null | undefined = undefined;

  constructor(headers: Headers, type: string | null) {
    const htmx4 = type !== null;
    this.version = htmx4 ? 4 : 2;
    this.requestType = type === 'full' ? 'full' : type === 'partial' ? 'partial' : null;
    const target = headers.get('hx-target');
    this.target = targetId(target, htmx4);
    // htmx 2 restores history with HX-Request, HX-History-Restore-Request and HX-Current-URL, never an HX-Target, so
    // a request that names a target is no restore (and a partial reads one header less). htmx 4 restores without
    // HX-Request: no htmx request here (docs/htmx.md).
    this.historyRestore = !htmx4 && target === null && headers.get('hx-history-restore-request') === 'true';
    this.#headers = headers;
  }

  get boosted(): boolean {
    return (this.#boosted ??= this.#headers.get('hx-boosted') === 'true');
  }
  get swapsIntoElement(): boolean {
    return !this.historyRestore && this.requestType !== 'full' && !this.boosted;
  }
  get sourceId(): string | null {
    return this.#sourceParts()[1];
  }
  get sourceTag(): string | null {
    return this.#sourceParts()[0];
  }
  get sourceName(): string | null {
    if (this.#sourceName === undefined) {
      this.#sourceName = this.version === 4 ? null : this.#headers.get('hx-trigger-name') || null;
    }
    return this.#sourceName;
  }
  get currentUrl(): string | null {
    if (this.#currentUrl === undefined) this.#currentUrl = this.#headers.get('hx-current-url');
    return this.#currentUrl;
  }
  get prompt(): string | null {
    if (this.#prompt === undefined) {
      const prompt = this.#headers.get('hx-prompt');
      this.#prompt = this.version === 4 ? decodePrompt(prompt) : prompt;
    }
    return this.#prompt;
  }
  toJSON(): HtmxDetails {
    return detailsRecord(this);
  }

  // htmx 4's HX-Source "tag#id", or htmx 2's HX-Trigger (an id alone).
  #sourceParts(): [tag: string | null, id: string | null] {
    if (this.#source === undefined) {
      if (this.version === 4) {
        const source = this.#headers.get('hx-source');
        this.#source = source === null ? [null, null] : splitTagId(source);
      } else {
        this.#source = [null, this.#headers.get('hx-trigger') || null];
      }
    }
    return this.#source;
  }
}

/**
 * Every field of htmx details as a plain object (what a spread of them would not give: most are getters).
 * @example { ...detailsRecord(htmxDetails()), swapsIntoElement: true }
 */
export function detailsRecord(d: HtmxDetails): HtmxDetails {
  return {
    isHtmx: d.isHtmx,
    version: d.version,
    boosted: d.boosted,
    historyRestore: d.historyRestore,
    requestType: d.requestType,
    target: d.target,
    sourceId: d.sourceId,
    sourceTag: d.sourceTag,
    sourceName: d.sourceName,
    currentUrl: d.currentUrl,
    prompt: d.prompt,
    swapsIntoElement: d.swapsIntoElement,
  };
}

// The id in HX-Target: after the first "#" (htmx 4's "tag#id"); a bare value
// is an id from htmx 2 but a tag name from htmx 4.
function targetId(header: string | null, htmx4: boolean): string | null {
  if (!header) return null;
  const hash = header.indexOf('#');
  if (hash >= 0) return header.slice(hash + 1) || null;
  return htmx4 ? null : header;
}

/**
 * htmx 4's "tag#id" (or a bare "tag" when the element has no id), the tag in lower case.
 * @example splitTagId('BUTTON#delete') // → ["button", "delete"]
 */
export function splitTagId(value: string): [tag: string | null, id: string | null] {
  const hash = value.indexOf('#');
  if (hash < 0) return [value.toLowerCase() || null, null];
  return [value.slice(0, hash).toLowerCase() || null, value.slice(hash + 1) || null];
}

// htmx 4's hx-prompt extension sends encodeURI(answer); a value that does not decode is taken as sent.
function decodePrompt(value: string | null): string | null {
  if (value === null) return null;
  try {
    return decodeURI(value);
  } catch {
    return value;
  }
}
