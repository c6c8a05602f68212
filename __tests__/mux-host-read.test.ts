// A mux without host patterns routes a runtime's Request (mux.fetch: Bun, Deno, workerd) without reading its Host
// header: the host decides nothing there, and a header read costs Deno ~1,500 instructions a request (issue 43).
// With host patterns the Host header is read, and routes as Go's ServeMux routes on r.Host. (A Web Request cannot be
// a CONNECT, the other method that reads it.)

import { ServeMux } from '../core/index.ts';

// A Request that counts its Host header's reads.
function countingRequest(url: string, init?: RequestInit): { req: Request; hostReads: () => number } {
  const req = new Request(url, init);
  let reads = 0;
  const get = req.headers.get.bind(req.headers);
  req.headers.get = (name: string) => {
    if (name.toLowerCase() === 'host') reads++;
    return get(name);
  };
  return { req, hostReads: () => reads };
}

test.each([
  { patterns: ['GET /a'], method: 'GET', want: { status: 200, body: 'GET /a', hostReads: 0 } },
  { patterns: ['GET /a', 'b.com/a'], method: 'GET', want: { status: 200, body: 'b.com/a', hostReads: 1 } },
])('patterns $patterns, $method b.com:8080/a → $want', async ({ patterns, method, want }) => {
  const mux = new ServeMux();
  for (const p of patterns) mux.handleFunc(p, (req) => new Response(req.pattern));
  const { req, hostReads } = countingRequest('http://a.com/a', { method, headers: { host: 'b.com:8080' } });
  const res = await mux.fetch(req);
  expect({ status: res.status, body: await res.text(), hostReads: hostReads() }).toEqual(want);
});
