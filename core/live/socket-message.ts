// A socket's message as a form: what htmx sends over a WebSocket, validated by the same Standard Schema as parseForm,
// into the same result, so that a chat form and its error answer are the form loop over a socket.
//
//   htmx 4 hx-ws   {"title":"Milk","tag":["a","b"],"headers":{"HX-Request":"true",…}}
//   htmx 2 ws      {"title":"Milk","tag":["a","b"],"HEADERS":{"HX-Request":"true",…}}
//   → parseMessage(data, schema)   form.ok → form.data; !form.ok → form.errors, form.values (as parseForm's)
//                                  form.headers → the htmx headers the message carried (HX-Trigger, HX-Target, …)
//
// Each value becomes a form field as the browser would have sent it: a string stays, an array is a repeated field,
// and a number or boolean (hx-vals) becomes its text; the schema converts them as it does a form's. A message that is
// not a JSON object is an invalid form with one message about the whole form, not an exception: it came from the
// network.

import type { StandardSchemaV1 } from '@standard-schema/spec';
import { arrayFields, decode, messages } from '../forms/form-input.ts';
import type { FieldName, FormResult, FormState } from '../forms/form.ts';

/** What `parseMessage` returns: the form result, and the htmx headers that came with the message. */
export type MessageResult<S extends StandardSchemaV1> = FormResult<S> & {
  /** The request headers htmx put in the message (`headers` in htmx 4, `HEADERS` in htmx 2), names as sent. */
  readonly headers: Readonly<Record<string, string>>;
};

/**
 * Reads a message htmx sent over a socket (`hx-ws:send`, `ws-send`) and validates it with a Standard Schema
 * validator, as parseForm does a form.
 * @example const form = await parseMessage(data, z.object({ text: z.string().trim().min(1) }));
 *          if (!form.ok) return socket.send(<CommentForm form={form} />);
 */
export async function parseMessage<S extends StandardSchemaV1>(data: string, schema: S): Promise<MessageResult<S>> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    parsed = undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    const state = { values: {}, allValues: {}, errors: {}, formErrors: ['The message is not a form (a JSON object).'] };
    return { ok: false, ...(state as FormState as FormState<FieldName<S>>), headers: {} };
  }
  const entries: [string, string][] = [];
  let headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(parsed)) {
    if (name === 'headers' || name === 'HEADERS') {
      headers = headerRecord(value);
      continue;
    }
    for (const v of Array.isArray(value) ? value : [value]) {
      const text = fieldText(v);
      if (text !== undefined) entries.push([name, text]);
    }
  }
  const { input, values, allValues } = decode(entries, arrayFields(schema));
  const result = await schema['~standard'].validate(input);
  if (!result.issues) {
    const state = { values, allValues, errors: {}, formErrors: [] } as FormState as FormState<FieldName<S>>;
    return { ok: true, data: result.value as StandardSchemaV1.InferOutput<S>, ...state, headers };
  }
  const state = { values, allValues, ...messages(result.issues) } as FormState as FormState<FieldName<S>>;
  return { ok: false, ...state, headers };
}

// A field's text as a browser sends it; null and objects are no field value (left out).
function fieldText(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  return undefined;
}

function headerRecord(value: unknown): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  if (typeof value !== 'object' || value === null) return out;
  for (const [name, v] of Object.entries(value)) if (typeof v === 'string') out[name] = v;
  return out;
}
