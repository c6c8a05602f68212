// Hardening III (issue 40), the last unobserved edges: a logger is the app's code, and one that threw (or rejected)
// ended the process where the framework reports from a timer (a streamed page's timeout), a promise's handler (a
// region an answer left out, a handler's 500 through the node adapter) or mux.fetch's last resort (which then
// rejected); a HEAD's stream body was dropped without a cancel through mux.fetch (what fed it ran on) and read
// forever, unanswered, by serve(); <Suspense> joined its children with kitajs directly, so a promise beside a child
// kitajs refuses (or a fallback it refuses, or one it never shows) went unhandled.
//
// The app (edges-app.tsx) runs in a child process with Node's defaults, so "the process lives" is what a user would
// see: inside jest a test's process.on('unhandledRejection') never fires. Every case goes through serve() and through
// mux.fetch, and each failed on the code before the fix (the process gone, the answer missing, the feed running on).

import { spawn, type ChildProcess } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import type { Reply } from '../support/node-http.ts';

jest.setTimeout(30_000);

type Via = 'serve' | 'fetch';
type Kind = 'throws' | 'rejects' | 'quiet';
const vias: Via[] = ['serve', 'fetch'];

let child: ChildProcess;
let output = '';
let ports: Record<Kind, Record<Via, number>>;

beforeAll(async () => {
  const entry = `require(${JSON.stringify(join(__dirname, 'edges-app.tsx'))}).serveApp()`;
  child = spawn(process.execPath, ['--import', 'tsx', '-e', entry], {
    cwd: join(__dirname, '..', '..'),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const until = Date.now() + 20_000;
  while (!/^ports (.*)$/m.test(output)) {
    if (child.exitCode !== null || Date.now() > until) throw new Error(`the app did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  ports = JSON.parse(/^ports (.*)$/m.exec(output)![1]!) as typeof ports;
});
afterAll(() => void child.kill('SIGKILL'));
beforeEach(() => {
  output = '';
});

/** Sends a request to the child; fails when no answer has come within `ms` (a HEAD read forever gets none). */
function send(port: number, path: string, method = 'GET', ms = 5000): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      res.on('aborted', () =>
        reject(new Error(`${method} ${path}: the answer was cut short after ${body.length} chars`)),
      );
    });
    req.setTimeout(ms, () => {
      req.destroy();
      reject(new Error(`${method} ${path}: no answer within ${ms} ms (the process: ${String(child.exitCode)})`));
    });
    req.on('error', (err) => reject(new Error(`${method} ${path}: ${err.message}; the child said:\n${output}`)));
    req.end();
  });
}

/** Waits until `done()` holds (or 3 s pass), then asserts the child is alive. */
async function settle(done: () => boolean | Promise<boolean>): Promise<void> {
  for (const until = Date.now() + 3000; Date.now() < until && !(await done());) {
    await new Promise((r) => setTimeout(r, 10));
  }
  await new Promise((r) => setTimeout(r, 50)); // a rejection or throw from a timer has ended the process by now
  expect({ exitCode: child.exitCode, signal: child.signalCode }).toEqual({ exitCode: null, signal: null });
  expect(output).not.toMatch(/mux\.fetch rejected|Unhandled|uncaught|triggerUncaughtException/i);
}

// --- 2. a logger that throws, or rejects ----------------------------------------------------------------------------

describe.each([
  ['throws', 'the logger is down'],
  ['rejects', 'the log database is down'],
] as const)('a logger that %s', (kind, loggerError) => {
  describe.each(vias)('through %s', (via) => {
    const port = () => ports[kind][via];
    // What the logger was given reaches console.error, and so does what the logger threw.
    const reported = (line: RegExp) => async () => {
      await settle(() => line.test(output) && output.includes(loggerError));
      expect(output).toMatch(line);
      expect(output).toContain(`pagetree: the logger's error() failed on the line above: Error: ${loggerError}`);
    };

    test('throwing-logger-in-the-last-resort: a handler that throws gets its 500, the process lives', async () => {
      const r = await send(port(), '/bare');
      expect([r.status, r.body.trim()]).toEqual([500, 'Internal Server Error']);
      await reported(
        /pagetree: handler for GET http:\/\/127\.0\.0\.1(:\d+)?\/bare failed: Error: the handler failed/,
      )();
    });

    test('throwing-logger-in-the-error-road: a page that fails gets the error page', async () => {
      const r = await send(port(), '/page');
      expect(r.status).toBe(500);
      await reported(/LoggerApp\.page .* failed: Error: the page failed/)();
    });

    test('throwing-logger-for-a-failed-part: the streamed page ends whole, with the error fragment', async () => {
      const r = await send(port(), '/part');
      expect(r.status).toBe(200);
      expect(r.body).toContain('<template for="pt-1">');
      expect(r.body.endsWith('</body></html>')).toBe(true);
      await reported(/<Suspense> boundary \(pt-1\) failed.*\n?.*the part failed/)();
    });

    test('throwing-logger-in-a-timer: a part past the timeout gets the error fragment, the process lives', async () => {
      const r = await send(port(), '/slow');
      expect(r.status).toBe(200);
      expect(r.body).toContain('<template for="pt-1">');
      expect(r.body.endsWith('</body></html>')).toBe(true);
      await reported(/1 <Suspense> boundaries did not finish within 300 ms/)();
    });

    test('throwing-logger-in-a-promise-handler: a region the redirect left out fails later', async () => {
      const r = await new Promise<Reply>((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port: port(), path: '/region', method: 'POST' }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: '' }));
        });
        req.on('error', reject);
        req.end();
      });
      expect([r.status, r.headers.location]).toEqual([303, '/']);
      await reported(/alsoRender\("count"\) failed; the answer had left it out/)();
    });
  });
});

// --- 3. HEAD of a stream made by hand -------------------------------------------------------------------------------

interface Probe {
  logs: string[];
  rejected: number;
  feedsOpen: number;
}
const probe = async (): Promise<Probe> => JSON.parse((await send(ports.quiet.serve, '/probe')).body) as Probe;

describe.each(vias)('HEAD of a stream made by hand (%s)', (via) => {
  test('head-cancels-a-hand-made-stream: the answer at once, what fed it stopped', async () => {
    const r = await send(ports.quiet[via], '/feed', 'HEAD', 2000);
    expect([r.status, r.headers['content-type'], r.body]).toEqual([200, 'text/plain', '']);
    await settle(async () => (await probe()).feedsOpen === 0);
    expect((await probe()).feedsOpen).toBe(0);
    expect(output).toBe('');
  });
});

// --- 4. <Suspense> beside a promise nobody else holds ---------------------------------------------------------------

describe.each(vias)('<Suspense> with a promise the page made itself (%s)', (via) => {
  test.each([
    ['suspense/object-beside-promise', 500, /QuietApp\.suspense .* failed: Error: Objects are not valid/],
    ['streamed/object-beside-promise', 500, /QuietApp\.streamed .* failed: Error: Objects are not valid/],
    ['streamed/object-fallback', 500, /QuietApp\.streamed .* failed: Error: Objects are not valid/],
    ['suspense/unshown-fallback', 200, null],
    ['streamed/unshown-fallback', 200, null],
  ])('suspense-observes-what-it-drops: %s answers %d, the process lives', async (path, status, logged) => {
    const before = await probe();
    const r = await send(ports.quiet[via], `/${path}`);
    expect(r.status).toBe(status);
    if (status === 200) expect(r.body).toBe('<main>ready</main>');
    await settle(async () => (await probe()).rejected > before.rejected);
    const after = await probe();
    expect(after.rejected).toBe(before.rejected + 1);
    expect(after.logs.slice(before.logs.length)).toEqual(logged === null ? [] : [expect.stringMatching(logged)]);
    expect(output).toBe('');
  });
});
