// The fault kinds of the chaos suite, each a recipe for one connection's script: the bytes to write (with pauses),
// then leave at once or read the answer up to some byte and leave. driver.ts plays the scripts on raw sockets.
//
//   script(rng, route, 'leave-stream') → { label: 'GET /stream?part=big: left after 5312 answer bytes (br)',
//                                          writes: [{ bytes, delay: 0 }], leave: 'after-read', readBytes: 5312 }

import type { ChaosRoute, Target } from './app.tsx';
import type { Rng } from './rng.ts';
import { socketScript } from './socket-faults.ts';
import {
  anyHeaders,
  boundary,
  conditional,
  cookie,
  multipartBody,
  multipartFlood,
  urlencodedBody,
} from './spellings.ts';

/**
 * What one connection does wrong:
 * - `leave-headers`: leaves before or in the middle of the request head (nothing written, or a cut).
 * - `leave-body`: sends the head and part of the body, then leaves.
 * - `leave-stream`: sends a whole request (a random Accept-Encoding) and leaves after reading k bytes of the answer.
 * - `bad-head`: a malformed or oversized request line or headers (huge, many, control characters, bad Host,
 *   absolute-form targets, odd versions and methods, broken percent-encoding, conflicting lengths).
 * - `bad-body`: a body that lies about its length, broken chunking, a body past maxBodySize, malformed or huge
 *   urlencoded forms, the wrong Content-Type.
 * - `multipart`: boundary spellings (quoted, unterminated, escaped quotes, backslashes, duplicated, empty) with odd
 *   parts, and floods of tiny parts past maxFields (whose answer must be a 4xx other than 422: no limit bypassed).
 * - `cookies`: a normal request with a Cookie header spelled oddly (duplicates, quotes, huge, forged sessions).
 * - `conditional`: GET and HEAD with Range, If-None-Match, If-Range and If-Modified-Since mixed.
 * - `slow`: a normal request written a few bytes at a time, sometimes left half-written.
 * - `pipeline`: several requests in one write on a kept-alive connection, left after k bytes of the answers.
 * - `socket`: a WebSocket upgrade, then frames a client should not send: floods, huge or cut frames, bad opcodes,
 *   unmasked or invalid UTF-8 frames, or another site's Origin (socket-faults.ts); for socket routes.
 */
export type FaultKind =
  | 'leave-headers'
  | 'leave-body'
  | 'leave-stream'
  | 'bad-head'
  | 'bad-body'
  | 'multipart'
  | 'cookies'
  | 'conditional'
  | 'slow'
  | 'pipeline'
  | 'socket';

/** One connection's part: what to write, then how it leaves, and what its answer must not be. */
export interface Script {
  fault: FaultKind;
  /** What it did, for a failure report: the request line and the fault's detail. */
  label: string;
  writes: { bytes: Buffer; delay: number }[];
  /** 'after-writes': gone once written (FIN or RST); 'after-read': reads the answer up to `readBytes`. */
  leave: 'after-writes' | 'after-read';
  readBytes: number;
  /** Half-close (FIN) after the writes, as a client that sent all it had; the answer is still read. */
  halfClose?: boolean;
  /** A reason the answer's status is wrong, or undefined when it is fine. */
  oracle?: (status: number) => string | undefined;
  /** A request of the script fails on purpose (`Target.fails`): a 500 is right. */
  mayFail: boolean;
}

type Headers = Record<string, string>;

/** A request's bytes, as written on the wire (latin1: one byte per character). */
function request(method: string, path: string, headers: Headers, body = '', close = true): string {
  let head = `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n`;
  const all = { ...headers };
  if (close) all['Connection'] = 'close';
  const length = !('Transfer-Encoding' in all) && (body !== '' || method === 'POST');
  if (length) all['Content-Length'] ??= String(Buffer.byteLength(body, 'latin1'));
  for (const [k, v] of Object.entries(all)) head += `${k}: ${v}\r\n`;
  return `${head}\r\n${body}`;
}

const bytes = (s: string) => Buffer.from(s, 'latin1');
const once = (s: string, delay = 0) => [{ bytes: bytes(s), delay }];

/** A route's request with its body, in the right Content-Type. */
function normal(rng: Rng, target: Target, extra: Headers = {}): { text: string; headEnd: number } {
  const headers: Headers = { ...anyHeaders(rng), ...extra };
  let body = '';
  if (target.body === 'urlencoded') {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    body = urlencodedBody(rng);
  } else if (target.body === 'multipart') {
    const b = boundary(rng);
    headers['Content-Type'] = b.contentType;
    body = multipartBody(rng, rng.pick(b.delimiters));
  }
  const text = request(target.method, target.path, headers, body);
  return { text, headEnd: text.indexOf('\r\n\r\n') + 4 };
}

// Request heads a client library would refuse to send; `p` is the route's path.
const badHeads: ((rng: Rng, p: string) => string)[] = [
  (rng, p) => request('GET', p, { 'X-Big': 'a'.repeat(rng.size(8_000, 100_000)) }),
  (rng, p) =>
    request('GET', p, Object.fromEntries(Array.from({ length: rng.size(100, 3000) }, (_, i) => [`x-${i}`, 'v']))),
  (_, p) => `GET ${p} HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header: x\r\nNoColon\r\n\r\n`,
  (_, p) => `GET ${p} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Ctl: a\x01b\x7fc\r\n\r\n`,
  (_, p) => `GET ${p} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Fold: a\r\n  folded\r\n\r\n`,
  (rng, p) =>
    `GET ${p} HTTP/1.1\r\nHost: ${rng.pick(['a@b', '[::1', 'ex ample', 'a/b', '', 'x:99999', '%zz'])}\r\n\r\n`,
  (_, p) => `GET ${p} HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n\r\n`,
  (_, p) => `GET ${p} HTTP/1.1\r\n\r\n`,
  (rng) =>
    `GET ${rng.pick(['http://example.com', 'http://127.0.0.1', 'http://a@b/', 'https://x:1'])} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`,
  (_, p) => `GET http://127.0.0.1${p} HTTP/1.1\r\nHost: other.example\r\nConnection: close\r\n\r\n`,
  () => `GET * HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`,
  () => `CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`,
  (rng, p) =>
    `GET ${p} ${rng.pick(['HTTP/1.2', 'HTTP/2.0', 'HTTP/0.9', 'HTTP/1', 'FOO', ''])}\r\nHost: 127.0.0.1\r\n\r\n`,
  (rng, p) =>
    request(rng.pick(['G@T', 'X'.repeat(200), 'get', 'PROPFIND', 'OPTIONS', 'TRACE', 'DELETE', 'PATCH']), p, {}),
  (rng, p) =>
    request('GET', p + rng.pick(['%zz', '%', '%00', '/..%2f..%2f', '%ED%A0%80', '%C0%AE', '\x80\xff', '?%zz=%']), {}),
  (rng) =>
    request('GET', rng.pick(['//x', '/./a/../', '/a\tb', '/' + 'a/'.repeat(20_000), `/${'%2e'.repeat(999)}`]), {}),
  (_, p) => `GET ${p} HTTP/1.1\nHost: 127.0.0.1\nConnection: close\n\n`,
  (_, p) => `POST ${p} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: -1\r\n\r\n`,
  (_, p) => `POST ${p} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab`,
  (_, p) => `POST ${p} HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n0\r\n\r\n`,
  (_, p) => `POST ${p} HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked, identity\r\n\r\n1\r\na\r\n0\r\n\r\n`,
  (rng) => rng.text(rng.size(1, 5000), '\x00\x01\r\n :abcGET/HTTP\xff'),
];

// Bodies that lie or break; `t` is a route's request with a body.
const badBodies: ((rng: Rng, t: Target, h: Headers) => string)[] = [
  (rng, t, h) =>
    request(
      t.method,
      t.path,
      { ...h, 'Content-Length': String(rng.size(10_485_761, 4e9)) },
      'a'.repeat(rng.size(1, 2e6)),
    ),
  (rng, t, h) =>
    request(t.method, t.path, { ...h, 'Content-Length': '3' }, `abcdefGET / HTTP/1.1\r\n\r\n${rng.text(10)}`),
  (rng, t, h) =>
    `${t.method} ${t.path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${Object.entries(h)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('')}` +
    `Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n` +
    rng.pick([
      'zz\r\nabc\r\n0\r\n\r\n',
      `5;${'e'.repeat(10_000)}\r\nhello\r\n0\r\n\r\n`,
      'ffffff\r\nabc',
      '3\r\nabcdef\r\n',
      '1\r\na\r\n',
    ]),
  (rng, t, h) => request(t.method, t.path, h, rng.text(rng.size(1, 100_000), '\x00\x01\xff%=&\r\n-abc')),
  (rng, t, h) =>
    request(t.method, t.path, { ...h, 'Content-Type': 'application/x-www-form-urlencoded' }, urlencodedBody(rng)),
  (rng, t, h) => {
    const type = rng.pick([
      'application/json',
      'text/plain',
      'application/x-www-form-urlencoded; charset=utf-16',
      ';',
      '',
    ]);
    return request(t.method, t.path, { ...h, 'Content-Type': type }, '{"title":"x"}');
  },
  (rng, t, h) => request(t.method, t.path, { ...h, Expect: '100-continue' }, urlencodedBody(rng)),
  (rng, t, h) => {
    const coding = {
      'Content-Type': 'application/x-www-form-urlencoded',
      'Content-Encoding': rng.pick(['gzip', 'br']),
    };
    return request(t.method, t.path, { ...h, ...coding }, '\x1f\x8b\x08\x00' + rng.text(rng.size(1, 5000), '\x00\xff'));
  },
  (rng, t, h) => {
    // A form in one-byte chunks: thousands of chunk heads for a few hundred bytes of body.
    const body = urlencodedBody(rng).slice(0, 5000);
    const chunks = [...body].map((c) => `1\r\n${c}\r\n`).join('') + '0\r\n\r\n';
    const head = { ...h, 'Content-Type': 'application/x-www-form-urlencoded', 'Transfer-Encoding': 'chunked' };
    return request(t.method, t.path, head, chunks);
  },
];

/** A script of `fault` for one of `route`'s requests. */
export function script(rng: Rng, route: ChaosRoute, fault: FaultKind): Script {
  const target = rng.pick(route.requests);
  const withBody = route.requests.filter((t) => t.body !== undefined);
  const bodyTarget = withBody.length > 0 ? rng.pick(withBody) : target;
  const line = `${target.method} ${target.path}`;
  const bodyLine = `${bodyTarget.method} ${bodyTarget.path}`;
  let mayFail = target.fails === true || bodyTarget.fails === true;
  const read = (text: string, label: string, readBytes = 1 << 20, extra: Partial<Script> = {}): Script => ({
    fault,
    label,
    writes: once(text),
    leave: 'after-read',
    readBytes,
    mayFail,
    ...extra,
  });
  const leaves = (text: string, label: string): Script => ({ ...read(text, label, 0), leave: 'after-writes' });
  switch (fault) {
    case 'leave-headers': {
      const { text, headEnd } = normal(rng, target);
      const cut = rng.int(headEnd);
      return leaves(text.slice(0, cut), `${line}: left after ${cut} of ${headEnd} head bytes`);
    }
    case 'leave-body': {
      const { text, headEnd } = normal(rng, bodyTarget);
      const cut = headEnd + rng.int(Math.max(1, text.length - headEnd));
      return leaves(
        text.slice(0, cut),
        `${bodyLine}: left after ${cut - headEnd} of ${text.length - headEnd} body bytes`,
      );
    }
    case 'leave-stream': {
      const ae = rng.pick(['br', 'gzip', 'gzip, deflate, br, zstd', 'zstd', 'identity', 'br;q=0, *']);
      const { text } = normal(rng, target, { 'Accept-Encoding': ae });
      const k = rng.size(0, 200_000);
      const label = `${line}: left after ${k} answer bytes (Accept-Encoding: ${ae})`;
      return read(text, label, k, { halfClose: rng.chance(0.2) });
    }
    case 'bad-head': {
      const i = rng.int(badHeads.length);
      const readBytes = rng.chance(0.8) ? 1 << 16 : rng.size(0, 200);
      return read(badHeads[i]!(rng, target.path), `${line}: malformed head #${i}`, readBytes);
    }
    case 'bad-body': {
      const i = rng.int(badBodies.length);
      return read(badBodies[i]!(rng, bodyTarget, anyHeaders(rng)), `${bodyLine}: bad body #${i}`, 1 << 16);
    }
    case 'multipart': {
      const b = boundary(rng);
      const flood = rng.chance(0.35);
      // A flood mostly takes the first reading (as a parser unquotes and unescapes): the one a counter may miss.
      const delimiter = flood && rng.chance(0.7) ? b.delimiters[0]! : rng.pick(b.delimiters);
      const headers = { ...anyHeaders(rng), 'Content-Type': b.contentType };
      const label = `${bodyLine}, Content-Type: ${b.contentType}, delimiter ${JSON.stringify(delimiter)}`;
      if (flood) {
        const n = rng.pick([2_000, 20_000, 60_000]);
        // Past every maxFields of the app (100 in its forms, the default 1,000 at the login): a 4xx, never parsed.
        const oracle = (status: number) =>
          bodyTarget.body && (status < 300 || status === 422)
            ? `${n} parts past maxFields answered ${status}: the form was parsed past its limits`
            : undefined;
        const flood = request(bodyTarget.method, bodyTarget.path, headers, multipartFlood(delimiter, n));
        return read(flood, `${label}: ${n} parts`, 1 << 16, { oracle });
      }
      const text = request(bodyTarget.method, bodyTarget.path, headers, multipartBody(rng, delimiter));
      if (rng.chance(0.2)) return leaves(text.slice(0, rng.int(text.length)), `${label}: left mid-body`);
      return read(text, label, 1 << 16);
    }
    case 'cookies': {
      const c = cookie(rng) ?? '';
      return read(normal(rng, target, { Cookie: c }).text, `${line}, Cookie: ${c.slice(0, 120)}`, rng.size(0, 1 << 16));
    }
    case 'conditional': {
      const t = { ...target, method: rng.pick([target.method, 'GET', 'HEAD']) };
      const h = conditional(rng);
      return read(normal(rng, t, h).text, `${t.method} ${t.path}, ${JSON.stringify(h).slice(0, 200)}`, 1 << 18);
    }
    case 'slow': {
      const { text } = normal(rng, bodyTarget);
      const pieces = Math.min(30, Math.ceil(text.length / rng.size(1, 64)));
      const size = Math.ceil(text.length / pieces);
      const leaveAt = rng.chance(0.3) ? rng.int(pieces) : pieces;
      const writes = Array.from({ length: leaveAt }, (_, i) => ({
        bytes: bytes(text.slice(i * size, (i + 1) * size)),
        delay: 5 + rng.int(35),
      }));
      const left = leaveAt < pieces;
      const label = `${bodyLine}: written in ${pieces} pieces${left ? `, left after ${leaveAt}` : ''}`;
      return { ...read('', label, 1 << 18), writes, leave: left ? 'after-writes' : 'after-read' };
    }
    case 'pipeline': {
      const n = 2 + rng.int(4);
      const lines: string[] = [];
      let text = '';
      for (let i = 0; i < n; i++) {
        const t = rng.pick(route.requests);
        mayFail ||= t.fails === true;
        const method = t.body ? t.method : rng.pick([t.method, 'HEAD']);
        const body = t.body === 'urlencoded' ? urlencodedBody(rng) : '';
        text += request(method, t.path, anyHeaders(rng), body, i === n - 1);
        lines.push(`${method} ${t.path}`);
      }
      const k = rng.size(0, 300_000);
      return read(text, `pipelined ${lines.join(', ')}; left after ${k} answer bytes`, k);
    }
    case 'socket': {
      const play = socketScript(rng, target.path);
      const crossSite = play.label.includes("another site's page");
      // Another site's page must never get a socket; a page of its own always gets one (or the answer was cut).
      const oracle = (status: number) =>
        crossSite && status !== 403
          ? `a cross-site upgrade answered ${status}, not 403`
          : !crossSite && status !== 101
            ? `an upgrade answered ${status}, not 101`
            : undefined;
      return {
        ...read('', play.label, play.leaveAfterWrites ? 0 : rng.size(1, 1 << 16), { oracle }),
        writes: play.writes,
        leave: play.leaveAfterWrites ? 'after-writes' : 'after-read',
      };
    }
  }
}
