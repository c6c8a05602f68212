// The example's live comments over raw sockets (the `ws` client): a comment sent on one socket reaches every socket
// of that task, an invalid one answers the form with its error on the sender only, and, on Postgres, a comment sent
// to one instance reaches a socket of another through the Postgres broker, or Redis's.

import { Redis } from 'ioredis';
import pg from 'pg';
import type { Broker } from '../core/live/index.ts';
import { PostgresBroker } from '../core/engines/postgres.ts';
import { RedisBroker } from '../core/engines/redis.ts';
import { createApp } from '../pages-example/app.tsx';
import { PostgresStore } from '../pages-example/store-postgres.ts';
import { connect, htmx4, listen, type Client } from './websockets/support.ts';
import { usePostgres, useRedis } from './support/services.ts';

type Running = Awaited<ReturnType<typeof listen>>;

/** The comments shown by the last message holding the list, as a page would show them. */
function listed(message: string): string[] {
  return [...message.matchAll(/<li>([^<]*)<\/li>/g)].map((m) => m[1]!);
}

/** Waits for a message of `client` holding the comment list with `n` comments; returns their texts. */
async function listOf(client: Client, n: number): Promise<string[]> {
  for (let i = 1; ; i++) {
    const m = await client.nth(i);
    if (m.includes('<ul id="comments"') && listed(m).length === n) return listed(m);
  }
}

describe('the example’s comments on one instance', () => {
  let app: ReturnType<typeof createApp>;
  let running: Running;
  beforeAll(async () => {
    app = createApp({ databasePath: ':memory:' });
    await app.store.addTask('Milk');
    running = await listen(app.mux);
  });
  afterAll(async () => {
    await running.server.shutdown({ timeout: 1000 });
    await app.store.close();
  });

  test('a comment sent on one socket reaches a second socket of the task, escaped', async () => {
    const a = await connect(`${running.base}/tasks/1/comments`);
    const b = await connect(`${running.base}/tasks/1/comments`);
    try {
      expect(listed(await a.nth(1))).toEqual([]);
      expect(listed(await b.nth(1))).toEqual([]);
      a.ws.send(htmx4({ text: '  <b>Buy</b> oat milk ' }));
      expect(await listOf(b, 1)).toEqual(['&lt;b>Buy&lt;/b> oat milk']);
      expect(await listOf(a, 1)).toEqual(['&lt;b>Buy&lt;/b> oat milk']);
      // The sender's form is emptied.
      expect(a.messages.join('')).toMatch(/<div id="comment-fields" hx-swap-oob="innerHTML">.*value=""/s);
    } finally {
      a.ws.close();
      b.ws.close();
    }
  });

  test('an empty comment answers the sender’s form with the error; nothing is stored or sent to the others', async () => {
    const a = await connect(`${running.base}/tasks/1/comments`);
    const b = await connect(`${running.base}/tasks/1/comments`);
    try {
      await a.nth(1);
      await b.nth(1);
      a.ws.send(htmx4({ text: '   ' }));
      const answer = await a.nth(2);
      expect(answer).toContain('Write a comment first');
      expect(answer).not.toContain('<ul id="comments"');
      expect((await app.store.comments(1)).length).toBe(1); // the one of the test above
      // A valid one afterwards reaches b: the invalid one sent b nothing before it.
      a.ws.send(htmx4({ text: 'Second' }));
      expect(listed(await b.nth(2))).toEqual(['&lt;b>Buy&lt;/b> oat milk', 'Second']);
    } finally {
      a.ws.close();
      b.ws.close();
    }
  });

  test('the task’s page shows its comments and connects to their socket; an unknown task refuses the upgrade', async () => {
    const page = await (await fetch(`${running.http}/tasks/1`)).text();
    expect(page).toContain('hx-ws:connect="/tasks/1/comments"');
    expect(page).toContain('<li>Second</li>');
    await expect(connect(`${running.base}/tasks/99/comments`)).rejects.toThrow('404');
  });
});

// Two instances as `npm start` runs them: the tasks and comments in one Postgres database, the broker Postgres's
// (DATABASE_URL) or Redis's (REDIS_URL as well).
describe('the example’s comments on two instances sharing Postgres', () => {
  const postgres = usePostgres();
  const redis = useRedis();
  const closers: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });

  const brokers: { name: string; broker: (pool: pg.Pool) => Broker }[] = [
    { name: 'Postgres', broker: (pool) => new PostgresBroker(pool) },
    {
      name: 'Redis',
      broker: () => {
        const client = new Redis(redis.url);
        closers.push(() => client.quit().catch(() => {}));
        return new RedisBroker(client);
      },
    },
  ];

  test.each(brokers)('a comment sent to one instance reaches a socket of the other, through $name', async (engine) => {
    const pool = new pg.Pool({ connectionString: postgres.url });
    closers.push(() => pool.end());
    await pool.query('DROP TABLE IF EXISTS comments, activity, tasks, users');
    const instances = [];
    for (let i = 0; i < 2; i++) {
      const broker = engine.broker(pool);
      closers.push(() => broker.close());
      const app = createApp({ store: await PostgresStore.connect(pool), broker });
      const running = await listen(app.mux);
      closers.push(() => running.server.shutdown({ timeout: 1000 }));
      instances.push({ app, running });
    }
    const [a, b] = instances as [(typeof instances)[0], (typeof instances)[0]];
    await a.app.store.addTask('Milk');
    const onA = await connect(`${a.running.base}/tasks/1/comments`);
    const onB = await connect(`${b.running.base}/tasks/1/comments`);
    await onA.nth(1);
    await onB.nth(1);
    // B's broker starts listening as its first socket opens: wait until a comment sent to A goes round.
    let seen: string[] = [];
    for (let i = 0; i < 40 && seen.length === 0; i++) {
      onA.ws.send(htmx4({ text: `ping ${i}` }));
      await new Promise((r) => setTimeout(r, 100));
      seen = listed(onB.messages.at(-1) ?? '');
    }
    expect(seen[0]).toMatch(/^ping \d+$/);
    const before = (await b.app.store.comments(1)).length;
    onB.ws.send(htmx4({ text: 'From B' }));
    onA.ws.send(htmx4({ text: 'From A' }));
    // Each socket shows both, whichever instance each was sent to.
    for (const c of [onA, onB]) expect((await listOf(c, before + 2)).slice(-2).sort()).toEqual(['From A', 'From B']);
    onA.ws.close();
    onB.ws.close();
  });
});
