// The test's handle on the chaos server process (server.ts): started with `node --expose-gc --import tsx`, asked
// questions over IPC with a time limit, and watched: its fatal report, its exit, the tail of what it printed.
//
//   const child = await startChild({ CHAOS_PG_URL: pg.url });   child.port → 41234
//   await child.ask({ ask: 'stats', gc: true })                 → { stats: { loopMaxMs: 12.3, heapUsed, … } }
//   child.gone.signal.aborted                                   → true once it exited

import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import type { Ask, ChildMessage } from './server.ts';

type Question = Ask extends infer A ? (A extends { id: number } ? Omit<A, 'id'> : never) : never;

export interface Child {
  readonly port: number;
  readonly process: ChildProcess;
  /** Aborted when the process exits. */
  readonly gone: AbortController;
  /** What it reported before it died (an unhandled rejection, an uncaught exception), if anything. */
  fatal(): { kind: string; error: string } | undefined;
  /** How it exited, for a report: "" while it runs. */
  exit(): string;
  /** The last lines it printed. */
  output(): string;
  /** Asks a question; rejects if there is no answer in `ms` (a loop blocked that long) or the process is gone. */
  ask(question: Question, ms?: number): Promise<ChildMessage>;
  stop(): Promise<void>;
}

const root = join(__dirname, '..', '..');

/**
 * Starts the chaos server with `env` and resolves once it listens.
 * @example const child = await startChild({ CHAOS_REDIS_URL: redis.url })
 */
export async function startChild(env: Record<string, string>): Promise<Child> {
  const proc = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', join(__dirname, 'server.ts')], {
    cwd: root,
    env: { ...process.env, ...env, NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let out = '';
  const keep = (c: Buffer) => (out = (out + c.toString()).slice(-4000));
  proc.stdout!.on('data', keep);
  proc.stderr!.on('data', keep);
  // A send on a channel that just closed: its 'error' would otherwise end the test's own process.
  proc.on('error', (err) => keep(Buffer.from(`\n${err}\n`)));
  const gone = new AbortController();
  let fatal: { kind: string; error: string } | undefined;
  let exit = '';
  let nextId = 1;
  const waiting = new Map<number, (m: ChildMessage) => void>();
  const listening = new Promise<number>((resolve, reject) => {
    proc.on('message', (m: ChildMessage) => {
      if ('note' in m && m.note === 'listening') resolve(m.port);
      else if ('note' in m) fatal = { kind: m.kind, error: m.error };
      else waiting.get(m.id)?.(m);
    });
    proc.once('exit', (code, signal) => {
      exit = signal ? `killed by ${signal}` : `exited with code ${code}`;
      gone.abort();
      reject(new Error(`the chaos server did not start (${exit}):\n${out}`));
    });
  });
  const until = setTimeout(() => proc.kill('SIGKILL'), 30_000);
  const port = await listening.finally(() => clearTimeout(until));
  return {
    port,
    process: proc,
    gone,
    fatal: () => fatal,
    exit: () => exit,
    output: () => out,
    ask(question, ms = 20_000) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        const fail = (why: string) => {
          waiting.delete(id);
          reject(new Error(`the chaos server did not answer ${JSON.stringify(question)}: ${why}`));
        };
        if (gone.signal.aborted) return fail(exit);
        const timer = setTimeout(() => fail(`no answer in ${ms} ms (its event loop blocked?)`), ms);
        const onGone = () => (clearTimeout(timer), fail(exit));
        gone.signal.addEventListener('abort', onGone, { once: true });
        waiting.set(id, (m) => {
          clearTimeout(timer);
          gone.signal.removeEventListener('abort', onGone);
          waiting.delete(id);
          resolve(m);
        });
        proc.send({ ...question, id } as Ask);
      });
    },
    async stop() {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      proc.kill('SIGKILL');
      await once(proc, 'exit');
    },
  };
}
