// The chaos suite's server: app.tsx's mux served by `serve()` in a child process of its own (chaos.test.ts starts it
// with `node --expose-gc --import tsx`), so that a crash is seen as the process exiting. It watches itself and talks
// to the test over IPC:
//
//   child → test   { note: 'listening', port }
//                  { note: 'fatal', kind: 'unhandledRejection' | 'uncaughtException', error }   then it exits (70), as
//                  node would without the listener
//   test → child   { id, ask: 'reset' }                     → the loop delay histogram and the log counts start again
//                  { id, ask: 'stats', gc }                 → { loopMaxMs, loopP99Ms, loopHeldMs, heapUsed, logged,
//                                                             publishFailures }
//                  { id, ask: 'fetch', route, seed, ms }    → { sent, failures }: mux.fetch traffic (fetch-traffic.ts)
//                  { id, ask: 'check', route }              → { checked: { status, body } }: the route's normal
//                                                             request through mux.fetch
//
// Brokers: memory always; Postgres and Redis at CHAOS_PG_URL and CHAOS_REDIS_URL. Each hub's topic gets a message
// every 25 ms (up to 24 KB: Postgres stores those over 8,000 bytes and sends their id), as an app's writes would.

import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import pg from 'pg';
import { MemoryBroker, type Broker, type Logger } from '../../core/index.ts';
import { PostgresBroker } from '../../core/engines/postgres.ts';
import { RedisBroker } from '../../core/engines/redis.ts';
import { serve } from '../../core/node/index.ts';
import { chaosApp, routes } from './app.tsx';
import type { Failure } from './driver.ts';
import { fetchesUnderWay, fetchTraffic } from './fetch-traffic.ts';
import { Rng } from './rng.ts';
import { watchLoopHeld } from './loop-held.ts';

/** A question of the test. */
export type Ask = { id: number } & (
  | { ask: 'reset' }
  | { ask: 'stats'; gc: boolean }
  | { ask: 'fetch'; route: string; seed: number; ms: number }
  | { ask: 'check'; route: string }
);

/** What the child reports about itself. */
export interface Stats {
  /** The loop's delay in wall time (monitorEventLoopDelay), the machine's other work included. */
  loopMaxMs: number;
  loopP99Ms: number;
  /** The longest the server's own work held the loop (loop-held.ts); null where /proc cannot tell. */
  loopHeldMs: number | null;
  heapUsed: number;
  /** The logger's error lines since the last reset, by their message, counted. */
  logged: Record<string, number>;
  publishFailures: number;
}

/** A normal request's answer: its status (or what went wrong) and the start of its body. */
export interface Checked {
  status: number | string;
  body: string;
}

/** A message of the child: a note of its own, or the answer to an ask (same id). */
export type ChildMessage =
  | { note: 'listening'; port: number }
  | { note: 'fatal'; kind: string; error: string }
  | { id: number; stats: Stats }
  | { id: number; fetched: { sent: number; failures: Failure[] } }
  | { id: number; checked: Checked }
  | { id: number; done: true };

const send = (msg: ChildMessage, then: () => void = () => {}) => process.send!(msg, then);

function fatal(kind: string, err: unknown): void {
  const stack = err instanceof Error ? (err.stack ?? err.message) : String(err);
  const fetches = fetchesUnderWay().map((l) => `\n    mux.fetch under way: ${l.slice(0, 300)}`);
  const error = stack.split('\n').slice(0, 12).join('\n') + fetches.join('');
  send({ note: 'fatal', kind, error }, () => process.exit(70));
  setTimeout(() => process.exit(70), 1000).unref();
}
process.on('uncaughtException', (err) => fatal('uncaughtException', err));
process.on('unhandledRejection', (err) => fatal('unhandledRejection', err));
process.on('disconnect', () => process.exit(0));

const logged: Record<string, number> = {};
const count = (message: string) => (logged[message.slice(0, 160)] = (logged[message.slice(0, 160)] ?? 0) + 1);
const logger: Logger = {
  error: (message, err) => count(`${message} ${err instanceof Error ? err.message : ''}`),
  warn: () => {},
};

const brokers: Record<string, Broker> = { memory: new MemoryBroker() };
if (process.env.CHAOS_PG_URL) {
  const pool = new pg.Pool({ connectionString: process.env.CHAOS_PG_URL, max: 4 });
  pool.on('error', (err) => count(`postgres pool: ${err.message}`));
  brokers.postgres = new PostgresBroker(pool, { onError: (err) => count(`PostgresBroker: ${err}`) });
}
if (process.env.CHAOS_REDIS_URL) {
  const redis = new Redis(process.env.CHAOS_REDIS_URL);
  redis.on('error', (err: Error) => count(`redis: ${err.message}`));
  brokers.redis = new RedisBroker(redis, { onError: (err) => count(`RedisBroker: ${err}`) });
}

// The app's writes: each topic gets a message every 25 ms, one at a time per broker.
let publishFailures = 0;
const rng = new Rng(Number(process.env.CHAOS_SEED_USED ?? 0));
for (const [name, broker] of Object.entries(brokers)) {
  let busy = false;
  setInterval(() => {
    if (busy) return;
    busy = true;
    const data = 'é<b>&'.repeat(rng.size(0, 4000));
    broker
      .publish(`chaos-${name}`, data)
      .catch(() => publishFailures++)
      .finally(() => (busy = false));
  }, 25).unref();
}

const mux = chaosApp({ brokers }, logger);
const loop = monitorEventLoopDelay({ resolution: 10 });
loop.enable();
const held = watchLoopHeld();

serve(mux, {
  logger, // the wrapper is no ServeMux, whose logger serve() would take
  port: 0,
  hostname: '127.0.0.1',
  handleSignals: false,
  onListen: (url) => send({ note: 'listening', port: Number(new URL(url).port) }),
});

async function stats(gc: boolean): Promise<Stats> {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (gc && collect) {
    // Twice, a turn apart: the first queues finalizers whose garbage the second collects.
    collect();
    await new Promise((r) => setImmediate(r));
    collect();
  }
  const ms = (ns: number) => Math.round(ns / 1e4) / 100;
  const heapUsed = process.memoryUsage().heapUsed;
  const loopHeldMs = held.max();
  return { loopMaxMs: ms(loop.max), loopP99Ms: ms(loop.percentile(99)), loopHeldMs, heapUsed, logged, publishFailures };
}

// The route's normal request through mux.fetch, its answer read to the end (the head only of one that stays open).
async function check(name: string): Promise<Checked> {
  const c = routes.find((r) => r.name === name)!.check;
  const headers = c.type ? { 'content-type': c.type } : undefined;
  try {
    const res = await mux.fetch(new Request(`http://127.0.0.1${c.path}`, { method: c.method, headers, body: c.body }));
    if (c.open) await res.body?.cancel();
    return { status: res.status, body: c.open ? '' : (await res.text()).slice(0, 300) };
  } catch (err) {
    return { status: `mux.fetch failed: ${err}`, body: '' };
  }
}

process.on('message', (m: Ask) => {
  const answer = async (): Promise<ChildMessage> => {
    switch (m.ask) {
      case 'reset':
        loop.reset();
        held.reset();
        for (const key of Object.keys(logged)) delete logged[key];
        return { id: m.id, done: true };
      case 'stats':
        return { id: m.id, stats: await stats(m.gc) };
      case 'check':
        return { id: m.id, checked: await check(m.route) };
      case 'fetch': {
        const route = routes.find((r) => r.name === m.route)!;
        return { id: m.id, fetched: await fetchTraffic(mux, route, { seed: m.seed, ms: m.ms, concurrency: 4 }) };
      }
    }
  };
  answer().then(
    (reply) => send(reply),
    (err: unknown) => fatal('the chaos server itself', err),
  );
});
