// The three lazy native objects (the node adapter's Request and its Headers, the mux's LiteResponse) answer every
// member of the native prototype as the real object does: each row reads one member from the lite object and from
// a real one built from the same data. Members the lite classes did not list by hand used to throw
// (`isReloadNavigation`, `util.inspect` of a request or its headers).

import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { inspect } from 'node:util';
import { liteResponse, toResponse } from '../core/kernel/answer.ts';
import { createRequest } from '../core/node/request.ts';

function incoming(method: string, body?: string): IncomingMessage {
  const msg = new IncomingMessage(new Socket());
  msg.method = method;
  msg.url = '/p?q=1';
  msg.rawHeaders = ['Host', 'example.com', 'Content-Type', 'application/json', 'X-A', 'A'];
  msg.headers = { host: 'example.com', 'content-type': 'application/json', 'x-a': 'A' };
  if (body !== undefined) msg.push(body);
  msg.push(null);
  return msg;
}

function nodeRequest(method = 'GET', body?: string): Request {
  const msg = incoming(method, body);
  return createRequest(msg, new ServerResponse(msg));
}

function realRequest(method = 'GET', body?: string): Request {
  return new Request('http://example.com/p?q=1', {
    method,
    headers: [
      ['Host', 'example.com'],
      ['Content-Type', 'application/json'],
      ['X-A', 'A'],
    ],
    ...(body === undefined ? {} : { body, duplex: 'half' }),
  } as RequestInit);
}

const lite = () => liteResponse(201, '{"a":1}', { 'content-type': 'application/json', 'set-cookie': ['a=1', 'b=2'] });
const real = () => {
  const headers = new Headers({ 'content-type': 'application/json' });
  headers.append('set-cookie', 'a=1');
  headers.append('set-cookie', 'b=2');
  return new Response('{"a":1}', { status: 201, headers });
};

/** The getters of a native prototype whose values are plain (strings, numbers, booleans, null). */
function plainGetters(proto: object, sample: object): string[] {
  return Object.getOwnPropertyNames(proto).filter((key) => {
    const value: unknown = Object.getOwnPropertyDescriptor(proto, key)!.get?.call(sample);
    return value === null || ['string', 'number', 'boolean'].includes(typeof value);
  });
}

test.each(plainGetters(Request.prototype, realRequest()))('lite-request-reads-%s', (key) => {
  const [got, want] = [nodeRequest(), realRequest()].map((r) => (r as unknown as Record<string, unknown>)[key]);
  expect(got).toEqual(want);
});

test.each(plainGetters(Response.prototype, real()))('lite-response-reads-%s', (key) => {
  const [got, want] = [lite(), real()].map((r) => (r as unknown as Record<string, unknown>)[key]);
  expect(got).toEqual(want);
});

test.each(['arrayBuffer', 'blob', 'bytes', 'json', 'text'] as const)('lite-bodies-read-as-real-ones-%s', async (m) => {
  const read = async (r: Request | Response) => {
    const v: unknown = await (r as unknown as Record<string, () => Promise<unknown>>)[m]!();
    return v instanceof Blob ? await v.text() : v instanceof ArrayBuffer ? new Uint8Array(v) : v;
  };
  expect(await read(nodeRequest('POST', '{"a":1}'))).toEqual(await read(realRequest('POST', '{"a":1}')));
  expect(await read(lite())).toEqual(await read(real()));
});

test('lite-objects-clone-iterate-and-inspect', async () => {
  const req = nodeRequest('POST', '{"a":1}');
  const clone = req.clone();
  expect([req instanceof Request, clone instanceof Request, await clone.text(), await req.text()]).toEqual([
    true,
    true,
    '{"a":1}',
    '{"a":1}',
  ]);
  const h = nodeRequest().headers;
  expect([h instanceof Headers, [...h], [...h.keys()], h.getSetCookie()]).toEqual([
    true,
    [...realRequest().headers],
    [...realRequest().headers.keys()],
    [],
  ]);
  h.set('x-b', '2');
  expect([h.get('x-b'), h.has('x-b')]).toEqual(['2', true]);
  expect(inspect(nodeRequest())).toContain("url: 'http://example.com/p?q=1'");
  expect(inspect(nodeRequest().headers)).toEqual(inspect(realRequest().headers));
  const res = lite();
  expect([res instanceof Response, await res.clone().text(), res.headers.getSetCookie()]).toEqual([
    true,
    '{"a":1}',
    ['a=1', 'b=2'],
  ]);
  expect(inspect(lite())).toContain('status: 201');
});

// get and has read node's parsed headers, a plain object: a name it inherits is no header, and a name in any case is
// the same header (both once threw or lied: `get('constructor')` was a TypeError, `has('toString')` true).
test.each([
  'Content-Type',
  'content-type',
  'X-A',
  'x-A',
  'constructor',
  'toString',
  '__proto__',
  'hasOwnProperty',
  'x-b',
])('lite-headers-get-and-has-%s', (name) => {
  const [got, want] = [nodeRequest().headers, realRequest().headers].map((h) => [h.get(name), h.has(name)]);
  expect(got).toEqual(want);
});

// mux.fetch's one Response (toResponse) is made with the answer's header record as its init: the record's
// content-type, not the constructor's text/plain; each Set-Cookie its own line; a list of another header its values
// joined; a header a middleware set kept; and a record without content-type gets the constructor's, as before.
test('lite-response-made-real-has-the-records-headers', () => {
  const res = toResponse(
    liteResponse(201, 'hi', {
      'content-type': 'text/html; charset=utf-8',
      'set-cookie': ['a=1', 'b=2'],
      vary: ['A', 'B'],
    }),
  );
  expect([res.status, res.headers.get('content-type'), res.headers.getSetCookie(), res.headers.get('vary')]).toEqual([
    201,
    'text/html; charset=utf-8',
    ['a=1', 'b=2'],
    'A, B',
  ]);
  const touched = liteResponse(200, 'hi', { 'content-type': 'text/html' });
  touched.headers.set('x-by', 'middleware');
  expect([...toResponse(touched).headers]).toEqual([
    ['content-type', 'text/html'],
    ['x-by', 'middleware'],
  ]);
  expect(toResponse(liteResponse(200, 'hi', {})).headers.get('content-type')).toBe(
    new Response('hi').headers.get('content-type'),
  );
  expect(toResponse(liteResponse(404, null, { 'x-a': 'a' })).statusText).toBe('');
});
