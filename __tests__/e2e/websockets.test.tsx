// WebSockets (issue 44) in Chromium with the real extensions: htmx 4's hx-ws (htmx.org/dist/ext/hx-ws.js) and
// htmx 2's ws (the htmx-ext-ws package). One chat page written for both, as docs/websockets.md says to:
//
//   <div hx-ws:connect="/rooms/r/live" hx-target="#messages" hx-swap="outerHTML">  (htmx 2: hx-ext="ws" ws-connect)
//     <p id="status"></p> <ul id="messages"></ul> <b id="count"></b>
//     <form id="chat-form" hx-ws:send>…</form>                                      (htmx 2: ws-send)
//
// The main HTML of each message is <ul id="messages">, which htmx 4 swaps into the hx-target and htmx 2 by its id;
// everything else goes in regions, which both swap by id. Each test asserts on what the page shows:
//   open() output · a valid and an invalid form · several regions · a server restart · two instances.

import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { z } from 'zod';
import { mount, route, ServeMux, type PageRequest } from '../../core/index.ts';
import { MemoryBroker, parseMessage, SocketHub, type Broker, type Socket } from '../../core/live/index.ts';
import { serve, type NodeServer } from '../../core/node/index.ts';
import { poll, useChromium } from '../support/chromium.ts';

jest.setTimeout(60_000);

const scripts: Record<string, string> = {
  '/htmx.js?v=4': readFileSync(require.resolve('htmx.org/dist/htmx.min.js'), 'utf8'),
  '/ext.js?v=4': readFileSync(require.resolve('htmx.org/dist/ext/hx-ws.js'), 'utf8'),
  '/htmx.js?v=2': readFileSync(require.resolve('htmx2/dist/htmx.min.js'), 'utf8'),
  '/ext.js?v=2': readFileSync(require.resolve('htmx-ext-ws/dist/ws.js'), 'utf8'),
};

const Chat = z.object({ text: z.string().trim().min(1, 'Write something') });

/** What every instance shares: the chat's messages (a database) and the broker. */
interface Shared {
  readonly broker: Broker;
  readonly messages: Map<string, string[]>;
}

// One instance of the app: its own hubs (as each process has its own), the shared store and broker.
function instance(name: string, shared: Shared): ServeMux {
  const hubs = new Map<string, SocketHub>();
  const list = (room: string) => shared.messages.get(room) ?? [];
  const messageList = (room: string) => (
    <ul id="messages">
      {list(room).map((text) => (
        <li safe>{text}</li>
      ))}
    </ul>
  );
  const hubOf = (room: string) => {
    let hub = hubs.get(room);
    if (!hub) {
      hub = new SocketHub({ broker: shared.broker, topic: `chat:${room}`, render: () => messageList(room) });
      hubs.set(room, hub);
    }
    return hub;
  };
  const formFields = (value: string, error?: string) => (
    <>
      <input name="text" value={value} />
      <button>Send</button>
      {error ? <em safe>{error}</em> : ''}
    </>
  );

  type Props = { room: string };

  class Room {
    props(req: PageRequest): Props {
      return { room: req.pathValue('room') };
    }

    open(socket: Socket, props: Props) {
      socket.subscribe(hubOf(props.room));
      return socket.send(messageList(props.room), {
        regions: [['status', <span safe>{`connected to ${name}`}</span>]],
      });
    }

    async message(socket: Socket, data: string, props: Props) {
      const form = await parseMessage(data, Chat);
      if (!form.ok) {
        return socket.send('', { regions: [['chat-form', formFields(form.values.text ?? '', form.errors.text?.[0])]] });
      }
      shared.messages.set(props.room, [...list(props.room), `${form.data.text} (htmx ${socket.htmx})`]);
      // Every instance's hub (this one's too) renders the list once for its sockets.
      await shared.broker.publish(`chat:${props.room}`);
      return socket.send(messageList(props.room), {
        regions: [
          ['count', <span safe>{`${list(props.room).length} sent`}</span>],
          ['chat-form', formFields('')],
          ['status', <span safe>{`${name} got it`}</span>],
        ],
      });
    }
  }

  class Home {
    props(req: PageRequest) {
      return { room: req.pathValue('room'), htmx: new URL(req.url).searchParams.get('htmx') === '2' ? '2' : '4' };
    }
    page(props: { room: string; htmx: string }) {
      const url = `/rooms/${props.room}/live`;
      const connect =
        props.htmx === '2'
          ? { 'hx-ext': 'ws', 'ws-connect': url }
          : ({ 'hx-ws:connect': url, 'hx-target': '#messages', 'hx-swap': 'outerHTML' } as const);
      const send = props.htmx === '2' ? { 'ws-send': '' } : { 'hx-ws:send': '' };
      const body = (
        <div {...connect}>
          <p id="status"></p>
          <ul id="messages"></ul>
          <b id="count"></b>
          <form id="chat-form" {...send}>
            {formFields('')}
          </form>
        </div>
      );
      return (
        '<!doctype html>' +
        (
          <html>
            <head>
              <script src={`/htmx.js?v=${props.htmx}`}></script>
              <script src={`/ext.js?v=${props.htmx}`}></script>
            </head>
            <body>{body}</body>
          </html>
        )
      );
    }
  }

  class App {
    home = route('GET /rooms/{room}/{$}', Home);
    room = route('/rooms/{room}/live', Room);
  }

  const mux = new ServeMux();
  mount(mux, App);
  mux.handleFunc('GET /htmx.js', (req) => script(req));
  mux.handleFunc('GET /ext.js', (req) => script(req));
  return mux;
}

function script(req: Request): Response {
  const url = new URL(req.url);
  return new Response(scripts[url.pathname + url.search], { headers: { 'content-type': 'text/javascript' } });
}

/** serve() on 127.0.0.1 (on `port`, or a free one). */
async function start(mux: ServeMux, port = 0): Promise<{ server: NodeServer; base: string; port: number }> {
  const server = serve(mux, { port, hostname: '127.0.0.1', handleSignals: false, onListen: () => {} });
  await once(server, 'listening');
  const bound = (server.address() as AddressInfo).port;
  return { server, base: `http://127.0.0.1:${bound}`, port: bound };
}

const chromium = useChromium();
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

let rooms = 0;
function shared(): Shared {
  return { broker: new MemoryBroker(), messages: new Map() };
}

async function openPage(url: string): Promise<Page> {
  const page = await chromium.browser.newPage();
  cleanups.push(() => page.close());
  await page.goto(url);
  return page;
}

const text = (page: Page, selector: string) => page.locator(selector).innerText();
/** Waits (bounded) until `selector` shows `want`; returns what it shows. */
const shows = (page: Page, selector: string, want: string, ms = 5000) =>
  poll(
    () => text(page, selector),
    (t) => t === want,
    ms,
  );

async function say(page: Page, words: string): Promise<void> {
  await page.fill('#chat-form input[name=text]', words);
  await page.click('#chat-form button');
}

describe.each(['4', '2'])('htmx %s with its WebSocket extension', (htmx) => {
  test('connects and shows what open() sends', async () => {
    const app = await start(instance('one', shared()));
    cleanups.push(() => app.server.shutdown({ timeout: 1000 }));
    const page = await openPage(`${app.base}/rooms/r${++rooms}/?htmx=${htmx}`);
    expect(await shows(page, '#status', 'connected to one')).toBe('connected to one');
    expect(await page.locator('#messages').count()).toBe(1);
  });

  test('a valid form updates the page; an invalid one shows its error in the form', async () => {
    const app = await start(instance('one', shared()));
    cleanups.push(() => app.server.shutdown({ timeout: 1000 }));
    const page = await openPage(`${app.base}/rooms/r${++rooms}/?htmx=${htmx}`);
    await shows(page, '#status', 'connected to one');

    await say(page, '   ');
    expect(await shows(page, '#chat-form em', 'Write something')).toBe('Write something');
    expect(await text(page, '#messages')).toBe('');

    await say(page, 'hello');
    expect(await shows(page, '#messages', `hello (htmx ${htmx})`)).toBe(`hello (htmx ${htmx})`);
    expect(await page.locator('#chat-form em').count()).toBe(0); // the form was drawn again, without the error
    expect(await page.inputValue('#chat-form input[name=text]')).toBe('');
  });

  test('several regions in one message are all swapped', async () => {
    const app = await start(instance('one', shared()));
    cleanups.push(() => app.server.shutdown({ timeout: 1000 }));
    const page = await openPage(`${app.base}/rooms/r${++rooms}/?htmx=${htmx}`);
    await shows(page, '#status', 'connected to one');
    await say(page, 'first');
    await shows(page, '#status', 'one got it');
    await say(page, 'second');
    const seen = await poll(
      async () => ({
        messages: await text(page, '#messages'),
        count: await text(page, '#count'),
        status: await text(page, '#status'),
        input: await page.inputValue('#chat-form input[name=text]'),
      }),
      (s) => s.count === '2 sent',
    );
    expect(seen).toEqual({
      messages: `first (htmx ${htmx})\nsecond (htmx ${htmx})`,
      count: '2 sent',
      status: 'one got it',
      input: '',
    });
    // Swapped in place: one of each, and the form still sends over the socket.
    expect(await page.locator('#count, #status, #messages, #chat-form').count()).toBe(4);
  });

  test('reconnects after the server restarts on the same port and shows the new open()', async () => {
    const state = shared();
    const first = await start(instance('first', state));
    const page = await openPage(`${first.base}/rooms/r${++rooms}/?htmx=${htmx}`);
    await shows(page, '#status', 'connected to first');
    await say(page, 'before');
    await shows(page, '#messages', `before (htmx ${htmx})`);

    await first.server.shutdown({ timeout: 1000 });
    const second = await start(instance('second', state), first.port);
    cleanups.push(() => second.server.shutdown({ timeout: 1000 }));
    // htmx reconnects with backoff (htmx 2: up to 1 s, then 2 s, …; htmx 4: 0.5 s, 1 s, …).
    expect(await shows(page, '#status', 'connected to second', 20_000)).toBe('connected to second');
    await say(page, 'after');
    expect(await shows(page, '#messages', `before (htmx ${htmx})\nafter (htmx ${htmx})`)).toBe(
      `before (htmx ${htmx})\nafter (htmx ${htmx})`,
    );
  });

  test('two instances: a message sent to A shows in a page connected to B', async () => {
    const state = shared();
    const a = await start(instance('A', state));
    const b = await start(instance('B', state));
    cleanups.push(
      () => a.server.shutdown({ timeout: 1000 }),
      () => b.server.shutdown({ timeout: 1000 }),
    );
    const room = `r${++rooms}`;
    const onA = await openPage(`${a.base}/rooms/${room}/?htmx=${htmx}`);
    const onB = await openPage(`${b.base}/rooms/${room}/?htmx=${htmx}`);
    await shows(onA, '#status', 'connected to A');
    await shows(onB, '#status', 'connected to B');

    await say(onA, 'from A');
    expect(await shows(onB, '#messages', `from A (htmx ${htmx})`)).toBe(`from A (htmx ${htmx})`);
    expect(await text(onB, '#status')).toBe('connected to B'); // B's page only got the hub's list
    await say(onB, 'from B');
    expect(await shows(onA, '#messages', `from A (htmx ${htmx})\nfrom B (htmx ${htmx})`)).toBe(
      `from A (htmx ${htmx})\nfrom B (htmx ${htmx})`,
    );
  });
});
