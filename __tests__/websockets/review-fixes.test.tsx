// What a review of the first WebSocket version found, each a test that failed before its fix:
// - a socket whose props were still loading when the shutdown began opened after it and kept the server up;
// - close() ran before an async open() had finished (what it undoes was not there yet);
// - socket.close() with a code or reason a close frame cannot carry left the socket open and dead.

import { mount, route, ServeMux, type PageRequest } from '../../core/index.ts';
import type { Socket } from '../../core/live/index.ts';
import { connect, listen } from './support.ts';

const errors: unknown[][] = [];
const logger = { error: (...args: unknown[]) => void errors.push(args), warn: () => {} };

let release: () => void = () => {};
const events: string[] = [];

class Chat {
  message(socket: Socket, data: string) {
    if (data === 'bad-code') socket.close(1005);
    if (data === 'long-reason') socket.close(4000, 'x'.repeat(200));
    return socket.send(`<p id="echo">${data.length}</p>`);
  }
}

class SlowProps {
  props(req: PageRequest) {
    return new Promise<{ at: string }>((resolve) => (release = () => resolve({ at: req.url })));
  }
  message() {}
}

class SlowOpen {
  async open() {
    await new Promise((r) => setTimeout(r, 200));
    events.push('open done');
  }
  message() {}
  close() {
    events.push('close');
  }
}

class App {
  chat = route('/chat', Chat);
  slowProps = route('/slow-props', SlowProps);
  slowOpen = route('/slow-open', SlowOpen);
}

beforeEach(() => {
  errors.length = 0;
  events.length = 0;
});

test('a socket whose props were loading when the shutdown began is closed with 1012, and the shutdown ends', async () => {
  const mux = new ServeMux({ logger });
  mount(mux, App);
  const { server, base } = await listen(mux);
  const opening = connect(`${base}/slow-props`);
  await new Promise((r) => setTimeout(r, 100));
  const done = server.shutdown({ timeout: 3000 });
  release();
  const client = await opening;
  expect((await client.closed).code).toBe(1012);
  await done;
});

test('close() runs after an async open() has finished, when the client leaves during it', async () => {
  const mux = new ServeMux({ logger });
  mount(mux, App);
  const { server, base } = await listen(mux);
  try {
    const client = await connect(`${base}/slow-open`);
    client.ws.terminate();
    await new Promise((r) => setTimeout(r, 500));
    expect(events).toEqual(['open done', 'close']);
  } finally {
    await server.shutdown({ timeout: 1000 });
  }
});

test('socket.close() with a code or reason a close frame cannot carry fails the message: logged, closed with 1011', async () => {
  const mux = new ServeMux({ logger });
  mount(mux, App);
  const { server, base } = await listen(mux);
  try {
    for (const data of ['bad-code', 'long-reason']) {
      const client = await connect(`${base}/chat`);
      client.ws.send(data);
      expect((await client.closed).code).toBe(1011);
    }
    expect(errors.map((e) => String(e[1]))).toEqual([
      expect.stringContaining('socket.close(1005): not a code a server may send'),
      expect.stringContaining('the reason is 200 bytes in UTF-8, over 123'),
    ]);
  } finally {
    await server.shutdown({ timeout: 1000 });
  }
});
