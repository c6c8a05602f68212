// Compile-time checks of parseForm's typed result: the schema's output once `ok` narrows it, field names from
// its input for values and errors, with zod and valibot alike. Then parsePath, getOr404 and parseQuery (issue 45.9):
// their output directly, with no invalid case to handle.

import * as v from 'valibot';
import { z } from 'zod';
import {
  addFormError,
  formState,
  parseForm,
  type FieldName,
  type FormResult,
  type FormState,
  type PageRequest,
} from '../../core/index.ts';
import { getOr404, parsePath } from '../../core/forms/path.ts';
import { parseQuery } from '../../core/forms/query.ts';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

const TaskInput = z.object({
  title: z.string().trim().min(1),
  qty: z.coerce.number(),
  tags: z.array(z.string()),
  photo: z.instanceof(File).optional(),
});
const Signup = v.object({ email: v.pipe(v.string(), v.email()), age: v.pipe(v.string(), v.transform(Number)) });

export async function checks(req: PageRequest): Promise<void> {
  const form = await parseForm(req, TaskInput);
  const fields: Equal<FieldName<typeof TaskInput>, 'title' | 'qty' | 'tags' | 'photo'> = true;
  if (form.ok) {
    const data: Equal<typeof form.data, { title: string; qty: number; tags: string[]; photo?: File | undefined }> =
      true;
    void data;
  } else {
    const data: Equal<typeof form.data, undefined> = true;
    void data;
    // @ts-expect-error the data is only there once `ok` says the submission is valid
    void form.data.title;
  }
  // Values and errors, valid or not: text as submitted, messages per field.
  const title: string | undefined = form.values.title;
  const tags: readonly string[] | undefined = form.allValues.tags;
  const messages: readonly string[] | undefined = form.errors.qty;
  const whole: readonly string[] = form.formErrors;
  // @ts-expect-error no field "titel" in the schema
  void form.values.titel;
  // @ts-expect-error no field "nope" in the schema
  void form.errors.nope;
  // @ts-expect-error values are read-only
  form.values.title = 'x';
  void [fields, title, tags, messages, whole];

  const signup = await parseForm(req, Signup);
  if (signup.ok) {
    const data: Equal<typeof signup.data, { email: string; age: number }> = true;
    void data;
  }
  // @ts-expect-error not a Standard Schema
  await parseForm(req, { title: 'string' });
  await parseForm(req, TaskInput, { maxBytes: 1024 });

  // A form not yet submitted, filled from a record; its state fits where a result does.
  const empty: FormState<FieldName<typeof TaskInput>> = formState(TaskInput, { title: 'Milk' });
  // @ts-expect-error no field "titel"
  formState(TaskInput, { titel: 'Milk' });
  // @ts-expect-error values are the strings an input shows
  formState(TaskInput, { qty: 3 });
  const render = (state: FormState<FieldName<typeof TaskInput>>): string => state.values.title ?? '';
  render(empty);
  render(form);
  const result: FormResult<typeof TaskInput> = form;
  void result;

  // Without the schema object, its type names the fields (issue 26.3).
  const byType: FormState<'title' | 'qty' | 'tags' | 'photo'> = formState<typeof TaskInput>({ title: 'Milk' });
  // @ts-expect-error no field "titel"
  formState<typeof TaskInput>({ titel: 'Milk' });
  void byType;

  // A server-side error: a valid result becomes an invalid one, its fields typed by the schema.
  let checked = await parseForm(req, TaskInput);
  if (checked.ok && checked.data.title === 'taken') checked = addFormError(checked, 'title', 'Already taken');
  const invalid: Equal<ReturnType<typeof addFormError<typeof TaskInput>>['ok'], false> = true;
  // @ts-expect-error no field "titel"
  addFormError(checked, 'titel', 'x');
  void invalid;
}

interface Book {
  id: number;
  title: string;
}
declare function findBook(id: number): Promise<Book | undefined>;
declare function bookNow(id: number): Book | null;

export async function pathChecks(req: PageRequest): Promise<void> {
  // The path values as the schema's output: nothing to narrow.
  const path = parsePath(req, z.object({ bookId: z.coerce.number().int(), slug: z.enum(['a', 'b']) }));
  const typed: Equal<typeof path, { bookId: number; slug: 'a' | 'b' }> = true;
  const viaValibot = parsePath(req, v.object({ bookId: v.pipe(v.string(), v.transform(Number)) }));
  const typedV: Equal<typeof viaValibot, { bookId: number }> = true;
  // The output may be any type: one id rather than an object of them.
  const id = parsePath(
    req,
    z.object({ bookId: z.coerce.number() }).transform((p) => p.bookId),
  );
  const one: Equal<typeof id, number> = true;
  // @ts-expect-error a path value is text: z.number() refuses every request, z.coerce.number() converts it
  parsePath(req, z.object({ bookId: z.number() }));
  // @ts-expect-error the schema takes an object of path values, not one string
  parsePath(req, z.string());

  // getOr404: the value without undefined and null; a promise of it for a promise.
  const book = await getOr404(findBook(path.bookId), 'No such book');
  const now = getOr404(bookNow(1));
  const found: Equal<typeof book, Book> = true;
  const sync: Equal<typeof now, Book> = true;
  const pending: Equal<ReturnType<typeof getOr404<Book | undefined>>, Book> = true;
  const zero: Equal<ReturnType<typeof getOr404<0 | undefined>>, 0> = true;
  void [typed, typedV, id, one, found, sync, pending, zero, viaValibot, book, now];
}

export function queryChecks(req: PageRequest): void {
  // A query schema whose every field has a fallback cannot fail: its output, not a result that may be invalid.
  const Filter = z.object({
    status: z.enum(['all', 'open', 'done']).catch('all'),
    page: z.coerce.number().int().min(1).catch(1),
    tags: z.array(z.string()).catch([]),
  });
  const filter = parseQuery(req, Filter);
  const typed: Equal<typeof filter, { status: 'all' | 'open' | 'done'; page: number; tags: string[] }> = true;
  const status: 'all' | 'open' | 'done' = filter.status; // no `ok`, no `?? 'all'` for a case no request reaches
  // @ts-expect-error no `ok` to narrow: the output is the object itself
  void filter.ok;
  // @ts-expect-error a query value is text (or a list of it for a repeated name): z.boolean() never takes one
  parseQuery(req, z.object({ done: z.boolean() }));
  void [typed, status];
}
