// The Deno and Cloudflare socket adapters (issue 44) against faults their real runtimes cannot be made to show on
// demand, with a fake runtime object each: a throw out of Deno's socket event handlers (on the real Deno it ends the
// process: an uncaught error in an event listener), a Durable Object's rebuild after hibernation that fails, and the
// memory of a Durable Object instance that never opened a socket. The faults a real runtime does show are tested on
// it: __tests__/bun/bun-serve.test.ts, __tests__/package/cloudflare-sockets.test.ts.

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { DenoSockets, type DenoUpgrade } from '../../core/deno/websocket.ts';
import { socketObject } from '../../core/cloudflare/index.ts';
import type { DurableObjectContext, WorkerdWebSocket } from '../../core/cloudflare/index.ts';
import { mount, route, ServeMux } from '../../core/index.ts';
import type { Socket } from '../../core/live/index.ts';
import type { Logger } from '../../core/kernel/logger.ts';

/** A logger that keeps what it was given. */
function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    error: (message: string) => void lines.push(`error: ${message}`),
    warn: (message: string) => void lines.push(`warn: ${message}`),
  };
}

/** /chat follows a hand-written hub whose leave() throws, as a buggy one would when the socket ends. */
function badHubMux(logger: Logger): ServeMux {
  class Chat {
    open(socket: Socket) {
      socket.subscribe({
        join: () => () => {
          throw new Error('leave failed');
        },
      });
    }
    message() {}
  }
  const mux = new ServeMux({ logger });
  mount(
    mux,
    class {
      chat = route('/chat', Chat);
    },
    '/',
    'App',
  );
  return mux;
}

/** Deno's WebSocket as pagetree/deno uses it: the handlers it sets, called by the test as Deno would. */
interface FakeDenoSocket {
  binaryType: string;
  bufferedAmount: number;
  onopen: (() => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onerror: ((event: { preventDefault(): void }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  send(data: string): void;
  close(code: number, reason: string): void;
}

describe('pagetree/deno', () => {
  test("a hub whose leave() throws as the socket closes: logged, nothing thrown into Deno's event dispatch", async () => {
    const logger = recordingLogger();
    const mux = badHubMux(logger);
    const socket: FakeDenoSocket = {
      binaryType: 'blob',
      bufferedAmount: 0,
      onopen: null,
      onmessage: null,
      onerror: null,
      onclose: null,
      send() {},
      close() {},
    };
    const upgrade: DenoUpgrade = () => ({
      socket: socket as unknown as WebSocket,
      response: new Response(null, { status: 204 }),
    });
    const sockets = new DenoSockets(logger, upgrade);
    const req = new Request('http://127.0.0.1/chat', { headers: { upgrade: 'websocket' } });
    const res = await sockets.take(req, mux.serveHTTP(req));
    expect(sockets.answer(req, res).status).toBe(204); // Deno's 101, faked
    socket.onopen!();
    // On the real Deno a throw here is an uncaught error: the process ends, with every socket and request of it.
    expect(() => socket.onclose!({ code: 1000, reason: '' })).not.toThrow();
    // Logged once, by the connection (core/live) or, for a fault it lets through, by pagetree/deno.
    expect(logger.lines).toEqual([
      expect.stringMatching(
        /^error: pagetree(\/deno: a WebSocket's close handler|: \.chat \(GET \/chat\): .*) failed:$/,
      ),
    ]);
  });
});

/** A workerd socket that keeps `attachment` and records how it was closed. */
function fakeWorkerdSocket(attachment: unknown): WorkerdWebSocket & { closes: [number, string][] } {
  const closes: [number, string][] = [];
  return {
    closes,
    send() {},
    close: (code?: number, reason?: string) => void closes.push([code ?? 1005, reason ?? '']),
    serializeAttachment() {},
    deserializeAttachment: () => attachment,
  };
}

function fakeContext(id: string, sockets: WorkerdWebSocket[]): DurableObjectContext {
  return { id: { toString: () => id }, acceptWebSocket() {}, getWebSockets: () => sockets };
}

describe('pagetree/cloudflare socketObject', () => {
  function plainMux(logger: Logger): ServeMux {
    const mux = new ServeMux({ logger });
    mux.handleFunc('GET /{$}', () => new Response('home'));
    mux.handleFunc('POST /say', () => new Response('said'));
    return mux;
  }

  test('a socket whose kept upgrade request cannot be rebuilt after hibernation is closed; the object goes on answering', async () => {
    const logger = recordingLogger();
    const Sockets = socketObject(plainMux(logger));
    // An attachment of the right shape that no Request takes (kept by another version of the app, say).
    const broken = fakeWorkerdSocket({ url: 'not a url', headers: [] });
    const object = new Sockets(fakeContext('rebuild', [broken]), {});
    const res = await object.fetch(new Request('http://127.0.0.1/'));
    expect([res.status, await res.text()]).toEqual([200, 'home']);
    expect(broken.closes).toEqual([[1011, 'internal error']]);
    expect(logger.lines).toEqual([
      'error: pagetree/cloudflare: a WebSocket could not be rebuilt after hibernation; closing it with 1011:',
    ]);
  });

  test('an object instance that opened no socket is not kept in memory by the class', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const Sockets = socketObject(plainMux(recordingLogger()));
    // One object name a POST went to (a room), its instance since evicted: nothing of it should stay.
    const visit = async (name: string): Promise<WeakRef<object>> => {
      const ctx = fakeContext(name, []);
      const res = await new Sockets(ctx, {}).fetch(new Request('http://127.0.0.1/say', { method: 'POST' }));
      expect(await res.text()).toBe('said');
      return new WeakRef(ctx);
    };
    const refs = [await visit('room-1'), await visit('room-2'), await visit('room-3')];
    for (let i = 0; i < 3; i++) {
      await new Promise((r) => setImmediate(r));
      gc();
    }
    expect(refs.map((ref) => ref.deref() === undefined)).toEqual([true, true, true]);
  });
});
