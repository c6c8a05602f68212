// The error classes of pagetree. Messages name the API, the problem, the
// value and the fix, so that a failure at mount reads as its own bug report.

import { headerName, headerValue } from './kernel/header-value.ts';

export { ConflictError, PatternError } from './mux/errors.ts';

/**
 * A route tree that cannot be mounted. The message starts with the field
 * path of the route at fault (`App.admin.user`) and ends with the fix.
 */
export class MountError extends Error {
  override name = 'MountError';
  /** Field path of the route at fault, e.g. "App.admin.user". */
  readonly fieldPath: string;

  constructor(fieldPath: string, message: string, options?: { cause?: unknown }) {
    super(`mount: ${fieldPath}: ${message}`, options);
    this.fieldPath = fieldPath;
  }
}

/**
 * An error with an HTTP status, thrown from `props()` (or anywhere in a
 * page): the response gets its status and its message as plain text.
 * @example throw new HttpError(404, 'No such user')
 */
export class HttpError extends Error {
  override name = 'HttpError';
  readonly status: number;
  /** Extra response headers, e.g. `{ allow: 'GET' }`. */
  readonly headers: Record<string, string>;

  /** `options.cause`: the failure behind it (a parser's error), logged in one line. */
  constructor(status: number, message: string, headers: Record<string, string> = {}, options?: { cause?: unknown }) {
    super(message, options);
    if (!Number.isInteger(status) || status < 400 || status > 599) {
      throw new RangeError(`HttpError: status ${status} is not a 4xx or 5xx status`);
    }
    this.status = status;
    for (const [name, value] of Object.entries(headers)) {
      headerName('HttpError', name);
      headerValue('HttpError', value);
    }
    this.headers = headers;
  }
}

/**
 * A URL that cannot be built: an unknown or ambiguous page, a missing or
 * unknown param. The message names the call, the pattern and the param.
 */
export class UrlForError extends Error {
  override name = 'UrlForError';
}
