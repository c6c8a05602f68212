// What htmx sends with a form's values, seen in Chromium with the real htmx 2 and htmx 4 (issue 45.2), for each
// method: where the values go (the URL or the body), with which Content-Type and Accept, and the hx-* headers.
// htmxRequest must build the same request, and parseForm must read the values where they are: htmx 2 sends a
// DELETE with `Content-Type: application/x-www-form-urlencoded`, its values in the URL and no body, and
// parseForm read the empty body ("Deleted 0 contacts", ok: true).

import { z } from 'zod';
import { htmxRequest, parseForm, ServeMux, type PageRequest } from '../../core/index.ts';
import { poll, useChromium } from '../support/chromium.ts';
import { useAppServer } from '../support/app-server.ts';
import { send } from '../support/node-http.ts';

jest.setTimeout(60_000);

const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
const values = { ids: ['1', '2'], note: 'a b&c' };

/** What the test compares of a request: the method, path and query, the headers htmx sets, and the body. */
interface Seen {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

async function seen(req: Request): Promise<Seen> {
  const url = new URL(req.url);
  // The browser adds its own (User-Agent, Origin, Sec-Fetch-*, Content-Length); htmx sets these.
  const headers = [...req.headers].filter(([name]) => /^(hx-|content-type$|accept$)/.test(name));
  return {
    method: req.method,
    url: url.pathname + url.search,
    headers: Object.fromEntries(headers),
    body: await req.text(),
  };
}

const recorded: Seen[] = [];
const mux = new ServeMux();
// One form per method, its values in inputs (a repeated name, a space and an "&"), sent into #out.
mux.handleFunc('GET /{$}', (req) => {
  const htmx = new URL(req.url).searchParams.get('htmx') === '2' ? '2' : '4';
  const inputs = '<input name="ids" value="1"><input name="ids" value="2"><input name="note" value="a b&amp;c">';
  const forms = methods.map((m) => {
    const verb = m.toLowerCase();
    return `<form id="f-${verb}" hx-${verb}="/seen/${verb}" hx-target="#out">${inputs}<button>${m}</button></form>`;
  });
  const contacts =
    '<form id="bulk" hx-delete="/contacts" hx-target="#out"><input type="checkbox" name="ids" value="3" checked>' +
    '<input type="checkbox" name="ids" value="4" checked><button>Delete selected</button></form>';
  const html = `<!doctype html><html><head><script src="/htmx.js?v=${htmx}"></script></head><body><div id="out"></div>${forms.join('')}${contacts}</body></html>`;
  return new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8' } });
});
mux.handleFunc('/seen/{verb}', async (req) => {
  recorded.push(await seen(req));
  return new Response('seen');
});
// The Contacts app's bulk delete, as the issue met it.
const Selected = z.object({ ids: z.array(z.coerce.number()) });
mux.handleFunc('DELETE /contacts', async (req: PageRequest) => {
  const form = await parseForm(req, Selected);
  return new Response(form.ok ? `Deleted ${form.data.ids.length} contacts: ${form.data.ids.join(', ')}` : 'invalid');
});

const chromium = useChromium();
const app = useAppServer(mux);

describe.each([4, 2] as const)('htmx %s in Chromium', (version) => {
  test.each(methods)('htmxRequest sends what htmx sends with a form: %s', async (method) => {
    const page = await chromium.browser.newPage();
    try {
      await page.goto(`${app.base}/?htmx=${version}`);
      const before = recorded.length;
      await page.click(`#f-${method.toLowerCase()} button`);
      await poll(
        () => recorded.length,
        (n) => n > before,
      );
      const browser = recorded[recorded.length - 1]!;
      const built = htmxRequest(`/seen/${method.toLowerCase()}`, {
        version,
        method,
        form: values,
        target: 'out',
        source: `f-${method.toLowerCase()}`,
        sourceTag: 'form',
        currentUrl: page.url(),
      });
      expect(await seen(built)).toEqual(browser);
    } finally {
      await page.close();
    }
  });

  test('parseForm reads a DELETE form where htmx put it: the bulk delete deletes what was checked', async () => {
    const page = await chromium.browser.newPage();
    try {
      await page.goto(`${app.base}/?htmx=${version}`);
      await page.click('#bulk button');
      const out = await poll(
        () => page.locator('#out').textContent(),
        (text) => text !== '',
      );
      expect(out).toBe('Deleted 2 contacts: 3, 4');
    } finally {
      await page.close();
    }
  });
});

// The record of what each htmx sends, as the tests above saw it: a change in either htmx shows here first.
test('what each htmx sends for each method, as recorded in Chromium', async () => {
  const form = (version: 2 | 4, method: string) =>
    seen(htmxRequest('/r', { version, method, form: { ids: ['1', '2'], note: 'a b' } }));
  const urlencoded = 'application/x-www-form-urlencoded';
  expect(await form(4, 'GET')).toEqual({
    method: 'GET',
    url: '/r?ids=1&ids=2&note=a+b',
    headers: expect.not.objectContaining({ 'content-type': expect.anything() }),
    body: '',
  });
  expect(await form(4, 'PATCH')).toMatchObject({
    url: '/r',
    headers: { accept: 'text/html', 'content-type': `${urlencoded};charset=UTF-8` },
    body: 'ids=1&ids=2&note=a+b',
  });
  expect(await form(4, 'DELETE')).toEqual({
    method: 'DELETE',
    url: '/r?ids=1&ids=2&note=a+b',
    headers: expect.not.objectContaining({ 'content-type': expect.anything() }),
    body: '',
  });
  expect(await form(2, 'PUT')).toMatchObject({
    url: '/r',
    headers: { accept: '*/*', 'content-type': urlencoded },
    body: 'ids=1&ids=2&note=a%20b',
  });
  expect(await form(2, 'DELETE')).toMatchObject({
    url: '/r?ids=1&ids=2&note=a%20b',
    headers: { 'content-type': urlencoded },
    body: '',
  });
  // POST, PUT and PATCH carry the Content-Type and an empty body even without values; a DELETE of htmx 4, none.
  expect(await seen(htmxRequest('/r', { version: 2, method: 'POST' }))).toMatchObject({
    headers: { 'content-type': urlencoded },
    body: '',
  });
  expect((await seen(htmxRequest('/r', { method: 'DELETE' }))).headers['content-type']).toBeUndefined();
});

test('a DELETE as htmx 2 sends it, through the server: the values are read from the URL', async () => {
  const port = Number(new URL(app.base).port);
  const headers = { 'content-type': 'application/x-www-form-urlencoded' };
  const res = await send(port, '/contacts?ids=5&ids=6', { method: 'DELETE', headers });
  expect([res.status, res.body]).toEqual([200, 'Deleted 2 contacts: 5, 6']);
  const viaMux = await mux.fetch(htmxRequest('/contacts', { version: 2, method: 'DELETE', form: { ids: ['7'] } }));
  expect(await viaMux.text()).toBe('Deleted 1 contacts: 7');
});
