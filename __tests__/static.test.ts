import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import ts from 'typescript';
import { embedSource } from '../core/static/embed.ts';
import { ServeMux, mount, route, staticFiles, staticUrl, type EmbeddedFiles, type PageRequest } from '../core/index.ts';
import { setRoute } from '../core/kernel/request.ts';

const dir = mkdtempSync(join(tmpdir(), 'pagetree-static-'));
const css = `body { color: #333; }\n${'.rule { margin: 0; padding: 0; }\n'.repeat(40)}`;
const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0xff, 0x00]);
writeFileSync(join(dir, 'app.css'), css);
writeFileSync(join(dir, 'icon.png'), png);
mkdirSync(join(dir, 'docs', 'deep'), { recursive: true });
writeFileSync(join(dir, 'docs', 'deep', 'note.txt'), 'short note');
const htmxPath = require.resolve('htmx.org/dist/htmx.min.js');

class Home {
  page() {
    return `<link rel="stylesheet" href="${staticUrl('app.css')}">`;
  }
}
class App {
  home = route('/{$}', Home);
  assets = route('GET /static/{path...}', staticFiles(dir, { files: { 'htmx.min.js': htmxPath } }));
}
const mux = new ServeMux();
const tree = mount(mux, App);

async function get(path: string, headers: Record<string, string> = {}, method = 'GET') {
  const res = await mux.fetch(new Request(`http://localhost${path}`, { headers, method }));
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

test('serves a file with its type, a strong ETag, Last-Modified and length', async () => {
  const r = await get('/static/app.css');
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toBe('text/css; charset=utf-8');
  expect(r.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
  expect(new Date(r.headers.get('last-modified')!).getTime()).toBeGreaterThan(0);
  expect(r.headers.get('cache-control')).toBe('no-cache');
  expect(r.headers.get('content-length')).toBe(String(Buffer.byteLength(css)));
  expect(r.body.toString()).toBe(css);
});

test('binary files come back byte for byte', async () => {
  const r = await get('/static/icon.png', { 'accept-encoding': 'gzip, br' });
  expect(r.headers.get('content-type')).toBe('image/png');
  expect(r.headers.get('content-encoding')).toBeNull();
  expect(r.body.equals(png)).toBe(true);
});

test('nested directories are served', async () => {
  const r = await get('/static/docs/deep/note.txt');
  expect([r.status, r.body.toString()]).toEqual([200, 'short note']);
});

test('a file of an installed package is served from the dependency', async () => {
  const r = await get('/static/htmx.min.js');
  expect(r.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  expect(r.body.equals(readFileSync(htmxPath))).toBe(true);
});

test.each([
  ['br, gzip', 'br', brotliDecompressSync],
  ['gzip, deflate', 'gzip', gunzipSync],
  ['gzip;q=1, br;q=0', 'gzip', gunzipSync],
  ['*', 'br', brotliDecompressSync],
])('Accept-Encoding %j gets %s', async (accept, encoding, decode) => {
  const r = await get('/static/app.css', { 'accept-encoding': accept });
  expect(r.headers.get('content-encoding')).toBe(encoding);
  expect(r.headers.get('vary')).toBe('Accept-Encoding');
  expect(Number(r.headers.get('content-length'))).toBeLessThan(Buffer.byteLength(css));
  expect(decode(r.body).toString()).toBe(css);
});

describe('accept-encoding-q-values-pick-the-preferred-coding', () => {
  test.each([
    ['gzip;q=1, br;q=0.1', 'gzip'],
    ['br;q=0.5, gzip;q=0.8', 'gzip'],
    ['gzip;q=0.5, br;q=0.5', 'br'], // a tie: the smaller
    ['GZIP;Q=0.9, BR;Q=0.2', 'gzip'],
    [' gzip ; q=0.7 , br ; q=0.6 ', 'gzip'],
    ['*;q=0.5, gzip;q=0.9', 'gzip'],
    ['br;q=0.3, *;q=0.8', 'gzip'], // "*" stands for gzip, not named
    ['identity;q=0.5, gzip;q=0.6', 'gzip'],
    ['identity, gzip;q=0.6', null], // identity at q=1 beats gzip at 0.6
    ['br;q=abc, gzip;q=0.5', 'gzip'], // a malformed weight: as if br were not named
    ['br;q=2, gzip', 'gzip'],
    ['identity;q=0', null], // nothing acceptable: the file as it is anyway (RFC 9110 12.5.3)
    ['*;q=0', null],
    ['gzip;level=9;q=0.4, br;q=0.3', 'gzip'],
  ])('%j → %s', async (accept, encoding) => {
    const r = await get('/static/app.css', { 'accept-encoding': accept });
    expect(r.headers.get('content-encoding')).toBe(encoding);
    const decode = encoding === 'br' ? brotliDecompressSync : encoding === 'gzip' ? gunzipSync : (b: Buffer) => b;
    expect(decode(r.body).toString()).toBe(css);
  });
});

test('no or refused encodings get the file as it is', async () => {
  for (const accept of ['', 'identity', 'br;q=0, gzip;q=0']) {
    const r = await get('/static/app.css', { 'accept-encoding': accept });
    expect(r.headers.get('content-encoding')).toBeNull();
    expect(r.body.toString()).toBe(css);
  }
});

test('If-None-Match answers 304 without a body', async () => {
  const etag = (await get('/static/app.css')).headers.get('etag')!;
  for (const inm of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
    const r = await get('/static/app.css', { 'if-none-match': inm });
    expect([r.status, r.body.length]).toEqual([304, 0]);
    expect(r.headers.get('etag')).toBe(etag);
  }
  expect((await get('/static/app.css', { 'if-none-match': '"stale"' })).status).toBe(200);
});

test('each encoding has its own ETag', async () => {
  const plain = (await get('/static/app.css')).headers.get('etag');
  const br = (await get('/static/app.css', { 'accept-encoding': 'br' })).headers.get('etag');
  expect(br).not.toBe(plain);
  expect((await get('/static/app.css', { 'accept-encoding': 'br', 'if-none-match': br! })).status).toBe(304);
});

test('If-Modified-Since answers 304 when nothing changed since', async () => {
  const lastModified = (await get('/static/app.css')).headers.get('last-modified')!;
  expect((await get('/static/app.css', { 'if-modified-since': lastModified })).status).toBe(304);
  expect((await get('/static/app.css', { 'if-modified-since': 'Thu, 01 Jan 1970 00:00:00 GMT' })).status).toBe(200);
});

test('HEAD gets the headers without a body', async () => {
  const r = await get('/static/app.css', {}, 'HEAD');
  expect(r.status).toBe(200);
  expect(r.headers.get('content-length')).toBe(String(Buffer.byteLength(css)));
  expect(r.body.length).toBe(0);
});

describe('range-requests', () => {
  const note = 'short note'; // 10 bytes
  test.each<[string, Record<string, string>, number, string | null, string]>([
    ['a single range', { range: 'bytes=0-4' }, 206, 'bytes 0-4/10', 'short'],
    ['an open range', { range: 'bytes=6-' }, 206, 'bytes 6-9/10', 'note'],
    ['a suffix range', { range: 'bytes=-4' }, 206, 'bytes 6-9/10', 'note'],
    ['a suffix longer than the file', { range: 'bytes=-50' }, 206, 'bytes 0-9/10', note],
    ['an end past the file', { range: 'bytes=8-100' }, 206, 'bytes 8-9/10', 'te'],
    ['spaces around the range', { range: 'bytes= 1-2 ' }, 206, 'bytes 1-2/10', 'ho'],
    ['a start past the end', { range: 'bytes=10-' }, 416, 'bytes */10', ''],
    ['a zero-length suffix', { range: 'bytes=-0' }, 416, 'bytes */10', ''],
    ['a unit other than bytes', { range: 'items=0-1' }, 416, null, ''],
    ['an end before the start', { range: 'bytes=5-2' }, 416, null, ''],
    ['not a number', { range: 'bytes=a-b' }, 416, null, ''],
    // Several ranges get the whole file (RFC 9110 allows it) instead of multipart/byteranges.
    ['several ranges', { range: 'bytes=0-1,4-5' }, 200, null, note],
    ['If-Range with a stale ETag: the whole file', { range: 'bytes=0-1', 'if-range': '"stale"' }, 200, null, note],
    [
      'If-Range with an old date: the whole file',
      { range: 'bytes=0-1', 'if-range': 'Thu, 01 Jan 1970 00:00:00 GMT' },
      200,
      null,
      note,
    ],
  ])('%s', async (_, headers, status, contentRange, body) => {
    const r = await get('/static/docs/deep/note.txt', headers);
    expect([r.status, r.headers.get('content-range'), r.body.toString()]).toEqual([status, contentRange, body]);
    if (status === 206) expect(r.headers.get('content-length')).toBe(String(body.length));
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
  });

  test('If-Range with the current ETag or Last-Modified keeps the range', async () => {
    const whole = await get('/static/docs/deep/note.txt');
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    for (const ifRange of [whole.headers.get('etag')!, whole.headers.get('last-modified')!]) {
      const r = await get('/static/docs/deep/note.txt', { range: 'bytes=0-4', 'if-range': ifRange });
      expect([r.status, r.body.toString()]).toEqual([206, 'short']);
    }
    const weak = await get('/static/docs/deep/note.txt', {
      range: 'bytes=0-4',
      'if-range': `W/${whole.headers.get('etag')}`,
    });
    expect(weak.status).toBe(200);
  });

  test('a range of a compressible file counts the bytes of the file, not of a compressed variant', async () => {
    const r = await get('/static/app.css', { range: 'bytes=5-9', 'accept-encoding': 'br, gzip' });
    expect([r.status, r.headers.get('content-encoding'), r.body.toString()]).toEqual([206, null, css.slice(5, 10)]);
    expect(r.headers.get('content-range')).toBe(`bytes 5-9/${Buffer.byteLength(css)}`);
    expect(r.headers.get('vary')).toBe('Accept-Encoding');
  });

  test('HEAD with a range gets the 206 headers without a body', async () => {
    const r = await get('/static/docs/deep/note.txt', { range: 'bytes=0-4' }, 'HEAD');
    expect([r.status, r.headers.get('content-length'), r.body.length]).toEqual([206, '5', 0]);
  });

  test('If-None-Match still answers 304 before a range', async () => {
    const etag = (await get('/static/docs/deep/note.txt')).headers.get('etag')!;
    const r = await get('/static/docs/deep/note.txt', { range: 'bytes=0-4', 'if-none-match': etag });
    expect(r.status).toBe(304);
  });
});

test('static-answers-carry-nosniff', async () => {
  const etag = (await get('/static/app.css')).headers.get('etag')!;
  for (const [path, headers, method] of [
    ['/static/app.css', {}, 'GET'],
    ['/static/app.css', {}, 'HEAD'],
    ['/static/app.css', { 'if-none-match': etag }, 'GET'],
    ['/static/app.css', { range: 'bytes=0-1' }, 'GET'],
    ['/static/app.css', { range: 'bytes=99999-' }, 'GET'],
    ['/static/missing.css', {}, 'GET'],
  ] as const) {
    const r = await get(path, headers, method);
    expect({ path, headers, status: r.status, nosniff: r.headers.get('x-content-type-options') }).toEqual({
      path,
      headers,
      status: r.status,
      nosniff: 'nosniff',
    });
  }
});

test.each(['/static/missing.css', '/static/docs', '/static/docs/', '/static/app.CSS', '/static/..%2Fpackage.json'])(
  '%s is a 404',
  async (path) => {
    expect((await get(path)).status).toBe(404);
  },
);

test.each([
  '../package.json',
  '..\\package.json',
  '/etc/passwd',
  'docs/../../package.json',
  '%2e%2e/package.json',
  '\0',
])('path value %j never leaves the directory', (value) => {
  const files = staticFiles(dir);
  files.init();
  const req = setRoute(new Request('http://localhost/static/x'), 'GET /static/{path...}', ['path'], [value]);
  expect(files.serveHTTP(req as PageRequest).status).toBe(404);
});

test('an unreadable directory makes every request a 404, with one warning at mount', async () => {
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
  class Broken {
    assets = route('GET /files/{path...}', staticFiles(join(dir, 'nope')));
  }
  const m = new ServeMux();
  mount(m, Broken);
  expect(warn).toHaveBeenCalledTimes(1);
  expect(warn.mock.calls[0]![0]).toContain('cannot read the directory');
  const res = await m.fetch(new Request('http://localhost/files/app.css'));
  expect(res.status).toBe(404);
  expect(warn).toHaveBeenCalledTimes(1);
  warn.mockRestore();
});

test('staticUrl fingerprints a name; the fingerprinted URL is cached forever', async () => {
  const url = tree.staticUrl('app.css');
  expect(url).toMatch(/^\/static\/app\.[0-9a-f]{8}\.css$/);
  const r = await get(url);
  expect(r.status).toBe(200);
  expect(r.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  expect(r.body.toString()).toBe(css);
  expect((await get('/static/app.00000000.css')).status).toBe(404);
  expect(tree.staticUrl('docs/deep/note.txt')).toMatch(/^\/static\/docs\/deep\/note\.[0-9a-f]{8}\.txt$/);
  expect((await get('/')).body.toString()).toBe(`<link rel="stylesheet" href="${url}">`);
  expect(() => tree.staticUrl('missing.css')).toThrow('staticUrl("missing.css"): no such file in');
});

describe('embedded files (no file system at run time)', () => {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg">${'<circle r="1"/>'.repeat(40)}</svg>`;
  const generated = embedSource(dir, { typescript: true });

  // The generated module, compiled and run as a bundle would.
  function load(source: string): EmbeddedFiles {
    const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.CommonJS } }).outputText;
    const module = { exports: {} as { default?: EmbeddedFiles } };
    new Function('module', 'exports', 'require', js)(module, module.exports, () => ({}));
    return module.exports.default!;
  }

  class EmbeddedApp {
    assets = route(
      'GET /static/{path...}',
      staticFiles({
        ...load(generated),
        'robots.txt': 'User-agent: *\nAllow: /\n',
        'img/logo.svg': svg,
        'data.bin': new Uint8Array([0, 1, 2, 255]),
        'feed.xml': { type: 'application/rss+xml', body: '<rss/>', encodings: {} },
      }),
    );
  }
  const embedded = new ServeMux();
  const embeddedTree = mount(embedded, EmbeddedApp);

  async function getEmbedded(path: string, headers: Record<string, string> = {}) {
    const res = await embedded.fetch(new Request(`http://localhost${path}`, { headers }));
    return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
  }

  test('pagetree-embed writes a typed module with every file of the directory', () => {
    expect(generated).toMatch(/^\/\/ Generated by pagetree-embed from .+ \(3 files\)\./);
    expect(generated).toContain("import type { EmbeddedFiles } from 'pagetree';");
    expect(Object.keys(load(generated)).sort()).toEqual(['app.css', 'docs/deep/note.txt', 'icon.png']);
    expect(embedSource(dir, { typescript: false })).not.toMatch(/EmbeddedFiles|: string/);
  });

  test('a generated file is served as the file on disk, with its precompressed variants', async () => {
    const plain = await getEmbedded('/static/app.css');
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(plain.body.toString()).toBe(css);
    expect(plain.headers.get('etag')).toBe((await get('/static/app.css')).headers.get('etag'));
    const br = await getEmbedded('/static/app.css', { 'accept-encoding': 'br' });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(brotliDecompressSync(br.body).toString()).toBe(css);
    const gz = await getEmbedded('/static/app.css', { 'accept-encoding': 'gzip' });
    expect(gunzipSync(gz.body).toString()).toBe(css);
    expect((await getEmbedded('/static/icon.png')).body.equals(png)).toBe(true);
  });

  test('contents given in code: text as UTF-8, bytes as they are, the type from the name', async () => {
    const robots = await getEmbedded('/static/robots.txt');
    expect([robots.status, robots.headers.get('content-type'), robots.body.toString()]).toEqual([
      200,
      'text/plain; charset=utf-8',
      'User-agent: *\nAllow: /\n',
    ]);
    const logo = await getEmbedded('/static/img/logo.svg', { 'accept-encoding': 'gzip' });
    expect(logo.headers.get('content-type')).toBe('image/svg+xml');
    expect(logo.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(logo.body).toString()).toBe(svg);
    const bin = await getEmbedded('/static/data.bin');
    expect(bin.headers.get('content-type')).toBe('application/octet-stream');
    expect([...bin.body]).toEqual([0, 1, 2, 255]);
  });

  test('a type given wins, and `encodings: {}` means no variant is computed', async () => {
    const feed = await getEmbedded('/static/feed.xml', { 'accept-encoding': 'gzip, br' });
    expect(feed.headers.get('content-type')).toBe('application/rss+xml');
    expect(feed.headers.get('content-encoding')).toBeNull();
    expect(feed.body.toString()).toBe('<rss/>');
  });

  test('no Last-Modified without a file system: the ETag alone validates', async () => {
    const first = await getEmbedded('/static/robots.txt');
    expect(first.headers.get('last-modified')).toBeNull();
    const since = await getEmbedded('/static/robots.txt', { 'if-modified-since': new Date().toUTCString() });
    expect(since.status).toBe(200);
    const etag = first.headers.get('etag')!;
    expect((await getEmbedded('/static/robots.txt', { 'if-none-match': etag })).status).toBe(304);
    const dated = await getEmbedded('/static/robots.txt', { range: 'bytes=0-3', 'if-range': new Date().toUTCString() });
    expect([dated.status, dated.body.toString()]).toEqual([200, 'User-agent: *\nAllow: /\n']);
  });

  test('fingerprinted URLs work the same', async () => {
    const url = embeddedTree.staticUrl('robots.txt');
    expect(url).toMatch(/^\/static\/robots\.[0-9a-f]{8}\.txt$/);
    const r = await getEmbedded(url);
    expect([r.status, r.headers.get('cache-control')]).toEqual([200, 'public, max-age=31536000, immutable']);
    expect(() => embeddedTree.staticUrl('nope.css')).toThrow(
      'staticUrl("nope.css"): no such file in the embedded files',
    );
  });
});
