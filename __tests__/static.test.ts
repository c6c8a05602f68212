import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { ServeMux, mount, route, staticFiles, staticUrl, type PageRequest } from '../core';
import { setRoute } from '../core/mux/request';

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
