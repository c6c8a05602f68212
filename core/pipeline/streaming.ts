// Streamed full pages: a page that says `stream = true` sends its document up to its slow parts at once, then each
// slow part (a <Suspense> boundary) as it resolves, in the order they resolve.
//
//   page(props) → "<html>…<main><?start name="pt-1"><p>Loading…</p><?end></main>…</body></html>"   (the shell)
//   bytes       → "<html>…<main><?start name="pt-1"><p>Loading…</p><?end></main>…"                first, at once
//                 "<script>function __pt(s){…}</script>"                                               once
//                 "<template for="pt-1"><ul>…</ul></template><script>__pt(document.currentScript)</script>"
//                 "</body></html>"                                                                    last
//
// A browser with out-of-order streaming (whatwg/html#11818, Chromium 150+) puts each `<template for>` in place of
// its `<?start>…<?end>` range as it parses it, with or without JavaScript; elsewhere the parser reads the markers as
// comments and the inline script (the same bytes every time, with the request's nonce) moves the template's content
// there. Without either, JavaScript off in an older browser, the fallback stays (docs/streaming.md).
//
// An htmx 4 request that accepts `multipart/mixed` (its hx-multipart extension) gets the same parts as a
// multipart answer instead: the fragment first, with each fallback in a `<pagetree-suspense id>`, then one part per
// boundary that says `HX-Target: #pt-N` and `HX-Swap: outerHTML`.
//
// A boundary nested in another is sent after its parent: a chunk is sent only once the text sent before holds its
// marker, so both ways of placing it always find the marker in the document.

import { contentsToString, contentToString, type Children } from '@kitajs/html';
import { base64url } from '../kernel/base64url.ts';
import { compressAsItStreams } from '../compress/compress.ts';
import { andThen } from './then.ts';
import { requestContext, type StreamHooks, type StreamPlan, type StreamState } from '../request/context.ts';

/** Props of `Suspense`. */
export interface SuspenseProps {
  /** What the page shows until the children are ready (default: nothing). */
  fallback?: JSX.Element;
  children?: Children;
}

/**
 * A slow part of a streamed page (`stream = true`): the fallback goes out with the rest of the page at once, the
 * children follow when they resolve. In any other answer (an htmx partial, a page that does not stream) it renders
 * its children where it stands, waited for with the page; children that are ready at once render in place too.
 * @example <Suspense fallback={<p>Loading…</p>}><Recommendations /></Suspense> // → the fallback now, the list later
 */
export function Suspense(props: SuspenseProps): JSX.Element {
  const { children, fallback } = props;
  let content: JSX.Element;
  try {
    content = Array.isArray(children) ? contentsToString(children) : contentToString(children);
  } catch (err) {
    // kitajs throws on a child it refuses (an object) before it reaches the children after it: a promise the page
    // made itself (`{load()}`) would be dropped, and its rejection end the process. Observed, as the JSX runtime does.
    observeAll(children);
    observeAll(fallback);
    throw err;
  }
  const ctx = requestContext.getStore();
  if (typeof content === 'string' || ctx?.streamPlan === undefined) {
    observeAll(fallback); // not shown: a pending fallback would be dropped
    return content;
  }
  let shown: JSX.Element;
  try {
    shown = contentToString(fallback);
  } catch (err) {
    content.catch(ignore); // the children's promise, which no boundary now holds
    throw err;
  }
  const stream = (ctx.stream ??= pageStream(ctx.streamPlan));
  const id = stream.defer(content);
  return andThen(shown, placeholder, stream, id);
}

// Every promise among children: given a handler, so that one dropped is no unhandled rejection. It still rejects for
// whoever joins it.
function placeholder(fallback: string, stream: StreamState, id: string): string {
  return stream.placeholder(id, fallback);
}

// The page's stream, made by the first boundary that waits: a page whose boundaries all render at once has none.
function pageStream(plan: StreamPlan): StreamState {
  return new PageStream(plan.hooks, plan.multipart);
}

function observeAll(children: unknown): void {
  if (Array.isArray(children)) for (const c of children) observeAll(c);
  else if (children instanceof Promise) children.catch(ignore);
}

function ignore(): void {}

// One <Suspense> of a request.
interface Boundary {
  readonly id: string;
  /** pending; claimed (its content resolved, or it failed or timed out and its error fragment is on the way). */
  claimed: boolean;
  /** Its HTML once settled (the content, or the error fragment); null until then. */
  html: string | null;
  /** Whether text already sent holds its marker. */
  placed: boolean;
  sent: boolean;
}

const encoder = new TextEncoder();

// Moves a `<template for>` the browser did not place into its `<?start name>…<?end>` range: the markers are
// comments where processing instructions are not parsed, processing instructions where they are (nodeType 7).
// Constant text, so a CSP may allow it by hash as well as by nonce; each script removes itself.
const placeScript =
  'function __pt(s){var d=document,t=s.previousElementSibling,n,w,c,e,' +
  "k=function(x){return x.nodeType==7?'?'+x.target+' '+x.data:x.nodeType==8?x.data:''};s.remove();" +
  "if(!t||t.localName!='template'||!(n=t.getAttribute('for')))return;w=d.createTreeWalker(d,192);" +
  "while((c=w.nextNode())&&k(c)!='?start name=\"'+n+'\"');if(!c)return;" +
  "while((e=c.nextSibling)&&k(e).slice(0,4)!='?end')e.remove();e&&e.remove();c.replaceWith(t.content);t.remove()}" +
  'document.currentScript.remove()';
const placeCall = '__pt(document.currentScript)';

/**
 * The boundaries of one streamed answer and the bytes they become: `defer` registers a boundary while the page
 * renders; `body(shell)` is the answer's body once the shell is rendered.
 */
export class PageStream implements StreamState {
  /** Whether the head (status, headers, cookies) went out: what is set after it is lost, so it is an error. */
  committed = false;
  /** The multipart boundary string, or null for an HTML document. */
  readonly #multipart: string | null;
  readonly #hooks: StreamHooks;
  readonly #boundaries: Boundary[] = [];
  #unsettled = 0;
  #controller: ReadableStreamDefaultController<Uint8Array> | null = null;
  #tail = '';
  #scriptSent = false;
  #closed = false;
  #timer: ReturnType<typeof setTimeout> | undefined = undefined;

  constructor(hooks: StreamHooks, multipart: boolean) {
    this.#hooks = hooks;
    this.#multipart = multipart ? 'pagetree-' + base64url(crypto.getRandomValues(new Uint8Array(12))) : null;
  }

  /** Whether no boundary waits: the page rendered whole, and goes as one string. */
  get empty(): boolean {
    return this.#boundaries.length === 0;
  }

  /** The Content-Type of the streamed answer. */
  get contentType(): string {
    return this.#multipart === null ? 'text/html; charset=utf-8' : `multipart/mixed; boundary="${this.#multipart}"`;
  }

  /** Registers a boundary whose HTML `content` will be; returns its id. */
  defer(content: Promise<string>): string {
    const b: Boundary = {
      id: `pt-${this.#boundaries.length + 1}`,
      claimed: false,
      html: null,
      placed: false,
      sent: false,
    };
    this.#boundaries.push(b);
    this.#unsettled++;
    content
      .then(
        (html) => {
          if (b.claimed) return; // timed out already
          b.claimed = true;
          this.#settle(b, html);
        },
        (err: unknown) => this.#fail(b, err),
      )
      .catch((err: unknown) => this.#break(err));
    return b.id;
  }

  /** The boundary's place in the shell, showing the fallback. */
  placeholder(id: string, fallback: string): string {
    const end = this.#multipart === null ? '<?end>' : '</pagetree-suspense>';
    return `${this.#marker(id)}${fallback}${end}`;
  }

  // The opening of a boundary's place: what text sent must hold for its content to follow.
  #marker(id: string): string {
    return this.#multipart === null ? `<?start name="${id}">` : `<pagetree-suspense id="${id}">`;
  }

  /**
   * The body: the shell at once (an HTML document's `</body></html>` held back to the end, so that the templates land
   * inside the body), then each boundary as it is ready, then the end.
   */
  body(shell: string): ReadableStream<Uint8Array> {
    this.committed = true;
    let first: string;
    if (this.#multipart === null) {
      const end = shell.lastIndexOf('</body>');
      first = end < 0 ? shell : shell.slice(0, end);
      this.#tail = end < 0 ? '' : shell.slice(end);
    } else {
      // Each part ends with the next delimiter: a client's parser knows a part is whole only when it sees one.
      first = `--${this.#multipart}\r\ncontent-type: text/html; charset=utf-8\r\n\r\n${shell}\r\n--${this.#multipart}`;
      this.#tail = '--\r\n';
    }
    const { timeout } = this.#hooks;
    // Marked for the mount's compression, when on, to compress as it streams (each boundary flushed as it goes).
    return compressAsItStreams(
      new ReadableStream<Uint8Array>({
        start: (controller) => {
          this.#controller = controller;
          if (timeout > 0) this.#timer = setTimeout(() => this.#expireOrBreak(timeout), timeout);
          this.#send(first);
        },
        // The client left: what is still pending is dropped.
        cancel: () => this.abandon(),
      }),
    );
  }

  /**
   * A HEAD's body: empty and closed, so that the answer is still a streamed page's (compressed, it says GET's
   * Content-Encoding); what is pending is dropped.
   */
  head(): ReadableStream<Uint8Array> {
    this.committed = true;
    this.abandon();
    return compressAsItStreams(new ReadableStream<Uint8Array>({ start: (controller) => controller.close() }));
  }

  /** Drops what is pending: the shell failed (the error page answers), a HEAD needs no body, or the client left. */
  abandon(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
  }

  #settle(b: Boundary, html: string): void {
    b.html = html;
    this.#unsettled--;
    if (this.#closed || this.#controller === null) return; // the shell is not out yet: it places and sends it
    if (b.placed) this.#send(this.#chunk(b));
    this.#finishIfDone();
  }

  #fail(b: Boundary, err: unknown): void {
    if (this.#closed || b.claimed) return;
    b.claimed = true;
    this.#hooks.log(`a <Suspense> boundary (${b.id}) failed; its error fragment is sent in its place:`, err);
    this.#settleWith(b, () => this.#hooks.failed(err));
  }

  // The error fragment, or a last resort when the error page fails too (logged by `failed`).
  #settleWith(b: Boundary, make: () => string | Promise<string>): void {
    const last = '<p role="alert">Internal Server Error</p>';
    let html: string | Promise<string>;
    try {
      html = make();
    } catch {
      html = last;
    }
    if (typeof html === 'string') this.#settle(b, html);
    else
      html
        .then(
          (h) => this.#settle(b, typeof h === 'string' ? h : last),
          () => this.#settle(b, last),
        )
        .catch((err: unknown) => this.#break(err));
  }

  // A failure past a boundary's own handling (a bug here; the mux's logger is guarded, logger.ts): the answer is cut,
  // not left open or passed off as whole, and the failure is handled here, where it happens, so the process lives.
  #break(err: unknown): void {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#controller?.error(err); // a no-op on a stream that is not readable
    try {
      this.#hooks.log('the streamed page failed; its answer is cut short:', err);
    } catch {
      // the logger failed again: nothing more to tell anyone
    }
  }

  // A timer's callback: what throws there would end the process, so it cuts this answer instead.
  #expireOrBreak(timeout: number): void {
    try {
      this.#expire(timeout);
    } catch (err) {
      this.#break(err);
    }
  }

  // The route's timeout, counted from the first byte: every boundary still pending gets the error fragment, with one
  // log line for the request.
  #expire(timeout: number): void {
    const pending = this.#boundaries.filter((b) => !b.claimed);
    if (this.#closed || pending.length === 0) return;
    const err = new DOMException(`streamed sections did not finish within ${timeout} ms`, 'TimeoutError');
    this.#hooks.log(`${pending.length} <Suspense> boundaries did not finish within ${timeout} ms:`, err);
    for (const b of pending) {
      b.claimed = true; // its late answer is dropped
      this.#settleWith(b, () => this.#hooks.failed(err));
    }
  }

  // Sends text, then every settled boundary whose marker it (or what it released) holds.
  #send(text: string): void {
    const queue = [text];
    for (let t = queue.pop(); t !== undefined; t = queue.pop()) {
      this.#controller!.enqueue(encoder.encode(t));
      for (const b of this.#boundaries) {
        if (b.placed || !t.includes(this.#marker(b.id))) continue;
        b.placed = true;
        if (b.html !== null) queue.push(this.#chunk(b));
      }
    }
    this.#finishIfDone();
  }

  // A boundary's bytes: a template and the script that places it, or a multipart part.
  #chunk(b: Boundary): string {
    b.sent = true;
    const html = b.html!;
    if (this.#multipart !== null) {
      return (
        `\r\ncontent-type: text/html; charset=utf-8\r\nhx-target: #${b.id}\r\nhx-swap: outerHTML\r\n\r\n` +
        `${html}\r\n--${this.#multipart}`
      );
    }
    const nonce = this.#hooks.nonce();
    const open = nonce === undefined ? '<script>' : `<script nonce="${nonce}">`;
    let out = '';
    if (!this.#scriptSent) {
      this.#scriptSent = true;
      out = open + placeScript + '</script>';
    }
    return `${out}<template for="${b.id}">${html}</template>${open}${placeCall}</script>`;
  }

  // The end once nothing is pending: boundaries whose marker never went out (a Suspense rendered and dropped) are
  // not waited for once everything else is sent.
  #finishIfDone(): void {
    if (this.#closed || this.#unsettled > 0 || this.#controller === null) return;
    if (this.#boundaries.some((b) => b.placed && !b.sent)) return;
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#controller.enqueue(encoder.encode(this.#tail));
    this.#controller.close();
  }
}
