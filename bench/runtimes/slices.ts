// How bench/runtimes times its servers (issue 43): all of them live together, each loaded by wrk in short slices
// (1 s), the slices interleaved (in each round, slice after slice, every case and every server in turn, the first one
// moving each slice: lib/rounds.ts), and a server's CPU per request estimated by the lower quartile of its slices.
// On this shared 2-core VM noise only ever adds CPU time to a slice (a neighbour's cache misses, a stolen core), so
// the lower quartile is the steadiest estimate of what a request costs; the median moved by ±4–17% between runs.
//
//   sliceRound(server, { path: '/lists/groceries', seconds: 1, connections: 32 }, pin)
//   → taskset -c 1 wrk -t1 -c32 -d1s -s <summary.lua> http://127.0.0.1:<port>/lists/groceries
//   → { requests: 24123, seconds: 1.0, cpu: 812345 }   (cpu: µs, every thread's, /proc/<pid>/task/*/schedstat)
//
// The CPU time is the runtime's own (the binary itself is the child: taskset execs it), summed over its threads'
// schedstat in nanoseconds: /proc/<pid>/stat counts in 10 ms ticks, 1% of a slice.

import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Load } from '../lib/load.ts';
import { fail } from '../lib/report.ts';
import { HOST, withTimeout, type Server } from '../lib/servers.ts';

const WRK = process.env.WRK ?? '/usr/bin/wrk';

// wrk's done() hook prints its summary as one JSON line: exact counts, the duration in µs (its text output rounds).
const summaryLua = `done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('{"requests":%d,"duration":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d}\\n',
    summary.requests, summary.duration, e.connect, e.read, e.write, e.status, e.timeout))
end
`;
let summaryScript: string | undefined;

/** One slice: requests answered, wrk's duration, and the server's CPU time meanwhile (µs). */
export interface Slice {
  requests: number;
  seconds: number;
  cpu: number;
}

/**
 * The CPU time of a process so far in µs, every live thread's, from /proc/<pid>/task/<tid>/schedstat (ns).
 * @example threadsCpu(server.child.pid!) // → 1830412.5
 */
export function threadsCpu(pid: number): number {
  let ns = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // A thread that ended between the listing and the read: its time is gone from both readings alike.
    }
  }
  return ns / 1000;
}

/**
 * One slice of wrk (one thread, `load.connections` keep-alive connections, no pipelining) on `s`, pinned to core 1
 * when `pin`; a socket error or an answer of 400 and above fails the run.
 * @example await sliceRound(server, { path: '/lists/groceries', seconds: 1, connections: 32 }, true)
 */
export async function sliceRound(s: Server, load: Load, pin: boolean): Promise<Slice> {
  if (summaryScript === undefined) {
    summaryScript = join(mkdtempSync(join(tmpdir(), 'bench-slices-')), 'summary.lua');
    writeFileSync(summaryScript, summaryLua);
  }
  const headers = Object.entries(load.headers ?? {}).flatMap(([k, v]) => ['-H', `${k}: ${v}`]);
  const wrk = [WRK, '-t1', `-c${load.connections}`, `-d${load.seconds}s`, '-s', summaryScript, ...headers];
  const [cmd, ...args] = pin ? ['taskset', '-c', '1', ...wrk] : wrk;
  const cpu0 = threadsCpu(s.child.pid!);
  const out = await withTimeout(
    new Promise<string>((res, rej) =>
      execFile(cmd!, [...args, `http://${HOST}:${s.port}${load.path ?? '/'}`], (err, stdout, stderr) =>
        err ? rej(new Error(`wrk on ${s.kind} failed: ${err.message}\n${stderr}`)) : res(stdout),
      ),
    ),
    (load.seconds + 30) * 1000,
    `wrk on ${s.kind}`,
  );
  const cpu = threadsCpu(s.child.pid!) - cpu0;
  const line = out.split('\n').find((l) => l.startsWith('{"requests"'));
  if (!line) fail(`${s.kind}: wrk printed no summary:\n${out}`);
  const r = JSON.parse(line) as Record<string, number>;
  const errors = r.connect! + r.read! + r.write! + r.timeout!;
  if (errors > 0 || r.status! > 0) fail(`${s.kind}: ${errors} socket errors, ${r.status} answers ≥ 400 under load`);
  if (!(r.requests! > 0)) fail(`${s.kind}: no request completed`);
  return { requests: r.requests!, seconds: r.duration! / 1e6, cpu };
}

/**
 * The p-quantile of a non-empty list, interpolated between the two nearest.
 * @example quantile([4, 1, 3, 2], 0.25) // → 1.75
 */
export function quantile(xs: readonly number[], p: number): number {
  if (xs.length === 0) throw new Error('quantile of nothing');
  const s = [...xs].sort((a, b) => a - b);
  const i = (s.length - 1) * p;
  const lo = Math.floor(i);
  return s[lo]! + (s[Math.ceil(i)]! - s[lo]!) * (i - lo);
}
