// Property tests of the node adapter over real sockets: raw HTTP/1.1 requests
// with hostile request-targets, methods, Host and header values get a whole
// answer that is not a 5xx (or a clean close), and the server keeps serving.

import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import fc from 'fast-check';
import type { PageRequest } from '../../core/index.ts';
import { toNodeListener } from '../../core/node/index.ts';
import { headerNames, methods, mixedMux, pathText, wildcardNames } from './mixed-mux.ts';

// Pages do what pages do with a request: read its URL (for the query), its
// headers and, for a method with a body, the body. None of that may fail for
// a request the adapter accepted.
const mux = mixedMux((pattern) => async (req: PageRequest) => {
  const url = new URL(req.url);
  const values = wildcardNames(pattern).map((name) => req.pathValue(name));
  const headers = [...req.headers].length + (req.headers.get('x-fuzz') ?? '').length;
  const body = req.method === 'GET' || req.method === 'HEAD' ? '' : await req.text();
  return new Response(JSON.stringify({ pattern: req.pattern, values, query: url.search, headers, body: body.length }));
});

let server: Server;
let port = 0;

beforeAll(async () => {
  server = createServer(toNodeListener(mux));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

interface Exchange {
  /** Everything the server sent, one char per byte. */
  text: string;
  /** The server reset the connection instead of closing it. */
  reset: boolean;
}

// Sends the bytes, half-closes, and collects the answer until the server closes.
function exchange(bytes: string, timeout = 3000): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(Buffer.from(bytes, 'latin1')));
    const chunks: Buffer[] = [];
    let reset = false;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`neither an answer nor a close within ${timeout} ms for ${JSON.stringify(bytes)}`));
    }, timeout);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ECONNRESET' || err.code === 'EPIPE') reset = true;
      else reject(err);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ text: Buffer.concat(chunks).toString('latin1'), reset });
    });
  });
}

interface Answer {
  status: number;
  headers: Map<string, string>;
  body: string;
}

/**
 * Splits what the server sent into whole HTTP/1.1 responses (interim 1xx
 * ones included); throws when a status line is malformed or a body is cut short.
 */
function parseAnswers(text: string, head: boolean): Answer[] {
  const answers: Answer[] = [];
  let rest = text;
  while (rest.length > 0) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) throw new Error(`incomplete response head: ${JSON.stringify(rest)}`);
    const [line, ...fields] = rest.slice(0, end).split('\r\n');
    const m = /^HTTP\/1\.1 (\d{3})(?: [^\r\n]*)?$/.exec(line!);
    if (!m) throw new Error(`not an HTTP/1.1 status line: ${JSON.stringify(line)}`);
    const status = Number(m[1]);
    const headers = new Map(
      fields.map((f) => [f.slice(0, f.indexOf(':')).toLowerCase(), f.slice(f.indexOf(':') + 1).trim()] as const),
    );
    rest = rest.slice(end + 4);
    let body = '';
    if (status < 200 || status === 204 || status === 304 || head) {
      // no body
    } else if (headers.get('transfer-encoding') === 'chunked') {
      for (;;) {
        const eol = rest.indexOf('\r\n');
        if (eol < 0) throw new Error(`cut short in a chunk size: ${JSON.stringify(text)}`);
        const size = parseInt(rest.slice(0, eol), 16);
        if (Number.isNaN(size) || rest.length < eol + 2 + size + 2)
          throw new Error(`cut short: ${JSON.stringify(text)}`);
        body += rest.slice(eol + 2, eol + 2 + size);
        rest = rest.slice(eol + 2 + size + 2);
        if (size === 0) break;
      }
    } else if (headers.has('content-length')) {
      const size = Number(headers.get('content-length'));
      if (rest.length < size) throw new Error(`body shorter than content-length: ${JSON.stringify(text)}`);
      body = rest.slice(0, size);
      rest = rest.slice(size);
    } else {
      body = rest; // delimited by the close
      rest = '';
    }
    answers.push({ status, headers, body });
  }
  return answers;
}

// Bytes as they come off the wire, one char per byte. CR and LF are left out:
// in a target or a header value they end the line, which makes the input
// several requests (or none) whose answers this test would have to pair up.
const byte = fc
  .integer({ min: 0, max: 255 })
  .filter((b) => b !== 13 && b !== 10)
  .map((b) => String.fromCharCode(b));
const bytes = (maxLength: number) => fc.string({ unit: byte, maxLength });
const asBytes = (s: string) =>
  [...s].map((c) => (c.charCodeAt(0) > 0xff ? Buffer.from(c, 'utf8').toString('latin1') : c)).join('');

const hostish = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom('h.com', 'h.com:8080', 'H.COM', 'localhost', '127.0.0.1', '[::1]:80', '') },
  {
    weight: 3,
    arbitrary: fc.string({
      unit: fc.constantFrom('a', 'h', '.', '-', ':', '%', '[', ']', '0', '9', '@', '_', '~', '!', '*', ' '),
      maxLength: 8,
    }),
  },
  { weight: 1, arbitrary: bytes(8) },
);

// Most requests are well-formed but for one field, so that they get past node's
// parser to the adapter and the mux; the rest are hostile throughout.
const ascii = fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }).filter((c) => c !== ' ');

const target = fc.oneof(
  { weight: 6, arbitrary: pathText(ascii, true).map((p) => '/' + p) },
  { weight: 2, arbitrary: pathText(byte).map((p) => '/' + asBytes(p)) },
  { weight: 1, arbitrary: fc.constantFrom('*', '*?x') },
  { weight: 1, arbitrary: fc.tuple(hostish, pathText(ascii, true)).map(([h, p]) => `http://${h}/${p}`) },
  { weight: 1, arbitrary: bytes(16) },
);

const rawMethod = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom(
      'GET',
      'HEAD',
      'POST',
      'PUT',
      'DELETE',
      'OPTIONS',
      'PATCH',
      'PROPFIND',
      'QUERY',
      'TRACE',
    ),
  },
  { weight: 1, arbitrary: methods.map(asBytes) },
  { weight: 1, arbitrary: bytes(8) },
);

const header = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(headerNames, fc.string({ unit: 'grapheme-ascii', maxLength: 16 })) },
  { weight: 2, arbitrary: fc.tuple(headerNames, bytes(16)) },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.constantFrom('Content-Length', 'Transfer-Encoding', 'Expect', 'Upgrade'), bytes(8)),
  },
  { weight: 1, arbitrary: fc.tuple(bytes(8), bytes(8)) },
);

interface Raw {
  method: string;
  target: string;
  host: string | null;
  headers: [string, string][];
}

function serialize(r: Raw): string {
  let text = `${r.method} ${r.target} HTTP/1.1\r\n`;
  if (r.host !== null) text += `Host: ${r.host}\r\n`;
  for (const [name, value] of r.headers) text += `${name}: ${value}\r\n`;
  return text + 'Connection: close\r\n\r\n';
}

const rawRequest: fc.Arbitrary<Raw> = fc.record({
  method: rawMethod,
  target,
  host: fc.option(hostish, { nil: null, freq: 8 }),
  headers: fc.array(header, { maxLength: 3 }),
});

// Checks one exchange; returns the final answer, if any.
function checkExchange(r: Raw, x: Exchange): Answer | undefined {
  const answers = parseAnswers(x.text, r.method === 'HEAD');
  if (answers.length === 0) return undefined; // a clean close (CONNECT, Upgrade: node drops those)
  const final = answers.filter((a) => a.status >= 200);
  expect(final).toHaveLength(1);
  for (const a of answers) expect(a.status).toBeLessThan(500);
  const location = final[0]!.headers.get('location');
  if (location !== undefined) {
    // "//host" or "/\host" would send a browser to another origin.
    const origin = URL.canParse(location, 'http://h.com/') ? new URL(location, 'http://h.com/').origin : 'invalid';
    expect({ location, origin }).toEqual({ location, origin: 'http://h.com' });
  }
  return final[0];
}

// Follows a redirect as a client does (same method and Host), on the same host: the Location is a path, and an
// absolute-form target's authority (which the mux matches hosts by, not the Host header) is kept as it was sent,
// case and port included. It answers with no second redirect.
async function follow(r: Raw, redirect: Answer): Promise<Answer | undefined> {
  const location = redirect.headers.get('location')!;
  const authority = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(r.target)?.[0] ?? '';
  const next = { ...r, target: location.startsWith('/') ? authority + location : location };
  return checkExchange(next, await exchange(serialize(next)));
}

const normal = 'GET /a/b?x=1 HTTP/1.1\r\nHost: h.com\r\nConnection: close\r\n\r\n';

describe('the node adapter under hostile requests', () => {
  test('every answer is whole and not 5xx, redirects route, and the server keeps serving', async () => {
    await fc.assert(
      fc.asyncProperty(rawRequest, async (r) => {
        const final = checkExchange(r, await exchange(serialize(r)));
        if (final?.status === 307) {
          const again = await follow(r, final);
          expect(again?.status).not.toBe(307);
        }
        const ok = parseAnswers((await exchange(normal)).text, false);
        expect(ok.map((a) => a.status)).toEqual([200]);
      }),
      { numRuns: 500 },
    );
  }, 30_000);
});

// The minimal counterexamples the property above found, pinned.
describe('regressions', () => {
  // Host ":" passes the adapter's Host check, but req.url is then "http://:/", which no URL
  // parser accepts: the page's `new URL(req.url)` (or reading the body, which builds a real
  // Request from req.url) throws, and the client gets a 500. The same for an absolute-form
  // target whose authority is no URL host. Expected: a 400 for the malformed Host, as for
  // the Hosts the check already refuses.
  test.each([
    { method: 'GET', target: '/', host: ':', headers: [] },
    { method: 'GET', target: '/a/b', host: 'h.com:99999', headers: [] },
    { method: 'POST', target: '/a/b', host: '%', headers: [['Content-Length', '0']] },
    { method: 'GET', target: 'http://:/a/b', host: 'h.com', headers: [] },
  ] satisfies Raw[])('host-that-is-no-url-host-is-not-a-500: $host $target', async (r) => {
    const final = checkExchange(r, await exchange(serialize(r)));
    expect(final?.status).toBeLessThan(500);
  });

  // The cleaned path of an absolute-form target is on that target's host, as sent ([::1]:80, H.COM: hosts match
  // case and all), not on the Host header's or a normalised one (h.com, where 'h.com/{x}/' redirects /c to /c/).
  test.each([
    { method: 'GET', target: 'http://[::1]:80//c', host: 'h.com', headers: [] },
    { method: 'GET', target: 'http://H.COM//b', host: '', headers: [] },
  ] satisfies Raw[])('redirect-of-an-absolute-form-target-stays-on-its-host: $target', async (r) => {
    const final = checkExchange(r, await exchange(serialize(r)));
    expect(final?.status).toBe(307);
    expect((await follow(r, final!))?.status).not.toBe(307); // 404 or 405 there: that host has no such page
  });

  // Over the wire, the open redirect mux.test.ts pins (redirect-location-stays-on-the-origin):
  // node passes a backslash in the request-target to the mux as it is.
  test.each(['//\\', '/\\evil.com'])('redirect-location-stays-on-the-origin: %s', async (target) => {
    const r: Raw = { method: 'GET', target, host: 'h.com', headers: [] };
    const final = checkExchange(r, await exchange(serialize(r)));
    expect(final?.status).toBe(307);
  });
});
