// The one check for every value a page turns into a response header (issue 24).
//
//   setHeader('Cache-Control', 'no-store')   → headerName + headerValue   "no-store"
//   setHeader('X-Note', 'a\r\nSet-Cookie: x') → TypeError: setHeader(): … a control character (U+000D) …
//   redirect('/login?next=/中')              → headerUrl                  "/login?next=/%E4%B8%AD"
//   redirect('javascript:alert(1)')          → TypeError: redirect(): … a javascript: URL …
//
// node's writeHead throws ERR_INVALID_CHAR for CR, LF, NUL, DEL or a character above U+00FF, and a fetch
// Response refuses the same; thrown there, on the way out, nothing catches it. Checked here, where the page calls
// the helper, a bad value is a 500 through the page's error path, logged once with the helper's name. Values are
// printable ASCII (and tab): Latin-1 would pass node's check, but node sends it as Latin-1 or as UTF-8 depending on
// how the answer is written (`writeHead(…).end(body)` with a string body: UTF-8), so no client could read it back.
//
// URLs are made what a browser would send: a space and every character above U+007E percent-encoded as UTF-8
// (`%E4%B8%AD`), the rest left as it is (an existing `%2F` stays). Control characters are refused rather than
// stripped (a browser strips tabs and newlines from a URL; a value that has them did not come from urlFor).
// `javascript:`, `data:` and `vbscript:` are refused: htmx 2 and 4 assign HX-Redirect to `location.href`.
//
// The scheme checked is the scheme of what htmx navigates to (issue 40). htmx 2 and 4 read an HX-Location value that
// starts with `{` as JSON options, whose `path` is the URL: a URL's leading `{` is sent as `%7B` (a browser encodes
// `{` in a path so), so `{"path":"javascript:…"}` stays the relative URL it is. htmx 4 also reads its `key:value`
// syntax (HCON) there, and takes a `path` key when it finds one: `/a,path:javascript:…` would GET `javascript:…`.
// Such a value goes as the JSON form `{"path":"/a,path:javascript:…"}`, which both versions read as exactly that URL.

/** Characters a header value may not hold: controls other than tab, DEL, and anything beyond ASCII. */
const badValueChar = /[^\t\x20-\x7e]/;
/** RFC 9110 token: what a header name is made of. */
const token = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** A URL that needs no encoding: printable ASCII without space. */
const plainUrl = /^[\x21-\x7e]*$/;
/** Schemes that run code or carry a document: never a redirect's target. */
const scriptSchemes = new Set(['javascript', 'data', 'vbscript']);
/**
 * Where htmx 4's HCON could find a `path` key in an HX-Location value without whitespace: its keys start the value or
 * follow a comma, bare (`path:x`, `path.a:x`, `path,`) or quoted (`"path":x`). A superset: a plain URL that matches
 * only goes in the JSON form, which means the same.
 */
const hconPath = /(?:^|,)["']?path(?:["':,.]|$)/;

/**
 * A header value as it may go on the wire: one line of printable ASCII. Anything else is a TypeError naming `api`.
 * @example headerValue('setHeader', 'no-store') // → "no-store"
 */
export function headerValue(api: string, value: string): string {
  if (typeof value !== 'string') throw new TypeError(`${api}(): the header value is ${typeof value}, not a string`);
  const bad = badValueChar.exec(value);
  if (bad) {
    throw new TypeError(
      `${api}(): ${JSON.stringify(value)} cannot be a header value: it holds ${describe(bad[0])}; ` +
        `header values are one line of ASCII: remove it, or percent-encode the value (encodeURIComponent)`,
    );
  }
  return value;
}

/**
 * A header name: an HTTP token (letters, digits and ``!#$%&'*+.^_`|~-``).
 * @example headerName('setHeader', 'Cache-Control') // → "Cache-Control"
 */
export function headerName(api: string, name: string): string {
  if (typeof name !== 'string' || !token.test(name)) {
    throw new TypeError(`${api}(): ${JSON.stringify(name)} is not a header name; use letters, digits and -`);
  }
  return name;
}

/**
 * A URL for `Location` and htmx's URL headers: a space and non-ASCII percent-encoded as UTF-8, as a browser
 * does; control characters and `javascript:`, `data:` or `vbscript:` URLs refused with a TypeError naming `api`.
 * @example headerUrl('redirect', '/search?q=crème brûlée') // → "/search?q=cr%C3%A8me%20br%C3%BBl%C3%A9e"
 */
export function headerUrl(api: string, url: string): string {
  if (typeof url !== 'string') throw new TypeError(`${api}(): the URL is ${typeof url}, not a string`);
  let encoded = plainUrl.test(url) ? url : encodeUrl(api, url);
  if (encoded.startsWith('{')) encoded = '%7B' + encoded.slice(1); // htmx would read it as JSON options
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(encoded)?.[1]?.toLowerCase();
  if (scheme !== undefined && scriptSchemes.has(scheme)) {
    throw new TypeError(
      `${api}(): refused a ${scheme}: URL (${JSON.stringify(url.slice(0, 40))}); ` +
        `redirect to a page of the app (urlFor) or an http(s) URL`,
    );
  }
  return encoded;
}

/**
 * A URL for `HX-Location` (`redirect()` to htmx, `hxLocation(url)`): `headerUrl`'s, in the JSON form when htmx 4 could
 * read the plain value as options with another `path`, so that both versions navigate to the URL that was checked.
 * @example hxLocationUrl('redirect', '/tags/red,path') // → '{"path":"/tags/red,path"}'; '/tasks' → '/tasks'
 */
export function hxLocationUrl(api: string, url: string): string {
  const checked = headerUrl(api, url);
  return hconPath.test(checked) ? JSON.stringify({ path: checked }) : checked;
}

// One pass: each character is kept, percent-encoded, or refused, so the cost is linear in the URL.
function encodeUrl(api: string, url: string): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < url.length; i++) {
    const c = url.charCodeAt(i);
    if (c > 0x20 && c < 0x7f) continue;
    if (c < 0x20 || c === 0x7f) {
      throw new TypeError(
        `${api}(): the URL ${JSON.stringify(url)} holds ${describe(url[i]!)}; ` +
          `build URLs with urlFor, and check what comes from the request`,
      );
    }
    // A surrogate pair is one character: encode both halves together.
    const pair = c >= 0xd800 && c <= 0xdbff && i + 1 < url.length;
    const end = pair && (url.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? i + 2 : i + 1;
    let piece: string;
    try {
      piece = encodeURIComponent(url.slice(i, end));
    } catch {
      throw new TypeError(`${api}(): the URL ${JSON.stringify(url)} holds a lone surrogate; it is not valid text`);
    }
    out += url.slice(from, i) + piece;
    from = end;
    i = end - 1;
  }
  return out + url.slice(from);
}

function describe(char: string): string {
  const code = char.codePointAt(0)!;
  const hex = code.toString(16).toUpperCase().padStart(4, '0');
  return code < 0x20 || code === 0x7f ? `a control character (U+${hex})` : `a character beyond ASCII (U+${hex})`;
}

/**
 * The weight of a header element's parameters (";q=0.5", other parameters skipped), as Accept-Encoding and its kin
 * give it: 0 to 1, 1 when none is given, or -1 when it is malformed.
 * @example qValue(';q=0.5') // → 0.5
 */
export function qValue(params: string): number {
  for (const param of params.split(';')) {
    const eq = param.indexOf('=');
    if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== 'q') continue;
    const v = param.slice(eq + 1).trim();
    return /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(v) ? Number(v) : -1;
  }
  return 1;
}
