// Responses that are cheap to make and cheap to send.
//
// On Node 20 a real `Response` per request costs about a third of the
// throughput of a plain node:http handler (measured in bench/adapter). A
// LiteResponse holds status, headers and a string body as plain data; the
// node adapter writes that data directly, and anything else that touches it
// (`res.headers`, `res.text()`, …) gets a real Response built on first use.
// It passes `instanceof Response`, so user code cannot tell the difference (lazy-inherit.ts).

import { lazyInherit } from './lazy-inherit.ts';

/** The plain data of a LiteResponse: status, body (a string, bytes, or null), lower-case headers. */
export interface LiteData {
  status: number;
  body: string | Uint8Array | null;
  headers: Record<string, string | string[]>;
}

const kData = Symbol('pagetree.liteData');
const kReal = Symbol('pagetree.realResponse');
const kHeaders = Symbol('pagetree.liteHeaders');

class LiteResponse {
  [kData]: LiteData;
  [kReal]: Response | undefined = undefined;
  // A middleware that sets a header gets a real Headers, but the body stays a
  // string the adapter writes directly (a real Response per request costs ~4x).
  [kHeaders]: Headers | undefined = undefined;
  constructor(data: LiteData) {
    this[kData] = data;
  }
  get headers(): Headers {
    return this[kReal] ? this[kReal].headers : (this[kHeaders] ??= headersOf(this[kData].headers));
  }
  get status(): number {
    return this[kData].status;
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
  const h = new Headers();
  for (const name in record) {
    const v = record[name]!;
    if (typeof v === 'string') h.append(name, v);
    else for (const one of v) h.append(name, one);
  }
  return h;
}

function real(res: LiteResponse): Response {
  if (!res[kReal]) {
    const { status, body } = res[kData];
    const init: ResponseInit & { encodeBody?: 'manual' } = { status, headers: res.headers };
    // A body already encoded (a precompressed static file): workerd would compress it again unless told it is
    // final. Other runtimes ignore the option and never re-encode.
    if (res.headers.has('content-encoding')) init.encodeBody = 'manual';
    res[kReal] = new Response(body as ConstructorParameters<typeof Response>[0], init);
  }
  return res[kReal];
}

/**
 * A Response with a string body that the node adapter can write without
 * building a real Response. Header names must be lower case.
 * @example liteResponse(200, '<p>hi</p>', { 'content-type': 'text/html; charset=utf-8' })
 */
export function liteResponse(
  status: number,
  body: string | Uint8Array | null,
  headers: Record<string, string | string[]>,
): Response {
  return new LiteResponse({ status, body, headers }) as unknown as Response;
}

/**
 * A real `Response` for any response: a LiteResponse becomes one (once), any
 * other Response is returned as it is. `mux.fetch` answers with it, since
 * Bun, Deno and workerd accept only their own realm's Response objects.
 * @example toResponse(liteResponse(200, 'hi', {})) instanceof Response // → true, and a real one
 */
export function toResponse(res: Response): Response {
  return res instanceof LiteResponse ? real(res) : res;
}

/**
 * The plain data of a LiteResponse whose body nobody has read, with its
 * headers as they are now, or undefined (a real Response, or a LiteResponse
 * turned into one).
 */
export function liteData(res: Response): LiteData | undefined {
  const lite = res as unknown as Partial<LiteResponse>;
  const data = lite[kData];
  if (!data || lite[kReal]) return undefined;
  const h = lite[kHeaders];
  if (!h) return data;
  // Headers were touched: send what they hold now.
  return { status: data.status, body: data.body, headers: headerRecord(h) };
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
