// Real Postgres and Redis servers for the tests of the engine adapters and of the example on two instances (and for
// bench/brokers): each a throwaway server of Debian's packages (postgresql, redis-server; .ci/run installs them) on a
// free port of 127.0.0.1, its data in a temporary folder; with use…(), gone after the tests of the enclosing block.
//
//   const pg = usePostgres();   … pg.url → "postgres://postgres@127.0.0.1:41234/postgres"; await pg.restart()
//   const redis = useRedis();   … redis.url → "redis://127.0.0.1:41235"

import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './package.ts';

/** A running server: where it listens, and how to stop and start it again on the same port with the same data. */
export interface Service {
  readonly url: string;
  readonly port: number;
  /** Stops the server (a fast shutdown: connections are cut) and starts it again. */
  restart(): Promise<void>;
  stop(): Promise<void>;
  start(): Promise<void>;
}

/** Resolves once something accepts TCP connections on `port`, or rejects after `ms`. */
async function reachable(port: number, ms: number): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = createConnection(port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > until) throw new Error(`nothing listens on 127.0.0.1:${port} after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

// Debian keeps each major's binaries in /usr/lib/postgresql/<major>/bin; the newest is taken.
function postgresBin(): string {
  const base = '/usr/lib/postgresql';
  const majors = existsSync(base) ? readdirSync(base).filter((d) => /^\d+$/.test(d)) : [];
  const major = majors.sort((a, b) => Number(b) - Number(a))[0];
  if (major === undefined) {
    throw new Error('no PostgreSQL server in /usr/lib/postgresql: apt-get install postgresql (.ci/run does)');
  }
  return join(base, major, 'bin');
}

// Postgres refuses to run as root: as root, its commands run as the postgres user, who owns the data folder.
function asPostgres(command: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
}

/** A running server that can also be shut down for good. */
export interface OwnedService extends Service {
  /** Stops the server and deletes its data. */
  close(): Promise<void>;
}

/**
 * Starts a Postgres server (trust authentication, user postgres) on a free port, its data in a new temporary folder.
 * @example const pg = await startPostgres(); … pg.url; await pg.close();
 */
export async function startPostgres(): Promise<OwnedService> {
  const dir = mkdtempSync(join(tmpdir(), 'pagetree-pg-'));
  chmodSync(dir, 0o777);
  const port = await freePort();
  const bin = (name: string) => join(postgresBin(), name);
  const pgCtl = (...args: string[]) => {
    const [cmd, argv] = asPostgres(bin('pg_ctl'), ['-D', join(dir, 'data'), ...args]);
    execFileSync(cmd, argv, { stdio: 'pipe' });
  };
  const start = async () => {
    pgCtl(
      '-l',
      join(dir, 'log'),
      '-w',
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
      'start',
    );
    await reachable(port, 10_000);
  };
  const stop = async () => pgCtl('-m', 'fast', '-w', 'stop');
  const [cmd, argv] = asPostgres(bin('initdb'), ['-D', join(dir, 'data'), '-U', 'postgres', '-A', 'trust']);
  execFileSync(cmd, argv, { stdio: 'pipe' });
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    restart: async () => (await stop(), await start()),
    stop,
    start,
    close: async () => {
      try {
        await stop();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/**
 * Starts a Redis server (no persistence) on a free port.
 * @example const redis = await startRedis(); … redis.url; await redis.close();
 */
export async function startRedis(): Promise<OwnedService> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    const server = existsSync('/usr/bin/redis-server') ? '/usr/bin/redis-server' : 'redis-server';
    const proc = spawn(server, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    const failed = new Promise<never>((_, reject) =>
      proc.once('error', (err) =>
        reject(new Error(`redis-server did not start (apt-get install redis-server; .ci/run does): ${err.message}`)),
      ),
    );
    child = proc;
    await Promise.race([reachable(port, 10_000), failed]);
  };
  const stop = async () => {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null) return;
    proc.kill('SIGKILL');
    await once(proc, 'exit');
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    restart: async () => (await stop(), await start()),
    stop,
    start,
    close: stop,
  };
}

// A server for the tests of the enclosing block: started before them, gone after them.
function useService(what: string, startService: () => Promise<OwnedService>): Service {
  let service: OwnedService | undefined;
  beforeAll(async () => {
    service = await startService();
  }, 60_000);
  afterAll(() => service?.close(), 30_000);
  const current = () => {
    if (!service) throw new Error(`${what}(): the server is not running yet; read it in a test or hook`);
    return service;
  };
  return {
    get url() {
      return current().url;
    },
    get port() {
      return current().port;
    },
    restart: () => current().restart(),
    stop: () => current().stop(),
    start: () => current().start(),
  };
}

/** A Postgres server (trust authentication, user postgres) for the tests of the enclosing block. */
export function usePostgres(): Service {
  return useService('usePostgres', startPostgres);
}

/** A Redis server (no persistence) for the tests of the enclosing block. */
export function useRedis(): Service {
  return useService('useRedis', startRedis);
}
