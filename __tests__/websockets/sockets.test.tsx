// Issue 44: a socket is a route. A page with message() answers an upgrade request (GET + Upgrade: websocket) by
// running props(req) once and opening a WebSocket whose open/message/close get those props; messages from htmx 4's
// hx-ws and htmx 2's ws extension validate like forms; answers are rendered HTML with regions. Over a real socket
// (serve() and the ws client), as a browser's would be.

import { connect as netConnect } from 'node:net';
import { z } from 'zod';
import { HttpError, id, mount, route, ServeMux, type PageRequest } from '../../core/index.ts';
import { urlFor } from '../support/url-for.ts';
import { parseMessage, type Socket } from '../../core/live/index.ts';
import type { NodeServer } from '../../core/node/index.ts';
import { connect, htmx2, htmx4, listen } from './support.ts';

const Comment = z.object({ text: z.string().trim().min(1, 'Write something') });

const errors: unknown[][] = [];
const logger = { error: (...args: unknown[]) => void errors.push(args), warn: () => {} };

class Room {
  props(req: PageRequest) {
    if (req.pathValue('room') === 'locked') throw new HttpError(404, 'No such room');
    return { room: req.pathValue('room') };
  }

  open(socket: Socket, props: { room: string }) {
    return socket.send(
      <p id={id(this.count)}>
        welcome to <span safe>{props.room}</span>, back: <a href={urlFor(Home)}>home</a>
      </p>,
    );
  }

  async message(socket: Socket, data: string, props: { room: string }) {
    const form = await parseMessage(data, Comment);
    if (data.includes('"boom"')) throw new Error('boom');
    if (data.includes('"reject"')) return Promise.reject(new Error('rejected'));
    if (!form.ok) {
      return socket.send(
        <form id="chat-form">
          <input name="text" value={form.values.text ?? ''} />
          <em safe>{form.errors.text?.[0] ?? form.formErrors[0]}</em>
        </form>,
      );
    }
    return socket.send(<li safe>{`${props.room}: ${form.data.text} (htmx ${socket.htmx})`}</li>, {
      regions: [[this.count, <b>1</b>]],
    });
  }

  count() {
    return <b>0</b>;
  }
}

class Limited {
  socketLimits = { maxMessage: 1024, rate: 5, burst: 5, maxQueued: 64 * 1024 };
  message(socket: Socket, data: string) {
    if (data === 'flood-me') {
      const big = 'x'.repeat(64 * 1024);
      for (let i = 0; i < 400; i++) void socket.send(big);
      return;
    }
    return socket.send(`got ${data.length}`);
  }
}

class Idle {
  socketLimits = { idle: 100 };
  message() {}
}

class Both {
  page() {
    return <p>the page</p>;
  }
  message(socket: Socket) {
    return socket.send('<p>socket</p>');
  }
}

class Echo {
  async serveHTTP(req: Request) {
    return new Response(`echo: ${await req.text()}`);
  }
}

class SlowOpen {
  async open(socket: Socket) {
    await new Promise((r) => setTimeout(r, 50));
    await socket.send('<p>opened</p>');
  }
  message(socket: Socket, data: string) {
    return socket.send(`<p>got ${data}</p>`);
  }
}

class BadRender {
  message(socket: Socket, data: string) {
    const failing = Promise.reject(new Error('a component that rejects'));
    if (data === 'region') return socket.send('<p>main</p>', { regions: [['box', failing]] });
    return socket.send(failing);
  }
}

class Home {
  page() {
    return <p>home</p>;
  }
}

class App {
  home = route('/{$}', Home);
  room = route('/rooms/{room}/live', Room);
  limited = route('/limited', Limited);
  idle = route('/idle', Idle);
  both = route('GET /both', Both);
  echo = route('POST /echo', Echo);
  slow = route('/slow-open', SlowOpen);
  badRender = route('/bad-render', BadRender);
}

let server: NodeServer;
let base: string;
let http: string;

beforeAll(async () => {
  const mux = new ServeMux({ logger });
  mount(mux, App, '/', 'Home');
  ({ server, base, http } = await listen(mux));
});
afterAll(() => server.shutdown({ timeout: 1000 }));
beforeEach(() => (errors.length = 0));

test('open runs with the upgrade request’s props, and id() and urlFor work inside it', async () => {
  const client = await connect(`${base}/rooms/kitchen/live`);
  expect(await client.nth(1)).toBe(
    '<p id="room-count">welcome to <span>kitchen</span>, back: <a href="/">home</a></p>',
  );
  client.ws.close();
});

test.each([
  ['htmx 4 (headers)', htmx4, 4],
  ['htmx 2 (HEADERS)', htmx2, 2],
])('a valid message from %s is answered with the HTML and its regions', async (_, encode, version) => {
  const client = await connect(`${base}/rooms/kitchen/live`);
  client.ws.send(encode({ text: ' milk ' }));
  expect(await client.nth(2)).toBe(
    `<li>kitchen: milk (htmx ${version})</li><div id="room-count" hx-swap-oob="innerHTML"><b>1</b></div>`,
  );
  client.ws.close();
});

test('an invalid message is answered with the form again: its values and the validator’s message', async () => {
  const client = await connect(`${base}/rooms/kitchen/live`);
  client.ws.send(htmx4({ text: '   ' }));
  expect(await client.nth(2)).toBe(
    '<form id="chat-form"><input name="text" value="   "/><em>Write something</em></form>',
  );
  client.ws.send('not json');
  expect(await client.nth(3)).toBe(
    '<form id="chat-form"><input name="text" value=""/><em>The message is not a form (a JSON object).</em></form>',
  );
  client.ws.close();
});

test('an upgrade from another site’s page is refused with 403; the same site’s and a non-browser’s open', async () => {
  await expect(connect(`${base}/rooms/a/live`, { origin: 'http://evil.example' })).rejects.toThrow(
    'Unexpected server response: 403',
  );
  await expect(connect(`${base}/rooms/a/live`, { origin: 'null' })).rejects.toThrow('Unexpected server response: 403');
  const same = await connect(`${base}/rooms/a/live`, { origin: http });
  same.ws.close();
  const none = await connect(`${base}/rooms/a/live`);
  none.ws.close();
});

test('a plain GET of a socket route without page() is 426 with Upgrade: websocket; other methods 405', async () => {
  const plain = await fetch(`${http}/rooms/a/live`);
  expect(plain.status).toBe(426);
  expect(plain.headers.get('upgrade')).toBe('websocket');
  const post = await fetch(`${http}/rooms/a/live`, { method: 'POST' });
  expect(post.status).toBe(405);
  expect(post.headers.get('allow')).toBe('GET, HEAD');
});

test('a socket route with page() shows the page to a plain GET and opens a socket on upgrade', async () => {
  expect(await (await fetch(`${http}/both`)).text()).toBe('<p>the page</p>');
  const client = await connect(`${base}/both`);
  client.ws.send('hi');
  expect(await client.nth(1)).toBe('<p>socket</p>');
  client.ws.close();
});

test('props() refuses an upgrade with its answer, as for any request: the socket never opens', async () => {
  await expect(connect(`${base}/rooms/locked/live`)).rejects.toThrow('Unexpected server response: 404');
});

test('an upgrade to a path no route matches is a 404, and the connection closes', async () => {
  await expect(connect(`${base}/nowhere`)).rejects.toThrow('Unexpected server response: 404');
});

test('messages wait for an async open() to finish, then run one at a time in order', async () => {
  const client = await connect(`${base}/slow-open`);
  for (const n of [1, 2, 3]) client.ws.send(String(n));
  await client.nth(4);
  expect(client.messages).toEqual(['<p>opened</p>', '<p>got 1</p>', '<p>got 2</p>', '<p>got 3</p>']);
  client.ws.close();
});

test('a message larger than maxMessage closes the socket with 1009', async () => {
  const client = await connect(`${base}/limited`);
  client.ws.send('x'.repeat(1000));
  expect(await client.nth(1)).toBe('got 1000');
  client.ws.send('x'.repeat(2000));
  expect((await client.closed).code).toBe(1009);
});

test('a client that floods messages past its burst is closed with 1008, and at most the burst is handled', async () => {
  const client = await connect(`${base}/limited`);
  for (let i = 0; i < 50; i++) client.ws.send('hi');
  expect((await client.closed).code).toBe(1008);
  expect(client.messages.length).toBeLessThanOrEqual(5);
});

test('a client that stops reading is closed with 1013 once maxQueued bytes wait for it', async () => {
  const client = await connect(`${base}/limited`);
  const raw = (client.ws as unknown as { _socket: import('node:net').Socket })._socket;
  raw.pause();
  client.ws.send('flood-me');
  await new Promise((r) => setTimeout(r, 300));
  raw.resume();
  expect((await client.closed).code).toBe(1013);
  expect(client.messages.length).toBeLessThan(400);
});

test('a binary message closes the socket with 1003', async () => {
  const client = await connect(`${base}/limited`);
  client.ws.send(Buffer.from([1, 2, 3]), { binary: true });
  expect((await client.closed).code).toBe(1003);
});

test('a peer that does not answer pings is dropped after the idle time', async () => {
  const client = await connect(`${base}/idle`, { autoPong: false });
  expect((await client.closed).code).toBe(1006);
});

test.each([
  ['throws', 'boom'],
  ['rejects', 'reject'],
])('a message handler that %s is logged once and closes the socket with 1011; the server goes on', async (_, word) => {
  const client = await connect(`${base}/rooms/a/live`);
  client.ws.send(htmx4({ text: word, [word]: true }));
  expect((await client.closed).code).toBe(1011);
  expect(errors).toHaveLength(1);
  expect(String(errors[0]![0])).toContain('App.room (GET /rooms/{room}/live): message() failed');
  const next = await connect(`${base}/rooms/a/live`);
  expect(await next.nth(1)).toContain('welcome');
  next.ws.close();
});

test.each(['main', 'region'])(
  'a send whose %s render rejects is logged and closes the socket with 1011; nothing goes out',
  async (what) => {
    const client = await connect(`${base}/bad-render`);
    client.ws.send(what);
    expect((await client.closed).code).toBe(1011);
    expect(client.messages).toEqual([]);
    expect(errors).toHaveLength(1);
    expect(String(errors[0]![0])).toContain('App.badRender (GET /bad-render): a send failed; closing the socket');
  },
);

// 1012 (service restart), not 1001: htmx 2's ws extension reconnects on 1006, 1011, 1012 and 1013 only, so a page on
// htmx 2 stayed disconnected after a deploy (htmx 4's hx-ws reconnects on both).
test('shutdown-closes-with-1012-so-htmx-2-reconnects', async () => {
  const mux = new ServeMux({ logger });
  mount(mux, App, '/', 'Home');
  const own = await listen(mux);
  const clients = await Promise.all([1, 2, 3].map(() => connect(`${own.base}/rooms/a/live`)));
  await own.server.shutdown({ timeout: 2000 });
  for (const c of clients) expect((await c.closed).code).toBe(1012);
});

test('a socket route under another method than GET is a mount error', () => {
  class Bad {
    bad = route('POST /chat', Room);
  }
  expect(() => mount(new ServeMux(), Bad, '/', 'Bad')).toThrow(
    "mount: Bad.bad: defines message(), a socket route, but its route says POST: a WebSocket opens with GET; write the tag as 'GET /path' or without a method",
  );
});

test('bad socketLimits fail at mount, naming the route', () => {
  class Wrong {
    socketLimits = { maxMessage: -1 };
    message() {}
  }
  class Bad {
    wrong = route('/w', Wrong);
  }
  expect(() => mount(new ServeMux(), Bad, '/', 'Bad')).toThrow(
    'Bad.wrong: socketLimits.maxMessage -1 is not a positive number; give e.g. 65536',
  );
});

test('open, message and close are no components of a socket route: count is, and GET is its pattern', () => {
  const tree = mount(new ServeMux(), App, '/', 'Home');
  const room = tree.root.children.find((n) => n.fieldPath === 'App.room')!;
  expect(room.components.map((c) => c.name)).toEqual(['count']);
  expect(room.patterns).toEqual(['GET /rooms/{room}/live']);
});

// serve() listens for upgrades now; node then hands it every request with an Upgrade header, curl --http2's h2c too.
test('upgrade-h2c-is-served-as-a-plain-request: the body is read and the connection kept alive', async () => {
  const port = Number(new URL(http).port);
  const answer = await new Promise<string>((resolve) => {
    const s = netConnect(port, '127.0.0.1');
    let text = '';
    s.on('data', (d) => {
      text += String(d);
      if (text.includes('echo: hello') && text.includes('0\r\n\r\n')) s.end();
    });
    s.on('close', () => resolve(text));
    s.write(
      'POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\n' +
        'HTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA\r\nContent-Length: 5\r\n\r\nhello',
    );
  });
  expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
  expect(answer).toContain('Connection: keep-alive');
  expect(answer).toContain('echo: hello');
});
