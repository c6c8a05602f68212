// The example app in Chromium with the real htmx client, once with htmx 4 and once with htmx 2.
// Chromium is Debian's (/usr/bin/chromium, installed by .ci/run); playwright-core drives it.

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page, Request as BrowserRequest } from 'playwright-core';
import { poll, useChromium } from '../support/chromium.ts';
import { useExampleServer } from '../support/example-server.ts';

const artifacts = join(__dirname, 'artifacts');
jest.setTimeout(60_000);

const chromium = useChromium();

interface Seen {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

describe.each(['4', '2'])('the example app with htmx %s', (htmxVersion) => {
  const example = useExampleServer({ htmxVersion });
  let page: Page;
  const seen: Seen[] = [];

  beforeAll(async () => {
    page = await chromium.browser.newPage();
    page.on('dialog', () => {
      throw new Error('a dialog opened: injected script ran');
    });
    // Record every htmx request with its answer.
    page.on('requestfinished', (req: BrowserRequest) => {
      void (async () => {
        const headers = await req.allHeaders();
        const res = await req.response();
        if (!res || headers['hx-request'] !== 'true') return;
        seen.push({ method: req.method(), url: req.url(), headers, body: await res.text() });
      })().catch(() => {}); // a page closing mid-read is not a finding
    });
  });
  afterAll(async () => {
    await page?.close();
  });

  // The htmx requests for a path, once they have finished.
  async function requestsTo(method: string, path: string): Promise<Seen[]> {
    const matching = () =>
      seen.filter((s) => s.method === method && new URL(s.url).pathname + new URL(s.url).search === path);
    const found = await poll(matching, (list) => list.length > 0);
    expect(found.length).toBeGreaterThan(0);
    return found;
  }

  const marker = () => page.evaluate(() => (window as unknown as { marker?: number }).marker);

  test('loads the full page with htmx running', async () => {
    await page.goto(example.base + '/');
    await expect(page.title()).resolves.toBe('Tasks · pagetree');
    const version = await page.evaluate(() => (window as unknown as { htmx?: { version: string } }).htmx?.version);
    expect(version?.startsWith(htmxVersion + '.')).toBe(true);
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
    mkdirSync(artifacts, { recursive: true });
  });

  test('adds, toggles and deletes tasks without a full reload', async () => {
    for (const title of ['buy milk', 'walk the dog', '<script>alert(1)</script>']) {
      await page.fill('input[name=title]', title);
      await page.click('form.add button');
      await page.locator('ul.tasks li .title', { hasText: title }).waitFor();
    }
    await expect(page.locator('input[name=title]').inputValue()).resolves.toBe(''); // the form came back empty
    // alsoRender: the count region came with each answer; hxTrigger: the notice, as text.
    const count = () => page.locator('#tasks-open-count').textContent();
    await expect(count()).resolves.toBe('3 open tasks');
    await expect(page.locator('#notice').textContent()).resolves.toBe('Task added: <script>alert(1)</script>');
    // The injected title is text, not a script.
    await expect(page.locator('ul.tasks li .title').nth(2).textContent()).resolves.toBe('<script>alert(1)</script>');
    const [add] = await requestsTo('POST', '/');
    expect(add!.headers['hx-request']).toBe('true');
    expect(add!.headers['hx-target']).toBe(htmxVersion === '4' ? 'div#tasks-add-form' : 'tasks-add-form');
    // The add form again, with the list and the count as regions beside it.
    expect(add!.body).toMatch(/^<form class="add"/);
    for (const region of ['tasks-task-list', 'tasks-open-count']) {
      expect(add!.body).toContain(
        htmxVersion === '4' ? `<hx-partial id="${region}"` : `<div id="${region}" hx-swap-oob="innerHTML">`,
      );
    }

    await page.locator('ul.tasks li', { hasText: 'buy milk' }).locator('button.toggle').click();
    await page.locator('ul.tasks li.done', { hasText: 'buy milk' }).waitFor();
    await page.locator('ul.tasks li', { hasText: 'walk the dog' }).locator('button.delete').click();
    await page.locator('ul.tasks li', { hasText: 'walk the dog' }).waitFor({ state: 'detached' });
    expect(await poll(count, (text) => text === '1 open task')).toBe('1 open task');
    // Nothing of the out-of-band wrappers stays in the page.
    expect(await page.locator('#tasks-open-count').count()).toBe(1);
    expect(await page.locator('main template, main hx-partial').count()).toBe(0);
    expect(await marker()).toBe(42);
    await page.screenshot({ path: join(artifacts, `main-htmx${htmxVersion}.png`), fullPage: true });
  });

  test('search re-renders only the results region', async () => {
    await page.locator('input[type=search]').pressSequentially('milk');
    expect(
      await poll(
        () => page.locator('ul.tasks li').count(),
        (n) => n === 1,
      ),
    ).toBe(1);
    const [search] = await requestsTo('GET', '/?q=milk');
    expect(search!.headers['hx-request']).toBe('true');
    expect(search!.headers['hx-target']).toBe(htmxVersion === '4' ? 'section#tasks-task-list' : 'tasks-task-list');
    expect(search!.body).toMatch(/^<ul class="tasks">/);
    expect(search!.body).not.toContain('<html');
    expect(await page.locator('h1').count()).toBe(1);
    expect(await marker()).toBe(42);
    expect(new URL(page.url()).search).toBe('?q=milk'); // pushed
  });

  test('the back button after a boosted navigation gives a full page, not a fragment', async () => {
    await page.context().addCookies([await example.adminCookie()]); // logged in: the admin section lets it in
    await page.click('nav a:has-text("Admin")');
    await page.waitForURL(example.base + '/admin/');
    await expect(page.locator('h1').textContent()).resolves.toBe('Admin');
    expect(await marker()).toBe(42); // boosted: no full reload
    await page.goBack();
    await page.waitForURL(example.base + '/?q=milk');
    await page.locator('h1', { hasText: 'Tasks' }).waitFor();
    expect(await page.locator('header nav').count()).toBe(1);
    expect(await page.locator('h1').count()).toBe(1);
    expect(await page.locator('section#tasks-task-list').count()).toBe(1);
    // A reload of a pushed partial URL is a full page too.
    await page.reload();
    await page.locator('h1', { hasText: 'Tasks' }).waitFor();
    expect(await page.locator('header nav').count()).toBe(1);
  });

  test('without a login the Admin link leads to the login page, and logging in lands on the dashboard', async () => {
    const context = await chromium.browser.newContext();
    const visitor = await context.newPage();
    try {
      await visitor.goto(example.base + '/');
      await visitor.click('nav a:has-text("Admin")'); // boosted: htmx follows HX-Location to the whole login page
      await visitor.waitForURL(example.base + '/login?next=%2Fadmin%2F');
      expect(await visitor.locator('h1').allTextContents()).toEqual(['Log in']);
      await visitor.fill('input[name=email]', example.app.admin.email);
      await visitor.fill('input[name=password]', 'wrong');
      await visitor.click('button:has-text("Log in")');
      await visitor.locator('[role=alert]', { hasText: 'do not match' }).waitFor();
      await visitor.fill('input[name=password]', example.app.admin.password);
      await visitor.click('button:has-text("Log in")');
      await visitor.waitForURL(example.base + '/admin/');
      expect(await visitor.locator('h1').allTextContents()).toEqual(['Admin']);
    } finally {
      await context.close();
    }
  });

  test('visiting /admin lands on /admin/', async () => {
    const res = await page.goto(example.base + '/admin');
    expect(page.url()).toBe(example.base + '/admin/');
    expect(res!.status()).toBe(200);
    expect(res!.request().redirectedFrom()?.url()).toBe(example.base + '/admin');
  });
});
