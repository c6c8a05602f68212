// The parent side of the HTTP benchmarks: server child processes pinned to
// core 0 (the load generator, this process, to core 1), their CPU time and
// memory over IPC (bench/lib/child.ts), plain requests for the checks, and
// time limits on all of it.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import type { ChildMessage, MemoryReport, ParentMessage } from './child.ts';

/** Every server binds this address only. */
export const HOST = '127.0.0.1';

const ROOT = resolve(__dirname, '../..');

/** A server child process. */
export interface Server<TKind extends string = string> {
  kind: TKind;
  child: ChildProcess;
  port: number;
  /** What the child sent with its port. */
  info: Record<string, string>;
}

const children: ChildProcess[] = [];

/**
 * An integer setting from the environment, within bounds.
 * @example setting('ROUNDS', 10, 1, 60) // → 10, or $ROUNDS
 */
export function setting(name: string, fallback: number, min = 1, max = 60): number {
  const v = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(v) || v < min || v > max) {
    throw new Error(`${name} must be an integer from ${min} to ${max}, not ${process.env[name]}`);
  }
  return v;
}

/** True when `taskset` runs here and there are two cores to split. */
export function canPin(): boolean {
  return availableParallelism() >= 2 && spawnSync('taskset', ['-V'], { stdio: 'ignore' }).status === 0;
}

/** Pins this process (every thread) to core 1. */
export function pinSelf(): void {
  spawnSync('taskset', ['-a', '-cp', '1', String(process.pid)], { stdio: 'ignore' });
}

/**
 * Pins this process (the load generator) to core 1 when it can, says where things run, and returns whether the
 * servers should be pinned (to core 0). Call it after printing `environment()`, which pinning would change.
 */
export function pinLoad(): boolean {
  const pin = canPin();
  if (pin) pinSelf();
  console.log(
    pin
      ? 'servers pinned to core 0 (taskset -c 0), autocannon (this process) to core 1.'
      : 'not pinned (no taskset, or a single core): numbers are less comparable across machines.',
  );
  return pin;
}

/** Gives up after `ms` whatever happens: kills the servers and exits non-zero. */
export function startDeadline(ms: number, name: string): void {
  setTimeout(() => {
    console.error(`${name}: still running after ${ms / 1000} s, giving up`);
    for (const c of children) c.kill('SIGTERM');
    process.exit(1);
  }, ms).unref();
}

/** Stops the servers: closing the IPC channel makes them exit; SIGTERM for any still there 2 s later. */
export function stopAll(): void {
  for (const c of children) {
    if (c.exitCode !== null || c.signalCode !== null) continue;
    if (c.connected) c.disconnect();
    setTimeout(() => c.exitCode === null && c.signalCode === null && c.kill('SIGTERM'), 2000).unref();
  }
}

/** Rejects with "timed out after … : what" unless `p` settles within `ms`. */
export function withTimeout<T>(p: PromiseLike<T>, ms: number, what: string): Promise<T> {
  return new Promise((res, rej) => {
    const t = setTimeout(() => rej(new Error(`timed out after ${ms} ms: ${what}`)), ms);
    p.then(
      (v) => (clearTimeout(t), res(v)),
      (e: unknown) => (clearTimeout(t), rej(e)),
    );
  });
}

type MessageWith<K extends string> = Extract<ChildMessage, Record<K, unknown>>;

function nextMessage<K extends string>(child: ChildProcess, key: K): Promise<MessageWith<K>> {
  return new Promise((res, rej) => {
    const onMessage = (msg: ChildMessage) => {
      if (key in msg) {
        cleanup();
        res(msg as MessageWith<K>);
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

// BENCH_CPU_PROF=<dir>: every server writes `node --cpu-prof` profiles when it exits, into
// <dir>/<benchmark>-<server>/, one per thread: `CPU.<date>.<time>.<pid>.0.*` is the main
// thread's (tsx's loader runs in another). Read it with `tsx bench/lib/cpuprofile.ts <file>`.
function profileArgs(script: string, kind: string): string[] {
  const dir = process.env.BENCH_CPU_PROF;
  if (!dir) return [];
  const name = `${script.split('/').at(-2)}-${kind.replace(/[^A-Za-z0-9]+/g, '-')}`;
  return ['--cpu-prof', `--cpu-prof-dir=${resolve(dir, name)}`];
}

// Whether this benchmark runs compiled (tsc -p tsconfig.bench.json, node build/bench/…; ROOT is then build/): its servers run
// compiled too, as an app in production does (tsx adds a getter per cross-module call and a defineProperty per
// named closure, ~20% of a router match).
const compiled = __filename.endsWith('.js');

/**
 * Starts `node [nodeArgs] --import tsx <script> <kind>`, or the compiled script from build/ when this benchmark
 * runs compiled (under `taskset -c 0` when `pin`), and waits for its port.
 * @example await startServer('bench/e2e/server.tsx', 'fastify', { pin: true })
 */
export async function startServer<TKind extends string>(
  script: string,
  kind: TKind,
  options: { pin: boolean; nodeArgs?: string[] },
): Promise<Server<TKind>> {
  const run = compiled ? [script.replace(/\.tsx?$/, '.js')] : ['--import', 'tsx', script];
  const node = [process.execPath, ...(options.nodeArgs ?? []), ...profileArgs(script, kind), ...run, kind];
  const [cmd, ...args] = options.pin ? ['taskset', '-c', '0', ...node] : node;
  const child = spawn(cmd!, args, { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  children.push(child);
  const { port, info } = await withTimeout(nextMessage(child, 'port'), 30_000, `starting ${kind}`);
  return { kind, child, port, info: info ?? {} };
}

function ask(s: Server, msg: ParentMessage): void {
  s.child.send(msg);
}

/** The server's CPU time so far (user + system), in µs. */
export async function serverCpu(s: Server): Promise<number> {
  ask(s, { cpu: true });
  return (await withTimeout(nextMessage(s.child, 'cpuMicros'), 5_000, `CPU time of ${s.kind}`)).cpuMicros;
}

/** The server's memory, after a full GC when `gc` (the child needs `--expose-gc`). */
export async function serverMemory(s: Server, gc: boolean): Promise<MemoryReport> {
  ask(s, { memory: true, gc });
  return (await withTimeout(nextMessage(s.child, 'memory'), 10_000, `memory of ${s.kind}`)).memory;
}

/** One request of a check. */
export interface Call {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/** One answer of a check, the body as bytes. */
export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** Sends one request on a fresh connection; fails after 10 s. */
export function send(port: number, call: Call): Promise<Answer> {
  const { method = 'GET', path, headers = {}, body } = call;
  return withTimeout(
    new Promise((res, rej) => {
      const h = body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) };
      const req = request({ host: HOST, port, path, method, headers: h, agent: false }, (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (c: Buffer) => chunks.push(c));
        incoming.on('end', () =>
          res({ status: incoming.statusCode ?? 0, headers: incoming.headers, body: Buffer.concat(chunks) }),
        );
        incoming.on('error', rej);
      });
      req.on('error', rej);
      req.end(body);
    }),
    10_000,
    `${method} ${path} on port ${port}`,
  );
}

/** How the body was framed: "content-length: N" or "transfer-encoding: chunked". */
export function framing(a: Answer): string {
  return a.headers['content-length'] !== undefined
    ? `content-length: ${a.headers['content-length']}`
    : `transfer-encoding: ${a.headers['transfer-encoding']}`;
}
