// The home page: the guestbook's entries and a form to sign it. The form is validated by a schema (zod, through
// Standard Schema): a wrong entry answers 422 with the form again, each message beside its field. htmx swaps the
// form alone, and the list beside it (alsoRender); without JavaScript the browser posts, is redirected and sees a
// flash message.

import { id, idTarget, redirect, setStatus, urlFor, type PageRequest, type RenderTarget } from 'pagetree';
import { flash, takeFlash } from 'pagetree/auth';
import { formState, parseForm, type FieldName, type FormState } from 'pagetree/forms';
import { alsoRender, htmxDetails } from 'pagetree/htmx';
import { z } from 'zod';
import { Layout } from '../layout.tsx';
import type { Entry, Guestbook } from '../store.ts';

export const EntryInput = z.object({
  name: z.string().trim().min(1, 'Say who you are').max(60, 'A name has at most 60 characters'),
  message: z.string().trim().min(1, 'Write a message').max(500, 'A message has at most 500 characters'),
});

type EntryForm = FormState<FieldName<typeof EntryInput>>;

interface ListProps {
  entries: Entry[];
}

interface HomeProps extends ListProps {
  form: EntryForm;
  /** The flash message of the last entry signed without JavaScript, shown once. */
  notice?: string;
}

export class HomePage {
  readonly #guestbook: Guestbook;

  constructor(deps: { guestbook: Guestbook }) {
    this.#guestbook = deps.guestbook;
  }

  async props(_req: PageRequest, target: RenderTarget): Promise<HomeProps> {
    const notice = target.partial ? undefined : await takeFlash();
    return { ...listOf(this.#guestbook), form: formState(EntryInput), notice };
  }

  /** POST /: signs the guestbook. */
  async post(req: PageRequest): Promise<HomeProps | Response> {
    const form = await parseForm(req, EntryInput);
    if (!form.ok) {
      setStatus(422);
      return { ...listOf(this.#guestbook), form };
    }
    this.#guestbook.add(form.data);
    if (!htmxDetails().isHtmx) {
      await flash(`Thank you, ${form.data.name}!`);
      return redirect(urlFor(HomePage)); // 303: a reload does not post again
    }
    const list = listOf(this.#guestbook);
    alsoRender(this.entryList, this.entryList(list));
    return { ...list, form: formState(EntryInput) };
  }

  page(props: HomeProps) {
    return (
      <Layout title="Guestbook">
        <p class="notice" role="status" safe>
          {props.notice}
        </p>
        <div id={id(this.entryForm)}>{this.entryForm(props)}</div>
        <section id={id(this.entryList)}>{this.entryList(props)}</section>
      </Layout>
    );
  }

  entryForm(props: { form: EntryForm }) {
    const action = urlFor(HomePage);
    return (
      <form action={action} method="post" hx-post={action} hx-target={idTarget(this.entryForm)}>
        <Field form={props.form} name="name" label="Your name" />
        <Field form={props.form} name="message" label="Message" />
        <button type="submit">Sign</button>
      </form>
    );
  }

  entryList(props: ListProps) {
    if (props.entries.length === 0) return <p>No entries yet: be the first.</p>;
    return (
      <ul class="entries">
        {props.entries.map((entry) => (
          <li>
            <strong safe>{entry.name}</strong>: <span safe>{entry.message}</span>
          </li>
        ))}
      </ul>
    );
  }
}

/** The guestbook's entries, as the list shows them. */
function listOf(guestbook: Guestbook): ListProps {
  return { entries: guestbook.entries() };
}

/** An input, its label, and its first error (the input is marked invalid and focused). */
function Field(props: { form: EntryForm; name: FieldName<typeof EntryInput>; label: string }): JSX.Element {
  const error = props.form.errors[props.name]?.[0];
  const errorId = `${props.name}-error`;
  return (
    <label>
      <span safe>{props.label}</span>
      <input
        name={props.name}
        value={props.form.values[props.name]}
        aria-invalid={error === undefined ? undefined : 'true'}
        aria-describedby={error === undefined ? undefined : errorId}
        autofocus={error !== undefined}
      />
      {error !== undefined && (
        <span class="error" id={errorId} safe>
          {error}
        </span>
      )}
    </label>
  );
}
