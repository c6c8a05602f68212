// A port in use (issue 45.1): `npm start` twice, or beside another server, printed node's raw stack of an
// unhandled 'error' event (Error: listen EADDRINUSE: address already in use :::3000, then a dozen "at" lines).
// serve() now says in one line, through the logger, which port is busy and how to pick another, and exits with
// status 1; an app that listens for the server's 'error' itself gets the error instead, and with
// handleSignals: false the process is the caller's: serve() logs the line, sets the exit status, and exits not.

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { serve, shutdown } from '../../core/node/index.ts';

let busy: Server;
let port: number;
beforeAll(async () => {
  busy = createServer().listen(0);
  await once(busy, 'listening');
  port = (busy.address() as { port: number }).port;
});
afterAll(() => new Promise((done) => busy.close(done)));

function startApp(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const app = join(__dirname, 'busy-port-app.ts');
  const child = spawn(process.execPath, ['--import', 'tsx', app], {
    cwd: join(__dirname, '../..'),
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    }),
  );
}

test('busy-port-says-which: PORT in use, one line that names it and how to pick another, exit status 1', async () => {
  const { code, output } = await startApp({ PORT: String(port) });
  expect([code, output]).toEqual([
    1,
    `pagetree: port ${port} is in use (another server listens on it, or this app runs already); ` +
      `stop that one, or pick another port: PORT=${port + 1}\n`,
  ]);
});

test("busy-port-says-which: serve's port option in use, the line names the option", async () => {
  const { code, output } = await startApp({ BUSY_PORT_OPTION: String(port) });
  expect([code, output]).toEqual([
    1,
    `pagetree: port ${port} is in use (another server listens on it, or this app runs already); ` +
      `stop that one, or give serve() another port: serve(mux, { port: ${port + 1} })\n`,
  ]);
});

test('an app that listens for the error itself gets it, and serve() says nothing', async () => {
  const lines: string[] = [];
  const logger = { error: (m: string) => lines.push(m), warn: (m: string) => lines.push(m) };
  const server = serve(() => new Response('x'), { port, handleSignals: false, logger, onListen: () => {} });
  await expect(once(server, 'listening')).rejects.toMatchObject({ code: 'EADDRINUSE' });
  expect(lines).toEqual([]);
});

test('with handleSignals: false, the line is logged and the exit status set; the process is not ended', async () => {
  const lines: string[] = [];
  const logger = { error: (m: string) => lines.push(m), warn: (m: string) => lines.push(m) };
  const server = serve(() => new Response('x'), { port, handleSignals: false, logger, onListen: () => {} });
  try {
    while (lines.length === 0) await new Promise((r) => setImmediate(r)); // node emits the error on a later tick
    expect(lines).toEqual([expect.stringMatching(new RegExp(`^pagetree: port ${port} is in use`))]);
    expect([process.exitCode, server.listening]).toEqual([1, false]);
  } finally {
    process.exitCode = undefined;
    if (server.listening) await shutdown(server, 100);
  }
});
