// From a form's fields to the schema's input, and from the schema's issues back to messages per field: what parseForm,
// parseQuery and parsePath share.
//
//   [["title", "Milk"], ["tag", "a"], ["tag", "b"]]   → decode   → { title: "Milk", tag: ["a", "b"] }
//   [{ message: "Too small", path: ["qty"] }]          → messages → { errors: { qty: ["Too small"] }, formErrors: [] }
//   schema['~standard'].validate(input)                → validateNow: its result, or a TypeError if it is a promise

import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import { isThenable } from '../kernel/request.ts';
import type { FormEntries } from './form-body.ts';

/**
 * One object for the schema from a form's entries, with the text of each field as submitted.
 * @example decode([['tag', 'a'], ['tag', 'b']], new Set()).input // → { tag: ["a", "b"] }
 */
export function decode(
  data: FormEntries,
  arrays: ReadonlySet<string>,
): { input: Record<string, unknown>; values: Record<string, string>; allValues: Record<string, string[]> } {
  // Prototype-free, so a field named "__proto__" is just a field. One pass over the entries into a Map, one over the
  // Map: linear in the fields (a test pins 2N against N).
  const entries = new Map<string, (string | File)[]>();
  const alwaysArray = new Set(arrays);
  for (const [rawName, value] of data) {
    if (typeof value !== 'string' && value.name === '' && value.size === 0) continue; // a file input left empty
    let name = rawName;
    if (name.endsWith('[]')) {
      name = name.slice(0, -2);
      alwaysArray.add(name);
    }
    const list = entries.get(name);
    if (list) list.push(value);
    else entries.set(name, [value]);
  }
  const input: Record<string, unknown> = Object.create(null);
  const values: Record<string, string> = Object.create(null);
  const allValues: Record<string, string[]> = Object.create(null);
  for (const [name, list] of entries) {
    input[name] = list.length === 1 && !alwaysArray.has(name) ? list[0] : list;
    let texts: string[] | undefined;
    for (const v of list) if (typeof v === 'string') (texts ??= []).push(v);
    if (texts) {
      values[name] = texts[0]!;
      allValues[name] = texts;
    }
  }
  for (const name of alwaysArray) input[name] ??= []; // no box of the group checked
  return { input, values, allValues };
}

// The fields the schema says are arrays, from its JSON Schema when the validator offers one (Standard JSON
// Schema: zod, arktype): a checkbox group with one box checked is then still an array. Read once per schema.
const arrayFieldsOf = new WeakMap<object, ReadonlySet<string>>();

/**
 * The fields a schema says are arrays (from its Standard JSON Schema; none without one), read once per schema.
 * @example arrayFields(z.object({ tags: z.array(z.string()) })) // → Set { "tags" }
 */
export function arrayFields(schema: StandardSchemaV1): ReadonlySet<string> {
  const known = arrayFieldsOf.get(schema);
  if (known) return known;
  const found = new Set<string>();
  const converter = (schema['~standard'] as Partial<StandardJSONSchemaV1.Props>).jsonSchema;
  if (converter && typeof converter.input === 'function') {
    try {
      // Zod's option: a field it cannot describe (a File) becomes "any" instead of failing the whole schema.
      const json = converter.input({ target: 'draft-2020-12', libraryOptions: { unrepresentable: 'any' } });
      const properties = (json as { properties?: Record<string, unknown> }).properties ?? {};
      for (const [name, property] of Object.entries(properties)) if (isArraySchema(property)) found.add(name);
    } catch {
      // Not describable: repeated fields and "name[]" still give arrays.
    }
  }
  arrayFieldsOf.set(schema, found);
  return found;
}

function isArraySchema(s: unknown): boolean {
  if (typeof s !== 'object' || s === null) return false;
  const { type, anyOf, oneOf } = s as { type?: unknown; anyOf?: unknown; oneOf?: unknown };
  if (type === 'array' || (Array.isArray(type) && type.includes('array'))) return true;
  // An optional or nullable array: every branch that is not null is an array.
  const branches = Array.isArray(anyOf) ? anyOf : Array.isArray(oneOf) ? oneOf : undefined;
  if (!branches) return false;
  const some = branches.filter((b) => (b as { type?: unknown } | null)?.type !== 'null');
  return some.length > 0 && some.every(isArraySchema);
}

/**
 * A validator's issues by field: the first segment of each issue's path names the field; the rest are the form's.
 * @example messages([{ message: 'Too small', path: ['qty'] }]) // → { errors: { qty: ["Too small"] }, formErrors: [] }
 */
export function messages(issues: readonly StandardSchemaV1.Issue[]): {
  errors: Record<string, string[]>;
  formErrors: string[];
} {
  const errors: Record<string, string[]> = Object.create(null);
  const formErrors: string[] = [];
  for (const issue of issues) {
    const first = issue.path?.[0];
    const key = typeof first === 'object' && first !== null ? first.key : first;
    if (typeof key === 'string' || typeof key === 'number') (errors[String(key)] ??= []).push(issue.message);
    else formErrors.push(issue.message);
  }
  return { errors, formErrors };
}

/**
 * Validates with a schema that answers at once: its result, or a TypeError naming `api` when it validates
 * asynchronously (an async refine), for the helpers that keep a page's `props()` synchronous.
 * @example validateNow('parsePath', z.object({ id: z.string() }), { id: '7' }) // → { value: { id: "7" } }
 */
export function validateNow(api: string, schema: StandardSchemaV1, input: unknown): StandardSchemaV1.Result<unknown> {
  const result = schema['~standard'].validate(input);
  if (!isThenable(result)) return result;
  result.then(undefined, () => {}); // its outcome is not read: the schema is refused whatever it finds
  throw new TypeError(
    `${api}(): the schema validates asynchronously (an async refine or transform), and ${api} answers at once; ` +
      'keep its checks synchronous and do the asynchronous one after it, e.g. getOr404(await store.find(id))',
  );
}
