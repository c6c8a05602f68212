// Issue 44: fan-out. A SocketHub renders a change once and hands the same bytes to every socket that follows it; with
// a broker, a message published by one instance reaches the sockets of every instance (two servers, one broker here:
// MemoryBroker; fanout-engines.test.tsx does the same through Postgres and Redis).

import { MemoryBroker, SocketHub, type Socket } from '../../core/live/index.ts';
import { mount, route, ServeMux } from '../../core/index.ts';
import type { NodeServer } from '../../core/node/index.ts';
import { connect, listen, type Client } from './support.ts';

const quiet = { error: () => {}, warn: () => {} };

// One instance of the app: its own hub, following the shared broker's topic.
function instance(broker: MemoryBroker, renders: string[]) {
  const hub = new SocketHub({
    broker,
    topic: 'comments',
    render: (m) => {
      renders.push(m.data);
      return `<li>${m.data}</li>`;
    },
  });
  class Comments {
    open(socket: Socket) {
      socket.subscribe(hub);
      return socket.send('<p>ready</p>');
    }
    async message(_socket: Socket, data: string) {
      await broker.publish('comments', data);
    }
  }
  class App {
    comments = route('/comments', Comments);
  }
  const mux = new ServeMux({ logger: quiet });
  mount(mux, App, '/', 'App');
  return { mux, hub };
}

const servers: NodeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.shutdown({ timeout: 1000 })));
});

async function openMany(url: string, n: number): Promise<Client[]> {
  const clients = await Promise.all(Array.from({ length: n }, () => connect(url)));
  await Promise.all(clients.map((c) => c.nth(1))); // each has subscribed
  return clients;
}

test('one message reaches every socket of the topic, rendered once', async () => {
  const broker = new MemoryBroker();
  const renders: string[] = [];
  const app = instance(broker, renders);
  const { server, base } = await listen(app.mux);
  servers.push(server);
  const clients = await openMany(`${base}/comments`, 20);
  expect(app.hub.size).toBe(20);
  clients[0]!.ws.send('milk');
  const got = await Promise.all(clients.map((c) => c.nth(2)));
  expect(new Set(got)).toEqual(new Set(['<li>milk</li>']));
  expect(renders).toEqual(['milk']);
  for (const c of clients) c.ws.close();
  await Promise.all(clients.map((c) => c.closed));
  await new Promise((r) => setTimeout(r, 50));
  expect(app.hub.size).toBe(0);
  expect(broker.subscribers('comments')).toBe(0); // the hub stopped following once its last socket left
});

test('two instances sharing one broker: a message sent to one reaches the sockets of both, one render each', async () => {
  const broker = new MemoryBroker();
  const renders: string[] = [];
  const a = await listen(instance(broker, renders).mux);
  const b = await listen(instance(broker, renders).mux);
  servers.push(a.server, b.server);
  const onA = await openMany(`${a.base}/comments`, 3);
  const onB = await openMany(`${b.base}/comments`, 3);
  onB[0]!.ws.send('from b');
  for (const c of [...onA, ...onB]) expect(await c.nth(2)).toBe('<li>from b</li>');
  expect(renders).toEqual(['from b', 'from b']);
  for (const c of [...onA, ...onB]) c.ws.close();
});

test('hub.send without a broker renders only when a socket follows, once for all of them', async () => {
  let renders = 0;
  const hub = new SocketHub();
  class Feed {
    open(socket: Socket) {
      socket.subscribe(hub);
      return socket.send('<p>ready</p>');
    }
    message() {}
  }
  class App {
    feed = route('/feed', Feed);
  }
  const mux = new ServeMux({ logger: quiet });
  mount(mux, App, '/', 'App');
  expect(await hub.send(() => `<p>${++renders}</p>`)).toBe(0);
  expect(renders).toBe(0);
  const { server, base } = await listen(mux);
  servers.push(server);
  const clients = await openMany(`${base}/feed`, 5);
  expect(await hub.send(() => `<p>${++renders}</p>`)).toBe(5);
  for (const c of clients) expect(await c.nth(2)).toBe('<p>1</p>');
  hub.close();
  // 1012, which htmx 2's ws extension reconnects on as htmx 4's does (1001 it does not).
  for (const c of clients) expect((await c.closed).code).toBe(1012);
});
