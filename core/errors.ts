// The error classes of pagetree. Messages name the API, the problem, the
// value and the fix, so that a failure at mount reads as its own bug report.

/** A ServeMux pattern that does not parse; the message matches Go's. */
export class PatternError extends Error {
  override name = 'PatternError';
  constructor(
    readonly pattern: string,
    /** Offset of the problem in the pattern, or -1 for an empty pattern. */
    readonly offset: number,
    readonly reason: string,
  ) {
    super(
      offset < 0
        ? `parsing ${JSON.stringify(pattern)}: ${reason}`
        : `parsing ${JSON.stringify(pattern)}: at offset ${offset}: ${reason}`,
    );
  }
}

/** Two patterns that match the same request with neither more specific. */
export class ConflictError extends Error {
  override name = 'ConflictError';
  constructor(
    readonly pattern: string,
    readonly existing: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A route tree that cannot be mounted. The message starts with the field
 * path of the route at fault (`App.admin.user`) and ends with the fix.
 */
export class MountError extends Error {
  override name = 'MountError';
  constructor(
    /** Field path of the route at fault, e.g. "App.admin.user". */
    readonly fieldPath: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`mount: ${fieldPath}: ${message}`, options);
  }
}

/**
 * An error with an HTTP status, thrown from `props()` (or anywhere in a
 * page): the response gets its status and its message as plain text.
 * @example throw new HttpError(404, 'No such user')
 */
export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly status: number,
    message: string,
    /** Extra response headers, e.g. `{ allow: 'GET' }`. */
    readonly headers: Record<string, string> = {},
    /** `cause`: the failure behind it (a parser's error), logged in one line. */
    options?: { cause?: unknown },
  ) {
    super(message, options);
    if (!Number.isInteger(status) || status < 400 || status > 599) {
      throw new RangeError(`HttpError: status ${status} is not a 4xx or 5xx status`);
    }
  }
}

/**
 * A URL that cannot be built: an unknown or ambiguous page, a missing or
 * unknown param. The message names the call, the pattern and the param.
 */
export class UrlForError extends Error {
  override name = 'UrlForError';
}
