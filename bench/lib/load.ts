// Load on a server: autocannon in this process, the server's CPU time over IPC before and after, so that CPU per
// request counts only the server's own work. `runLoad` is any load (one path, or a sequence of requests each
// connection walks again and again); `loadRound` is one timed round of GETs that must all answer 2xx.
//
//   loadRound(server, { path: '/hello/world', seconds: 2, connections: 32 })
//   → { rps: 15926, cpuPerReq: 50.3 (µs), serverBusy: 94 (%), loadBusy: 81 (%) }

import autocannon from 'autocannon';
import { fail } from './report.ts';
import { HOST, serverCpu, withTimeout, type Server } from './servers.ts';

/** What to send, how hard, for how long. */
export interface Load {
  /** The path of every request, or the start of every URL when `requests` is given. */
  path?: string;
  headers?: Record<string, string>;
  /** A sequence each connection sends in order, again and again. */
  requests?: autocannon.Request[];
  seconds: number;
  connections: number;
  /** Seconds to wait for each answer (autocannon's default: 10). */
  timeout?: number;
}

/** What a load measured: autocannon's result, and the CPU time (µs) the server and this process spent meanwhile. */
export interface Measured {
  result: autocannon.Result;
  serverCpu: number;
  loadCpu: number;
}

/**
 * Loads `s` for `load.seconds`, no pipelining, and measures it; fails only if autocannon does not finish.
 * @example await runLoad(server, { requests: mix, seconds: 60, connections: 16 })
 */
export async function runLoad(s: Server, load: Load): Promise<Measured> {
  const cpu0 = await serverCpu(s);
  const self0 = process.cpuUsage();
  const { path = '', seconds, ...rest } = load;
  // Only the options given: autocannon merges them over its defaults with Object.assign, undefined included.
  const options: Partial<autocannon.Options> = Object.fromEntries(
    Object.entries(rest).filter(([, v]) => v !== undefined),
  );
  const result = await withTimeout(
    autocannon({ ...options, url: `http://${HOST}:${s.port}${path}`, duration: seconds, pipelining: 1 }),
    (load.seconds + 30) * 1000,
    `autocannon on ${s.kind}`,
  );
  const self = process.cpuUsage(self0);
  return { result, serverCpu: (await serverCpu(s)) - cpu0, loadCpu: self.user + self.system };
}

/** What one round measured. */
export interface Round {
  rps: number;
  /** Server CPU time per request, in µs. */
  cpuPerReq: number;
  /** Share of one core the server used during the round, in %. */
  serverBusy: number;
  /** Share of one core this process (the load generator) used, in %. */
  loadBusy: number;
}

/**
 * One timed round of `runLoad`; any error, timeout or non-2xx answer fails the run.
 * @example await loadRound(server, { path: '/hello/world', seconds: 2, connections: 32 })
 */
export async function loadRound(s: Server, load: Load): Promise<Round> {
  const { result: r, serverCpu: cpu, loadCpu } = await runLoad(s, load);
  if (r.errors > 0 || r.timeouts > 0 || r.non2xx > 0) {
    fail(`${s.kind}: ${r.errors} errors, ${r.timeouts} timeouts, ${r.non2xx} non-2xx answers under load`);
  }
  const total = r.requests.total;
  if (!(total > 0)) fail(`${s.kind}: no request completed`);
  return {
    rps: total / r.duration,
    cpuPerReq: cpu / total,
    serverBusy: (cpu / (r.duration * 1e6)) * 100,
    loadBusy: (loadCpu / (r.duration * 1e6)) * 100,
  };
}
