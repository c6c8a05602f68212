// Hardening III (issue 40), defect 8: the last two raw-request vectors of the ServeMux port, held against what Go
// 1.26's net/http sends (server.go: findHandler, matchOrRedirect, Redirect, globalOptionsHandler; url.go: shouldEscape
// for a path).
//
// - An absolute-form request line without a path ("GET http://example.com HTTP/1.1") has an empty path. Go cleans it
//   to "/" and redirects there (307); the Location is built from a new URL holding only the path and the query, so
//   it is "/" (or "/?x=1"), never "http://example.com/".
// - A redirect's Location escapes its path as Go's url.URL does: "*", "!", "'", "(" and ")" too, though a URL may
//   hold them, so "/x/../a*b" redirects to "/a%2Ab". A valid "%XX" stays as sent (docs/routing.md says why).
// - "OPTIONS *" is answered by Go's server itself: 200, Content-Length: 0. Another method with the target "*"
//   reaches the mux, which answers 400.
//
// Each row runs through a real server started by `serve()` over a raw socket, and through `mux.fetch` when a WHATWG
// Request can carry its target unchanged (it cannot carry an empty path or "*").

import type { Server } from 'node:http';
import { ServeMux, type PageRequest } from '../../core/index.ts';
import { liteResponse } from '../../core/kernel/answer.ts';
import { parseTarget } from '../../core/kernel/adapter.ts';
import { shutdown } from '../../core/node/index.ts';
import { listen, portOf, raw } from '../support/node-http.ts';

const errors: unknown[] = [];
const logger = { error: (_message: string, err?: unknown) => void errors.push(err), warn: () => {} };

// A handler that names the pattern it served, with its length: the raw answers below are read by Content-Length.
const echo = (req: PageRequest) => liteResponse(200, req.pattern, { 'content-type': 'text/plain; charset=utf-8' });

const mux = new ServeMux({ logger });
mux.handleFunc('/{$}', echo);
mux.handleFunc('/dir/', echo);
mux.handleFunc('/s/{x}/', echo);
mux.handleFunc('/p/{x}', echo);

let server: Server;
let port = 0;

beforeAll(async () => {
  server = await listen(mux);
  port = portOf(server);
});
afterAll(() => shutdown(server, 500));
afterEach(() => expect(errors).toEqual([]));

/** What a client sees of one answer: the status, the headers a row checks, and the body. */
interface Seen {
  status: number;
  location: string | null;
  contentLength: string | null;
  body: string;
}

/** Reads the one answer a raw socket received (the rows ask for Connection: close; every answer has a length). */
function readRaw(text: string, method: string): Seen {
  const end = text.indexOf('\r\n\r\n');
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const headers = new Map(
    lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
  );
  const contentLength = headers.get('content-length') ?? null;
  const body = method === 'HEAD' ? '' : text.slice(end + 4, end + 4 + Number(contentLength ?? 0));
  return { status: Number(statusLine!.split(' ')[1]), location: headers.get('location') ?? null, contentLength, body };
}

// The Host header names another host: an absolute-form target's own host wins over it (RFC 9112 §3.2.2, Go's r.Host).
async function viaServe(method: string, target: string): Promise<Seen> {
  const length = method === 'POST' ? 'Content-Length: 0\r\n' : '';
  const text = await raw(port, `${method} ${target} HTTP/1.1\r\nHost: other.com\r\n${length}Connection: close\r\n\r\n`);
  return readRaw(text, method);
}

async function viaFetch(method: string, target: string): Promise<Seen> {
  const req = new Request(`http://example.com${target}`, { method });
  // The row must reach the mux as written: the URL parser would otherwise have cleaned or escaped it first.
  const url = new URL(req.url);
  expect(url.pathname + url.search).toBe(target);
  const res = await mux.fetch(req);
  const headers = res.headers;
  return {
    status: res.status,
    location: headers.get('location'),
    contentLength: headers.get('content-length'),
    body: await res.text(),
  };
}

const html = (location: string) => `<a href="${location}">Temporary Redirect</a>.\n\n`;

/**
 * A row: its name, the request line's method and target, where it runs ('both': through serve() and mux.fetch, when a
 * WHATWG Request carries the target unchanged; 'serve': through serve() only), and what the client sees.
 */
type Row = [string, string, 'both' | 'serve', Partial<Seen> & { status: number }];

const rows: Row[] = [
  // (a) absolute-form targets: Go's findHandler cleans "" to "/" and redirects there, whatever the Host header says.
  [
    'absolute-form-without-path-redirects-to-root',
    'GET http://example.com',
    'serve',
    { status: 307, location: '/', body: html('/') },
  ],
  [
    'absolute-form-without-path-keeps-query',
    'GET http://example.com?x=1',
    'serve',
    { status: 307, location: '/?x=1', body: html('/?x=1') },
  ],
  [
    'absolute-form-without-path-empty-query-dropped',
    'GET http://example.com?',
    'serve',
    { status: 307, location: '/' },
  ],
  ['absolute-form-without-path-with-port', 'GET http://example.com:8080', 'serve', { status: 307, location: '/' }],
  ['absolute-form-without-path-head-has-no-body', 'HEAD http://example.com', 'serve', { status: 307, location: '/' }],
  [
    'absolute-form-without-path-post-has-no-body',
    'POST http://example.com',
    'serve',
    { status: 307, location: '/', body: '' },
  ],
  // "*" is the server-wide form of OPTIONS; an absolute URL without a path is not it.
  [
    'absolute-form-without-path-options-redirects',
    'OPTIONS http://example.com',
    'serve',
    { status: 307, location: '/' },
  ],
  [
    'absolute-form-with-root-path-served',
    'GET http://example.com/',
    'serve',
    { status: 200, location: null, body: '/{$}' },
  ],
  [
    'absolute-form-slash-redirect-is-relative',
    'GET http://example.com/dir',
    'serve',
    { status: 307, location: '/dir/' },
  ],
  [
    'absolute-form-clean-redirect-is-relative',
    'GET http://example.com/a/../dir/',
    'serve',
    { status: 307, location: '/dir/' },
  ],
  ['origin-form-root-served', 'GET /', 'both', { status: 200, location: null, body: '/{$}' }],
  // "OPTIONS *": Go's server answers it (globalOptionsHandler); "*" with another method reaches the mux, a 400.
  [
    'options-star-answered-by-the-server',
    'OPTIONS *',
    'serve',
    { status: 200, location: null, contentLength: '0', body: '' },
  ],
  ['get-star-is-bad-request', 'GET *', 'serve', { status: 400, location: null }],
  // (b) the Location escapes what Go's url.URL escapes in a path.
  ['clean-redirect-escapes-star', 'GET /x/../a*b', 'serve', { status: 307, location: '/a%2Ab', body: html('/a%2Ab') }],
  ['double-slash-clean-redirect-escapes-star', 'GET //a*b', 'both', { status: 307, location: '/a%2Ab' }],
  [
    'clean-redirect-escapes-sub-delims-go-escapes',
    "GET //a!b'(c)*",
    'both',
    { status: 307, location: '/a%21b%27%28c%29%2A' },
  ],
  ['clean-redirect-keeps-what-go-keeps', 'GET //a$&+,;=:@~-._b', 'both', { status: 307, location: '/a$&+,;=:@~-._b' }],
  ['clean-redirect-escapes-brackets', 'GET /x/../a[b]', 'serve', { status: 307, location: '/a%5Bb%5D' }],
  ['clean-redirect-keeps-query-as-sent', 'GET /x/../a*b?q=*', 'serve', { status: 307, location: '/a%2Ab?q=*' }],
  [
    'slash-redirect-escapes-star',
    'GET /s/a*b',
    'both',
    { status: 307, location: '/s/a%2Ab/', body: html('/s/a%2Ab/') },
  ],
  [
    'slash-redirect-escapes-star-keeps-query',
    'POST /s/a*b?q=(1)',
    'both',
    { status: 307, location: '/s/a%2Ab/?q=(1)', body: '' },
  ],
  ['slash-redirect-escapes-parens', 'GET /s/(a)', 'both', { status: 307, location: '/s/%28a%29/' }],
  ['star-in-a-clean-path-is-served', 'GET /p/a*b', 'both', { status: 200, location: null, body: '/p/{x}' }],
];

describe('ServeMux: absolute-form targets, "*", and the escaping of redirect Locations, as Go 1.26', () => {
  test.each(rows)('serve(): %s', async (_name, line, _via, want) => {
    const [method, target] = line.split(' ') as [string, string];
    expect(pick(await viaServe(method, target), want)).toEqual(want);
  });

  test.each(rows.filter(([, , via]) => via === 'both'))('mux.fetch: %s', async (_name, line, _via, want) => {
    const [method, target] = line.split(' ') as [string, string];
    expect(pick(await viaFetch(method, target), want)).toEqual(want);
  });

  test('the server keeps serving after every row', async () => {
    expect(readRaw(await raw(port, 'GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n'), 'GET').body).toBe('/{$}');
  });
});

describe('parseTarget keeps an absolute URL without a path empty (the mux redirects it to "/")', () => {
  test.each<[string, { host: string; path: string; query: string }]>([
    ['http://example.com', { host: 'example.com', path: '', query: '' }],
    ['http://example.com?x=1', { host: 'example.com', path: '', query: 'x=1' }],
    ['http://example.com?', { host: 'example.com', path: '', query: '' }],
    ['http://example.com:8080', { host: 'example.com:8080', path: '', query: '' }],
    ['http://example.com/', { host: 'example.com', path: '/', query: '' }],
    ['http://a.com:80/x%2Fy?q=1', { host: 'a.com:80', path: '/x%2Fy', query: 'q=1' }],
    ['http://u@a.com/x', { host: 'a.com', path: '/x', query: '' }],
  ])('%s', (url, want) => {
    expect({ ...parseTarget(url) }).toEqual(want);
  });
});

/** The fields of `got` that `want` names, so that a failure shows only what the row checks. */
function pick(got: Seen, want: Partial<Seen>): Partial<Seen> {
  const out: Partial<Seen> = {};
  for (const key of Object.keys(want) as (keyof Seen)[]) (out as Record<string, unknown>)[key] = got[key];
  return out;
}
