// The contact table's row deletion in Chromium (issue 45.7): an empty answer with the count beside it, swapped into
// `closest tr`. docs/htmx-regions.md said `hx-swap="outerHTML swap:1s"` worked "as written on both"; with htmx 4 it
// leaves the empty <template> pagetree sends (htmx 4 skips the main swap of an answer of regions alone) where each
// deleted row was. `hx-swap="delete"`, which the page now shows, leaves nothing in both versions.

import { alsoRender, id, mount, renderComponent, route, ServeMux, type PageRequest } from '../../core/index.ts';
import { poll, useChromium } from '../support/chromium.ts';
import { useAppServer } from '../support/app-server.ts';

jest.setTimeout(60_000);

let contacts = new Map<number, string>();

class ContactsPage {
  props(req: PageRequest) {
    const query = new URL(req.url).searchParams;
    return { htmx: query.get('htmx') === '2' ? '2' : '4', swap: query.get('swap') ?? 'delete' };
  }
  page(props: { htmx: string; swap: string }) {
    const rows = [...contacts].map(
      ([n, name]) =>
        `<tr><td>${name}</td><td><button hx-delete="/contacts/${n}" hx-target="closest tr" hx-swap="${props.swap}">Delete</button></td></tr>`,
    );
    return `<!doctype html><html><head><script src="/htmx.js?v=${props.htmx}"></script></head><body><p id="${id(this.count)}">${this.count()}</p><table><tbody>${rows.join('')}</tbody></table></body></html>`;
  }
  count() {
    return `${contacts.size} contacts`;
  }
}

class Contact {
  delete(req: PageRequest) {
    contacts.delete(Number(req.pathValue('n')));
    alsoRender(ContactsPage.prototype.count, `${contacts.size} contacts`);
    return renderComponent('');
  }
}

class App {
  contacts = route('GET /{$}', ContactsPage);
  contact = route('/contacts/{n}', Contact);
}

const chromium = useChromium();
const mux = new ServeMux();
mount(mux, App);
const countId = id(ContactsPage.prototype.count);
const app = useAppServer(mux);

test.each<[string, string, string[]]>([
  ['4', 'delete swap:1s', ['TR', 'TR']],
  ['2', 'delete swap:1s', ['TR', 'TR']],
  ['4', 'delete', ['TR', 'TR']],
  ['2', 'delete', ['TR', 'TR']],
  // What the page says outerHTML leaves: nothing in htmx 2, an empty <template> in htmx 4.
  ['2', 'outerHTML swap:1s', ['TR', 'TR']],
  ['4', 'outerHTML swap:1s', ['TR', 'TEMPLATE', 'TR']],
])('row deletion with htmx %s and hx-swap="%s": the row goes, the count follows', async (htmx, swap, left) => {
  contacts = new Map([
    [1, 'Ada'],
    [2, 'Grace'],
    [3, 'Linus'],
  ]);
  const page = await chromium.browser.newPage();
  try {
    await page.goto(`${app.base}/?htmx=${htmx}&swap=${encodeURIComponent(swap)}`);
    await page.locator('tr', { hasText: 'Grace' }).locator('button').click();
    const tags = () => page.locator('tbody').evaluate((tbody) => [...tbody.children].map((e) => e.tagName));
    expect(await poll(tags, (now) => now.join() === left.join())).toEqual(left);
    expect(await page.locator(`#${countId}`).textContent()).toBe('2 contacts');
    expect(await page.locator('td:first-child').allTextContents()).toEqual(['Ada', 'Linus']);
  } finally {
    await page.close();
  }
});
