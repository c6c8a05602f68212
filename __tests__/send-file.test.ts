// sendFile (issue 26.8): a generated file as a download, with Content-Disposition (RFC 6266), ETag and 304, single
// ranges, HEAD; bytes, text, a Blob or a stream. Through mux.fetch and a real server.

import type { Server } from 'node:http';
import { ServeMux, sendFile, type PageRequest, type SendFileOptions } from '../core/index.ts';
import { contentDisposition } from '../core/static/send-file.ts';
import { shutdown } from '../core/node/index.ts';
import { listen, portOf, send } from './support/node-http.ts';

const csv = 'name,email\nAda,ada@example.com\nGrace,grace@example.com\n';
const files: Record<string, () => [Parameters<typeof sendFile>[1], SendFileOptions]> = {
  bytes: () => [new TextEncoder().encode(csv), { filename: 'contacts €.csv' }],
  text: () => [csv, { filename: 'contacts.csv' }],
  blob: () => [new Blob([csv]), { filename: 'contacts.csv', lastModified: new Date(Date.UTC(2026, 0, 2)) }],
  inline: () => [csv, { type: 'text/plain; charset=utf-8', inline: true }],
  stream: () => [
    new ReadableStream<Uint8Array>({
      start(c) {
        for (const line of csv.split(/(?<=\n)/)) c.enqueue(new TextEncoder().encode(line));
        c.close();
      },
    }),
    { filename: 'contacts.csv', etag: '"v1"' },
  ],
  plain: () => [new Uint8Array([1, 2, 3]), {}],
};

const mux = new ServeMux();
mux.handleFunc('GET /files/{kind}', (req: PageRequest) => {
  const [file, options] = files[req.pathValue('kind')]!();
  return sendFile(req, file, options);
});

let server: Server;
let port = 0;
beforeAll(async () => {
  server = await listen(mux);
  port = portOf(server);
});
afterAll(() => shutdown(server, 500));

type Seen = { status: number; headers: Record<string, string | null>; body: string };
const names = ['content-type', 'content-disposition', 'content-length', 'content-range', 'etag', 'accept-ranges'];

async function call(via: 'fetch' | 'serve', path: string, headers: Record<string, string> = {}, method = 'GET') {
  if (via === 'fetch') {
    const res = await mux.fetch(new Request(`http://localhost${path}`, { headers, method }));
    const seen: Seen = { status: res.status, headers: {}, body: await res.text() };
    for (const n of names) seen.headers[n] = res.headers.get(n);
    return seen;
  }
  const r = await send(port, path, { headers, method });
  const seen: Seen = { status: r.status, headers: {}, body: r.body };
  for (const n of names) seen.headers[n] = (r.headers[n] as string | undefined) ?? null;
  return seen;
}

describe.each(['fetch', 'serve'] as const)('sendFile (%s)', (via) => {
  test('bytes: a download named in UTF-8, with its type from the name, a strong ETag and ranges', async () => {
    const r = await call(via, '/files/bytes');
    expect(r.status).toBe(200);
    expect(r.body).toBe(csv);
    expect(r.headers).toMatchObject({
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="contacts _.csv"; filename*=UTF-8''contacts%20%E2%82%AC.csv`,
      'content-length': String(csv.length),
      'accept-ranges': 'bytes',
    });
    expect(r.headers.etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
  });

  test('If-None-Match with its ETag: 304 without a body; another ETag: the file', async () => {
    const { headers } = await call(via, '/files/bytes');
    const cached = await call(via, '/files/bytes', { 'if-none-match': headers.etag! });
    expect([cached.status, cached.body]).toEqual([304, '']);
    const other = await call(via, '/files/bytes', { 'if-none-match': '"old"' });
    expect(other.status).toBe(200);
  });

  test('Range: 206 with the bytes; past the end 416; If-Range with another ETag: the whole file', async () => {
    const part = await call(via, '/files/text', { range: 'bytes=0-9' });
    expect([part.status, part.body, part.headers['content-range']]).toEqual([
      206,
      csv.slice(0, 10),
      `bytes 0-9/${csv.length}`,
    ]);
    const tail = await call(via, '/files/text', { range: 'bytes=-6' });
    expect([tail.status, tail.body]).toEqual([206, csv.slice(-6)]);
    const past = await call(via, '/files/text', { range: 'bytes=9999-' });
    expect([past.status, past.headers['content-range']]).toEqual([416, `bytes */${csv.length}`]);
    const stale = await call(via, '/files/text', { range: 'bytes=0-9', 'if-range': '"old"' });
    expect([stale.status, stale.body]).toEqual([200, csv]);
  });

  test('a Blob with Last-Modified answers If-Modified-Since', async () => {
    const r = await call(via, '/files/blob', {
      'if-none-match': '',
      'if-modified-since': 'Sat, 03 Jan 2026 00:00:00 GMT',
    });
    expect(r.status).toBe(200); // an empty If-None-Match is there: it decides, and names no ETag
    const since = await call(via, '/files/blob', { 'if-modified-since': 'Sat, 03 Jan 2026 00:00:00 GMT' });
    expect(since.status).toBe(304);
  });

  test('a stream goes as it comes, with the ETag given; HEAD has the headers only', async () => {
    const r = await call(via, '/files/stream');
    expect([r.status, r.body, r.headers.etag, r.headers['accept-ranges']]).toEqual([200, csv, '"v1"', null]);
    const cached = await call(via, '/files/stream', { 'if-none-match': '"v1"' });
    expect(cached.status).toBe(304);
    const head = await call(via, '/files/bytes', {}, 'HEAD');
    expect([head.status, head.body, head.headers['content-length']]).toEqual([200, '', String(csv.length)]);
  });

  test('inline, and no filename: the type given, or application/octet-stream', async () => {
    const inline = await call(via, '/files/inline');
    expect([inline.headers['content-type'], inline.headers['content-disposition']]).toEqual([
      'text/plain; charset=utf-8',
      'inline',
    ]);
    const plain = await call(via, '/files/plain');
    expect([plain.headers['content-type'], plain.headers['content-disposition']]).toEqual([
      'application/octet-stream',
      null,
    ]);
  });
});

test.each([
  ['report.pdf', 'attachment; filename="report.pdf"'],
  ['Q1 "final".csv', `attachment; filename="Q1 _final_.csv"; filename*=UTF-8''Q1%20%22final%22.csv`],
  ['日本.txt', `attachment; filename="__.txt"; filename*=UTF-8''%E6%97%A5%E6%9C%AC.txt`],
  ["it's (1).txt", `attachment; filename="it's (1).txt"`],
  ['../../etc/passwd', 'attachment; filename=".._.._etc_passwd"'],
  ['a\r\nb.txt', `attachment; filename="a__b.txt"; filename*=UTF-8''a%0D%0Ab.txt`],
])('contentDisposition(%j)', (name, want) => {
  expect(contentDisposition('attachment', name)).toBe(want);
});
