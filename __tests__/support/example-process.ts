// The example as `npm start` runs it, in a child process of its own (pages-example/main.ts through tsx), for the
// tests and benches of several instances: each one can be killed (SIGKILL) as a crashed machine would be.
//
//   const a = await startExample({ DATABASE_URL: url });   a.base → "http://127.0.0.1:41237"; a.kill()

import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { freePort } from './package.ts';

/** The admin account and secret every instance of a test shares (a login on one is valid on the others). */
export const sharedEnv = {
  PAGETREE_SECRET: 'instances-secret-instances-secret-0123',
  ADMIN_EMAIL: 'admin@example.com',
  ADMIN_PASSWORD: 'correct-horse-battery',
};

export interface ExampleProcess {
  readonly port: number;
  readonly base: string;
  readonly child: ChildProcess;
  /** What it printed so far (stdout and stderr). */
  output(): string;
  /** SIGKILL: gone at once, its connections cut, nothing cleaned up. */
  kill(): Promise<void>;
}

const root = join(__dirname, '..', '..');

/**
 * Starts the example on a free port with `env` (and sharedEnv) and resolves once it listens.
 * @example const b = await startExample({ DATABASE_URL: url, REDIS_URL: redis.url, HTMX_VERSION: '2' });
 */
export async function startExample(env: Record<string, string>): Promise<ExampleProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'pages-example/main.ts')], {
    cwd: root,
    env: { ...process.env, ...sharedEnv, ...env, PORT: String(port), NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const until = Date.now() + 30_000;
  while (!out.includes('listening on')) {
    if (child.exitCode !== null || Date.now() > until) {
      child.kill('SIGKILL');
      throw new Error(`the example did not start (exit ${child.exitCode}):\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    port,
    base: `http://127.0.0.1:${port}`,
    child,
    output: () => out,
    kill: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await once(child, 'exit');
    },
  };
}
