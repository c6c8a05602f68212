// Live regions in Chromium with the real htmx client and its SSE extension, htmx 4 (hx-sse, shipped in htmx.org)
// and htmx 2 (htmx-ext-sse): the admin dashboard's task counts follow changes made in another page.

import type { Page } from 'playwright-core';
import { Subscriptions, type Broker } from '../../core/index.ts';
import { poll, useChromium } from '../support/chromium.ts';
import { useExampleServer } from '../support/example-server.ts';

jest.setTimeout(60_000);

const chromium = useChromium();

describe.each(['4', '2'])('live task counts with htmx %s', (htmxVersion) => {
  const example = useExampleServer({ htmxVersion });

  const counts = (page: Page) => page.locator('#admin-index-counts').textContent();
  const subscribers = (n: number) =>
    poll(
      () => example.inFlight('/admin/events'),
      (s) => s === n,
    );

  // What the tasks page does, then how long the dashboard takes to show it (at most a second).
  async function changeAndSee(dashboard: Page, change: () => Promise<void>, want: string): Promise<void> {
    await change();
    const seen = await poll(
      () => counts(dashboard),
      (text) => text === want,
      1000,
    );
    expect(seen).toBe(want);
  }

  test('a change made in another page shows on the dashboard within a second', async () => {
    const dashboard = await chromium.browser.newPage();
    await dashboard.context().addCookies([await example.adminCookie()]);
    await dashboard.goto(example.base + '/admin/');
    expect(await subscribers(1)).toBe(1); // the extension connected
    await expect(counts(dashboard)).resolves.toBe('0 open · 0 done · 0 tasks');

    const tasks = await chromium.browser.newPage();
    await tasks.goto(example.base + '/');
    await changeAndSee(
      dashboard,
      async () => {
        await tasks.fill('input[name=title]', 'water the plants');
        await tasks.click('form.add button');
        await tasks.locator('ul.tasks li', { hasText: 'water the plants' }).waitFor();
      },
      '1 open · 0 done · 1 task',
    );
    await changeAndSee(
      dashboard,
      async () => {
        await tasks.locator('ul.tasks li', { hasText: 'water the plants' }).locator('button.toggle').click();
        await tasks.locator('ul.tasks li.done').waitFor();
      },
      '0 open · 1 done · 1 task',
    );
    await changeAndSee(
      dashboard,
      async () => {
        await tasks.locator('ul.tasks li button.delete').click();
        await tasks.locator('ul.tasks li').waitFor({ state: 'detached' });
      },
      '0 open · 0 done · 0 tasks',
    );
    // The region was swapped in place: one of it, still connected.
    expect(await dashboard.locator('#admin-index-counts').count()).toBe(1);
    expect(example.inFlight('/admin/events')).toBe(1);
    await tasks.close();

    // Leaving the dashboard by a boosted link (no page unload) closes the stream, and so does closing the page.
    await dashboard.click('nav a:has-text("Tasks")');
    await dashboard.locator('h1', { hasText: 'Tasks' }).waitFor();
    expect(await subscribers(0)).toBe(0);
    await dashboard.goto(example.base + '/admin/');
    expect(await subscribers(1)).toBe(1);
    await dashboard.close();
    expect(await subscribers(0)).toBe(0);
  });

  // htmx 4 deferred started on a timer that could fire before a deferred extension had registered.
  test('sse-extension-loaded-late-still-connects', async () => {
    const dashboard = await chromium.browser.newPage();
    await dashboard.route('**/static/htmx-sse.*', async (route) => {
      await new Promise((r) => setTimeout(r, 300));
      await route.continue();
    });
    await dashboard.context().addCookies([await example.adminCookie()]);
    await dashboard.goto(example.base + '/admin/');
    expect(await subscribers(1)).toBe(1);
    await dashboard.close();
    expect(await subscribers(0)).toBe(0);
  });
});

// A broker that reconnected to its server tells the hub of a gap; the hub sends a refresh event, and the dashboard
// reloads its counts from the page (htmx 4: "refresh" caught by the element around; htmx 2: "sse:refresh").
describe.each(['4', '2'])('a dashboard that missed changes reloads its counts (htmx %s)', (htmxVersion) => {
  const subscriptions = new Subscriptions();
  let lost = false; // while true, what is published reaches no one, as while a broker's connection is down
  let lastId = 0;
  const broker: Broker = {
    publish: async (topic, data = '') => {
      const id = String(++lastId);
      if (!lost) subscriptions.deliver(topic, { id, data });
      return id;
    },
    subscribe: (topic, signal) => subscriptions.open(topic, signal),
    close: async () => subscriptions.end(),
  };
  const example = useExampleServer({ htmxVersion, broker });

  test('a gap reloads the counts', async () => {
    const dashboard = await chromium.browser.newPage();
    await dashboard.context().addCookies([await example.adminCookie()]);
    await dashboard.goto(example.base + '/admin/');
    const counts = () => dashboard.locator('#admin-index-counts').textContent();
    expect(
      await poll(
        () => example.inFlight('/admin/events'),
        (n) => n === 1,
      ),
    ).toBe(1);
    lost = true;
    await example.app.store.addTask('made while the broker was away');
    await new Promise((r) => setTimeout(r, 300));
    expect(await counts()).toBe('0 open · 0 done · 0 tasks'); // the change did not reach the dashboard
    lost = false;
    subscriptions.gap();
    expect(await poll(counts, (text) => text === '1 open · 0 done · 1 task', 2000)).toBe('1 open · 0 done · 1 task');
    // Reloaded in place, still connected: the next change arrives as an event.
    await example.app.store.addTask('after');
    expect(await poll(counts, (text) => text === '2 open · 0 done · 2 tasks', 2000)).toBe('2 open · 0 done · 2 tasks');
    expect(await dashboard.locator('#admin-index-counts').count()).toBe(1);
    await dashboard.close();
  });
});
