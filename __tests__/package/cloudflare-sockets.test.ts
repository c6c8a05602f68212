// pagetree/cloudflare on workerd (issue 44): a small chat (fixtures/cloudflare-sockets) installed from the packed
// tarball and run locally by wrangler 4.164's test harness (the `wrangler dev` runtime, plus evictDurableObject), its
// sockets opened by a raw `ws` client as a browser's would be. The Worker sends a room's socket, its POSTs and its
// event stream to the room's Durable Object (socketObject), where one SocketHub and one EventHub reach every client.

import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { nodeBinary, packTarball, run, serveProcess, tempDir, toolPackage, type Served } from '../support/package.ts';
import { connect } from '../websockets/support.ts';

jest.setTimeout(600_000);

let app: Served;
let control: string;

beforeAll(async () => {
  const tarball = packTarball();
  const project = tempDir('cloudflare-sockets');
  cpSync(join(__dirname, 'fixtures/cloudflare-sockets'), project, { recursive: true });
  run('npm', ['init', '-y'], project);
  run('npm', ['pkg', 'set', 'type=module'], project);
  run('npm', ['install', '--no-audit', tarball], project);
  app = await serveProcess(
    nodeBinary(24), // wrangler needs Node 22.12 or newer
    ['harness.mjs', join(toolPackage('wrangler', '4.164.0'), 'wrangler-dist/cli.js')],
    project,
    { WRANGLER_SEND_METRICS: 'false', CI: 'true', NO_COLOR: '1' },
    120_000,
  );
  // serveProcess resolves on the app's URL; the control URL is printed on the same line.
  for (let i = 0; i < 50 && !/control http:\/\/\S+/.test(app.output()); i++)
    await new Promise((r) => setTimeout(r, 100));
  control = /control (http:\/\/\S+)/.exec(app.output())![1]!;
});
afterAll(() => app?.stop());

const socketUrl = (room: string) => `${app.url.replace('http', 'ws')}/rooms/${room}/live`;
const as = (name: string) => ({ headers: { origin: app.url, cookie: `name=${name}` } });
const say = (room: string, text: string) =>
  fetch(`${app.url}/rooms/${room}/say`, { method: 'POST', body: new URLSearchParams({ text }) });

test('a socket route opens in the Durable Object: open() sends first, a message gets its answer', async () => {
  const ada = await connect(socketUrl('one'), as('ada'));
  expect(await ada.nth(1)).toBe('<p id="welcome">ada in one</p>');
  ada.ws.send('hello <b>');
  expect(await ada.nth(2)).toBe('<li>ada: hello &#60;b&#62;</li>');
  ada.ws.close();
});

test('two sockets and a POST to the same object name: the POST runs beside them, both get the same bytes', async () => {
  const ada = await connect(socketUrl('two'), as('ada'));
  const bob = await connect(socketUrl('two'), as('bob'));
  await Promise.all([ada.nth(1), bob.nth(1)]);
  const res = await say('two', 'hi all');
  expect([res.status, await res.text()]).toEqual([200, 'sent to 2']);
  expect([await ada.nth(2), await bob.nth(2)]).toEqual(['<li>said: hi all</li>', '<li>said: hi all</li>']);
  // Another room is another object: it got nothing.
  const other = await say('elsewhere', 'x');
  expect(await other.text()).toBe('sent to 0');
  ada.ws.close();
  bob.ws.close();
});

test("a hub's message reaches each socket as a text frame, which a browser's htmx swaps (not a binary Blob)", async () => {
  const ada = await connect(socketUrl('frames'), as('ada'));
  await ada.nth(1);
  const binary: boolean[] = [];
  ada.ws.on('message', (_data, isBinary) => binary.push(isBinary));
  await say('frames', 'as text');
  expect(await ada.nth(2)).toBe('<li>said: as text</li>');
  expect(binary).toEqual([false]);
  ada.ws.close();
});

test("an upgrade from another site's page is refused with 403", async () => {
  await expect(connect(socketUrl('three'), { headers: { origin: 'https://evil.example' } })).rejects.toThrow(
    'Unexpected server response: 403',
  );
});

test("a message over the route's maxMessage (1024 bytes) closes the socket with 1009", async () => {
  const ada = await connect(socketUrl('four'), as('ada'));
  await ada.nth(1);
  ada.ws.send('é'.repeat(513)); // 1026 bytes in UTF-8, 513 characters
  expect(await ada.closed).toEqual({ code: 1009, reason: 'message too big' });
});

test('a request with no object name is answered by the Worker', async () => {
  const res = await fetch(app.url + '/');
  expect([res.status, await res.text()]).toEqual([200, '<p>rooms</p>']);
  // A room's plain GET goes to its object, whose mux answers as on any runtime.
  const plain = await fetch(`${app.url}/rooms/five/live`);
  expect(plain.status).toBe(426);
});

test('after hibernation evicts the object: every socket is rebuilt (props and open() again), and the hub reaches both', async () => {
  const ada = await connect(socketUrl('six'), as('ada'));
  const bob = await connect(socketUrl('six'), as('bob'));
  await Promise.all([ada.nth(1), bob.nth(1)]);
  const evicted = await fetch(`${control}/evict?name=six`, { method: 'POST' });
  expect([evicted.status, await evicted.text()]).toEqual([200, 'evicted']);
  ada.ws.send('after');
  // The fresh instance ran each socket's upgrade request through the mux again: the cookie read again by props.
  expect([await ada.nth(2), await ada.nth(3)]).toEqual(['<p id="welcome">ada in six</p>', '<li>ada: after</li>']);
  expect(await bob.nth(2)).toBe('<p id="welcome">bob in six</p>');
  const res = await say('six', 'still here');
  expect(await res.text()).toBe('sent to 2');
  expect([await ada.nth(4), await bob.nth(3)]).toEqual(['<li>said: still here</li>', '<li>said: still here</li>']);
  // Nothing failed on the way (a send to a socket of the evicted instance would log one).
  const logs = (await (await fetch(`${control}/logs`)).json()) as { level: string; message: string }[];
  expect(logs.filter((line) => line.level === 'error')).toEqual([]);
  ada.ws.close();
  bob.ws.close();
});

/** Reads an event stream until `text` arrives (within 5 s); resolves with what was read. */
async function readUntil(res: Response, text: string): Promise<string> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let got = '';
  const timer = setTimeout(() => void reader.cancel(), 5000);
  try {
    while (!got.includes(text)) {
      const { value, done } = await reader.read();
      if (done) break;
      got += decoder.decode(value, { stream: true });
    }
  } finally {
    clearTimeout(timer);
    await reader.cancel();
  }
  return got;
}

test('an event stream served by the object goes on after the request that started its hub has ended', async () => {
  const first = new AbortController();
  const a = await fetch(`${app.url}/rooms/seven/events`, { signal: first.signal });
  const readA = readUntil(a, 'one');
  await say('seven', 'one');
  expect(await readA).toContain('data: <li>one</li>');
  first.abort();
  await new Promise((r) => setTimeout(r, 200)); // the first stream's request ends in the object
  const b = await fetch(`${app.url}/rooms/seven/events`);
  const readB = readUntil(b, 'two');
  await say('seven', 'two');
  expect(await readB).toContain('data: <li>two</li>');
});
