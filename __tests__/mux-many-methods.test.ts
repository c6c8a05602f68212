// The routing tree gives each method a bit in a 32-bit mask; past 30 methods they share one. A regression
// test named after what it guards: many-methods-route-and-allow-as-with-few.

import { ServeMux } from '../core/mux/serve-mux.ts';

const methods = Array.from({ length: 40 }, (_, i) => `M${String(i).padStart(2, '0')}`);

function muxOf(): ServeMux {
  const mux = new ServeMux();
  for (const m of methods) mux.handleFunc(`${m} /r/{x}`, () => new Response(m));
  mux.handleFunc('GET /g', () => new Response('g'));
  return mux;
}

describe('many-methods-route-and-allow-as-with-few', () => {
  const mux = muxOf();
  test.each(methods)('%s /r/a routes to its own pattern', async (m) => {
    const res = await mux.fetch(new Request('http://x/r/a', { method: m }));
    expect([res.status, await res.text(), mux.handler(new Request('http://x/r/a', { method: m })).pattern]).toEqual([
      200,
      m,
      `${m} /r/{x}`,
    ]);
  });
  test('a method with no pattern gets a 405 listing all 40', async () => {
    const res = await mux.fetch(new Request('http://x/r/a', { method: 'PUT' }));
    expect([res.status, res.headers.get('allow')]).toEqual([405, [...methods].sort().join(', ')]);
  });
  test('GET after 40 other methods still brings HEAD', async () => {
    const res = await mux.fetch(new Request('http://x/g', { method: 'HEAD' }));
    expect(res.status).toBe(200);
    const res2 = await mux.fetch(new Request('http://x/g', { method: 'POST' }));
    expect([res2.status, res2.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
  });
});
