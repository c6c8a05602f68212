// Issue 44: sockets of two instances fed through Postgres (LISTEN/NOTIFY) and through Redis (pub/sub): each instance
// has its own broker connection, as two processes would; a comment sent to a socket of one reaches the sockets of
// both, rendered once per instance. Postgres and Redis are started as engines.test.ts starts them.

import { Redis } from 'ioredis';
import pg from 'pg';
import { PostgresBroker } from '../../core/engines/postgres.ts';
import { RedisBroker } from '../../core/engines/redis.ts';
import { mount, route, ServeMux } from '../../core/index.ts';
import { SocketHub, type Broker, type Socket } from '../../core/live/index.ts';
import type { NodeServer } from '../../core/node/index.ts';
import { usePostgres, useRedis } from '../support/services.ts';
import { connect, listen, type Client } from './support.ts';

const postgres = usePostgres();
const redis = useRedis();
const quiet = { error: () => {}, warn: () => {} };
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

function instance(broker: Broker, renders: string[]) {
  const hub = new SocketHub({
    broker,
    topic: 'ws-comments',
    render: (m) => (renders.push(m.data), `<li>${m.data}</li>`),
  });
  class Comments {
    open(socket: Socket) {
      socket.subscribe(hub);
      return socket.send('<p>ready</p>');
    }
    async message(_socket: Socket, data: string) {
      await broker.publish('ws-comments', data);
    }
  }
  class App {
    comments = route('/comments', Comments);
  }
  const mux = new ServeMux({ logger: quiet });
  mount(mux, App, '/', 'App');
  return mux;
}

async function serveIt(broker: Broker, renders: string[]): Promise<string> {
  const { server, base } = await listen(instance(broker, renders));
  closers.push(() => (server as NodeServer).shutdown({ timeout: 500 }));
  return base;
}

const engines: { name: string; broker: () => Broker }[] = [
  {
    name: 'Postgres',
    broker: () => {
      const pool = new pg.Pool({ connectionString: postgres.url, max: 2 });
      pool.on('error', () => {});
      const broker = new PostgresBroker(pool, { onError: () => {} });
      closers.push(() => pool.end());
      closers.push(() => broker.close());
      return broker;
    },
  },
  {
    name: 'Redis',
    broker: () => {
      const client = new Redis(redis.url);
      client.on('error', () => {});
      const broker = new RedisBroker(client, { onError: () => {} });
      closers.push(() => client.quit().catch(() => {}));
      closers.push(() => broker.close());
      return broker;
    },
  },
];

test.each(engines)('two instances through $name: a message reaches the sockets of both', async ({ broker }) => {
  const renders: string[] = [];
  const a = await serveIt(broker(), renders);
  const b = await serveIt(broker(), renders);
  const clients: Client[] = [];
  for (const base of [a, a, b, b]) clients.push(await connect(`${base}/comments`));
  await Promise.all(clients.map((c) => c.nth(1)));
  // The brokers subscribe as the first socket follows their hub: wait until a message goes round.
  let got = '';
  for (let i = 0; i < 40 && !got; i++) {
    clients[0]!.ws.send(`ping ${i}`);
    got = await Promise.race([clients[3]!.nth(2), new Promise<string>((r) => setTimeout(() => r(''), 100))]);
  }
  expect(got).toMatch(/^<li>ping \d+<\/li>$/);
  // Pings still in flight arrive first: what counts is that "from b" reaches every socket, rendered once per instance.
  await new Promise((r) => setTimeout(r, 300));
  renders.length = 0;
  clients[3]!.ws.send('from b');
  for (const c of clients) {
    for (let n = c.messages.length + 1; !c.messages.includes('<li>from b</li>'); n++) await c.nth(n);
  }
  expect(renders).toEqual(['from b', 'from b']);
  for (const c of clients) c.ws.close();
});
