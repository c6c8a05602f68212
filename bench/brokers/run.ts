// npm run bench:brokers: the example on two instances, A and B, as `npm start` runs them (DATABASE_URL, REDIS_URL),
// on a throwaway Postgres and Redis of Debian's packages. For each broker (Postgres LISTEN/NOTIFY; Redis pub/sub;
// and, as the reference, one instance with the in-memory broker), CHANGES changes (default 1,000) one after another:
// a task added on A through the form's POST, timed until B's dashboard stream (GET /admin/events) has the event
// with the new count. Then STREAMS (default 1,000) more dashboard streams are opened on B and B's resident memory
// (VmRSS from /proc) is read before and after: the memory per 1,000 subscribers.
//
// The servers and the example's processes come from __tests__/support (services.ts, example-process.ts: the same as
// the tests of several instances use), which needs Debian's postgresql and redis-server installed.

import { readFileSync } from 'node:fs';
import { request, type ClientRequest } from 'node:http';
import { cpus } from 'node:os';
import pg from 'pg';
import { startExample } from '../../__tests__/support/example-process.ts';
import { startPostgres, startRedis } from '../../__tests__/support/services.ts';
import { adminCookie, benchAdmin } from '../lib/admin.ts';

const changes = Number(process.env.CHANGES ?? 1000);
const streams = Number(process.env.STREAMS ?? 1000);

/** A dashboard stream: its text so far, and a wait for the count `total`. */
function openDashboard(port: number, cookie: string) {
  let text = '';
  let waiting: { total: number; resolve: () => void } | undefined;
  let req: ClientRequest;
  const opened = new Promise<void>((resolve, reject) => {
    req = request({ host: '127.0.0.1', port, path: '/admin/events', agent: false, headers: { cookie } }, (res) => {
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        if (text === '') resolve();
        text = (text + c).slice(-4096);
        if (waiting && text.includes(`<b class="total">${waiting.total}</b>`)) waiting.resolve();
      });
    });
    req.on('error', reject);
    req.end();
  });
  return {
    opened,
    seen: (total: number) =>
      new Promise<void>((resolve) => {
        if (text.includes(`<b class="total">${total}</b>`)) return resolve();
        waiting = { total, resolve };
      }),
    close: () => req.destroy(),
  };
}

async function addTask(port: number, title: string): Promise<void> {
  const res = await fetch(`http://127.0.0.1:${port}/`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
    body: new URLSearchParams({ title }),
    redirect: 'manual',
  });
  await res.arrayBuffer();
  if (res.status >= 400) throw new Error(`adding a task answered ${res.status}`);
}

const rssKiB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

interface Result {
  broker: string;
  p50: number;
  p99: number;
  max: number;
  perThousand: number;
}

async function measure(broker: string, env: Record<string, string>, twoInstances: boolean): Promise<Result> {
  const withAdmin = { ...env, ADMIN_EMAIL: benchAdmin.email, ADMIN_PASSWORD: benchAdmin.password };
  const a = await startExample(withAdmin);
  const b = twoInstances ? await startExample(withAdmin) : a;
  try {
    const cookie = await adminCookie(a.base);
    const dashboard = openDashboard(b.port, cookie);
    await dashboard.opened;
    // Warm up (and wait until B listens): changes until one arrives.
    let total = 0;
    for (;;) {
      await addTask(a.port, `warm-up ${++total}`);
      const arrived = await Promise.race([dashboard.seen(total).then(() => true), sleep(200).then(() => false)]);
      if (arrived) break;
    }
    const times: number[] = [];
    for (let i = 0; i < changes; i++) {
      const start = performance.now();
      await addTask(a.port, `task ${i}`);
      await dashboard.seen(++total);
      times.push(performance.now() - start);
    }
    times.sort((x, y) => x - y);
    // Memory per subscriber: STREAMS more dashboards on B.
    await sleep(500);
    const before = rssKiB(b.child.pid!);
    const more = Array.from({ length: streams }, () => openDashboard(b.port, cookie));
    await Promise.all(more.map((d) => d.opened));
    await addTask(a.port, 'to every stream');
    await Promise.all(more.map((d) => d.seen(total + 1)));
    await sleep(500);
    const after = rssKiB(b.child.pid!);
    for (const d of [dashboard, ...more]) d.close();
    return {
      broker,
      p50: percentile(times, 0.5),
      p99: percentile(times, 0.99),
      max: times.at(-1)!,
      perThousand: ((after - before) / streams) * 1000,
    };
  } finally {
    for (const instance of new Set([a, b])) await instance.kill();
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

async function main(): Promise<void> {
  const postgres = await startPostgres();
  const redis = await startRedis();
  const admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  const database = async (name: string) => {
    await admin.query(`CREATE DATABASE ${name}`);
    return postgres.url.replace(/\/postgres$/, `/${name}`);
  };
  const results: Result[] = [];
  try {
    results.push(await measure('memory (one instance, SQLite)', { DATABASE_PATH: ':memory:' }, false));
    results.push(await measure('Postgres LISTEN/NOTIFY', { DATABASE_URL: await database('bench_pg') }, true));
    results.push(
      await measure('Redis pub/sub', { DATABASE_URL: await database('bench_redis'), REDIS_URL: redis.url }, true),
    );
  } finally {
    await admin.end();
    await postgres.close();
    await redis.close();
  }
  console.log(
    `bench/brokers: ${new Date().toISOString().slice(0, 10)}, node ${process.version}, nproc ${cpus().length}; ` +
      `${changes} changes one after another, ${streams} more streams`,
  );
  console.log("| broker | change on A → event on B, p50 | p99 | max | B's RSS per 1,000 streams |");
  console.log('| --- | ---: | ---: | ---: | ---: |');
  for (const r of results) {
    const ms = (n: number) => `${n.toFixed(1)} ms`;
    console.log(
      `| ${r.broker} | ${ms(r.p50)} | ${ms(r.p99)} | ${ms(r.max)} | ${(r.perThousand / 1024).toFixed(1)} MiB |`,
    );
  }
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
