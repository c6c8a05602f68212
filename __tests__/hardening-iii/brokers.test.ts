// Hardening III (issue 40), the brokers, on real servers (support/services.ts):
//   - defect 2: PostgresBroker read a large message eagerly and handled its failure only when its turn came; a read
//     that failed while an earlier one was pending ended the process. The scenario runs in a child process
//     (brokers-scenario.ts) with Node's default for an unhandled rejection, so a test can see the process live.
//   - defect 6: PostgresBroker refused NUL in a topic or data, which MemoryBroker and RedisBroker carry. One rule for
//     all three: any string, carried as UTF-8 text (a lone surrogate, which UTF-8 cannot hold, arrives as U+FFFD).

import { execFile } from 'node:child_process';
import { join } from 'node:path';
import IORedis from 'ioredis';
import pg from 'pg';
import postgresJs from 'postgres';
import { createClient } from 'redis';
import { MemoryBroker, type Broker, type BrokerMessage } from '../../core/index.ts';
import { PostgresBroker } from '../../core/engines/postgres.ts';
import { RedisBroker } from '../../core/engines/redis.ts';
import { usePostgres, useRedis } from '../support/services.ts';

jest.setTimeout(30_000);

const postgres = usePostgres();
const redis = useRedis();

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});
const later = <T>(close: () => Promise<T>) => void closers.push(close);

describe('PostgresBroker: a large message whose read fails while another is pending', () => {
  test('large-read-fails-while-another-pending: the process lives; the first arrives, a gap, then the next; onError hears it', async () => {
    const run = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', join(__dirname, 'brokers-scenario.ts')],
        { cwd: join(__dirname, '..', '..'), env: { ...process.env, DATABASE_URL: postgres.url }, timeout: 25_000 },
        (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
      );
    });
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(run.stdout)).toEqual({
      messages: [{ data: 'a×9000' }, { gap: true }, { data: 'small' }],
      errors: [expect.stringContaining('read failed: Connection terminated unexpectedly')],
    });
  });
});

/** A broker per instance, as each engine makes it. */
const engines: { name: string; broker: () => Broker }[] = [
  {
    name: 'memory',
    broker: (() => {
      const shared = new MemoryBroker(); // one process: publisher and subscriber share it
      return () => shared;
    })(),
  },
  {
    name: 'postgres (pg)',
    broker: () => {
      const pool = new pg.Pool({ connectionString: postgres.url, max: 4 });
      const broker = new PostgresBroker(pool);
      later(() => pool.end());
      later(() => broker.close());
      return broker;
    },
  },
  {
    name: 'postgres (postgres.js)',
    broker: () => {
      const sql = postgresJs(postgres.url, { max: 4, onnotice: () => {} });
      const broker = new PostgresBroker(sql);
      later(() => sql.end({ timeout: 1 }));
      later(() => broker.close());
      return broker;
    },
  },
  {
    name: 'redis (ioredis)',
    broker: () => {
      const client = new IORedis(redis.url);
      const broker = new RedisBroker(client);
      later(() => client.quit());
      later(() => broker.close());
      return broker;
    },
  },
  {
    name: 'redis (node-redis)',
    broker: () => {
      const client = createClient({ url: redis.url });
      void client.connect();
      const broker = new RedisBroker(client);
      later(() => client.close());
      later(() => broker.close());
      return broker;
    },
  },
];

/** The messages of `topic` one by one, each within 5 s. */
function reader(broker: Broker, topic: string): () => Promise<BrokerMessage> {
  const controller = new AbortController();
  later(async () => controller.abort());
  const it = broker.subscribe(topic, controller.signal)[Symbol.asyncIterator]();
  return async () => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no message on ${JSON.stringify(topic)} within 5 s`)), 5000);
    });
    try {
      const r = await Promise.race([it.next(), timeout]);
      if (r.done) throw new Error(`the subscription to ${JSON.stringify(topic)} ended`);
      return r.value;
    } finally {
      clearTimeout(timer);
    }
  };
}

/** Publishes pings until the subscriber hears one, then drains them (LISTEN/SUBSCRIBE is under way). */
async function listening(publisher: Broker, next: () => Promise<BrokerMessage>, topic: string): Promise<void> {
  for (let heard = false, tries = 0; !heard; tries++) {
    if (tries === 50) throw new Error(`the subscriber of ${JSON.stringify(topic)} hears nothing`);
    await publisher.publish(topic, 'ping');
    heard = await Promise.race([
      next().then(
        () => true,
        () => false,
      ),
      new Promise<boolean>((r) => setTimeout(() => r(false), 100)),
    ]);
  }
  await publisher.publish(topic, 'synced');
  while ((await next()).data !== 'synced');
}

describe.each(engines)('one rule for the text of every broker ($name)', (engine) => {
  test.each([
    ['NUL in the data', 'plain', 'a\0b'],
    ['NUL in the topic', 'nul\0topic', 'after a NUL topic'],
    ['NUL in both, a message too big for NOTIFY', 'big\0', '\0' + 'é'.repeat(6000) + '\0'],
    ['NUL and JSON-looking text', 'json', '"\\u0000"\0{"i":1}'],
  ])('broker-text-%s: published, it arrives as it was sent', async (_, topic, data) => {
    const [a, b] = [engine.broker(), engine.broker()];
    const t = `${topic}-${Date.now()}`;
    const next = reader(b, t);
    await listening(a, next, t);
    const id = await a.publish(t, data);
    await a.publish(t, 'next');
    expect(await next()).toEqual({ id, data });
    expect((await next()).data).toBe('next');
  });

  test('broker-text-lone-surrogates: carried as UTF-8 carries them, U+FFFD, in the topic and the data', async () => {
    const [a, b] = [engine.broker(), engine.broker()];
    const t = `lone-\ud800-${Date.now()}`;
    const next = reader(b, t);
    await listening(a, next, t);
    await a.publish(t, 'x\udc00y\ud83d');
    expect((await next()).data).toBe('x\ufffdy\ufffd');
  });
});
