// One timed round of load on a server: autocannon in this process, the
// server's CPU time over IPC before and after, so that CPU per request counts
// only the server's own work.

import autocannon from 'autocannon';
import { fail } from './report.ts';
import { HOST, serverCpu, withTimeout, type Server } from './servers.ts';

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

/** What to request, how hard, for how long. */
export interface Load {
  path: string;
  headers?: Record<string, string>;
  seconds: number;
  connections: number;
}

/**
 * Loads `s` with GETs of one path for `seconds`; any error, timeout or non-2xx answer fails the run.
 * @example await loadRound(server, { path: '/hello/world', seconds: 2, connections: 32 })
 */
export async function loadRound(s: Server, load: Load): Promise<Round> {
  const url = `http://${HOST}:${s.port}${load.path}`;
  const cpu0 = await serverCpu(s);
  const self0 = process.cpuUsage();
  const r = await withTimeout(
    autocannon({
      url,
      headers: load.headers,
      connections: load.connections,
      duration: load.seconds,
      pipelining: 1,
    }),
    (load.seconds + 30) * 1000,
    `autocannon on ${s.kind}`,
  );
  const self = process.cpuUsage(self0);
  const cpu = (await serverCpu(s)) - cpu0;
  if (r.errors > 0 || r.timeouts > 0 || r.non2xx > 0) {
    fail(`${s.kind}: ${r.errors} errors, ${r.timeouts} timeouts, ${r.non2xx} non-2xx answers under load`);
  }
  const total = r.requests.total;
  if (!(total > 0)) fail(`${s.kind}: no request completed`);
  return {
    rps: total / r.duration,
    cpuPerReq: cpu / total,
    serverBusy: (cpu / (r.duration * 1e6)) * 100,
    loadBusy: ((self.user + self.system) / (r.duration * 1e6)) * 100,
  };
}
