// Real Postgres and Redis servers for the tests of the engine adapters and of the example on two instances: each
// a throwaway server of Debian's packages (postgresql, redis-server; .ci/run installs them) on a free port of
// 127.0.0.1, its data in a temporary folder, and gone after the tests of the enclosing block.
//
//   const pg = usePostgres();   … pg.url → "postgres://postgres@127.0.0.1:41234/postgres"; await pg.restart()
//   const redis = useRedis();   … redis.url → "redis://127.0.0.1:41235"

import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createConnection, createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A running server: where it listens, and how to stop and start it again on the same port with the same data. */
export interface Service {
  readonly url: string;
  readonly port: number;
  /** Stops the server (a fast shutdown: connections are cut) and starts it again. */
  restart(): Promise<void>;
  stop(): Promise<void>;
  start(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
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

/** A Postgres server (trust authentication, user postgres) for the tests of the enclosing block. */
export function usePostgres(): Service {
  let state: { dir: string; port: number } | undefined;
  const bin = (name: string) => join(postgresBin(), name);
  const pgCtl = (...args: string[]) => {
    const [cmd, argv] = asPostgres(bin('pg_ctl'), ['-D', join(state!.dir, 'data'), ...args]);
    execFileSync(cmd, argv, { stdio: 'pipe' });
  };
  const start = async () => {
    const { dir, port } = state!;
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
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pagetree-pg-'));
    chmodSync(dir, 0o777);
    state = { dir, port: await freePort() };
    const [cmd, argv] = asPostgres(bin('initdb'), ['-D', join(dir, 'data'), '-U', 'postgres', '-A', 'trust']);
    execFileSync(cmd, argv, { stdio: 'pipe' });
    await start();
  }, 60_000);
  afterAll(async () => {
    if (!state) return;
    try {
      await stop();
    } finally {
      rmSync(state.dir, { recursive: true, force: true });
    }
  }, 30_000);
  const current = () => {
    if (!state) throw new Error('usePostgres(): the server is not running yet; read it in a test or hook');
    return state;
  };
  return {
    get url() {
      return `postgres://postgres@127.0.0.1:${current().port}/postgres`;
    },
    get port() {
      return current().port;
    },
    restart: async () => (await stop(), await start()),
    stop,
    start,
  };
}

/** A Redis server (no persistence) for the tests of the enclosing block. */
export function useRedis(): Service {
  let port = 0;
  let child: ChildProcess | undefined;
  const start = async () => {
    const server = existsSync('/usr/bin/redis-server') ? '/usr/bin/redis-server' : 'redis-server';
    const proc = spawn(server, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    proc.once('error', (err) => {
      throw new Error(`redis-server did not start (apt-get install redis-server; .ci/run does): ${err.message}`);
    });
    child = proc;
    await reachable(port, 10_000);
  };
  const stop = async () => {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null) return;
    proc.kill('SIGKILL');
    await once(proc, 'exit');
  };
  beforeAll(async () => {
    port = await freePort();
    await start();
  }, 30_000);
  afterAll(stop);
  return {
    get url() {
      if (port === 0) throw new Error('useRedis(): the server is not running yet; read it in a test or hook');
      return `redis://127.0.0.1:${port}`;
    },
    get port() {
      return port;
    },
    restart: async () => (await stop(), await start()),
    stop,
    start,
  };
}
