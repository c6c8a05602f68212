// Compile-time checks of parseForm's typed result: the schema's output once `ok` narrows it, field names from
// its input for values and errors, with zod and valibot alike.

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
