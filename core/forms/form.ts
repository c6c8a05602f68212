// Forms: a submitted body, validated with any Standard Schema validator (zod, valibot, arktype, …).
//
//   const form = await parseForm(req, TaskForm)
//   form.ok     → form.data: the schema's typed output
//   !form.ok    → form.errors.title: ["Too small: …"], form.values.title: what was typed, to render again
//
// The body becomes one object for the schema, field by field:
//
//   title=Milk                      → { title: "Milk" }
//   tag=a&tag=b                     → { tag: ["a", "b"] }           (repeated: an array)
//   tags[]=a                        → { tags: ["a"] }               ("[]": always an array)
//   (a field the schema says is an array) → always an array, [] when absent (no box checked)
//   an unchecked checkbox           → absent
//   a file input left empty         → absent; a chosen file → its File
//
// Numbers and booleans stay the strings the browser sent; the schema converts them
// (`z.coerce.number()`, `z.stringbool()`), as it knows what the field means.
//
// Why not a library: the validator is the user's choice, so this depends on the
// Standard Schema spec's types only; the decoding above is what every validator
// needs and no form library does it without picking one validator.

import type { StandardSchemaV1 } from '@standard-schema/spec';
import { isFormType, readFormData } from './request-body.ts';
import { queryEntries, readForm, type FormEntries } from './form-body.ts';
import { arrayFields, decode, messages } from './form-input.ts';
import { defaultFormLimits, type FormLimits } from './form-limits.ts';

/** The field names of a schema's input: `keyof` its input type, or any string. */
export type FieldName<S extends StandardSchemaV1> =
  StandardSchemaV1.InferInput<S> extends object ? keyof StandardSchemaV1.InferInput<S> & string : string;

/** A form to render: what to show in each field and the messages beside them. */
export interface FormState<Field extends string = string> {
  /** Per field, its first text value as submitted ("" for an empty field): an input's `value`. */
  readonly values: Readonly<Partial<Record<Field, string>>>;
  /** Per field, every text value as submitted: checkbox groups and multiple selects. */
  readonly allValues: Readonly<Partial<Record<Field, readonly string[]>>>;
  /** Per field, the validator's messages, in its order. */
  readonly errors: Readonly<Partial<Record<Field, readonly string[]>>>;
  /** Messages about the form as a whole: issues without a field. */
  readonly formErrors: readonly string[];
}

/** A valid submission: the schema's typed output, and the state the form was submitted in. */
export interface ValidForm<S extends StandardSchemaV1> extends FormState<FieldName<S>> {
  readonly ok: true;
  readonly data: StandardSchemaV1.InferOutput<S>;
}

/** An invalid submission: the messages per field, with the values to render the form again with. */
export interface InvalidForm<S extends StandardSchemaV1> extends FormState<FieldName<S>> {
  readonly ok: false;
  readonly data?: undefined;
}

/** What `parseForm` returns: narrow it with `form.ok`. */
export type FormResult<S extends StandardSchemaV1> = ValidForm<S> | InvalidForm<S>;

/**
 * Options of `parseForm`: the limits of the body, counted as it streams, before anything is decoded. Past one the
 * answer is a 413 whose message names it; the rest of the body is read and dropped, never decoded (a
 * client still sending then gets the 413, not a reset connection), or not read at all past `maxBytes`.
 */
export interface ParseFormOptions {
  /** Bytes of the whole body (default 10 MiB; the node adapter's `maxBodySize` also applies). */
  maxBytes?: number;
  /** Text fields: urlencoded pairs and multipart parts without a filename (default 1,000). */
  maxFields?: number;
  /** Files: multipart parts with a filename (default 100). */
  maxFiles?: number;
  /** Bytes of one text field as sent (default 1 MiB). */
  maxFieldBytes?: number;
}

/**
 * Reads a form where the browser put it and validates it with a Standard Schema validator: for GET and HEAD the
 * query string, as a GET form and both htmx versions send it; for DELETE the query too, unless its body holds a
 * field (htmx 2 labels a DELETE a form and puts its values in the URL); else the body, urlencoded or multipart,
 * files included. A body that is not a form is a 415, one that cannot be parsed a 400 (a multipart body spelled so
 * that two runtimes' parsers could read it apart included), one past a limit (`maxBytes`, `maxFields`, `maxFiles`,
 * `maxFieldBytes`) a 413 (HttpErrors: the page answers with that status). An invalid submission is a result, not
 * an error.
 * @example const form = await parseForm(req, z.object({ title: z.string().trim().min(1) }));
 *          if (!form.ok) { setStatus(422); return { form }; }
 */
export async function parseForm<S extends StandardSchemaV1>(
  req: Request,
  schema: S,
  options: ParseFormOptions = {},
): Promise<FormResult<S>> {
  const limits = formLimits(options);
  const data = inQuery(req) ? queryEntries(req, limits) : await bodyEntries(req, limits);
  const { input, values, allValues } = decode(data, arrayFields(schema));
  const result = await schema['~standard'].validate(input);
  if (!result.issues) {
    const state = { values, allValues, errors: {}, formErrors: [] } as FormState as FormState<FieldName<S>>;
    return { ok: true, data: result.value as StandardSchemaV1.InferOutput<S>, ...state };
  }
  const state = { values, allValues, ...messages(result.issues) } as FormState as FormState<FieldName<S>>;
  return { ok: false, ...state };
}

/**
 * The state of a form not yet submitted (an edit form filled from the record), typed by the schema's fields: pass
 * the schema, or name its type (`formState<typeof TaskForm>(values)`) where the schema object is not at hand.
 * @example formState(TaskForm, { title: task.title })
 */
export function formState<S extends StandardSchemaV1>(
  schema: S,
  values?: Partial<Record<FieldName<S>, string>>,
): FormState<FieldName<S>>;
export function formState<S extends StandardSchemaV1>(
  values?: Partial<Record<FieldName<S>, string>>,
): FormState<FieldName<S>>;
export function formState(first?: object, second?: Partial<Record<string, string>>): FormState {
  const values = first !== undefined && '~standard' in first ? second : (first as Partial<Record<string, string>>);
  return { values: values ?? {}, allValues: {}, errors: {}, formErrors: [] };
}

/**
 * The form with one more message for a field: an error only the server can find after the schema passed ("Email
 * must be unique"). A valid form becomes an invalid one with the same values, so the 422 loop renders it as any
 * other; the schema and its per-schema cache stay as they are.
 * @example if (form.ok && store.emailTaken(form.data.email)) form = addFormError(form, 'email', 'Email must be unique');
 */
export function addFormError<S extends StandardSchemaV1>(
  form: FormResult<S>,
  field: FieldName<S>,
  message: string,
): InvalidForm<S> {
  const errors: Record<string, readonly string[]> = Object.assign(Object.create(null), form.errors);
  errors[field] = [...(errors[field] ?? []), message];
  const { values, allValues, formErrors } = form;
  return { ok: false, values, allValues, errors, formErrors } as InvalidForm<S>;
}

// Where the browser put the form: a GET form, and htmx for GET and DELETE, send it in the query string. htmx 2 labels
// its DELETE a form (`Content-Type: application/x-www-form-urlencoded`) and sends no body: a DELETE reads its query
// unless its body holds a field (seen in Chromium: __tests__/first-hour/htmx-requests.test.ts).
function inQuery(req: Request): boolean {
  const method = req.method;
  if (method === 'GET' || method === 'HEAD') return true;
  if (method !== 'DELETE') return false;
  return !isFormType(req.headers.get('content-type')) || req.headers.get('content-length') === '0' || !req.body;
}

// The form in the body; a DELETE's in its query when the body held none (no Content-Length on the wire: read first).
async function bodyEntries(req: Request, limits: FormLimits): Promise<FormEntries> {
  const entries = await readFormData(req, () => readForm(req, limits));
  return entries.length === 0 && req.method === 'DELETE' ? queryEntries(req, limits) : entries;
}

function formLimits(options: ParseFormOptions): FormLimits {
  const limits = { ...defaultFormLimits };
  for (const name of ['maxBytes', 'maxFields', 'maxFiles', 'maxFieldBytes'] as const) {
    const value = options[name];
    if (value === undefined) continue;
    if (!(value >= 0)) throw new TypeError(`parseForm(): ${name} ${value} is not a number; give e.g. ${limits[name]}`);
    limits[name] = value;
  }
  return limits;
}
