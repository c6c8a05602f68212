// The parent side of the HTTP benchmarks: server child processes pinned to core 0 (the load generator, this
// process, to core 1), their CPU time and memory over IPC (bench/lib/child.ts), plain requests for the checks, their
// CPU profiles, and time limits on all of it. Servers on other runtimes (`startCommand`: Bun, Deno) print their port
// and have their CPU time read from /proc.
//
//   runServers('bench/sse', 60_000, async () => { const s = await startServer('bench/sse/server.tsx', 'sse', …) })
//   → node --import tsx bench/sse/server.tsx sse   (or build/bench/sse/server.js when this runs compiled)

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { request } from 'node:http';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { ChildMessage, MemoryReport, ParentMessage } from './child.ts';
import { baseRoot, runMain } from './main.ts';

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
  /** Where it writes its CPU profiles when it exits, when it was started with one (`mainThreadProfile` finds it). */
  profileDir?: string;
}

const children: ChildProcess[] = [];

/**
 * Pins this process (the load generator, every thread) to core 1 when `taskset` runs here and there are two cores,
 * says where things run, and returns whether the servers should be pinned (to core 0). Call it after printing
 * `environment()`, which pinning would change.
 * @example const pin = pinLoad(); await startServer(script, kind, { pin })
 */
export function pinLoad(loader = 'autocannon (this process)'): boolean {
  const pin = availableParallelism() >= 2 && spawnSync('taskset', ['-V'], { stdio: 'ignore' }).status === 0;
  if (pin) spawnSync('taskset', ['-a', '-cp', '1', String(process.pid)], { stdio: 'ignore' });
  console.log(
    pin
      ? `servers pinned to core 0 (taskset -c 0), ${loader} to core 1.`
      : 'not pinned (no taskset, or a single core): numbers are less comparable across machines.',
  );
  return pin;
}

/**
 * Runs the main of a benchmark with servers: gives up after `deadlineMs` whatever happens (the servers killed, exit
 * code 1), prints any error with exit code 1, and stops the servers however it ends.
 * @example runServers('bench/soak', 180_000, main)
 */
export function runServers(name: string, deadlineMs: number, main: () => Promise<void>): void {
  setTimeout(() => {
    console.error(`${name}: still running after ${deadlineMs / 1000} s, giving up`);
    for (const c of children) c.kill('SIGTERM');
    process.exit(1);
  }, deadlineMs).unref();
  runMain(main, stopAll);
}

/**
 * Stops the servers and waits for them to exit: closing the IPC channel (or, for `startCommand`'s, stdin) makes them
 * exit; SIGTERM 2 s later.
 */
export async function stopAll(): Promise<void> {
  const running = children.filter((c) => c.exitCode === null && c.signalCode === null);
  const exited = running.map((c) => new Promise((r) => c.once('exit', r)));
  for (const c of running) {
    if (c.connected) c.disconnect();
    c.stdin?.end();
    setTimeout(() => c.exitCode === null && c.signalCode === null && c.kill('SIGTERM'), 2000).unref();
  }
  await Promise.all(exited);
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

// BENCH_CPU_PROF=<dir> (or the profileDir option): every server writes `node --cpu-prof` profiles when it exits,
// into <dir>/<benchmark>-<server>/, one per thread (tsx's loader runs in another); `mainThreadProfile` finds the main
// thread's, and `tsx bench/lib/cpuprofile.ts <file>` sums it up.
function profileDirOf(script: string, kind: string, dir: string | undefined): string | undefined {
  return dir && resolve(dir, `${script.split('/').at(-2)}-${kind.replace(/[^A-Za-z0-9]+/g, '-')}`);
}

/**
 * The newest main-thread profile a server wrote (`CPU.<date>.<time>.<pid>.0.<n>.cpuprofile`), once it has exited.
 * @example mainThreadProfile(server) // → ".../e2e-pagetree/CPU.20261124.141502.4242.0.001.cpuprofile"
 */
export function mainThreadProfile(s: Server): string {
  if (!s.profileDir) throw new Error(`${s.kind} was started without a profile directory`);
  const file = readdirSync(s.profileDir)
    .filter((f) => /\.\d+\.0\.\d+\.cpuprofile$/.test(f))
    .sort()
    .at(-1);
  if (!file) throw new Error(`no main-thread profile in ${s.profileDir}`);
  return join(s.profileDir, file);
}

// Whether this benchmark runs compiled (tsc -p tsconfig.bench.json, node build/bench/…; ROOT is then build/): its servers run
// compiled too, as an app in production does (tsx adds a getter per cross-module call and a defineProperty per
// named closure, ~20% of a router match).
const compiled = __filename.endsWith('.js');

/** How to start a server. */
export interface StartOptions {
  /** Under `taskset -c 0` (pinLoad's answer). */
  pin: boolean;
  nodeArgs?: string[];
  /** Write CPU profiles under this directory (default: $BENCH_CPU_PROF, none if unset). */
  profileDir?: string;
  /** A command that runs the server's, before it (`['valgrind', '--tool=callgrind', …]`). */
  wrap?: string[];
  /** Run the script of another checkout (its build/ when compiled): bench/lib/main.ts's `baseRoot`. */
  root?: string;
  /** The node binary (default: the one running this benchmark), e.g. Node 24 from the npm registry. */
  node?: string;
  /**
   * Run the compiled script (`build/…js`, from tsc -p tsconfig.bench.json) even when this benchmark runs under tsx,
   * as an app in production runs (bench/runtimes: Node beside Bun and Deno).
   */
  compiled?: boolean;
}

/**
 * Starts `node [nodeArgs] [$BENCH_NODE_ARGS] --import tsx <script> <kind>`, or the compiled script from build/ when
 * this benchmark runs compiled, and waits for its port.
 * @example await startServer('bench/e2e/server.tsx', 'fastify', { pin: true })
 */
export async function startServer<TKind extends string>(
  script: string,
  kind: TKind,
  options: StartOptions,
): Promise<Server<TKind>> {
  const built = script.replace(/\.tsx?$/, '.js');
  const run = compiled ? [built] : options.compiled ? [join('build', built)] : ['--import', 'tsx', script];
  const profileDir = profileDirOf(script, kind, options.profileDir ?? process.env.BENCH_CPU_PROF);
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  // BENCH_NODE_ARGS: node flags for every server, e.g. a fixed young generation (bench/README.md, Method).
  const extra = process.env.BENCH_NODE_ARGS?.split(/\s+/).filter(Boolean) ?? [];
  const node = [
    ...(options.wrap ?? []),
    options.node ?? process.execPath,
    ...(options.nodeArgs ?? []),
    ...extra,
    ...profile,
    ...run,
    kind,
  ];
  const [cmd, ...args] = options.pin ? ['taskset', '-c', '0', ...node] : node;
  const child = spawn(cmd!, args, { cwd: options.root ?? ROOT, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  children.push(child);
  const { port, info } = await withTimeout(
    nextMessage(child, 'port'),
    options.wrap ? 120_000 : 30_000,
    `starting ${kind}`,
  );
  return { kind, child, port, info: info ?? {}, profileDir };
}

/**
 * `startServer`, where a kind that ends in `@base` runs the kind before it from $BASE's checkout (main.ts's
 * `baseRoot`), under the name asked for.
 * @example await startServerOrBase('bench/e2e/server.tsx', 'pagetree@base', { pin: true })
 */
export async function startServerOrBase<TKind extends string>(
  script: string,
  kind: TKind,
  options: StartOptions,
): Promise<Server<TKind>> {
  if (!kind.endsWith('@base')) return startServer(script, kind, options);
  const root = baseRoot();
  if (root === undefined) throw new Error(`${kind}: set BASE to another checkout (bench/lib/main.ts's baseRoot)`);
  return { ...(await startServer(script, kind.slice(0, -'@base'.length), { ...options, root })), kind };
}

/**
 * Starts a server that is not a Node child (`command`: its binary and arguments), under `taskset -c 0` when `pin` and
 * after `wrap` when given, and waits for the line `listening on <port>` on its stdout. It has no IPC channel: its CPU
 * time comes from /proc (`serverCpu`), and it should exit when its stdin closes (`stopAll` closes it).
 * @example await startCommand('pagetree on Bun', ['/path/to/bun', 'bench/runtimes/bun.ts', 'pagetree'], { pin })
 */
export async function startCommand<TKind extends string>(
  kind: TKind,
  command: readonly string[],
  options: Pick<StartOptions, 'pin' | 'root' | 'wrap'>,
): Promise<Server<TKind>> {
  const wrapped = [...(options.wrap ?? []), ...command];
  const [cmd, ...args] = options.pin ? ['taskset', '-c', '0', ...wrapped] : wrapped;
  const child = spawn(cmd!, args, { cwd: options.root ?? ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
  children.push(child);
  const port = new Promise<number>((res, rej) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const m = /^listening on (\d+)$/.exec(line);
      if (m) res(Number(m[1]));
      else console.log(`${kind}: ${line}`);
    });
    child.once('exit', (code) => rej(new Error(`${kind} exited (${code}) before printing "listening on <port>"`)));
  });
  return { kind, child, port: await withTimeout(port, options.wrap ? 120_000 : 30_000, `starting ${kind}`), info: {} };
}

/** Clock ticks per second, the unit of /proc's CPU times (getconf CLK_TCK; 100 on Linux). */
let clockTicks: number | undefined;

/**
 * CPU time from /proc/<pid>/stat in µs (10 ms steps): the process's user + system time (every thread), or with
 * `children`, that of its children it has waited for (cutime + cstime: a load generator that has exited).
 * @example procCpu(server.child.pid!) // → 1830000
 */
export function procCpu(pid: number | 'self', children = false): number {
  clockTicks ??= Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // After "pid (comm)": state is field 3; utime, stime, cutime, cstime are fields 14 to 17.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const at = children ? 13 : 11;
  return ((Number(fields[at]) + Number(fields[at + 1])) / clockTicks) * 1e6;
}

function ask(s: Server, msg: ParentMessage): void {
  s.child.send(msg);
}

/** The server's CPU time so far (user + system), in µs: over IPC from a Node child, from /proc for the others. */
export async function serverCpu(s: Server): Promise<number> {
  if (!s.child.connected) return procCpu(s.child.pid!);
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
