// A query string as settings (a filter, a page number, a sort), validated by a Standard Schema into its output at
// once: no result to narrow, no fallback for a case no request reaches.
//
//   z.object({ status: z.enum(['all', 'open']).catch('all'), page: z.coerce.number().int().min(1).catch(1) })
//   "?status=open&page=2"          → { status: "open", page: 2 }
//   "", "?status=bogus&page=-1"    → { status: "all", page: 1 }        (every field has a fallback: it cannot fail)
//   a schema that refuses the query → HttpError(400) naming each field and its message
//
// Why a function beside parseForm: parseForm's result is valid or invalid, and a type cannot tell that a schema
// never fails (zod's `.catch()` and valibot's `fallback` leave the input and output types as they were), so a
// caller had to handle an invalid result no request gives. A query whose messages should show beside a search
// field is a form: parseForm it. The query is decoded as parseForm decodes one (repeated names and a field the
// schema says is an array give arrays), under the same limits.

import type { StandardSchemaV1 } from '@standard-schema/spec';
import { HttpError } from '../errors.ts';
import { queryEntries } from './form-body.ts';
import { arrayFields, decode, messages, validateNow } from './form-input.ts';
import { defaultFormLimits } from './form-limits.ts';
import type { TextSchema } from './path.ts';

/**
 * The request's query string, whatever its method, validated by a Standard Schema: its typed output, or
 * HttpError(400) when the schema refuses it. With a fallback on every field (zod's `.catch()`, valibot's
 * `fallback`) it never fails. Synchronous: a schema that validates asynchronously is a TypeError. Past the form
 * limits (1,000 fields, 1 MiB a field) a 413.
 * @example const { status, page } = parseQuery(req, z.object({ status: z.enum(['all', 'open']).catch('all'), page: z.coerce.number().int().min(1).catch(1) }));
 *          // "?page=2" → { status: "all", page: 2 }
 */
export function parseQuery<S extends StandardSchemaV1<object, unknown>>(
  req: Request,
  schema: S & TextSchema<S, string | readonly string[]>,
): StandardSchemaV1.InferOutput<S> {
  const { input } = decode(queryEntries(req, defaultFormLimits), arrayFields(schema));
  const result = validateNow('parseQuery', schema, input);
  if (!result.issues) return result.value as StandardSchemaV1.InferOutput<S>;
  const { errors, formErrors } = messages(result.issues);
  const found = [...Object.entries(errors).map(([field, list]) => `${field}: ${list.join(', ')}`), ...formErrors];
  throw new HttpError(
    400,
    `Bad Request: ${found.join('; ')}`,
    {},
    { cause: "the query does not fit parseQuery's schema" },
  );
}
