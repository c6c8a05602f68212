// pagetree/postgres and pagetree/redis on real servers (Debian's postgresql and redis-server, started per file by
// support/services.ts): the brokers between two "instances" (two pools or two clients), their ids and order, a
// payload over NOTIFY's limit, a server restart (the subscribers hear a gap, then the messages flow again), and the
// session and throttle stores shared by two instances. Postgres runs with pg and postgres.js, Redis with ioredis,
// iovalkey and node-redis.

import IORedis from 'ioredis';
import IOValkey from 'iovalkey';
import pg from 'pg';
import postgresJs from 'postgres';
import { createClient } from 'redis';
import {
  EventHub,
  LoginThrottle,
  mount,
  route,
  ServeMux,
  session,
  type Broker,
  type BrokerMessage,
  type PageRequest,
  type SessionStore,
} from '../core/index.ts';
import { PostgresBroker, PostgresSessionStore, PostgresThrottleStore } from '../core/engines/postgres.ts';
import {
  RedisBroker,
  RedisSessionStore,
  RedisThrottleStore,
  type NodeRedisClient,
  type RedisClient,
} from '../core/engines/redis.ts';
import { usePostgres, useRedis, type Service } from './support/services.ts';

jest.setTimeout(30_000);

const postgres = usePostgres();
const redis = useRedis();

/** What each engine gives a test: a broker per instance, and the stores. */
interface Engine {
  name: string;
  server: Service;
  /** A broker as a new instance would make it (its own connections). */
  broker(): Broker;
  sessions(): PostgresSessionStore | RedisSessionStore;
  throttle(): PostgresThrottleStore | RedisThrottleStore;
}

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

function pool(): pg.Pool {
  const p = new pg.Pool({ connectionString: postgres.url, max: 4 });
  p.on('error', () => {}); // an idle connection cut by a restart
  closers.push(() => p.end());
  return p;
}

function redisClient(Client: typeof IORedis | typeof IOValkey): RedisClient {
  // Both clients take the same options (iovalkey is a fork of ioredis); a retry every 50 ms for the restart test.
  const client =
    Client === IORedis
      ? new IORedis(redis.url, { retryStrategy: () => 50 })
      : new IOValkey(redis.url, { retryStrategy: () => 50 });
  client.on('error', () => {});
  closers.push(() => client.quit().catch(() => {}));
  return client;
}

/** A node-redis client, connecting (its commands wait until it is). */
function nodeRedisClient(): NodeRedisClient {
  const client = createClient({ url: redis.url, socket: { reconnectStrategy: () => 50 } });
  client.on('error', () => {});
  void client.connect();
  closers.push(() => client.close().catch(() => {}));
  return client;
}

/** A postgres.js `sql`, as a new instance would make it. */
function sql() {
  const client = postgresJs(postgres.url, { max: 4, onnotice: () => {} });
  closers.push(() => client.end({ timeout: 1 }));
  return client;
}

const quiet = { onError: () => {} };
const engines: Engine[] = [
  {
    name: 'postgres (pg)',
    server: postgres,
    broker: () => track(new PostgresBroker(pool(), quiet)),
    sessions: () => new PostgresSessionStore(pool()),
    throttle: () => new PostgresThrottleStore(pool()),
  },
  {
    name: 'postgres (postgres.js)',
    server: postgres,
    broker: () => track(new PostgresBroker(sql(), quiet)),
    sessions: () => new PostgresSessionStore(sql()),
    throttle: () => new PostgresThrottleStore(sql()),
  },
  ...[
    ['redis (ioredis)', IORedis],
    ['redis (iovalkey)', IOValkey],
  ].map(([name, Client]): Engine => ({
    name: name as string,
    server: redis,
    broker: () => track(new RedisBroker(redisClient(Client as typeof IORedis | typeof IOValkey), quiet)),
    sessions: () => new RedisSessionStore(redisClient(Client as typeof IORedis | typeof IOValkey)),
    throttle: () => new RedisThrottleStore(redisClient(Client as typeof IORedis | typeof IOValkey)),
  })),
  {
    name: 'redis (node-redis)',
    server: redis,
    broker: () => track(new RedisBroker(nodeRedisClient(), quiet)),
    sessions: () => new RedisSessionStore(nodeRedisClient()),
    throttle: () => new RedisThrottleStore(nodeRedisClient()),
  },
];

function track<T extends Broker>(broker: T): T {
  closers.push(() => broker.close());
  return broker;
}

/** Reads the messages of a subscription one by one, each within `ms`. */
function reader(broker: Broker, topic: string) {
  const controller = new AbortController();
  closers.push(async () => controller.abort());
  const it = broker.subscribe(topic, controller.signal)[Symbol.asyncIterator]();
  return {
    next: async (ms = 5000): Promise<BrokerMessage> => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no message on ${topic} within ${ms} ms`)), ms);
      });
      try {
        const r = await Promise.race([it.next(), timeout]);
        if (r.done) throw new Error(`the subscription to ${topic} ended`);
        return r.value;
      } finally {
        clearTimeout(timer);
      }
    },
    stop: () => controller.abort(),
  };
}

/** Waits until `broker` listens (a subscription opened just now may not hear a publish made at once). */
async function listening(publisher: Broker, subscriber: ReturnType<typeof reader>, topic: string): Promise<void> {
  for (;;) {
    await publisher.publish(topic, 'ping');
    try {
      if ((await subscriber.next(300)).data === 'ping') break;
    } catch {
      // not yet
    }
  }
  // Drain pings that were in flight.
  await publisher.publish(topic, 'synced');
  while ((await subscriber.next()).data !== 'synced');
}

describe.each(engines)('$name', (engine) => {
  test('a message published on one instance reaches the subscribers of another, in order, with growing ids', async () => {
    const a = engine.broker();
    const b = engine.broker();
    const topic = `tasks-${Date.now()}`;
    const first = reader(b, topic);
    const second = reader(b, topic);
    await listening(a, first, topic);
    while ((await second.next()).data !== 'synced');
    const ids: string[] = [];
    for (const data of ['one', 'two', 'three: with a colon\nand a line', '']) ids.push(await a.publish(topic, data));
    for (const sub of [first, second]) {
      const got = [await sub.next(), await sub.next(), await sub.next(), await sub.next()];
      expect(got).toEqual([
        { id: ids[0], data: 'one' },
        { id: ids[1], data: 'two' },
        { id: ids[2], data: 'three: with a colon\nand a line' },
        { id: ids[3], data: '' },
      ]);
    }
    expect(ids.map(Number)).toEqual([...ids.map(Number)].sort((x, y) => x - y));
    expect(new Set(ids).size).toBe(4);
  });

  test('topics are apart, whatever their characters; a big payload arrives whole', async () => {
    const a = engine.broker();
    const b = engine.broker();
    const odd = `Ünïcode "quoted" ${'long-'.repeat(20)}${Date.now()}`;
    const plain = `plain-${Date.now()}`;
    const oddSub = reader(b, odd);
    const plainSub = reader(b, plain);
    await listening(a, oddSub, odd);
    await listening(a, plainSub, plain);
    const big = 'é'.repeat(6000) + '<b>end</b>'; // 12,010 bytes: over NOTIFY's 8,000
    await a.publish(plain, 'for plain');
    await a.publish(odd, big);
    await a.publish(odd, 'after the big one');
    expect((await plainSub.next()).data).toBe('for plain');
    expect((await oddSub.next()).data).toBe(big);
    expect((await oddSub.next()).data).toBe('after the big one');
  });

  test('after the server restarts, the subscribers get a gap, then the messages again', async () => {
    const a = engine.broker();
    const b = engine.broker();
    const topic = `restart-${Date.now()}`;
    const sub = reader(b, topic);
    await listening(a, sub, topic);
    await engine.server.restart();
    expect(await sub.next(15_000)).toEqual({ id: '', data: '', gap: true });
    // The publishing side reconnects too (its pool's next connection, or the client's retry).
    let id: string | undefined;
    for (let i = 0; id === undefined && i < 100; i++) {
      id = await a.publish(topic, 'after the restart').catch(() => new Promise<undefined>((r) => setTimeout(r, 100)));
    }
    expect(await sub.next()).toEqual({ id, data: 'after the restart' });
  });

  test('a subscription that is stopped hears no more; close() ends the others', async () => {
    const a = engine.broker();
    const b = engine.broker();
    const topic = `stop-${Date.now()}`;
    const stopped = reader(b, topic);
    const kept = reader(b, topic);
    await listening(a, kept, topic);
    stopped.stop();
    await expect(stopped.next(200)).rejects.toThrow(/ended/);
    await a.publish(topic, 'later');
    expect((await kept.next()).data).toBe('later');
    await b.close();
    await expect(kept.next(1000)).rejects.toThrow(/ended/);
    await expect(b.publish(topic)).rejects.toThrow(/after close\(\)/);
  });

  test('an EventHub fed by it renders each message once and sends it with its id', async () => {
    const a = engine.broker();
    const b = engine.broker();
    const topic = `hub-${Date.now()}`;
    let renders = 0;
    const hub = new EventHub({ broker: b, topic, render: (m) => (renders++, `<b>${m.data}</b>`) });
    const controllers = [new AbortController(), new AbortController()];
    const readers = controllers.map((c) => {
      const res = hub.stream(new Request('http://x/events', { signal: c.signal }));
      return res.body!.getReader();
    });
    closers.push(async () => (hub.close(), controllers.forEach((c) => c.abort())));
    const decoder = new TextDecoder();
    const events = async (reader: ReadableStreamDefaultReader<Uint8Array>, until: string) => {
      let text = '';
      while (!text.includes(until)) text += decoder.decode((await reader.read()).value);
      return text;
    };
    // The hub subscribes on its first stream; publish until the first event arrives.
    let id = '';
    const arrived = events(readers[0]!, '<b>hello</b>');
    for (let i = 0; i < 50 && !(await Promise.race([arrived.then(() => true), delay(100)])); i++) {
      id = await a.publish(topic, 'hello');
    }
    const text = await arrived;
    expect(text).toMatch(/id: \d+\ndata: <b>hello<\/b>\n\n/);
    const last = await a.publish(topic, 'again');
    for (const r of readers) expect(await events(r, '<b>again</b>')).toContain(`id: ${last}\ndata: <b>again</b>\n\n`);
    expect(Number(last)).toBeGreaterThan(Number(id));
    expect(renders).toBeLessThanOrEqual(Number(last) - Number(id) + 2); // once per message, not per stream
  });

  test('sessions: one instance writes, another reads; delete ends it everywhere; expiry', async () => {
    const a = engine.sessions();
    const b = engine.sessions();
    const id = `s-${Date.now()}`;
    await a.set(id, { email: 'ada@example.com', n: 1 }, 60);
    expect(await b.get(id)).toEqual({ email: 'ada@example.com', n: 1 });
    await b.set(id, { email: 'ada@example.com', n: 2 }, 60);
    expect(await a.get(id)).toEqual({ email: 'ada@example.com', n: 2 });
    await a.delete(id);
    expect(await b.get(id)).toBeUndefined();
    await a.set(`${id}-short`, { n: 3 }, 1);
    await delay(2100);
    expect(await b.get(`${id}-short`)).toBeUndefined();
    expect(await b.get('never-set')).toBeUndefined();
  });

  test('sessions through mount: logged in on one instance, the session holds on the other; a logout there ends every copy', async () => {
    const [a, b] = [sessionApp(engine.sessions()), sessionApp(engine.sessions())];
    const cookie = await call(a, 'POST', '/login?user=ada');
    expect(cookie).toMatch(/^pagetree-session=v1\./);
    expect(await call(b, 'GET', '/me', cookie)).toBe('ada');
    const stolen = cookie;
    await call(b, 'POST', '/logout', cookie);
    expect(await call(a, 'GET', '/me', stolen)).toBe('nobody');
  });

  test('throttle: two instances count in one place; a burst across both lets exactly five tries through', async () => {
    const store = [engine.throttle(), engine.throttle()];
    const throttles = store.map((s) => new LoginThrottle({ store: s, perAddress: 1000 }));
    const who = `ada-${Date.now()}@example.com`;
    const waits = await Promise.all(
      Array.from({ length: 20 }, (_, i) => throttles[i % 2]!.attempt(who, `10.1.${Date.now() % 250}.1`)),
    );
    expect(waits.filter((w) => w === 0)).toHaveLength(5);
    for (const w of waits.filter((w) => w > 0)) expect(w).toBeGreaterThan(890);
    await throttles[1]!.succeeded(who);
    expect(await throttles[0]!.attempt(who)).toBe(0);
    // A short window starts again after it ends.
    const quick = new LoginThrottle({ store: store[0], perAccount: 1, window: 1 });
    const other = `bo-${Date.now()}`;
    expect(await quick.attempt(other)).toBe(0);
    expect(await quick.attempt(other)).toBe(1);
    await delay(1100);
    expect(await quick.attempt(other)).toBe(0);
  });
});

test('postgres: publish rejects while the server is down; subscribers made then hear a gap once it is up', async () => {
  const a = track(new PostgresBroker(pool(), quiet));
  const b = track(new PostgresBroker(pool(), quiet));
  const topic = `down-${Date.now()}`;
  await a.publish(topic, 'schema made'); // the tables exist before the server goes
  await postgres.stop();
  try {
    const sub = reader(b, topic);
    await expect(a.publish(topic, 'lost')).rejects.toThrow();
    await postgres.start();
    expect(await sub.next(15_000)).toEqual({ id: '', data: '', gap: true });
    const id = await a.publish(topic, 'after');
    expect(await sub.next()).toEqual({ id, data: 'after' });
  } finally {
    await postgres.start().catch(() => {}); // running again for the next test, whatever happened
  }
});

/** An instance of a small app whose sessions are kept in `store`: /login?user=… , /me, /logout. */
function sessionApp(store: SessionStore): ServeMux {
  class Me {
    async props() {
      return new Response(String((await session()).data.email ?? 'nobody'));
    }
  }
  class Login {
    async post(req: PageRequest) {
      const s = await session();
      await s.regenerate();
      await s.set({ email: new URL(req.url).searchParams.get('user')! });
      return new Response('ok');
    }
  }
  class Logout {
    async post() {
      await (await session()).destroy();
      return new Response('bye');
    }
  }
  class App {
    me = route('/me', Me);
    login = route('/login', Login);
    logout = route('/logout', Logout);
  }
  const mux = new ServeMux();
  mount(mux, App, '/', 'App', { secret: 'engines-secret-of-at-least-32-characters', session: { store } });
  return mux;
}

/** The answer's body, or for a POST the session cookie it set (name=value), else the body. */
async function call(mux: ServeMux, method: string, path: string, cookie?: string): Promise<string> {
  const headers: Record<string, string> = { 'sec-fetch-site': 'same-origin', ...(cookie ? { cookie } : {}) };
  const res = await mux.fetch(new Request('http://localhost' + path, { method, headers }));
  const set = res.headers.getSetCookie()[0]?.split(';')[0];
  const body = await res.text();
  return method === 'POST' && set ? set : body;
}

test('a table name that is not a plain identifier is refused with the fix', () => {
  const fake = { query: async () => ({ rows: [], rowCount: 0 }), connect: async () => ({}) as never };
  expect(() => new PostgresSessionStore(fake, { table: 'sessions; DROP TABLE users' })).toThrow(
    'PostgresSessionStore: the table name "sessions; DROP TABLE users" must be lowercase letters, digits and _',
  );
});

function delay(ms: number): Promise<false> {
  return new Promise((r) => setTimeout(() => r(false), ms));
}
