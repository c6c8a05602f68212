// region-only-answers-swap-alike (issue 26.2): an answer made only of other regions (an empty fragment plus
// alsoRender) does the same in htmx 2 and htmx 4: the main swap runs too, so the book's row deletion
// (hx-target="closest tr" hx-swap="outerHTML", an empty answer) removes the row and updates the count on both.
// htmx 4 alone skipped the main swap of such an answer and left the row in place.

import { alsoRender, id, mount, renderComponent, route, ServeMux, type PageRequest } from '../../core/index.ts';
import { poll, useChromium } from '../support/chromium.ts';
import { htmxDocument, useAppServer } from '../support/app-server.ts';

jest.setTimeout(60_000);

let contacts = new Map<number, string>();

class Contacts {
  props(req: PageRequest) {
    return { htmx: new URL(req.url).searchParams.get('htmx') ?? '4' };
  }
  page(props: { htmx: string }) {
    return htmxDocument(
      props.htmx,
      <>
        <p id={id(this.count)}>{this.count()}</p>
        <table>
          <tbody>
            {[...contacts].map(([n, name]) => (
              <tr>
                <td safe>{name}</td>
                <td>
                  <button hx-delete={`/contacts/${n}`} hx-target="closest tr" hx-swap="outerHTML">
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </>,
    );
  }
  count() {
    return <>{contacts.size} contacts</>;
  }
}

class Contact {
  delete(req: PageRequest) {
    contacts.delete(Number(req.pathValue('n')));
    alsoRender(Contacts.prototype.count, <>{contacts.size} contacts</>);
    return renderComponent('');
  }
}

class App {
  contacts = route('GET /{$}', Contacts);
  contact = route('/contacts/{n}', Contact);
}

const chromium = useChromium();
const mux = new ServeMux();
mount(mux, App);
const app = useAppServer(mux);

test.each(['4', '2'])('region-only-answers-swap-alike with htmx %s: the row goes, the count follows', async (htmx) => {
  contacts = new Map([
    [1, 'Ada'],
    [2, 'Grace'],
    [3, 'Linus'],
  ]);
  const page = await chromium.browser.newPage();
  await page.goto(`${app.base}/?htmx=${htmx}`);
  await page.locator('tr', { hasText: 'Grace' }).locator('button').click();
  const count = await poll(
    () => page.locator('#contacts-count').textContent(),
    (text) => text === '2 contacts',
  );
  expect(count).toBe('2 contacts');
  expect(
    await poll(
      () => page.locator('tr').count(),
      (n) => n === 2,
    ),
  ).toBe(2);
  expect(await page.locator('td:first-child').allTextContents()).toEqual(['Ada', 'Linus']);
  // Nothing of the answer is left to see.
  expect(await page.locator('tbody').textContent()).toBe('AdaDeleteLinusDelete');
  await page.close();
});
