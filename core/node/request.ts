// A lazy Web Request over node:http's IncomingMessage.
//
// Building a real `Request` (URL parsing, a Headers copy, a body stream)
// costs more than routing and rendering a small page. NodeRequest answers
// `method`, `url` and `headers.get()` straight from the IncomingMessage, hands
// the mux the raw target so it parses no URL, and builds the real Request
// only when something asks for the body or another member (lazy-inherit.ts
// forwards those). It passes `instanceof Request`.

import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  bodyTooLarge,
  lazyInherit,
  parseTarget,
  readBody,
  readFormBody,
  readJson,
  requestFacts,
  type AdapterRequest,
  type RequestFacts,
  type RequestTarget,
} from '../adapter.ts';

const kIncoming = Symbol('pagetree.incoming');
const kReal = Symbol('pagetree.realRequest');
const kUrl = Symbol('pagetree.url');
const kHeaders = Symbol('pagetree.headers');
const kAbort = Symbol('pagetree.abort');
const kOutgoing = Symbol('pagetree.outgoing');
const kMaxBody = Symbol('pagetree.maxBodySize');
const kBody = Symbol('pagetree.body');

// Methods the Request constructor refuses; the real request says GET for them.
const forbiddenMethods = new Set(['CONNECT', 'TRACE', 'TRACK']);

class NodeRequest {
  [kIncoming]: IncomingMessage;
  [kOutgoing]: ServerResponse;
  [kMaxBody]: number;
  [requestFacts]: NodeFacts;
  [kUrl]: string | undefined = undefined;
  [kHeaders]: NodeHeaders | undefined = undefined;
  [kReal]: Request | undefined = undefined;
  [kAbort]: AbortController | undefined = undefined;
  // The body stream's controller while it streams, so that an abort can fail it.
  [kBody]: ReadableStreamDefaultController<Uint8Array> | 'aborted' | undefined = undefined;

  constructor(incoming: IncomingMessage, outgoing: ServerResponse, maxBodySize: number) {
    this[kIncoming] = incoming;
    this[kOutgoing] = outgoing;
    this[kMaxBody] = maxBodySize;
    const raw = incoming.url ?? '/';
    const host = incoming.headers.host ?? '';
    const target = raw[0] === '/' || raw === '*' ? splitOriginForm(host, raw) : parseTarget(raw);
    this[requestFacts] = new NodeFacts(this, target);
  }

  get method(): string {
    return this[kIncoming].method ?? 'GET';
  }

  get url(): string {
    if (this[kUrl] === undefined) {
      const t = this[requestFacts].target;
      const scheme = (this[kIncoming].socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
      const path = t.path === '*' ? '/' : t.path;
      this[kUrl] = `${scheme}://${t.host || 'localhost'}${path}${t.query === '' ? '' : '?' + t.query}`;
    }
    return this[kUrl];
  }

  get headers(): Headers {
    return (this[kHeaders] ??= new NodeHeaders(this[kIncoming])) as unknown as Headers;
  }

  get signal(): AbortSignal {
    return abortController(this).signal;
  }

  // Body reads answer 4xx for bodies that cannot be parsed (request-body.ts).
  arrayBuffer(): Promise<ArrayBuffer> {
    return readBody(() => real(this).arrayBuffer());
  }

  blob(): Promise<Blob> {
    return readBody(() => real(this).blob());
  }

  bytes(): Promise<Uint8Array> {
    // Missing from the DOM library types we compile with (not from Node 20+ or Bun).
    return readBody(() => (real(this) as Request & { bytes(): Promise<Uint8Array> }).bytes());
  }

  text(): Promise<string> {
    return readBody(() => real(this).text());
  }

  // Counted as it streams against the default form limits (1,000 fields, 100 files): parseForm's, without a schema.
  formData(): Promise<FormData> {
    return readFormBody(this as unknown as Request, () => real(this));
  }

  json(): Promise<unknown> {
    return readJson(() => real(this).json());
  }
}
// Every other member of Request (body, clone, cache, …) reads the real one, made on first use.
lazyInherit(NodeRequest, Request, real);

// What the adapter hands the core with each request (kernel/adapter.ts): the target as node parsed it, the socket's
// remote address, and the abort a page timeout calls.
class NodeFacts implements RequestFacts {
  readonly target: RequestTarget;
  readonly guardsBody = true; // NodeRequest's body reads (above)
  #req: NodeRequest;

  constructor(req: NodeRequest, target: RequestTarget) {
    this.#req = req;
    this.target = target;
  }

  get client(): string {
    return this.#req[kIncoming].socket.remoteAddress ?? '';
  }

  // A page timeout: the signal aborts, and a body being read (or read later) fails with the reason. The rest of the
  // body is not read, so the answer closes the connection.
  abort(reason: unknown): void {
    const req = this.#req;
    abortController(req).abort(reason);
    if (!req[kIncoming].complete) req[kOutgoing].shouldKeepAlive = false; // the rest of the body is not read
    const body = req[kBody];
    req[kBody] = 'aborted';
    if (body && body !== 'aborted') {
      try {
        body.error(reason);
      } catch {
        // already closed or errored
      }
    }
  }
}

function splitOriginForm(host: string, raw: string): RequestTarget {
  const q = raw.indexOf('?');
  return q < 0 ? { host, path: raw, query: '' } : { host, path: raw.slice(0, q), query: raw.slice(q + 1) };
}

// Made on first use of the signal: it aborts when the client goes away before
// the response is complete. Most requests never ask, and pay nothing for it.
function abortController(req: NodeRequest): AbortController {
  let c = req[kAbort];
  if (!c) {
    const controller = (c = req[kAbort] = new AbortController());
    const outgoing = req[kOutgoing];
    const abort = () => {
      if (!outgoing.writableFinished) controller.abort(new Error('client disconnected'));
    };
    if (outgoing.destroyed) abort();
    else outgoing.once('close', abort);
  }
  return c;
}

// The real Request, with the body streamed from the IncomingMessage.
function real(req: NodeRequest): Request {
  if (!req[kReal]) {
    const incoming = req[kIncoming];
    const method = req.method;
    const init: RequestInit & { duplex?: 'half' } = {
      method: forbiddenMethods.has(method) ? 'GET' : method,
      headers: rawHeaderPairs(incoming),
      signal: abortController(req).signal,
    };
    if (method !== 'GET' && method !== 'HEAD' && !forbiddenMethods.has(method)) {
      init.body = limitedBody(req, incoming, req[kMaxBody]);
      init.duplex = 'half';
    }
    req[kReal] = new Request(req.url, init);
  }
  return req[kReal];
}

/**
 * The body of an IncomingMessage as a stream that fails with HttpError(413)
 * past `max` bytes (announced by Content-Length or counted as it arrives), so
 * `await req.formData()` in a page answers 413 instead of buffering anything.
 */
function limitedBody(req: NodeRequest, incoming: IncomingMessage, max: number): ReadableStream<Uint8Array> {
  if (req[kBody] === 'aborted') {
    const reason = req[kAbort]!.signal.reason as unknown;
    return new ReadableStream({ start: (c) => c.error(reason) });
  }
  if (Number(incoming.headers['content-length']) > max) {
    // Not read: the adapter answers with Connection: close.
    return new ReadableStream({ start: (c) => c.error(bodyTooLarge(max)) });
  }
  // A reader that stops early (a form past its limits) must not destroy the request: node would destroy the socket
  // with it, and the answer (a 413) would never be written. The rest of the body is left to node, which drops it
  // once the answer is done.
  const chunks = incoming.iterator({ destroyOnReturn: false }) as AsyncIterator<Buffer>;
  let seen = 0;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      req[kBody] = controller;
    },
    async pull(controller) {
      const { value, done } = await chunks.next();
      if (req[kBody] === 'aborted') return; // failed by the abort meanwhile
      if (done) {
        controller.close();
        return;
      }
      seen += value.byteLength;
      if (seen > max) {
        controller.error(bodyTooLarge(max));
        return;
      }
      controller.enqueue(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
    },
    async cancel() {
      await chunks.return?.();
    },
  });
}

function rawHeaderPairs(incoming: IncomingMessage): [string, string][] {
  const raw = incoming.rawHeaders;
  const pairs: [string, string][] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) pairs.push([raw[i]!, raw[i + 1]!]);
  return pairs;
}

// Header names as node keys them, lower case. The names asked for are few and repeat (readHtmx asks for nine on each
// htmx request), so each is lowered once: a fresh lower-cased string as a key costs a string-table lookup on every
// read, a cached one (or the literal itself when it is lower case already) does not (bench/e2e/loop.ts).
const lowerNames = new Map<string, string>();
function lowerName(name: string): string {
  let lower = lowerNames.get(name);
  if (lower === undefined) {
    lower = name.toLowerCase();
    if (lower === name) lower = name;
    if (lowerNames.size < 256) lowerNames.set(name, lower);
  }
  return lower;
}

/**
 * The request headers as a Headers, read from the IncomingMessage. `get` and
 * `has` read node's parsed headers; anything else (iteration, mutation) works
 * on a real Headers copied on first use.
 */
class NodeHeaders {
  #incoming: IncomingMessage;
  #real: Headers | undefined;

  constructor(incoming: IncomingMessage) {
    this.#incoming = incoming;
  }

  get(name: string): string | null {
    if (this.#real) return this.#real.get(name);
    const v = this.#incoming.headers[lowerName(name)];
    // Node's parsed headers are a plain object: what it inherits (constructor, toString) is no header.
    return typeof v === 'string' ? v : Array.isArray(v) ? v.join(', ') : null;
  }

  has(name: string): boolean {
    if (this.#real) return this.#real.has(name);
    const v = this.#incoming.headers[lowerName(name)];
    return typeof v === 'string' || Array.isArray(v);
  }

  /** The real Headers, copied from the raw headers on first use. */
  toHeaders(): Headers {
    return (this.#real ??= new Headers(rawHeaderPairs(this.#incoming)));
  }
}
// Iteration and mutation (entries, set, Symbol.iterator, …) work on the real copy.
lazyInherit(NodeHeaders, Headers, (h) => h.toHeaders());

/**
 * A Request for an IncomingMessage, built lazily (see above); its signal
 * aborts if the client disconnects before the response is complete, and its
 * body fails with HttpError(413) past `maxBodySize` bytes.
 * @example createRequest(incoming, outgoing).headers.get('hx-request') // → "true"
 */
export function createRequest(
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  maxBodySize = Infinity,
): AdapterRequest {
  return new NodeRequest(incoming, outgoing, maxBodySize) as unknown as AdapterRequest;
}
