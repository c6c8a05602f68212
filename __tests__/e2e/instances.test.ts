// The example on two instances (issue 27.6), as `npm start` runs them, on a real Postgres, with live events through
// Postgres LISTEN/NOTIFY and then through Redis pub/sub, in Chromium with htmx 4 and htmx 2. The browser reaches
// instance B through a load balancer of the test's (support/balancer.ts) that can cut its connections:
//
//   log in on A → B's dashboard opens with that cookie → a task added on A shows on B's dashboard within a second
//   SIGKILL A → a task added on B still shows, and the session is still valid on B
//   the stream is cut, three tasks are added, the browser reconnects with Last-Event-ID → all three are replayed

import pg from 'pg';
import type { Page } from 'playwright-core';
import { startBalancer, type Balancer } from '../support/balancer.ts';
import { poll, useChromium } from '../support/chromium.ts';
import { sharedEnv, startExample, type ExampleProcess } from '../support/example-process.ts';
import { adminCookie, send } from '../support/node-http.ts';
import { usePostgres, useRedis } from '../support/services.ts';

jest.setTimeout(90_000);

const postgres = usePostgres();
const redis = useRedis();
const chromium = useChromium();

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

let databases = 0;
/** A database of its own for each test, on the one Postgres server. */
async function database(): Promise<string> {
  const name = `instances_${++databases}`;
  const client = new pg.Client({ connectionString: postgres.url });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  return postgres.url.replace(/\/postgres$/, `/${name}`);
}

/** What the tasks page's form does. */
async function addTask(instance: ExampleProcess, title: string): Promise<void> {
  const reply = await send(instance.port, '/', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
    body: new URLSearchParams({ title }).toString(),
  });
  expect([instance.port, reply.status]).toEqual([instance.port, 303]);
}

const counts = (page: Page) => page.locator('#admin-index-counts').textContent();
const tasks = (n: number) => `${n} open · 0 done · ${n} ${n === 1 ? 'task' : 'tasks'}`;

/** Waits until the dashboard shows `n` open tasks, for at most `ms`. */
async function shows(page: Page, n: number, ms: number): Promise<string | null> {
  return poll(
    () => counts(page),
    (text) => text === tasks(n),
    ms,
  );
}

const streamsOf = (lb: Balancer) => lb.exchanges.filter((e) => e.request.startsWith('GET /admin/events '));

describe.each([
  { broker: 'Postgres LISTEN/NOTIFY', viaRedis: false },
  { broker: 'Redis pub/sub', viaRedis: true },
])('two instances, live events through $broker', ({ viaRedis }) => {
  test.each(['4', '2'])('htmx %s: a change on A shows on B; B goes on without A; a reconnect resumes', async (htmx) => {
    const env = { DATABASE_URL: await database(), HTMX_VERSION: htmx, ...(viaRedis ? { REDIS_URL: redis.url } : {}) };
    const [a, b] = await Promise.all([startExample(env), startExample(env)]);
    cleanups.push(a.kill, b.kill);
    const lb = await startBalancer(b.port);
    cleanups.push(lb.close);

    // Logged in on A; the same cookie opens B's dashboard.
    const cookie = await adminCookie(a.base, sharedEnv.ADMIN_EMAIL, sharedEnv.ADMIN_PASSWORD);
    const [name, value] = [cookie.slice(0, cookie.indexOf('=')), cookie.slice(cookie.indexOf('=') + 1)];
    const page = await chromium.browser.newPage();
    cleanups.push(() => page.close());
    await page.context().addCookies([{ name, value, url: lb.base }]);
    const dashboard = await page.goto(lb.base + '/admin/');
    expect([dashboard?.status(), await page.title()]).toEqual([200, 'Admin · pagetree']);
    expect(
      await poll(
        () => streamsOf(lb).length,
        (n) => n === 1,
      ),
    ).toBe(1);

    // The first change may come before B's hub listens (it subscribes with the first stream): added again until
    // one shows. Then each change on A is on B's dashboard within a second.
    let added = 0;
    for (let tries = 0; (await counts(page)) !== tasks(added) || added === 0; tries++) {
      expect(tries).toBeLessThan(20);
      await addTask(a, `warm-up ${++added}`);
      await shows(page, added, 500);
    }
    await addTask(a, 'added on A');
    expect(await shows(page, ++added, 1000)).toBe(tasks(added));

    // A dies without a word: B hears its own changes through the broker, and the session still holds on B.
    await a.kill();
    await addTask(b, 'added on B after A died');
    expect(await shows(page, ++added, 1000)).toBe(tasks(added));
    expect((await send(b.port, '/admin/', { headers: { cookie } })).status).toBe(200);

    // The stream drops; three tasks are added while the browser cannot reconnect; then it does, with the id of the
    // last event it saw, and gets the three events it missed from B's buffer (not a refresh).
    const before = streamsOf(lb).length;
    lb.hold();
    lb.cut();
    for (const title of ['missed one', 'missed two', 'missed three']) await addTask(b, title);
    added += 3;
    await new Promise((r) => setTimeout(r, 200));
    lb.release();
    expect(await shows(page, added, 10_000)).toBe(tasks(added));
    const reconnect = streamsOf(lb)[before];
    expect(reconnect?.request).toMatch(/\r\nlast-event-id: \d+/i);
    const lastSeen = Number(/\r\nlast-event-id: (\d+)/i.exec(reconnect!.request)![1]);
    const replayed = [...reconnect!.response.matchAll(/\nid: (\d+)\ndata: (.*)\n/g)].map((m) => Number(m[1]));
    expect(replayed.length).toBeGreaterThanOrEqual(3);
    expect(replayed.slice(0, 3).every((id) => id > lastSeen)).toBe(true);
    expect(reconnect!.response).not.toContain('event: refresh');
  });
});
