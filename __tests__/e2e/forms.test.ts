// The example's forms in Chromium: with htmx 4, with htmx 2, and with JavaScript disabled. An invalid title shows
// its error beside the field (422) with the value kept and the field focused; a valid edit lands on the list with
// "Task updated", shown once.

import type { BrowserContext, Page, Response as BrowserResponse } from 'playwright-core';
import { useChromium } from '../support/chromium.ts';
import { useExampleServer } from '../support/example-server.ts';

jest.setTimeout(60_000);

const chromium = useChromium();

const modes = [
  { name: 'htmx 4', htmxVersion: '4', javaScript: true },
  { name: 'htmx 2', htmxVersion: '2', javaScript: true },
  { name: 'no JavaScript', htmxVersion: '4', javaScript: false },
];

describe.each(modes)('the forms with $name', ({ htmxVersion, javaScript }) => {
  const example = useExampleServer({ htmxVersion });
  let context: BrowserContext;
  let page: Page;
  const answers: { method: string; path: string; status: number }[] = [];

  beforeAll(async () => {
    await example.app.store.addTask('Milk');
    context = await chromium.browser.newContext({ javaScriptEnabled: javaScript });
    page = await context.newPage();
    page.on('response', (res: BrowserResponse) => {
      const url = new URL(res.url());
      answers.push({ method: res.request().method(), path: url.pathname, status: res.status() });
    });
  });
  afterAll(async () => {
    await context?.close();
  });

  // A page loaded by the browser itself (not htmx) forgets the marker.
  const setMarker = () => page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
  const marker = () => page.evaluate(() => (window as unknown as { marker?: number }).marker);
  const posts = (path: string) => answers.filter((a) => a.method === 'POST' && a.path === path).map((a) => a.status);

  test('an invalid edit shows the error beside the field, keeps the value and focuses it (422)', async () => {
    await page.goto(example.base + '/');
    await page.locator('ul.tasks li', { hasText: 'Milk' }).locator('a.edit').click();
    await page.waitForURL(example.base + '/tasks/1');
    await expect(page.locator('#edit-title').inputValue()).resolves.toBe('Milk');
    if (javaScript) await setMarker();
    await page.fill('#edit-title', '   ');
    await page.click('form.edit button');
    await page.locator('#edit-title-error').waitFor();
    await expect(page.locator('#edit-title-error').textContent()).resolves.toBe('A task needs a title');
    await expect(page.locator('#edit-title').getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(page.locator('#edit-title').getAttribute('aria-describedby')).resolves.toBe('edit-title-error');
    await expect(page.locator('#edit-title').inputValue()).resolves.toBe('   ');
    await page
      .waitForFunction(() => document.activeElement?.id === 'edit-title', null, { timeout: 5000 })
      .catch(() => {});
    await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('edit-title');
    expect(posts('/tasks/1')).toEqual([422]);
    expect(page.url()).toBe(example.base + '/tasks/1');
    expect(await page.locator('form.edit').count()).toBe(1); // swapped into place, not nested
    expect(await marker()).toBe(javaScript ? 42 : undefined); // htmx swapped the form; without JS, a new page
    expect((await example.app.store.task(1))?.title).toBe('Milk');
  });

  test('a valid edit lands on the list with "Task updated", shown once', async () => {
    await page.fill('#edit-title', '  Oat milk & honey <b>  ');
    await page.click('form.edit button');
    await page.waitForURL(example.base + '/');
    await page.locator('#notice', { hasText: 'Task updated' }).waitFor();
    await expect(page.locator('ul.tasks li .title').first().textContent()).resolves.toBe('Oat milk & honey <b>');
    expect(posts('/tasks/1')).toEqual([422, javaScript ? 200 : 303]); // HX-Location for htmx, 303 without
    expect(await marker()).toBe(javaScript ? 42 : undefined); // htmx followed HX-Location without a reload
    await page.reload();
    await page.locator('h1', { hasText: 'Tasks' }).waitFor();
    await expect(page.locator('#notice').textContent()).resolves.toBe('');
  });

  test('the add form: an empty title is refused beside the field, a valid one is added', async () => {
    if (javaScript) await setMarker();
    await page.fill('#new-title', '  ');
    await page.click('form.add button');
    await page.locator('#new-title-error').waitFor();
    await expect(page.locator('#new-title-error').textContent()).resolves.toBe('A task needs a title');
    // htmx focuses the swapped-in autofocus field when it settles, a moment after the swap shows the message.
    await page
      .waitForFunction(() => document.activeElement?.id === 'new-title', null, { timeout: 5000 })
      .catch(() => {});
    await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('new-title');
    expect(posts('/')).toEqual([422]);
    await page.fill('#new-title', 'Eggs');
    await page.click('form.add button');
    await page.locator('ul.tasks li .title', { hasText: 'Eggs' }).waitFor();
    await page.locator('#new-title-error').waitFor({ state: 'detached' });
    await expect(page.locator('#new-title').inputValue()).resolves.toBe('');
    await expect(page.locator('#tasks-open-count').textContent()).resolves.toBe('2 open tasks');
    expect(posts('/')).toEqual([422, javaScript ? 200 : 303]);
    expect(await marker()).toBe(javaScript ? 42 : undefined);
  });
});
