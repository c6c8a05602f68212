// The limits of a form body (issue 24) and what applies them: `parseForm` takes them as options, `req.formData()`
// uses the defaults, and a counter per body type (urlencoded in form-body.ts, multipart in multipart.ts) applies
// them to the raw bytes as they arrive, before anything is decoded.
//
//   formCounter(type, limits)   → a FormCounter: push(chunk) per chunk, end() once the body is whole
//   a limit passed              → HttpError(413) "Content Too Large: a form has at most 1000 fields (maxFields)"

import { HttpError } from '../errors.ts';

/** The limits of a form body; `parseForm` takes them as options, `req.formData()` uses the defaults. */
export interface FormLimits {
  /** Text fields (urlencoded pairs, multipart parts without a filename). */
  readonly maxFields: number;
  /** File parts (multipart parts with a filename). */
  readonly maxFiles: number;
  /** Bytes of one text field as sent. */
  readonly maxFieldBytes: number;
  /** Bytes of the whole body. */
  readonly maxBytes: number;
}

/**
 * The defaults, near Django's (1,000 fields, 100 files) and Go's (1,000 parts, 10 MB of form): a form a person
 * fills in stays far below them.
 */
export const defaultFormLimits: FormLimits = {
  maxFields: 1000,
  maxFiles: 100,
  maxFieldBytes: 1024 * 1024,
  maxBytes: 10 * 1024 * 1024,
};

/** Counts a body chunk by chunk: `push` throws HttpError(413) at the first limit passed, or 400 for a malformed body. */
export interface FormCounter {
  readonly kind: 'urlencoded' | 'multipart';
  /** The Content-Type to hand the runtime's parser: for multipart, the boundary this counter counted with. */
  readonly type: string;
  push(chunk: Uint8Array): void;
  /** The body is whole: throws HttpError(400) if it stopped where no parser could finish it. */
  end(): void;
}

/**
 * The 413 for a limit passed: the message names the limit.
 * @example formTooLarge('maxFields', 1000, 'a form has at most {n} fields') // HttpError 413 "Content Too Large: a form has at most 1000 fields (maxFields)"
 */
export function formTooLarge(option: keyof FormLimits, limit: number, what: string): HttpError {
  return new HttpError(413, `Content Too Large: ${what.replace('{n}', String(limit))} (${option})`);
}
