// Hardening III (issue 40), compression: a client that left a compressed streamed page mid-part killed the process
// (zlib's output enqueued into a stream the client had cancelled: ERR_INVALID_STATE from a 'data' event), and a HEAD
// of a compressed page said no Content-Encoding and the identity length. Beside them, the same class in the node
// adapter and the page stream: an answer whose client left before it was ready was never cancelled (its parts ran
// on and timed out, logged), and a part failure whose report failed was a rejection nobody handled. The app
// (compress-app.tsx) runs under `serve` in a child process, so that a crash shows as a process that exited;
// `mux.fetch` runs in this one, where jest fails the running test on an uncaught exception or an unhandled
// rejection. Each case failed before the fix.

import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import * as zlib from 'node:zlib';
import { send as sendRaw } from '../support/node-http.ts';
import { brokenLoggerMux, logged, mux, page20k, part100k, releaseAll } from './compress-app.tsx';

const root = join(__dirname, '..', '..');
let child: ChildProcess;
let output = '';
let port = 0;

beforeAll(async () => {
  const entry = `require(${JSON.stringify(join(__dirname, 'compress-app.tsx'))}).serveApp()`;
  child = spawn(process.execPath, ['--import', 'tsx', '-e', entry], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  while (!/port=\d+/.test(output)) {
    if (child.exitCode !== null) throw new Error(`the app did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  port = Number(/port=(\d+)/.exec(output)![1]);
}, 30_000);
afterAll(async () => {
  releaseAll();
  if (child.exitCode === null) {
    child.kill();
    await once(child, 'exit');
  }
});
beforeEach(() => {
  output = '';
  logged.length = 0;
});
afterEach(releaseAll);

// A few turns of the event loop: what zlib's thread pool still had to emit for a stream that was cancelled.
const settle = () => new Promise((r) => setTimeout(r, 100));

/** The child is alive and printed nothing (no crash, no failure logged for a client that left). */
function expectAlive(): void {
  expect({ exitCode: child.exitCode, signal: child.signalCode, output }).toEqual({
    exitCode: null,
    signal: null,
    output: '',
  });
}

type Coding = 'br' | 'gzip' | null;
const codings: Coding[] = ['br', 'gzip', null];

/** GET /release on the child: the parts rendered so far resolve. */
const release = () => sendRaw(port, '/release');

/**
 * A raw client that asks for `path` and leaves: `onFirst` runs when the first bytes arrive (the head and the shell's
 * start), and the socket is destroyed at the `leaveAt`-th data event after that (0: at the first bytes). Resolves
 * once the socket is closed.
 */
function leave(path: string, coding: Coding, leaveAt: number, onFirst: () => void = () => {}): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      const ae = coding === null ? '' : `Accept-Encoding: ${coding}\r\n`;
      socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${ae}\r\n`);
    });
    let events = 0;
    socket.on('data', () => {
      if (events === 0) onFirst();
      if (events++ === leaveAt) socket.destroy();
    });
    socket.on('error', () => {});
    socket.on('close', () => resolve());
  });
}

/** A whole GET of a streamed page through the child, decoded; its parts are released once the head arrives. */
async function getStreamed(path: string, coding: Coding) {
  const headers: Record<string, string> = coding === null ? {} : { 'accept-encoding': coding };
  const res = await new Promise<IncomingMessage>((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers }, resolve);
    req.on('error', reject);
    req.end();
  });
  await release();
  const chunks: Buffer[] = [];
  for await (const c of res) chunks.push(c as Buffer);
  const bytes = Buffer.concat(chunks);
  const coded = res.headers['content-encoding'];
  const text = coded === 'br' ? zlib.brotliDecompressSync(bytes) : coded === 'gzip' ? zlib.gunzipSync(bytes) : bytes;
  return { coding: coded, text: text.toString() };
}

// --- 1. clients leaving a compressed stream ----------------------------------------------------------------------------

describe.each(codings)('a client leaving a streamed page (Accept-Encoding: %s)', (coding) => {
  test('client-leaves-compressed-stream-mid-part (serve): the process lives, nothing logged', async () => {
    for (let i = 0; i < 5; i++) {
      // The part is released once the shell arrives; the client leaves at the part's first bytes.
      await leave('/part', coding, 1, () => void release().catch(() => {})); // a dead child fails below
    }
    await settle();
    expectAlive();
    const again = await getStreamed('/part', coding);
    expect(again.coding).toBe(coding ?? undefined);
    expect(again.text).toContain(part100k);
  });

  test('client-leaves-compressed-60k-shell (serve): the process lives, nothing logged', async () => {
    for (let i = 0; i < 5; i++) await leave('/shell', coding, 0);
    await release();
    await settle();
    expectAlive();
  });

  test('client-cancels-compressed-stream-mid-part (mux.fetch): the cancel resolves, nothing unhandled', async () => {
    for (let i = 0; i < 5; i++) {
      const headers: Record<string, string> = coding === null ? {} : { 'accept-encoding': coding };
      const res = await mux.fetch(new Request('http://x/part', { headers }));
      expect(res.headers.get('content-encoding')).toBe(coding);
      const reader = res.body!.getReader();
      await reader.read(); // the shell
      releaseAll();
      await reader.read(); // the part's first bytes
      await reader.cancel();
    }
    await settle();
    expect(logged).toEqual([]);
  });
});

describe.each(codings)('what feeds a stream stops when its client leaves (Accept-Encoding: %s)', (coding) => {
  // The mount's timeout (1 s) would log the pending part unless the page's stream was cancelled.
  const pastTheTimeout = () => new Promise((r) => setTimeout(r, 1300));

  test('client-leaves-compressed-stream-cancels-its-parts (serve): no timeout logged later', async () => {
    await leave('/timed/stuck', coding, 0);
    await pastTheTimeout();
    expectAlive();
  });

  test('client-gone-before-the-answer-cancels-its-stream (serve): no timeout logged later', async () => {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => {});
    const ae = coding === null ? '' : `Accept-Encoding: ${coding}\r\n`;
    socket.write(`GET /timed/late HTTP/1.1\r\nHost: x\r\n${ae}\r\n`);
    await new Promise((r) => setTimeout(r, 50)); // the page waits for its props
    socket.destroy();
    await once(socket, 'close');
    await new Promise((r) => setTimeout(r, 50)); // the server sees the client gone
    await release(); // the props resolve: the answer, a stream, finds no client
    await pastTheTimeout();
    expectAlive();
  });
});

// A logger that throws costs only its line, which goes to console.error (edges.test.tsx): the answer ends whole.
test.each(codings)(
  'streamed-part-failure-with-a-throwing-logger (mux.fetch, %s): the answer ends whole, nothing unhandled',
  async (coding) => {
    const printed = jest.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const headers: Record<string, string> = coding === null ? {} : { 'accept-encoding': coding };
      const res = await brokenLoggerMux.fetch(new Request('http://x/fails', { headers }));
      expect(res.status).toBe(200);
      const bytes = Buffer.from(await res.arrayBuffer());
      const text = (
        coding === 'br' ? zlib.brotliDecompressSync(bytes) : coding === 'gzip' ? zlib.gunzipSync(bytes) : bytes
      ).toString();
      expect(text).toContain('<template for="pt-1">');
      expect(text.endsWith('</body></html>')).toBe(true);
      expect(printed).toHaveBeenCalledWith(
        "pagetree: the logger's error() failed on the line above:",
        expect.objectContaining({ message: 'the logger is down' }),
      );
    } finally {
      printed.mockRestore();
    }
  },
);

test('two-hundred-clients-leave-a-compressed-page (serve): seeded leave points, the process lives', async () => {
  let s = 40;
  const next = () => (s = (s * 1103515245 + 12345) % 2 ** 31);
  const clients = Array.from({ length: 200 }, () => leave('/soon', next() % 2 === 0 ? 'br' : 'gzip', next() % 4));
  await Promise.all(clients);
  await settle();
  expectAlive();
  const again = await getStreamed('/soon', 'br');
  expect(again.text).toContain(page20k);
});

// --- 6. HEAD negotiates as GET ------------------------------------------------------------------------------------------

type Via = 'serve' | 'fetch';
const vias: Via[] = ['serve', 'fetch'];

/** The negotiated headers and the body's length of one answer. */
async function headOf(via: Via, method: 'GET' | 'HEAD', path: string, coding: string) {
  const headers = { 'accept-encoding': coding };
  let h: (name: string) => string | undefined;
  let bytes: number;
  if (via === 'fetch') {
    const res = await mux.fetch(new Request(`http://localhost${path}`, { method, headers }));
    bytes = (await res.arrayBuffer()).byteLength;
    h = (n) => res.headers.get(n) ?? undefined;
  } else {
    const r = await sendRaw(port, path, { method, headers });
    bytes = Buffer.byteLength(r.body, 'latin1');
    h = (n) => r.headers[n] as string | undefined;
  }
  return {
    head: { encoding: h('content-encoding'), length: h('content-length'), etag: h('etag'), vary: h('vary') },
    bytes,
  };
}

describe.each(vias)('HEAD of a compressed page (%s)', (via) => {
  test.each(['br', 'gzip'])('head-negotiates-as-get: a whole page (%s)', async (coding) => {
    const get = await headOf(via, 'GET', '/whole', coding);
    const head = await headOf(via, 'HEAD', '/whole', coding);
    expect(get.head.encoding).toBe(coding);
    expect(get.head.etag).toBe('W/"v1"');
    expect(head.head).toEqual(get.head);
    expect(head.bytes).toBe(0);
  });

  test.each(['br', 'gzip'])('head-negotiates-as-get: a streamed page (%s), at once', async (coding) => {
    // Nothing released: a HEAD of a streamed page answers before its parts.
    const head = await headOf(via, 'HEAD', '/part', coding);
    expect(head.head).toEqual({
      encoding: coding,
      length: undefined,
      etag: undefined,
      vary: 'HX-Request, HX-Target, HX-Request-Type, Accept-Encoding',
    });
    expect(head.bytes).toBe(0);
  });
});
