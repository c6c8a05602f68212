// Click-to-edit, htmx's canonical example, as a contact table with inline validation and row deletion (issue 45.10,
// 45.11), in Chromium with the real htmx 2 and htmx 4. Written as docs/recipes.md shows it, with no framework helper
// of its own: the rows have no id (`hx-target="closest tr"`), each page says which component answers a request that
// swaps into one (`fragment`), and the 422 answers with the form row (`answerWith`). Before, htmx 4 (HX-Target: tr)
// and htmx 2 (no HX-Target) each got the whole page inside the row.

import {
  mount,
  renderComponent,
  route,
  ServeMux,
  setStatus,
  type Children,
  type PageRequest,
} from '../../core/index.ts';
import { formState, parseForm, type FieldName, type FormState } from '../../core/forms/index.ts';
import { answerWith, HtmxConfig } from '../../core/htmx/index.ts';
import { z } from 'zod';
import { poll, useChromium } from '../support/chromium.ts';
import { useAppServer } from '../support/app-server.ts';
import { urlFor } from '../support/url-for.ts';

jest.setTimeout(60_000);

interface Contact {
  id: number;
  name: string;
  email: string;
}

const ContactInput = z.object({
  name: z.string().trim().min(1, 'A name is required'),
  email: z.string().trim().email('That is no email address'),
});
type ContactForm = FormState<FieldName<typeof ContactInput>>;

let contacts = new Map<number, Contact>();

function contactOf(req: PageRequest): Contact {
  return contacts.get(Number(req.pathValue('contactId')))!;
}

function Layout(props: { htmx: string; children?: Children }): string {
  return (
    '<!doctype html>' +
    (
      <html>
        <head>
          <HtmxConfig />
          <script src={`/htmx.js?v=${props.htmx === '2' ? '2' : '4'}`}></script>
        </head>
        <body>{props.children}</body>
      </html>
    )
  );
}

function ContactRow(props: { contact: Contact }): JSX.Element {
  const c = props.contact;
  return (
    <tr>
      <td safe>{c.name}</td>
      <td safe>{c.email}</td>
      <td>
        <button hx-get={urlFor(EditContactPage, { contactId: c.id })}>Edit</button>
        <button hx-delete={urlFor(ContactPage, { contactId: c.id })} hx-swap="delete">
          Delete
        </button>
      </td>
    </tr>
  );
}

function EditRow(props: { contact: Contact; form: ContactForm }): JSX.Element {
  const { contact, form } = props;
  const field = (name: 'name' | 'email') => {
    const error = form.errors[name]?.[0];
    return (
      <td>
        <input name={name} value={form.values[name]} aria-invalid={error === undefined ? undefined : 'true'} />
        {error !== undefined && (
          <p class="error" safe>
            {error}
          </p>
        )}
      </td>
    );
  };
  return (
    <tr class="editing">
      {field('name')}
      {field('email')}
      <td>
        <button hx-put={urlFor(ContactPage, { contactId: contact.id })} hx-include="closest tr">
          Save
        </button>
        <button hx-get={urlFor(ContactPage, { contactId: contact.id })}>Cancel</button>
      </td>
    </tr>
  );
}

/** GET /: the table. Its buttons swap the row they are in (inherited, written for htmx 2 and htmx 4). */
class ContactsPage {
  props(req: PageRequest) {
    return { htmx: new URL(req.url).searchParams.get('htmx') ?? '4', contacts: [...contacts.values()] };
  }
  page(props: { htmx: string; contacts: Contact[] }) {
    return (
      <Layout htmx={props.htmx}>
        <table>
          <tbody
            hx-target="closest tr"
            hx-target:inherited="closest tr"
            hx-swap="outerHTML"
            hx-swap:inherited="outerHTML"
          >
            {props.contacts.map((c) => (
              <ContactRow contact={c} />
            ))}
          </tbody>
        </table>
      </Layout>
    );
  }
}

/** GET, PUT, DELETE /contacts/{contactId}: a contact; its row where htmx swaps into one. */
class ContactPage {
  fragment = this.row;
  props(req: PageRequest) {
    return { contact: contactOf(req) };
  }
  async put(req: PageRequest) {
    const contact = contactOf(req);
    const form = await parseForm(req, ContactInput);
    if (!form.ok) {
      setStatus(422);
      return answerWith(EditRow, { contact, form });
    }
    Object.assign(contact, form.data);
    return { contact };
  }
  delete(req: PageRequest) {
    contacts.delete(contactOf(req).id);
    return renderComponent(''); // the button's hx-swap="delete" removes the row
  }
  page(props: { contact: Contact }) {
    return (
      <Layout htmx="4">
        <table>{this.row(props)}</table>
      </Layout>
    );
  }
  row(props: { contact: Contact }) {
    return <ContactRow contact={props.contact} />;
  }
}

/** GET /contacts/{contactId}/edit: the contact's form; its row where htmx swaps into one. */
class EditContactPage {
  fragment = this.editRow;
  props(req: PageRequest) {
    const contact = contactOf(req);
    return { contact, form: formState(ContactInput, { name: contact.name, email: contact.email }) };
  }
  page(props: { contact: Contact; form: ContactForm }) {
    return (
      <Layout htmx="4">
        <table>{this.editRow(props)}</table>
      </Layout>
    );
  }
  editRow(props: { contact: Contact; form: ContactForm }) {
    return <EditRow {...props} />;
  }
}

class App {
  contacts = route('GET /{$}', ContactsPage);
  contact = route('/contacts/{contactId}', ContactPage);
  edit = route('GET /contacts/{contactId}/edit', EditContactPage);
}

const chromium = useChromium();
const mux = new ServeMux();
mount(mux, App);
const app = useAppServer(mux);

test.each(['4', '2'])(
  'htmx %s: edit a row in place, a 422 shows the error in the row, save, cancel, delete',
  async (htmx) => {
    contacts = new Map([
      [1, { id: 1, name: 'Ada', email: 'ada@example.com' }],
      [2, { id: 2, name: 'Grace', email: 'grace@example.com' }],
    ]);
    const page = await chromium.browser.newPage();
    // Each row's name and email, as shown.
    const rows = () =>
      page.locator('tbody > tr').evaluateAll((trs) =>
        trs.map((tr) =>
          [...tr.querySelectorAll('td')]
            .slice(0, 2)
            .map((td) => td.textContent!.trim())
            .join(' '),
        ),
      );
    const shows = async (want: string[]) => poll(rows, (now) => now.join('|') === want.join('|'));
    try {
      await page.goto(`${app.base}/?htmx=${htmx}`);
      const grace = page.locator('tbody > tr').nth(1);

      // Edit: the row becomes the form, nothing else on the page changes.
      await grace.getByText('Edit').click();
      await poll(
        () => page.locator('tr.editing').count(),
        (n) => n === 1,
      );
      expect(await page.locator('tr.editing input[name="name"]').inputValue()).toBe('Grace');
      expect(await page.locator('html').count()).toBe(1);
      expect(await page.locator('body table').count()).toBe(1);

      // An empty name: the 422 puts the form back in the row, with the message beside the field.
      await page.locator('tr.editing input[name="name"]').fill('');
      await page.locator('tr.editing').getByText('Save').click();
      await poll(
        () => page.locator('tr.editing p.error').count(),
        (n) => n === 1,
      );
      expect(await page.locator('tr.editing p.error').textContent()).toBe('A name is required');
      expect(await page.locator('tr.editing input[name="name"]').getAttribute('aria-invalid')).toBe('true');

      // Corrected and saved: the row shows the contact again.
      await page.locator('tr.editing input[name="name"]').fill('Grace Hopper');
      await page.locator('tr.editing').getByText('Save').click();
      const saved = ['Ada ada@example.com', 'Grace Hopper grace@example.com'];
      expect(await shows(saved)).toEqual(saved);
      expect(contacts.get(2)!.name).toBe('Grace Hopper');

      // Cancel: the form row goes back to the contact's row, unchanged.
      await page.locator('tbody > tr').first().getByText('Edit').click();
      await poll(
        () => page.locator('tr.editing').count(),
        (n) => n === 1,
      );
      await page.locator('tr.editing').getByText('Cancel').click();
      await poll(
        () => page.locator('tr.editing').count(),
        (n) => n === 0,
      );
      expect(await rows()).toEqual(saved);

      // Delete: the row goes, the other stays.
      await page.locator('tbody > tr').first().getByText('Delete').click();
      await poll(
        () => page.locator('tbody > tr').count(),
        (n) => n === 1,
      );
      expect(await page.locator('tbody > tr td:first-child').allTextContents()).toEqual(['Grace Hopper']);
      expect(await page.locator('tbody').evaluate((b) => b.children.length)).toBe(1);
    } finally {
      await page.close();
    }
  },
);
