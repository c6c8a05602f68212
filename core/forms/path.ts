// Path values through a Standard Schema, and "the record, or Not Found": what every detail page wrote by hand.
//
//   "/books/{bookId}" on "/books/12"    → { bookId: "12" } → z.object({ bookId: z.coerce.number().int() }) → { bookId: 12 }
//   "/books/{bookId}" on "/books/abc"   → HttpError(404) 'Not Found: bookId "abc": Invalid input: …'
//   a schema field no wildcard names    → TypeError (a 500): the app's mistake, with the pattern's wildcards
//   getOr404(await store.book(12))      → the book, or HttpError(404) for undefined and null
//
// A value the schema refuses is a 404, not a 400: a URL is a name, and `/books/abc` names no book. Django's path
// converters (`<int:pk>` does not match "abc") and Rails' `find` answer 404 too, and a client learns nothing from
// "malformed" that "not found" does not tell it.
//
// The schema's fields are not checked against the route's wildcards by the compiler: the page class does not know
// its route (its parent's field declares it), and `req` carries no pattern type. At run time they are: a field the
// schema complains about that no wildcard of the matched pattern names is a TypeError on the first request.

import type { StandardSchemaV1 } from '@standard-schema/spec';
import { HttpError } from '../errors.ts';
import { isThenable, type PageRequest } from '../kernel/request.ts';
import { validateNow } from './form-input.ts';

/**
 * A schema whose every field takes the text a URL gives (`TText`), or a type that says which field does not: a path
 * value is always a string, so `z.number()` fails on every request where `z.coerce.number()` converts it.
 * @example TextSchema<z.ZodObject<{ id: z.ZodNumber }>, string> // → { 'each field reads text: …': "id" }
 */
export type TextSchema<S extends StandardSchemaV1, TText> = TextCheck<NotText<StandardSchemaV1.InferInput<S>, TText>>;

type TextCheck<TFields> = [TFields] extends [never]
  ? unknown
  : { readonly 'each field reads text: convert it in the schema, e.g. z.coerce.number()': TFields };

// The fields whose input type takes none of TText (`unknown` takes anything).
type NotText<TInput, TText> = {
  [K in keyof TInput]-?: unknown extends TInput[K] ? never : [Extract<TInput[K], TText>] extends [never] ? K : never;
}[keyof TInput];

/**
 * The path values of the matched pattern, validated by a Standard Schema (zod, valibot, arktype, …): its typed
 * output, or HttpError(404) when it refuses one (the URL names nothing), with `message`, or by default one that
 * names the wildcard, its value and the schema's message. The schema sees one object, a string per wildcard
 * (`{name}` and `{name...}`, decoded). Synchronous: a schema that validates asynchronously is a TypeError.
 * @example const { bookId } = parsePath(req, z.object({ bookId: z.coerce.number().int().positive() }));
 *          // "/books/{bookId}" on "/books/12" → 12; on "/books/abc" → 404 'Not Found: bookId "abc": Invalid input: …'
 */
export function parsePath<S extends StandardSchemaV1<object, unknown>>(
  req: Pick<PageRequest, 'pathValue' | 'pattern'>,
  schema: S & TextSchema<S, string>,
  message?: string,
): StandardSchemaV1.InferOutput<S> {
  const names = wildcards(req.pattern);
  const input: Record<string, string> = Object.create(null);
  for (const name of names) input[name] = req.pathValue(name);
  const result = validateNow('parsePath', schema, input);
  if (!result.issues) return result.value as StandardSchemaV1.InferOutput<S>;
  const found: string[] = [];
  for (const issue of result.issues) {
    const first = issue.path?.[0];
    const key = typeof first === 'object' && first !== null ? first.key : first;
    if (key === undefined) {
      found.push(issue.message);
      continue;
    }
    const field = String(key);
    if (!names.includes(field)) {
      throw new TypeError(
        `parsePath(): the schema's field "${field}" is not a wildcard of the pattern "${req.pattern}" (its ` +
          `wildcards: ${names.join(', ') || 'none'}); name the field as the wildcard, or the wildcard as the field`,
      );
    }
    found.push(`${field} "${shorten(input[field]!)}": ${issue.message}`);
  }
  throw new HttpError(404, message ?? `Not Found: ${found.join('; ')}`);
}

/**
 * The value, or HttpError(404) when it is `undefined` or `null` (Django's `get_object_or_404`); a promise gives a
 * promise of it, and a promise that fails passes its error on. `0`, `''` and `false` are values.
 * @example const book = await getOr404(store.book(bookId), 'No such book'); // → the book, or a 404 "No such book"
 */
export function getOr404<T>(value: PromiseLike<T>, message?: string): Promise<NonNullable<T>>;
export function getOr404<T>(value: T, message?: string): NonNullable<T>;
export function getOr404(value: unknown, message = 'Not Found'): unknown {
  if (isThenable(value)) return Promise.resolve(value).then((found) => present(found, message));
  return present(value, message);
}

function present(value: unknown, message: string): unknown {
  if (value === undefined || value === null) throw new HttpError(404, message);
  return value;
}

// The wildcard names of a pattern as registered ("GET example.com/b/{bucket}/o/{path...}" → bucket, path), in order;
// `{$}` names none. Read from the text, as the mux validated it at registration.
function wildcards(pattern: string): string[] {
  const names: string[] = [];
  for (const [, name] of pattern.matchAll(/\{([^}]*)\}/g)) {
    if (name !== '$') names.push(name!.endsWith('...') ? name!.slice(0, -3) : name!);
  }
  return names;
}

// A path value in a message: a URL may be kilobytes long, a message line should not.
function shorten(value: string): string {
  return value.length > 100 ? `${value.slice(0, 100)}…` : value;
}
