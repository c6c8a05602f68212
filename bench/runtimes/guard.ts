// What the page pipeline's body guard costs a Request the runtime made (mux.fetch on Bun, Deno, workerd), in process:
// a Request built and two of its members read, alone, with the guard as it was released (two methods defined on the
// request, two closures), as it was for a while (the request's prototype switched to one that holds the two, made
// once), and with guardBody as it is (the same two functions assigned to every request).
//
//   <deno> run --config bench/runtimes/deno.json bench/runtimes/guard.ts
//   <bun> bench/runtimes/guard.ts
//   <node 24> bench/runtimes/guard.ts            (Node 23.6+ strips the types itself)
//
// Prints ns per request, medians of 15 interleaved rounds of 100,000, and the guard's cost over the bare request.

import { guardBody } from '../../core/forms/request-body.ts';
import { median } from '../lib/report.ts';
import { interleave } from '../lib/rounds.ts';

function before(req: Request): void {
  const json = req.json;
  Object.defineProperty(req, 'formData', { value: () => Promise.resolve(new FormData()), configurable: true });
  Object.defineProperty(req, 'json', { value: () => json.call(req), configurable: true });
}

// The guard of the last stop: a prototype of the request's own, holding the two reads, made once per prototype.
const prototypes = new WeakMap<object, object>();
function prototyped(req: Request): void {
  const proto = Object.getPrototypeOf(req) as Request;
  let guarded = prototypes.get(proto);
  if (guarded === undefined) {
    const json = proto.json;
    guarded = Object.create(proto, {
      formData: { value: () => Promise.resolve(new FormData()), configurable: true, writable: true },
      json: { value: (r: Request) => json.call(r), configurable: true, writable: true },
    }) as object;
    prototypes.set(proto, guarded).set(guarded, guarded);
  }
  if (guarded !== proto) Object.setPrototypeOf(req, guarded);
}

const contenders: [string, (req: Request) => void][] = [
  ['none', () => {}],
  ['before: two defineProperty', before],
  ['a prototype, made once', prototyped],
  ['guardBody: two assigned', guardBody],
];

let sink = 0;
function round(guard: (req: Request) => void, n: number): number {
  const start = performance.now();
  for (let i = 0; i < n; i++) {
    const req = new Request('http://localhost/lists/groceries', { headers: { 'hx-request': 'true' } });
    guard(req);
    sink += req.method.length + req.headers.get('hx-request')!.length + (typeof req.json === 'function' ? 1 : 0);
  }
  return ((performance.now() - start) * 1e6) / n;
}

async function main(): Promise<void> {
  const times = await interleave(contenders, 15, ([, guard]) => {
    round(guard, 20_000); // uncounted: the JIT settles
    return round(guard, 100_000);
  });
  const bare = median(times[0]!);
  for (let k = 0; k < contenders.length; k++) {
    const m = median(times[k]!);
    console.log(`${contenders[k]![0].padEnd(28)} ${m.toFixed(0).padStart(6)} ns  +${(m - bare).toFixed(0)} ns`);
  }
  if (sink === 0) console.log('');
}

void main();
