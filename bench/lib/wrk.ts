// Load from wrk (C, event loop, far cheaper per request than autocannon, so it keeps a faster server busy): one
// timed round with the server's CPU time before and after (servers.ts's serverCpu) and wrk's own from this
// process's waited-for children (/proc/self/stat), so that CPU per request counts only the server's work.
//
//   wrkRound(server, { path: '/lists/groceries', seconds: 2, connections: 32 })
//   → taskset -c 1 wrk -t1 -c32 -d2s -s <summary.lua> http://127.0.0.1:<port>/lists/groceries
//   → { rps: 61234, cpuPerReq: 15.9 (µs), serverBusy: 97 (%), loadBusy: 88 (%) }

import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Load, Round } from './load.ts';
import { fail } from './report.ts';
import { HOST, procCpu, serverCpu, withTimeout, type Server } from './servers.ts';

/** Where Debian's wrk package puts it; $WRK overrides. */
const WRK = process.env.WRK ?? '/usr/bin/wrk';

// wrk's done() hook prints its summary as one JSON line: exact counts, the duration in µs (its text output rounds).
const summaryLua = `done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('{"requests":%d,"duration":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d}\\n',
    summary.requests, summary.duration, e.connect, e.read, e.write, e.status, e.timeout))
end
`;
let summaryScript: string | undefined;

interface Summary {
  requests: number;
  duration: number;
  connect: number;
  read: number;
  write: number;
  status: number;
  timeout: number;
}

/**
 * Fails unless wrk runs here; returns its version line.
 * @example wrkVersion() // → "wrk 4.1.0 [epoll] Copyright (C) 2012 Will Glozer"
 */
export function wrkVersion(): string {
  const r = spawnSync(WRK, ['-v'], { encoding: 'utf8' });
  const line = `${r.stdout ?? ''}${r.stderr ?? ''}`.split('\n')[0]!.trim();
  if (!line.startsWith('wrk')) fail(`no wrk at ${WRK} (apt-get install wrk, or set WRK): ${r.error?.message ?? line}`);
  return line;
}

/**
 * One timed round of wrk (one thread, `load.connections` keep-alive connections, no pipelining) on `s`, pinned to
 * core 1 when `pin`; any socket error or an answer of 400 and above fails the run.
 * @example await wrkRound(server, { path: '/lists/groceries', headers, seconds: 2, connections: 32 }, true)
 */
export async function wrkRound(s: Server, load: Load, pin: boolean): Promise<Round> {
  if (summaryScript === undefined) {
    summaryScript = join(mkdtempSync(join(tmpdir(), 'bench-wrk-')), 'summary.lua');
    writeFileSync(summaryScript, summaryLua);
  }
  const headers = Object.entries(load.headers ?? {}).flatMap(([k, v]) => ['-H', `${k}: ${v}`]);
  const wrk = [WRK, '-t1', `-c${load.connections}`, `-d${load.seconds}s`, '-s', summaryScript, ...headers];
  const [cmd, ...args] = pin ? ['taskset', '-c', '1', ...wrk] : wrk;
  const cpu0 = await serverCpu(s);
  const self0 = procCpu('self', true);
  const out = await withTimeout(
    new Promise<string>((res, rej) =>
      execFile(cmd!, [...args, `http://${HOST}:${s.port}${load.path ?? '/'}`], (err, stdout, stderr) =>
        err ? rej(new Error(`wrk on ${s.kind} failed: ${err.message}\n${stderr}`)) : res(stdout),
      ),
    ),
    (load.seconds + 30) * 1000,
    `wrk on ${s.kind}`,
  );
  const cpu = (await serverCpu(s)) - cpu0;
  const loadCpu = procCpu('self', true) - self0;
  const line = out.split('\n').find((l) => l.startsWith('{"requests"'));
  if (!line) fail(`${s.kind}: wrk printed no summary:\n${out}`);
  const r = JSON.parse(line) as Summary;
  const errors = r.connect + r.read + r.write + r.timeout;
  if (errors > 0 || r.status > 0) fail(`${s.kind}: ${errors} socket errors, ${r.status} answers ≥ 400 under load`);
  if (!(r.requests > 0)) fail(`${s.kind}: no request completed`);
  const seconds = r.duration / 1e6;
  return {
    rps: r.requests / seconds,
    cpuPerReq: cpu / r.requests,
    serverBusy: (cpu / (seconds * 1e6)) * 100,
    loadBusy: (loadCpu / (seconds * 1e6)) * 100,
  };
}
