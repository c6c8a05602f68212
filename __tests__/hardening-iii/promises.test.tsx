// Hardening III (issue 40), defect 2: a rejected promise nobody awaits ends the process. The app runs in a child
// process (promises-app.tsx) with Node's default for an unhandled rejection, so "the process lives" is what a user
// would see; each case goes through serve() and through mux.fetch, and was written to fail on the code before the fix
// (the process gone after the first answer).

import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { send, type Reply } from '../support/node-http.ts';

jest.setTimeout(30_000);

let child: ChildProcess;
let output = '';
const ports: Record<Via, number> = { serve: 0, fetch: 0 };

beforeAll(async () => {
  child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'promises-app.tsx')], {
    cwd: join(__dirname, '..', '..'),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const until = Date.now() + 20_000;
  while (!/ports (\d+) (\d+)/.test(output)) {
    if (child.exitCode !== null || Date.now() > until) throw new Error(`the app did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const [, a, b] = /ports (\d+) (\d+)/.exec(output)!;
  ports.serve = Number(a);
  ports.fetch = Number(b);
});
afterAll(() => void child.kill('SIGKILL'));

type Via = 'serve' | 'fetch';
const vias: Via[] = ['serve', 'fetch'];

interface Probe {
  rejected: number;
  logs: string[];
}

/** What the app says of itself; fails with its output when the process is gone. */
async function probe(via: Via): Promise<Probe> {
  try {
    return JSON.parse((await send(ports[via], '/probe')).body) as Probe;
  } catch (err) {
    throw new Error(`the app is gone (exit ${child.exitCode}, ${String(err)}):\n${output}`);
  }
}

/**
 * Sends a request, then waits until the promises it started (`rejecting` of them) have rejected, and asks once more:
 * a rejection nobody observed would have ended the process by then. Returns the answer and the lines it logged.
 */
async function answer(
  via: Via,
  path: string,
  rejecting: number,
  init: { method?: string; headers?: Record<string, string> } = {},
): Promise<{ reply: Reply; logs: string[] }> {
  const before = await probe(via);
  const reply = await send(ports[via], path, init);
  for (let now = before; now.rejected < before.rejected + rejecting; now = await probe(via)) {
    await new Promise((r) => setTimeout(r, 5));
  }
  const after = await probe(via);
  expect(child.exitCode).toBeNull();
  return { reply, logs: after.logs.slice(before.logs.length) };
}

const htmx = { 'hx-request': 'true', 'hx-request-type': 'partial', 'hx-target': 'main#main' };

describe.each(vias)('a region that the answer leaves out (%s)', (via) => {
  test('region-rejects-after-redirect: a 303, the process lives, the failure logged once', async () => {
    const { reply, logs } = await answer(via, '/action/redirect', 1, { method: 'POST' });
    expect(reply.status).toBe(303);
    expect(reply.headers.location).toBe('/');
    expect(logs).toEqual([expect.stringMatching(/alsoRender\("open-count"\) failed.*count query failed/)]);
  });

  test('region-rejects-after-htmx-redirect: HX-Location, the process lives', async () => {
    const { reply, logs } = await answer(via, '/action/redirect', 1, { method: 'POST', headers: htmx });
    expect(reply.status).toBe(200);
    expect(reply.headers['hx-location']).toBe('/');
    expect(logs).toEqual([expect.stringMatching(/alsoRender\("open-count"\) failed.*count query failed/)]);
  });

  test('region-rejects-beside-http-error: the 409 goes out, the process lives', async () => {
    const { reply, logs } = await answer(via, '/action/conflict', 1, { method: 'POST', headers: htmx });
    expect(reply.status).toBe(409);
    expect(reply.body.trim()).toBe('Conflict');
    expect(logs).toEqual([expect.stringMatching(/alsoRender\("open-count"\) failed.*count query failed/)]);
  });

  test('region-rejects-beside-database-error: the 500 goes out, both failures logged, the process lives', async () => {
    const { reply, logs } = await answer(via, '/action/database', 1, { method: 'POST', headers: htmx });
    expect(reply.status).toBe(500);
    expect(reply.body.trim()).toBe('Internal Server Error');
    expect(logs).toEqual([
      expect.stringMatching(/App\.action .* failed: Error: insert failed/),
      expect.stringMatching(/alsoRender\("open-count"\) failed.*count query failed/),
    ]);
  });

  test('region-rejects-in-a-full-page-answer: a plain request gets the page, the failure is logged', async () => {
    const { reply, logs } = await answer(via, '/action/render', 1, { method: 'POST' });
    expect(reply.status).toBe(200);
    expect(reply.body).toBe('<p>saved</p>');
    expect(logs).toEqual([expect.stringMatching(/alsoRender\("open-count"\) failed.*count query failed/)]);
  });

  test('region-rejects-in-the-answer: the one error road as before (500, logged once), the process lives', async () => {
    const { reply, logs } = await answer(via, '/action/render', 1, { method: 'POST', headers: htmx });
    expect(reply.status).toBe(500);
    expect(reply.body.trim()).toBe('Internal Server Error');
    expect(logs).toEqual([expect.stringMatching(/App\.action .* failed: Error: count query failed/)]);
  });
});

describe.each(vias)('a region recorded while the partial renders (%s)', (via) => {
  test('region-from-an-async-component-goes-along: recorded after an await, it is appended', async () => {
    const { reply, logs } = await answer(via, '/action/late', 0, { method: 'POST', headers: htmx });
    expect(reply.status).toBe(200);
    expect(reply.body).toBe('<p>late</p><hx-partial id="late-count" hx-swap="innerHTML">3</hx-partial>');
    expect(logs).toEqual([]);
  });
});

describe.each(vias)('a component tree that throws beside a pending component (%s)', (via) => {
  test.each([
    ['siblings', '<div><OpenCount/><ThrowsSync/></div>'],
    ['nested', '<main><section><OpenCount/></section><ThrowsSync/></main>'],
    ['fragment', '<><OpenCount/><ThrowsSync/></>'],
    ['object-child', '<div>{{}}{loadRaw()}</div>'],
    ['suspense', '<div><Suspense><OpenCount/></Suspense><ThrowsSync/></div>'],
  ])('sync-throw-beside-async-reject (%s: %s): a 500, logged once, the process lives', async (name) => {
    for (const headers of [{}, htmx]) {
      const { reply, logs } = await answer(via, `/tree/${name}`, 1, { headers });
      expect(reply.status).toBe(500);
      expect(reply.body.trim()).toBe('Internal Server Error');
      expect(logs).toEqual([
        expect.stringMatching(/App\.tree .* failed: Error: (render failed|Objects are not valid)/),
      ]);
    }
  });

  test('streamed-shell-throws-beside-suspense: a 500 before the first byte, the process lives', async () => {
    const { reply, logs } = await answer(via, '/streamed', 1);
    expect(reply.status).toBe(500);
    expect(logs).toEqual([expect.stringMatching(/App\.streamed .* failed: Error: render failed/)]);
  });
});
