// The scenario of brokers.test.ts's large-message case, run in a child process of its own (node --import tsx) with
// Node's default for an unhandled rejection: two large messages (stored, read back by each listener) where the second's
// read fails while the first's is still pending. The pool under the listening broker is a real pg Pool with the two
// reads held and failed on purpose; the rest is the real database.
//
//   env DATABASE_URL   stdout: {"messages": [...what the subscriber got...], "errors": [...what onError heard...]}

import pg from 'pg';
import { PostgresBroker, type PgPool } from '../../core/engines/postgres.ts';
import type { Broker, BrokerMessage } from '../../core/index.ts';

const url = process.env.DATABASE_URL!;
const topic = `large-${process.pid}`;
const big = (c: string) => c.repeat(9000); // over NOTIFY's 8,000 bytes: stored, and read back

async function main(): Promise<void> {
  const pools = [new pg.Pool({ connectionString: url, max: 4 }), new pg.Pool({ connectionString: url, max: 4 })];
  const [plain, listening] = pools as [pg.Pool, pg.Pool];
  // The listener's reads of stored messages: the first is held until the second has failed (and Node has looked for
  // rejections nobody handles); the second fails as a dropped connection would.
  let reads = 0;
  let releaseFirst: () => void = () => {};
  const held = new Promise<void>((resolve) => (releaseFirst = resolve));
  const faulty: PgPool = {
    query: async (text: string, values?: unknown[]) => {
      if (!text.startsWith('SELECT data FROM')) return listening.query(text, values);
      const n = ++reads;
      if (n === 1) {
        await held;
        return listening.query(text, values);
      }
      if (n === 2) {
        setTimeout(releaseFirst, 20);
        throw new Error('read failed: Connection terminated unexpectedly');
      }
      return listening.query(text, values);
    },
    connect: () => listening.connect(),
  };
  const errors: string[] = [];
  const publisher = new PostgresBroker(plain);
  const subscriber = new PostgresBroker(faulty, { onError: (err) => errors.push(String(err)) });
  const controller = new AbortController();
  const it = subscriber.subscribe(topic, controller.signal)[Symbol.asyncIterator]();
  await listen(publisher, it);

  await publisher.publish(topic, big('a'));
  await publisher.publish(topic, big('b'));
  await publisher.publish(topic, 'small');
  const messages: Partial<BrokerMessage>[] = [];
  for (let i = 0; i < 3; i++) {
    const { value } = await it.next();
    messages.push(value.gap ? { gap: true } : { data: value.data.length > 100 ? `${value.data[0]}×9000` : value.data });
  }
  process.stdout.write(JSON.stringify({ messages, errors }) + '\n');
  controller.abort();
  await Promise.all([publisher.close(), subscriber.close()]);
  await Promise.all(pools.map((p) => p.end()));
}

// Publishes pings until the subscriber hears one (LISTEN is under way when subscribe returns), then drains them.
async function listen(publisher: Broker, it: AsyncIterator<BrokerMessage>): Promise<void> {
  for (let heard = false; !heard;) {
    await publisher.publish(topic, 'ping');
    heard = await Promise.race([
      it.next().then(() => true),
      new Promise<boolean>((r) => setTimeout(() => r(false), 300)),
    ]);
  }
  await publisher.publish(topic, 'synced');
  while ((await it.next()).value.data !== 'synced');
}

// A failure of the scenario itself exits with 2; Node ends the process with 1 on a rejection nobody handled.
main().catch((err: unknown) => {
  console.error(err);
  process.exit(2);
});
