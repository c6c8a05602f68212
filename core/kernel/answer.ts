// The answer: what every step of the pipeline hands on, from the route to the adapter that writes it.
//
//   page, static file, error, redirect → Answer { status, headers, body }   → node adapter: writeHead(status, headers)
//                                         (a LiteResponse carries it)          .end(body) or the stream piped
//                                                                            → mux.fetch: one Response
//
// On Node 20 a real `Response` per request costs about a third of the throughput of a plain node:http handler
// (bench/adapter), so the pipeline's own answers are plain data: a LiteResponse holds one Answer, and passes for a
// Response (`instanceof Response`, lazy-inherit.ts) because handlers and middlewares trade Responses: anything that
// reads it as one (`res.headers`, `res.text()`, …) gets a real Response built on first use. A Response made by
// hand is read into an Answer once, by `answerOf`, where a step needs its parts.

import { lazyInherit } from './lazy-inherit.ts';

/** An answer as plain data: status, lower-case headers (Set-Cookie as a list), and a body. */
export interface Answer {
  status: number;
  /** A reason phrase of a Response made by hand that has its own; else the standard one. */
  statusText?: string;
  headers: Record<string, string | string[]>;
  /** A string or bytes sent whole (with Content-Length), a stream sent as it comes, or none. */
  body: string | Uint8Array | ReadableStream<Uint8Array> | null;
}

const kData = Symbol('pagetree.liteData');
const kReal = Symbol('pagetree.realResponse');
const kHeaders = Symbol('pagetree.liteHeaders');

class LiteResponse {
  [kData]: Answer;
  [kReal]: Response | undefined = undefined;
  // A middleware that sets a header gets a real Headers, but the body stays a
  // string the adapter writes directly (a real Response per request costs ~4x).
  [kHeaders]: Headers | undefined = undefined;
  constructor(data: Answer) {
    this[kData] = data;
  }
  get headers(): Headers {
    return this[kReal] ? this[kReal].headers : (this[kHeaders] ??= headersOf(this[kData].headers));
  }
  get status(): number {
    return this[kData].status;
  }
  get statusText(): string {
    return this[kReal] ? this[kReal].statusText : (this[kData].statusText ?? '');
  }
  get ok(): boolean {
    const s = this[kData].status;
    return s >= 200 && s <= 299;
  }
}
// Every other member of Response reads the real one, made on first use.
lazyInherit(LiteResponse, Response, real);

/**
 * A header record (lower-case names; Set-Cookie as a list) as real Headers, each cookie on its own line.
 * @example headersOf({ vary: 'HX-Request', 'set-cookie': ['a=1', 'b=2'] }).getSetCookie() // → ["a=1", "b=2"]
 */
export function headersOf(record: Record<string, string | string[]>): Headers {
  return new Headers(headersInit(record));
}

// The one Response of a lite answer, made on first use, with the answer's header record as its init: Deno converts
// a record 0.6–1.5 µs faster than a Headers, and with the headers in its init, Deno.serve sends the Response on
// its native path (headers set on `res.headers` afterwards cost that path as much again); a record with a list (each
// Set-Cookie its own line) goes as name-value pairs. A middleware's Headers (it touched `res.headers`) go as they are.
// bench/runtimes/response.ts measures each way.
function real(res: LiteResponse): Response {
  if (!res[kReal]) {
    const { status, statusText, body, headers } = res[kData];
    const touched = res[kHeaders];
    const init: { status: number; statusText?: string; headers: Headers | HeaderList; encodeBody?: 'manual' } = {
      status,
      headers: touched ?? headersInit(headers),
    };
    if (statusText) init.statusText = statusText;
    // A body already encoded (a precompressed static file): workerd would compress it again unless told it is
    // final. Other runtimes ignore the option and never re-encode.
    if (touched ? touched.has('content-encoding') : headers['content-encoding'] !== undefined) {
      init.encodeBody = 'manual';
    }
    res[kReal] = new Response(body as ConstructorParameters<typeof Response>[0], init);
  }
  return res[kReal];
}

// A header record as a Response's or a Headers' init: itself when every value is one string, else name-value pairs.
type HeaderList = Record<string, string> | [string, string][];
function headersInit(record: Answer['headers']): HeaderList {
  for (const name in record) {
    if (typeof record[name] !== 'string') {
      const pairs: [string, string][] = [];
      for (const n in record) {
        const v = record[n]!;
        if (typeof v === 'string') pairs.push([n, v]);
        else for (const one of v) pairs.push([n, one]);
      }
      return pairs;
    }
  }
  return record as Record<string, string>;
}

/**
 * An answer as a Response that the node adapter writes without building a real one. Header names must be lower case.
 * @example liteResponse(200, '<p>hi</p>', { 'content-type': 'text/html; charset=utf-8' })
 */
export function liteResponse(status: number, body: Answer['body'], headers: Answer['headers']): Response {
  return new LiteResponse({ status, body, headers }) as unknown as Response;
}

/**
 * `answer` as a Response (a LiteResponse carrying it).
 * @example answerResponse({ ...answerOf(res), status: 201 })
 */
export function answerResponse(answer: Answer): Response {
  return new LiteResponse(answer) as unknown as Response;
}

/**
 * A real `Response` for any answer: a LiteResponse becomes one (once), any other Response is returned as it is.
 * `mux.fetch` answers with it, since Bun, Deno and workerd accept only their own realm's Response objects.
 * @example toResponse(liteResponse(200, 'hi', {})) instanceof Response // → true, and a real one
 */
export function toResponse(res: Response): Response {
  return res instanceof LiteResponse ? real(res) : res;
}

/**
 * The answer a handler's Response carries, read once: a LiteResponse's own (with its headers as they are now, if a
 * middleware touched them), or a hand-made Response's status, headers and body stream. A LiteResponse turned into a
 * real Response is read as one. Anything that is not a Response is a TypeError that names it.
 * @example answerOf(new Response('hi', { status: 201 })) // → { status: 201, headers: { "content-type": "text/plain;charset=UTF-8" }, body: ReadableStream }
 */
export function answerOf(res: unknown): Answer {
  const data = liteData(asResponse(res));
  if (data !== undefined) return data;
  const r = res as Response;
  const answer: Answer = { status: r.status, headers: headerRecord(r.headers), body: r.body };
  if (r.statusText !== '') answer.statusText = r.statusText;
  return answer;
}

/**
 * `res`, checked to be a Response: the one check of what a handler answered, made by both adapters before they
 * read it. Anything else is a TypeError that names it.
 * @example asResponse(undefined) // throws TypeError "handler returned undefined, not a Response"
 */
export function asResponse(res: unknown): Response {
  if (res instanceof Response) return res;
  throw new TypeError(`handler returned ${describe(res)}, not a Response`);
}

function describe(value: unknown): string {
  if (typeof value === 'object' && value !== null) return `an object (${value.constructor?.name ?? 'no prototype'})`;
  return typeof value === 'string' ? JSON.stringify(value.slice(0, 40)) : String(value);
}

/**
 * The answer of a LiteResponse whose body nobody has read, with its headers as they are now, or undefined (a real
 * Response, or a LiteResponse turned into one). For the steps that pass a hand-made Response on untouched.
 */
export function liteData(res: Response): Answer | undefined {
  const data = unread(res);
  if (data === undefined) return undefined;
  const h = (res as unknown as Partial<LiteResponse>)[kHeaders];
  if (!h) return data;
  // Headers were touched: send what they hold now.
  const answer: Answer = { status: data.status, headers: headerRecord(h), body: data.body };
  if (data.statusText) answer.statusText = data.statusText;
  return answer;
}

/**
 * The body of a LiteResponse whose body nobody has read, or undefined (a real Response, or one turned real).
 * @example liteBody(liteResponse(200, 'hi', {})) // → "hi"
 */
export function liteBody(res: Response): Answer['body'] | undefined {
  return unread(res)?.body;
}

// The answer a LiteResponse was made with, unless it is no LiteResponse or has been turned into a real Response.
function unread(res: Response): Answer | undefined {
  const lite = res as unknown as Partial<LiteResponse>;
  const data = lite[kData];
  return data === undefined || lite[kReal] ? undefined : data;
}

/**
 * Headers as the record node:http writes: one value a name, but each Set-Cookie on its own (a joined list of
 * cookies would be read as one).
 * @example headerRecord(res.headers) // → { "content-type": "text/html", "set-cookie": ["a=1", "b=2"] }
 */
export function headerRecord(h: Headers): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  h.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  const cookies = h.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  return headers;
}

/**
 * A plain-text error response as Go's http.Error writes it, with the message
 * HTML-escaped: htmx 4 swaps error bodies into the page as HTML whatever their
 * Content-Type, so the text must be safe as HTML too (issue 12).
 * @example textError(404, 'No user <b>') // body "No user &lt;b&gt;\n"
 */
export function textError(status: number, message: string, headers?: Record<string, string>): Response {
  // A literal, then the extra headers copied in, not {...headers, ...}: the spread made this ~1/3 of the
  // time of a 404 or 405 served by the mux (bench/router misses, --cpu-prof).
  const h: Record<string, string> = {
    'content-type': 'text/plain; charset=utf-8',
    'x-content-type-options': 'nosniff',
  };
  if (headers !== undefined) {
    for (const name in headers) {
      if (!Object.hasOwn(headers, name) || name === 'content-type' || name === 'x-content-type-options') continue;
      // (An own "__proto__" header stays a header, as the spread kept it, instead of setting the prototype.)
      if (name === '__proto__')
        Object.defineProperty(h, name, { value: headers[name], enumerable: true, writable: true, configurable: true });
      else h[name] = headers[name]!;
    }
  }
  return liteResponse(status, escapeHtml(message) + '\n', h);
}

const statusText: Record<number, string> = {
  301: 'Moved Permanently',
  302: 'Found',
  303: 'See Other',
  307: 'Temporary Redirect',
  308: 'Permanent Redirect',
};

/**
 * A redirect as Go's http.Redirect writes it: a small HTML body for GET and HEAD.
 * @example redirectResponse('GET', '/a/', 307) // Location: /a/
 */
export function redirectResponse(method: string, url: string, status: number): Response {
  if (method !== 'GET' && method !== 'HEAD') return liteResponse(status, null, { location: url });
  // Go writes this line with Fprintln: hence the second newline.
  const body = `<a href="${escapeHtml(url)}">${statusText[status] ?? 'Redirect'}</a>.\n\n`;
  return liteResponse(status, body, { location: url, 'content-type': 'text/html; charset=utf-8' });
}

const htmlEscapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&#34;', "'": '&#39;' };

/** Escapes text for HTML as Go's html.EscapeString does. */
export function escapeHtml(s: string): string {
  return htmlSpecial.test(s) ? s.replace(/[&<>"']/g, (c) => htmlEscapes[c]!) : s;
}

const htmlSpecial = /[&<>"']/;
