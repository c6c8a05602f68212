// What making the one Response of a page's answer costs on each runtime (mux.fetch's last step, toResponse), in
// process: the e2e partial's body and headers, given to the Response's constructor as a Headers (as it was), as a
// plain record (as raw servers write it, and toResponse now), or set on the Response's own Headers after it is made.
// On Deno the last is cheapest here but not in Deno.serve: its Response keeps a native form of what its init gave,
// and reading `res.headers` drops it, so that Deno.serve then sends the headers the slow way (bench/README.md).
//
//   <deno> run --config bench/runtimes/deno.json bench/runtimes/response.ts
//   <bun> bench/runtimes/response.ts
//   <node 24> bench/runtimes/response.ts           (Node 23.6+ strips the types itself)
//
// Prints ns per Response, medians of 15 interleaved rounds of 20,000.

import { liteResponse, toResponse } from '../../core/kernel/answer.ts';
import { median } from '../lib/report.ts';
import { interleave } from '../lib/rounds.ts';

const record: Record<string, string> = {
  'content-type': 'text/html; charset=utf-8',
  vary: 'HX-Request, HX-Target, HX-Request-Type',
};
const body = `<ul class="items">${'<li><a href="/lists/groceries/items/1">groceries item 1 &amp;</a></li>'.repeat(20)}</ul>`;

const contenders: [string, () => Response][] = [
  [
    'before: a Headers to the constructor',
    () => {
      const h = new Headers();
      for (const name in record) h.append(name, record[name]!);
      return new Response(body, { status: 200, headers: h });
    },
  ],
  ['a record to the constructor', () => new Response(body, { status: 200, headers: record })],
  [
    'set after',
    () => {
      const res = new Response(body, { status: 200 });
      for (const name in record) res.headers.set(name, record[name]!);
      return res;
    },
  ],
  ['toResponse (a record)', () => toResponse(liteResponse(200, body, record))],
];

let sink = 0;
function round(make: () => Response, n: number): number {
  const start = performance.now();
  for (let i = 0; i < n; i++) sink += make().status;
  return ((performance.now() - start) * 1e6) / n;
}

const check = toResponse(liteResponse(200, body, record));
if (check.headers.get('content-type') !== record['content-type']) throw new Error('toResponse: wrong content-type');

async function main(): Promise<void> {
  const times = await interleave(contenders, 15, ([, make]) => {
    round(make, 2_000); // uncounted: the JIT settles
    return round(make, 20_000);
  });
  for (let k = 0; k < contenders.length; k++) {
    console.log(`${contenders[k]![0].padEnd(38)} ${median(times[k]!).toFixed(0).padStart(6)} ns`);
  }
  if (sink === 0) console.log('');
}

void main();
