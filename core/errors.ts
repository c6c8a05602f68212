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
