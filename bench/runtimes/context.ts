// What a request context costs each runtime, in process: the e2e partial answered by the raw fetch handler (apps.ts's
// rawFetch) for a new Request each time, alone, inside AsyncLocalStorage.run with a store made once, and inside it
// with the request as the store (as pagetree's context holds the request); then pagetree's mux.fetch and the same mux
// without mux.fetch's wrapper (apps.ts's directFetch), and Hono.
//
//   <deno> run -A --config bench/runtimes/deno.json bench/runtimes/context.ts
//   <bun> bench/runtimes/context.ts
//   <node 24> --import tsx bench/runtimes/context.ts
//
// Each contender runs in a process of its own (one heap each: in one process, one contender's garbage is collected
// in the next one's time), the processes interleaved over 5 rounds; each times 20,000 requests after 5,000
// uncounted (`fetchAnswer`: what pagetree/bun serves with). Prints µs per request, the medians of the rounds, and
// each over raw's. On Deno 2.9 the request as the store costs ~2 µs where a store made once costs nothing: Deno's
// AsyncLocalStorage keeps each run's store in a WeakMap under a key made for the run, and a young key's value
// outlives one scavenge, so the request and all it holds is copied once by the GC. `--v8-flags=--trace-gc-nvp`
// shows it: `new_space_survived` per request.

import { AsyncLocalStorage } from 'node:async_hooks';
import { spawnSync } from 'node:child_process';
import process from 'node:process';
import { alsFetch, directFetch, honoApp, pagetreeMux, rawFetch } from './apps.ts';
import { fetchAnswer } from '../../core/kernel/fetch.ts';
import { listPath, partialHeaders } from '../e2e/page.tsx';
import { median } from '../lib/report.ts';
import { rotation } from '../lib/rounds.ts';

declare const Deno: { execPath(): string } | undefined;
declare const Bun: unknown;

type Fetch = (req: Request, info?: unknown) => Response | Promise<Response>;

const once = new AsyncLocalStorage<object>();
const made = { made: 'once' };
const mux = pagetreeMux();

const contenders: [string, Fetch][] = [
  ['raw', rawFetch],
  ['raw in run(), a store made once', (req) => once.run(made, rawFetch, req)],
  ['raw in run(), the request as the store', alsFetch()],
  ['hono', honoApp().fetch],
  ['pagetree: mux.fetch', mux.fetch],
  ['pagetree: directFetch', directFetch(mux)],
  ['pagetree: fetchAnswer (pagetree/bun)', fetchAnswer((req) => mux.serveHTTP(req), mux.logger)],
];

const url = `http://127.0.0.1:3000${listPath}`;
const headers = { host: '127.0.0.1:3000', ...partialHeaders };
const info = { remoteAddr: { hostname: '127.0.0.1', port: 40000, transport: 'tcp' } };

async function round(fetch: Fetch, n: number): Promise<number> {
  let length = 0;
  const start = performance.now();
  for (let i = 0; i < n; i++) {
    const res = await fetch(new Request(url, { headers }), info);
    length += (await res.text()).length;
  }
  const us = ((performance.now() - start) * 1000) / n;
  if (length === 0) throw new Error('bench/runtimes/context.ts: empty answers');
  return us;
}

// This script again, in a process of its own, on the runtime running it.
function command(name: string): [string, string[]] {
  const script = process.argv[1]!; // this file, on each of the three runtimes
  if (typeof Deno !== 'undefined') {
    return [Deno.execPath(), ['run', '-A', '--config', 'bench/runtimes/deno.json', script, name]];
  }
  if (typeof Bun !== 'undefined') return [process.execPath, [script, name]];
  return [process.execPath, ['--import', 'tsx', script, name]];
}

function timed(name: string): number {
  const [file, args] = command(name);
  const r = spawnSync(file, args, { encoding: 'utf8' });
  const us = Number(/^([\d.]+) µs$/m.exec(r.stdout ?? '')?.[1]);
  if (r.status !== 0 || !Number.isFinite(us)) throw new Error(`${name}: ${r.error ?? r.stderr}`);
  return us;
}

async function main(): Promise<void> {
  const name = process.argv[2];
  if (name !== undefined) {
    const fetch = contenders.find(([n]) => n === name)?.[1];
    if (!fetch) throw new Error(`bench/runtimes/context.ts: no contender ${JSON.stringify(name)}`);
    await round(fetch, 5_000); // uncounted: the JIT settles
    console.log(`${(await round(fetch, 20_000)).toFixed(2)} µs`);
    return;
  }
  const times: number[][] = contenders.map(() => []);
  for (let r = 0; r < 5; r++) {
    for (const k of rotation(contenders.length, r)) times[k]!.push(timed(contenders[k]![0]));
  }
  const bare = median(times[0]!);
  for (let k = 0; k < contenders.length; k++) {
    const m = median(times[k]!);
    console.log(`${contenders[k]![0].padEnd(40)} ${m.toFixed(2).padStart(6)} µs  +${(m - bare).toFixed(2)} µs`);
  }
}

void main();
