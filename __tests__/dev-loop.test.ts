// npm run dev (issue 25.3): pagetree-dev restarts the example on a change to its code, to a static file (the page
// then links the file's new fingerprint, and the open tab reloads) or to .env, which the example loads; an open live
// region ends at once instead of holding the restart back. Run in a copy of the example, as npm run dev runs it.

import { appendFileSync, cpSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { adminCookie, openStream } from './support/node-http.ts';
import { freePort, serveProcess, tempDir, type Served } from './support/package.ts';

jest.setTimeout(120_000);

const root = resolve(__dirname, '..');

async function get(url: string): Promise<string | null> {
  try {
    return await (await fetch(url)).text();
  } catch {
    return null; // restarting
  }
}

async function until<T>(probe: () => Promise<T>, ok: (v: T) => boolean, ms: number): Promise<T> {
  const end = Date.now() + ms;
  let v = await probe();
  while (!ok(v) && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 100));
    v = await probe();
  }
  return v;
}

const cssOf = (html: string | null) => /\/static\/app\.([0-9a-f]{8})\.css/.exec(html ?? '')?.[1] ?? null;

let dir: string;
let dev: Served;
let base: string;

beforeAll(async () => {
  dir = tempDir('dev');
  for (const name of ['core', 'jsx-runtime', 'lint', 'node_modules']) symlinkSync(join(root, name), join(dir, name));
  for (const name of ['package.json', 'tsconfig.json']) cpSync(join(root, name), join(dir, name));
  for (const name of ['pages-example', 'static']) cpSync(join(root, name), join(dir, name), { recursive: true });
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  dev = await serveProcess('npm', ['run', 'dev'], dir, {
    PORT: String(port),
    DATABASE_PATH: join(dir, 'tasks.db'),
    PAGETREE_SECRET: undefined, // unset: the example makes one per start, or reads .env
    ADMIN_EMAIL: 'admin@example.com',
    ADMIN_PASSWORD: 'dev-loop-test',
  });
});
afterAll(() => dev?.stop());

test('a changed static file restarts the server, and the page links its new fingerprint', async () => {
  const before = cssOf(await get(base + '/'));
  expect(before).toMatch(/^[0-9a-f]{8}$/);
  appendFileSync(join(dir, 'static/app.css'), '\n.dev-loop-test { color: red; }\n');
  const after = await until(
    async () => cssOf(await get(base + '/')),
    (h) => h !== null && h !== before,
    20_000,
  );
  expect([after === before, after]).toEqual([false, expect.stringMatching(/^[0-9a-f]{8}$/)]);
  const css = await get(`${base}/static/app.${after}.css`);
  expect(css).toContain('.dev-loop-test');
});

// Restarts the dev server by a change to a static file and waits for the new one (a new live-reload id).
async function restart(): Promise<number> {
  const before = await get(base + '/__pagetree/live-reload');
  const started = Date.now();
  appendFileSync(join(dir, 'static/app.css'), `\n/* ${started} */\n`);
  const after = await until(
    () => get(base + '/__pagetree/live-reload'),
    (id) => id !== null && id !== before,
    20_000,
  );
  expect(after).not.toBe(before);
  return Date.now() - started;
}

test('a changed .env restarts the server and is loaded: a flash message signed with its secret survives a restart', async () => {
  const before = await get(base + '/__pagetree/live-reload');
  writeFileSync(join(dir, '.env'), `PAGETREE_SECRET=${'s'.repeat(40)}\n`);
  const after = await until(
    () => get(base + '/__pagetree/live-reload'),
    (id) => id !== null && id !== before,
    20_000,
  );
  expect(after).not.toBe(before);
  const form = { 'content-type': 'application/x-www-form-urlencoded', origin: base };
  await fetch(base + '/', { method: 'POST', headers: form, body: 'title=milk', redirect: 'manual' });
  const renamed = await fetch(base + '/tasks/1', {
    method: 'POST',
    headers: form,
    body: 'title=oat+milk',
    redirect: 'manual',
  });
  expect(renamed.status).toBe(303);
  const cookie = renamed.headers.getSetCookie()[0]!.split(';')[0]!;
  await restart();
  const page = await (await fetch(base + '/', { headers: { cookie } })).text();
  expect(page).toContain('Task updated'); // the same secret after the restart: the signature still verifies
});

test('an open live region does not hold a restart back: its stream ends cleanly at once', async () => {
  const cookie = await adminCookie(base, 'admin@example.com', 'dev-loop-test');
  const stream = await openStream(Number(new URL(base).port), '/admin/events', { 'hx-request': 'true', cookie });
  const took = await restart();
  expect(await stream.ended).toBe('end');
  expect(took).toBeLessThan(8_000); // it waited for the 10 s shutdown timeout before (6.5 s with tsx's own kill)
  expect(dev.output()).not.toMatch(/MountError|Force killing/);
});
