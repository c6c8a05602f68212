// End-to-end HTTP throughput on node:http for GET /hello/{name} answering
// ~2 KB of HTML: raw node:http, pagetree (LiteResponse and real Response),
// and Hono on @hono/node-server.
//
//   npm run bench:adapter
//
// Each server runs in its own child process (`node --import tsx
// bench/adapter/server.ts <kind>`) on 127.0.0.1, pinned to core 0 when
// `taskset` exists; autocannon runs in this process, pinned to core 1. The
// servers must first give the same status, content-type and bytes of body
// (nothing is timed otherwise). Then, after a warm-up, the servers take turns
// in rounds (round-robin, a different one first each round), and the table
// gives the median req/s and the server's CPU time per request, with ratios
// to raw node:http from the same run.

import autocannon from 'autocannon';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { environment, fail, formatInt, formatRatio, median, printTable, spreadPercent } from '../lib/report';
import { contentType, helloPage, helloPath } from './page';
import { kinds, type ChildMessage, type Kind } from './server';

// Overridable from the environment, e.g. ROUNDS=3 ROUND_SECONDS=2 npm run bench:adapter for a quick look.
const ROUNDS = setting('ROUNDS', 12);
const ROUND_SECONDS = setting('ROUND_SECONDS', 2);
const WARMUP_SECONDS = setting('WARMUP_SECONDS', 3);
const CONNECTIONS = 32;
const HOST = '127.0.0.1';
/** Past this the run gives up, kills its servers and exits non-zero. */
const DEADLINE_MS = 6 * 60_000;
const ROOT = resolve(__dirname, '../..');

function setting(name: string, fallback: number): number {
  const v = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(v) || v < 1 || v > 60) throw new Error(`${name} must be an integer from 1 to 60, not ${v}`);
  return v;
}

interface Server {
  kind: Kind;
  child: ChildProcess;
  port: number;
}

interface Round {
  rps: number;
  /** Server CPU time per request, in µs. */
  cpuPerReq: number;
  /** Share of one core the server used during the round, in %. */
  serverBusy: number;
  /** Share of one core this process (the load generator) used, in %. */
  loadBusy: number;
}

const children: ChildProcess[] = [];

/** Stops the servers: closing the IPC channel makes them exit; SIGTERM for any still there 2 s later. */
function stopAll(): void {
  for (const c of children) {
    if (c.exitCode !== null || c.signalCode !== null) continue;
    if (c.connected) c.disconnect();
    setTimeout(() => c.exitCode === null && c.signalCode === null && c.kill('SIGTERM'), 2000).unref();
  }
}

/** True when `taskset` runs here and there are two cores to split. */
function canPin(): boolean {
  return availableParallelism() >= 2 && spawnSync('taskset', ['-V'], { stdio: 'ignore' }).status === 0;
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise((res, rej) => {
    const t = setTimeout(() => rej(new Error(`timed out after ${ms} ms: ${what}`)), ms);
    p.then(
      (v) => (clearTimeout(t), res(v)),
      (e: unknown) => (clearTimeout(t), rej(e)),
    );
  });
}

function nextMessage<K extends string>(child: ChildProcess, key: K): Promise<Extract<ChildMessage, Record<K, number>>> {
  return new Promise((res, rej) => {
    const onMessage = (msg: ChildMessage) => {
      if (key in msg) {
        cleanup();
        res(msg as Extract<ChildMessage, Record<K, number>>);
      }
    };
    const onExit = (code: number | null) => {
      cleanup();
      rej(new Error(`server exited (${code}) before sending ${key}`));
    };
    const cleanup = () => {
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

async function start(kind: Kind, pin: boolean): Promise<Server> {
  const node = [process.execPath, '--import', 'tsx', 'bench/adapter/server.ts', kind];
  const [cmd, ...args] = pin ? ['taskset', '-c', '0', ...node] : node;
  const child = spawn(cmd!, args, { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  children.push(child);
  const { port } = await withTimeout(nextMessage(child, 'port'), 30_000, `starting ${kind}`);
  return { kind, child, port };
}

async function serverCpu(s: Server): Promise<number> {
  s.child.send({ cpu: true });
  return (await withTimeout(nextMessage(s.child, 'cpuMicros'), 5_000, `CPU time of ${s.kind}`)).cpuMicros;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function get(port: number, path: string): Promise<Answer> {
  return withTimeout(
    new Promise((res, rej) => {
      const req = request({ host: HOST, port, path, agent: false }, (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (c: Buffer) => chunks.push(c));
        incoming.on('end', () =>
          res({ status: incoming.statusCode ?? 0, headers: incoming.headers, body: Buffer.concat(chunks) }),
        );
        incoming.on('error', rej);
      });
      req.on('error', rej);
      req.end();
    }),
    10_000,
    `GET ${path} on port ${port}`,
  );
}

/** Fails unless every server answers the page with the same status, content-type and bytes. */
async function check(servers: readonly Server[]): Promise<void> {
  const want = Buffer.from(helloPage('world'));
  const rows: string[][] = [];
  for (const s of servers) {
    const a = await get(s.port, helloPath);
    if (a.status !== 200) fail(`${s.kind}: status ${a.status}`);
    if (a.headers['content-type'] !== contentType) fail(`${s.kind}: content-type ${a.headers['content-type']}`);
    if (!a.body.equals(want)) fail(`${s.kind}: the body differs from the expected ${want.length} bytes`);
    const framing = a.headers['content-length']
      ? `content-length: ${a.headers['content-length']}`
      : `transfer-encoding: ${a.headers['transfer-encoding']}`;
    rows.push([s.kind, String(a.status), String(a.headers['content-type']), `${a.body.length} B`, framing]);
  }
  console.log(`check: every server answers GET ${helloPath} with the same status, content-type and body.`);
  printTable(['server', 'status', 'content-type', 'body', 'framing'], rows);
}

async function load(s: Server, seconds: number): Promise<Round> {
  const url = `http://${HOST}:${s.port}${helloPath}`;
  const cpu0 = await serverCpu(s);
  const self0 = process.cpuUsage();
  const r = await withTimeout(
    Promise.resolve(autocannon({ url, connections: CONNECTIONS, duration: seconds, pipelining: 1 })),
    (seconds + 30) * 1000,
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

async function main(): Promise<void> {
  const deadline = setTimeout(() => {
    console.error(`bench/adapter: still running after ${DEADLINE_MS / 1000} s, giving up`);
    for (const c of children) c.kill('SIGTERM');
    process.exit(1);
  }, DEADLINE_MS);
  deadline.unref();

  console.log(`bench/adapter: ${environment()}`); // before pinning, which makes nproc 1
  const pin = canPin();
  if (pin) spawnSync('taskset', ['-a', '-cp', '1', String(process.pid)], { stdio: 'ignore' });
  console.log(
    pin
      ? 'servers pinned to core 0 (taskset -c 0), autocannon (this process) to core 1.'
      : 'not pinned (no taskset, or a single core): numbers are less comparable across machines.',
  );
  console.log(
    `autocannon: ${CONNECTIONS} connections, no pipelining; warm-up ${WARMUP_SECONDS} s per server, ` +
      `then ${ROUNDS} rounds × ${ROUND_SECONDS} s per server, round-robin.`,
  );

  const servers: Server[] = [];
  for (const kind of kinds) servers.push(await start(kind, pin));
  await check(servers);

  for (const s of servers) await load(s, WARMUP_SECONDS);
  const rounds: Round[][] = servers.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (let j = 0; j < servers.length; j++) {
      const k = (round + j) % servers.length;
      const r = await load(servers[k]!, ROUND_SECONDS);
      rounds[k]!.push(r);
      process.stderr.write(`  round ${round + 1}/${ROUNDS} ${servers[k]!.kind}: ${formatInt(r.rps)} req/s\n`);
    }
  }

  const med = (k: number, f: (r: Round) => number) => median(rounds[k]!.map(f));
  // Ratios to node:http within each round (the machine's speed drifts between rounds), then their median.
  const ratio = (k: number, f: (r: Round) => number) => rounds[k]!.map((r, i) => f(r) / f(rounds[0]![i]!));
  console.log(
    `\nGET ${helloPath} (${Buffer.byteLength(helloPage('world'))} B of HTML): medians of ${ROUNDS} rounds ` +
      '(ratios: median of the per-round ratios; spread: half the interquartile range)',
  );
  printTable(
    [
      'server',
      'req/s',
      'spread',
      'vs node:http',
      'server CPU/req',
      'spread',
      'vs node:http',
      'server busy',
      'autocannon busy',
    ],
    servers.map((s, k) => [
      s.kind,
      formatInt(med(k, (r) => r.rps)),
      `±${spreadPercent(rounds[k]!.map((r) => r.rps)).toFixed(1)}%`,
      formatRatio(median(ratio(k, (r) => r.rps))),
      `${med(k, (r) => r.cpuPerReq).toFixed(1)} µs`,
      `±${spreadPercent(rounds[k]!.map((r) => r.cpuPerReq)).toFixed(1)}%`,
      formatRatio(median(ratio(k, (r) => r.cpuPerReq))),
      `${med(k, (r) => r.serverBusy).toFixed(0)}%`,
      `${med(k, (r) => r.loadBusy).toFixed(0)}%`,
    ]),
  );
}

main()
  .catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(stopAll);
