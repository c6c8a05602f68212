// Compressed dynamic answers (issue 29, item 2): mount's `compress`, through mux.fetch and over real HTTP.

import { once } from 'node:events';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as zlib from 'node:zlib';
import {
  HttpError,
  MountError,
  ServeMux,
  eventStream,
  id,
  mount,
  route,
  setHeader,
  staticFiles,
  type MountOptions,
  type PageRequest,
  type RenderTarget,
} from '../core/index.ts';
import { negotiate, withAcceptEncoding } from '../core/compress/compress.ts';
import { shutdown, toNodeListener } from '../core/node/index.ts';
import { htmx2, htmx4 } from './support/http.ts';

const zstd = (zlib as { zstdDecompressSync?: (b: Uint8Array) => Buffer }).zstdDecompressSync;
const VARY = 'HX-Request, HX-Target, HX-Request-Type';
const VARY_AE = `${VARY}, Accept-Encoding`;

// ~4 KiB of HTML, with text beyond ASCII so that bytes and characters differ.
const rows = Array.from({ length: 60 }, (_, i) => ({ id: i, title: `Tâche n°${i}: acheter du lait` }));

class ListPage {
  props(_req: PageRequest, target: RenderTarget) {
    return { rows, target };
  }
  page(props: { rows: typeof rows }) {
    return (
      <html>
        <body>
          <h1>Tasks</h1>
          <ul id={id(this.taskList)}>{this.taskList(props)}</ul>
        </body>
      </html>
    );
  }
  taskList(props: { rows: typeof rows }) {
    return (
      <>
        {props.rows.map((r) => (
          <li class="task" data-id={String(r.id)} safe>
            {r.title}
          </li>
        ))}
      </>
    );
  }
}

class SmallPage {
  page() {
    return <p>small</p>;
  }
}

// Just around 1 KiB: 1000 characters, 1,100 bytes (a 2-byte é every tenth).
class NearThreshold {
  page() {
    return 'abcdefghié'.repeat(100);
  }
}

class EtagPage {
  props(req: PageRequest) {
    if (req.headers.get('if-none-match')?.replace(/^W\//, '') === '"v1"')
      return new Response(null, { status: 304, headers: { etag: '"v1"' } });
    setHeader('etag', '"v1"');
    return {};
  }
  page() {
    return <p safe>{'x'.repeat(3000)}</p>;
  }
}

class NoTransform {
  props() {
    setHeader('cache-control', 'private, no-transform');
    return {};
  }
  page() {
    return <p safe>{'y'.repeat(3000)}</p>;
  }
}

const big = 'z'.repeat(5000);
const handlers: Record<string, () => Response> = {
  png: () => new Response(new Uint8Array(5000), { headers: { 'content-type': 'image/png' } }),
  json: () =>
    new Response(big, { headers: { 'content-type': 'application/json', 'content-length': String(big.length) } }),
  stream: () => new Response(big, { headers: { 'content-type': 'text/plain' } }), // no Content-Length: as it is
  encoded: () => {
    const gz = zlib.gzipSync(big);
    return new Response(gz, {
      headers: { 'content-type': 'text/plain', 'content-encoding': 'gzip', 'content-length': String(gz.length) },
    });
  },
  empty: () => new Response(null, { status: 204 }),
};

class Raw {
  readonly #kind: string;
  constructor(kind: string) {
    this.#kind = kind;
  }
  serveHTTP() {
    return handlers[this.#kind]!();
  }
}

class Events {
  serveHTTP(req: PageRequest) {
    return eventStream(req, (s) => void s.send(<p safe>{'e'.repeat(2000)}</p>).then(() => s.close()), { heartbeat: 0 });
  }
}

class Failing {
  props(): never {
    throw new HttpError(418, 'x'.repeat(2000));
  }
  page() {
    return '';
  }
}

class App {
  index = route('/{$}', ListPage);
  small = route('/small', SmallPage);
  near = route('/near', NearThreshold);
  etag = route('/etag', EtagPage);
  noTransform = route('/no-transform', NoTransform);
  png = route('/png', new Raw('png'));
  json = route('/json', new Raw('json'));
  stream = route('/stream', new Raw('stream'));
  encoded = route('/encoded', new Raw('encoded'));
  empty = route('/empty', new Raw('empty'));
  events = route('/events', new Events());
  failing = route('/failing', Failing);
  files = route('GET /static/{path...}', staticFiles({ 'big.txt': big }));
}

function app(options: MountOptions = {}): ServeMux {
  const mux = new ServeMux({ logger: { error() {}, warn() {} } });
  mount(mux, App, '/', 'Home', options);
  return mux;
}

const mux = app();
const partial = htmx4('ul#list-page-task-list');

function decode(coding: string | null, body: Buffer): Buffer {
  if (coding === null) return body;
  if (coding === 'gzip') return zlib.gunzipSync(body);
  if (coding === 'br') return zlib.brotliDecompressSync(body);
  if (coding === 'zstd' && zstd) return zstd(body);
  throw new Error(`unexpected Content-Encoding ${coding}`);
}

interface Seen {
  status: number;
  headers: Headers;
  bytes: Buffer;
}

async function fetchRaw(m: ServeMux, path: string, headers: Record<string, string> = {}, method = 'GET') {
  const res = await m.fetch(new Request(`http://localhost${path}`, { method, headers }));
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) } satisfies Seen;
}

const identityOf = async (path: string, headers: Record<string, string> = {}) =>
  (await fetchRaw(mux, path, headers)).bytes;

// Browsers' headers and the RFC 9110 12.5.3 corner cases → the coding chosen (null: as it is).
const best = zstd ? 'zstd' : 'br'; // preferred on a tie: zstd where the runtime has it (issue 43), then br
const negotiation: [string | undefined, string | null][] = [
  [undefined, null], // no header: as it is
  ['', null], // an empty header: no coding wanted
  ['gzip', 'gzip'],
  ['br', 'br'],
  ['GZIP', 'gzip'],
  ['x-gzip', 'gzip'],
  ['gzip, deflate, br', 'br'], // Safari
  ['gzip, deflate, br, zstd', best], // Chrome
  ['zstd', zstd ? 'zstd' : null],
  ['gzip;q=1, br;q=0.5', 'gzip'],
  ['br;q=0, gzip', 'gzip'],
  ['br;q=0.2, gzip;q=0.8, identity;q=0.1', 'gzip'],
  ['identity, gzip;q=0.5', null], // the body as it is weighs more
  ['identity;q=0.5, gzip;q=0.5', 'gzip'], // a tie: compressed
  ['identity;q=0, gzip', 'gzip'],
  ['identity;q=0', null], // nothing acceptable: sent as it is anyway
  ['*', best],
  ['*;q=0', null],
  ['*;q=0, gzip', 'gzip'],
  ['gzip;q=0.5, *;q=0.1', 'gzip'],
  ['br;q=0, *', zstd ? 'zstd' : 'gzip'],
  ['deflate, compress', null], // codings pagetree does not make
  ['br;q=abc, gzip', 'gzip'], // a malformed weight: as if not named
  ['br;q=1.5', null],
  [' gzip ; q=0.9 , br ; q=0.8', 'gzip'],
];

describe.each([
  ['a full page', {}],
  ['an htmx partial', partial],
])('%s through mux.fetch', (_, extra) => {
  test.each(negotiation)('Accept-Encoding %j → %s', async (accept, want) => {
    const plain = await identityOf('/', extra);
    const r = await fetchRaw(mux, '/', accept === undefined ? extra : { ...extra, 'accept-encoding': accept });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-encoding')).toBe(want);
    expect(r.headers.get('vary')).toBe(VARY_AE);
    expect(decode(want, r.bytes).equals(plain)).toBe(true);
    if (want !== null) {
      expect(Number(r.headers.get('content-length'))).toBe(r.bytes.byteLength);
      expect(r.bytes.byteLength).toBeLessThan(plain.byteLength / 2);
    }
  });
});

test('the partial is the list alone, and smaller than the page', async () => {
  const page = await identityOf('/');
  const list = await identityOf('/', partial);
  expect(list.toString()).toMatch(/^<li class="task" data-id="0">Tâche n°0/);
  expect(list.byteLength).toBeLessThan(page.byteLength);
  expect(list.byteLength).toBeGreaterThan(1024);
});

// Answers sent as they are: [what, path, method, request headers, Content-Encoding, Vary, status]. A serveHTTP
// page's answer has its own Vary (none here); a static file has its own precompressed variants.
const alone: [string, string, string, Record<string, string>, string | null, string | null, number][] = [
  ['below the threshold', '/small', 'GET', {}, null, VARY, 200],
  ['no-transform', '/no-transform', 'GET', {}, null, VARY, 200],
  ['a type not worth compressing', '/png', 'GET', {}, null, null, 200],
  ['a Response without a Content-Length (it may be a stream)', '/stream', 'GET', {}, null, null, 200],
  ['already encoded', '/encoded', 'GET', {}, 'gzip', null, 200],
  ['204', '/empty', 'GET', {}, null, null, 204],
  ['304', '/etag', 'GET', { 'if-none-match': 'W/"v1"' }, null, VARY, 304],
  ['an event stream', '/events', 'GET', { accept: 'text/event-stream' }, null, null, 200],
  ['a static file (its own variants)', '/static/big.txt', 'GET', {}, 'br', 'Accept-Encoding', 200],
];

test.each(alone)('%s: not compressed', async (_, path, method, headers, coding, vary, status) => {
  const r = await fetchRaw(mux, path, { ...headers, 'accept-encoding': 'zstd, br, gzip' }, method);
  expect([r.status, r.headers.get('content-encoding'), r.headers.get('vary')]).toEqual([status, coding, vary]);
});

test('a static file is never compressed per request: a client that takes only zstd gets the file', async () => {
  const z = await fetchRaw(mux, '/static/big.txt', { 'accept-encoding': 'zstd' });
  expect([z.headers.get('content-encoding'), z.bytes.toString()]).toEqual([null, big]);
});

test('an event stream is sent uncompressed, event by event', async () => {
  const r = await fetchRaw(mux, '/events', { 'accept-encoding': 'gzip, br' });
  expect(r.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
  expect(r.bytes.toString()).toContain(`data: <p>${'e'.repeat(2000)}</p>\n\n`);
});

test('a Response with a Content-Length is compressed; the bytes decode to the same', async () => {
  const r = await fetchRaw(mux, '/json', { 'accept-encoding': 'gzip' });
  expect([r.headers.get('content-encoding'), r.headers.get('vary')]).toEqual(['gzip', 'Accept-Encoding']);
  expect(Number(r.headers.get('content-length'))).toBe(r.bytes.byteLength);
  expect(decode('gzip', r.bytes).toString()).toBe(big);
});

test('an error page over the threshold is compressed too', async () => {
  const r = await fetchRaw(mux, '/failing', { 'accept-encoding': 'br' });
  expect([r.status, r.headers.get('content-encoding')]).toEqual([418, 'br']);
  expect(decode('br', r.bytes).toString()).toBe('x'.repeat(2000) + '\n');
});

test('the ETag of a compressed answer is weak; the page still answers 304 to it', async () => {
  const gz = await fetchRaw(mux, '/etag', { 'accept-encoding': 'gzip' });
  expect([gz.headers.get('content-encoding'), gz.headers.get('etag')]).toEqual(['gzip', 'W/"v1"']);
  const plain = await fetchRaw(mux, '/etag');
  expect([plain.headers.get('content-encoding'), plain.headers.get('etag')]).toEqual([null, '"v1"']);
  const again = await fetchRaw(mux, '/etag', { 'accept-encoding': 'gzip', 'if-none-match': gz.headers.get('etag')! });
  expect([again.status, again.bytes.byteLength]).toEqual([304, 0]);
});

test('the threshold counts bytes, not characters', async () => {
  const at = (threshold: number) => fetchRaw(app({ compress: { threshold } }), '/near', { 'accept-encoding': 'gzip' });
  expect((await at(1100)).headers.get('content-encoding')).toBe('gzip'); // 1,000 characters, 1,100 bytes
  expect((await at(1101)).headers.get('content-encoding')).toBe(null);
  const r = await at(0);
  expect(decode('gzip', r.bytes).toString()).toBe('abcdefghié'.repeat(100));
  expect((await fetchRaw(app({ compress: { threshold: 0 } }), '/small', { 'accept-encoding': 'gzip' })).status).toBe(
    200,
  );
});

test('a body that would not shrink is sent as it is, still varying', async () => {
  const r = await fetchRaw(app({ compress: { threshold: 0 } }), '/small', { 'accept-encoding': 'gzip' });
  expect([r.headers.get('content-encoding'), r.headers.get('vary'), r.bytes.toString()]).toEqual([
    null,
    VARY_AE,
    '<p>small</p>',
  ]);
});

test('compress: false leaves every answer to a proxy, with the htmx Vary only', async () => {
  const r = await fetchRaw(app({ compress: false }), '/', { 'accept-encoding': 'gzip, br' });
  expect([r.headers.get('content-encoding'), r.headers.get('vary')]).toEqual([null, VARY]);
  expect(r.bytes.equals(await identityOf('/'))).toBe(true);
});

test('encodings: the codings offered, preferred first', async () => {
  const gzipFirst = app({ compress: { encodings: ['gzip', 'br'] } });
  expect((await fetchRaw(gzipFirst, '/', { 'accept-encoding': 'br, gzip' })).headers.get('content-encoding')).toBe(
    'gzip',
  );
  const gzipOnly = app({ compress: { encodings: ['gzip'] } });
  expect((await fetchRaw(gzipOnly, '/', { 'accept-encoding': 'br' })).headers.get('content-encoding')).toBe(null);
});

test.each([
  [{ threshold: -1 }, /App \(compress\).*threshold -1 is not a number of bytes/],
  [{ threshold: 1.5 }, /threshold 1.5/],
  [{ encodings: ['deflate'] }, /"deflate" is not one of "br", "zstd", "gzip"/],
])('a bad compress option %j is a mount error', (compress, message) => {
  const m = new ServeMux();
  expect(() => mount(m, App, '/', 'Home', { compress: compress as MountOptions['compress'] })).toThrow(MountError);
  expect(() => mount(new ServeMux(), App, '/', 'Home', { compress: compress as MountOptions['compress'] })).toThrow(
    message,
  );
});

test.each([
  [undefined, 'Accept-Encoding'],
  ['', 'Accept-Encoding'],
  [VARY, VARY_AE],
  ['accept-encoding', 'accept-encoding'],
  ['HX-Request, Accept-Encoding', 'HX-Request, Accept-Encoding'],
  ['Cookie,accept-Encoding', 'Cookie,accept-Encoding'],
  ['*', '*'],
])('withAcceptEncoding(%j) → %j (no duplicates)', (vary, want) => {
  expect(withAcceptEncoding(vary)).toBe(want);
});

test('negotiate reads the client weights with the server preference on ties', () => {
  expect(negotiate('gzip, br, zstd', ['zstd', 'br', 'gzip'])).toBe('zstd');
  expect(negotiate('gzip, br;q=0.9, zstd;q=0.9', ['zstd', 'br', 'gzip'])).toBe('gzip');
  expect(negotiate('identity;q=0, *;q=0', ['br', 'gzip'])).toBe(null);
});

describe('over real HTTP (the node adapter)', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer(toNodeListener(mux));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => shutdown(server, 100));

  function get(path: string, headers: Record<string, string>, method = 'GET') {
    return new Promise<{ status: number; headers: Record<string, unknown>; bytes: Buffer }>((resolve, reject) => {
      httpRequest({ host: '127.0.0.1', port, path, method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, bytes: Buffer.concat(chunks) }));
      })
        .on('error', reject)
        .end();
    });
  }

  describe.each([
    ['a full page', {}],
    ['an htmx 2 partial', htmx2('list-page-task-list')],
    ['an htmx 4 partial', partial],
  ])('%s', (_, extra) => {
    test.each(negotiation)('Accept-Encoding %j → %s', async (accept, want) => {
      const plain = await identityOf('/', extra);
      const r = await get('/', accept === undefined ? extra : { ...extra, 'accept-encoding': accept });
      expect(r.status).toBe(200);
      expect(r.headers['content-encoding']).toBe(want ?? undefined);
      expect(r.headers.vary).toBe(VARY_AE);
      expect(Number(r.headers['content-length'])).toBe(r.bytes.byteLength);
      expect(decode(want, r.bytes).equals(plain)).toBe(true);
    });
  });

  test("HEAD: GET's headers (compressed, its Content-Length), no body (issue 40)", async () => {
    const g = await get('/', { 'accept-encoding': 'gzip' });
    const r = await get('/', { 'accept-encoding': 'gzip' }, 'HEAD');
    expect([r.status, r.headers['content-encoding'], r.headers.vary, r.bytes.byteLength]).toEqual([
      200,
      'gzip',
      VARY_AE,
      0,
    ]);
    expect(r.headers['content-length']).toBe(g.headers['content-length']);
  });

  test('an event stream asked for with gzip comes uncompressed', async () => {
    const r = await get('/events', { accept: 'text/event-stream', 'accept-encoding': 'gzip' });
    expect(r.headers['content-encoding']).toBeUndefined();
    expect(r.bytes.toString()).toContain(`data: <p>${'e'.repeat(2000)}</p>\n\n`);
  });
});
