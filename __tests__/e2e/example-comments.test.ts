// The example's live comments in Chromium with the real htmx client and its WebSocket extension (htmx 4's hx-ws,
// htmx 2's ws extension): a comment typed in one page of a task shows in another page of that task, and an empty
// one shows its error in the sender's form only. The example is served by serve() (pagetree/node), which opens
// sockets, as `npm start` does.

import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { serve, type NodeServer } from '../../core/node/index.ts';
import { createApp } from '../../pages-example/app.tsx';
import { poll, useChromium } from '../support/chromium.ts';

jest.setTimeout(60_000);

const chromium = useChromium();

describe.each(['4', '2'])('the example’s comments with htmx %s', (htmxVersion) => {
  let app: ReturnType<typeof createApp>;
  let server: NodeServer;
  let base: string;
  const pages: Page[] = [];

  beforeAll(async () => {
    app = createApp({ databasePath: ':memory:', htmxVersion });
    await app.store.addTask('Milk');
    server = serve(app.mux, { port: 0, hostname: '127.0.0.1', handleSignals: false, onListen: () => {} });
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const p of pages) await p.close();
    await server?.shutdown({ timeout: 1000 });
    await app?.store.close();
  });

  /** A page of task 1 whose comments socket is open (its first message, the list, has been swapped in). */
  async function taskPage(): Promise<Page> {
    const page = await chromium.browser.newPage();
    pages.push(page);
    page.on('dialog', () => {
      throw new Error('a dialog opened: injected script ran');
    });
    const opened = page.waitForEvent('websocket', (ws) => ws.url().endsWith('/tasks/1/comments'));
    await page.goto(`${base}/tasks/1`);
    const ws = await opened;
    await ws.waitForEvent('framereceived');
    return page;
  }

  const comments = (page: Page) => page.locator('#comments li').allTextContents();

  test('a comment typed in one page shows in the other page of the task; the sender’s field is emptied', async () => {
    const [a, b] = [await taskPage(), await taskPage()];
    await a.fill('#comment-fields input[name=text]', '<img src=x onerror=alert(1)> Oat, not cow');
    await a.click('#comment-form button');
    const want = ['<img src=x onerror=alert(1)> Oat, not cow'];
    expect(
      await poll(
        () => comments(b),
        (list) => list.length === 1,
      ),
    ).toEqual(want);
    expect(
      await poll(
        () => comments(a),
        (list) => list.length === 1,
      ),
    ).toEqual(want);
    expect(await a.inputValue('#comment-fields input[name=text]')).toBe('');
    // The form still sends after its fields were swapped: a second comment from b reaches a.
    await b.fill('#comment-fields input[name=text]', 'Bought');
    await b.press('#comment-fields input[name=text]', 'Enter');
    expect(
      await poll(
        () => comments(a),
        (list) => list.length === 2,
      ),
    ).toEqual([...want, 'Bought']);
  });

  test('an empty comment shows its error in the sender’s form; the other page shows none', async () => {
    const [a, b] = [await taskPage(), await taskPage()];
    await a.fill('#comment-fields input[name=text]', '   ');
    await a.click('#comment-form button');
    const error = a.locator('#comment-form .field-error');
    expect(
      await poll(
        () => error.count(),
        (n) => n === 1,
      ),
    ).toBe(1);
    await expect(error.textContent()).resolves.toBe('Write a comment first');
    expect(await b.locator('#comment-form .field-error').count()).toBe(0);
    expect(await comments(b)).toHaveLength(2); // those of the test above, drawn at open
  });
});
