// The errors of the ServeMux, with Go's messages: a pattern that does not parse, two patterns that conflict.

/** A ServeMux pattern that does not parse; the message matches Go's. */
export class PatternError extends Error {
  override name = 'PatternError';
  readonly pattern: string;
  /** Offset of the problem in the pattern, or -1 for an empty pattern. */
  readonly offset: number;
  readonly reason: string;

  constructor(pattern: string, offset: number, reason: string) {
    super(
      offset < 0
        ? `parsing ${JSON.stringify(pattern)}: ${reason}`
        : `parsing ${JSON.stringify(pattern)}: at offset ${offset}: ${reason}`,
    );
    this.pattern = pattern;
    this.offset = offset;
    this.reason = reason;
  }
}

/** Two patterns that match the same request with neither more specific. */
export class ConflictError extends Error {
  override name = 'ConflictError';
  readonly pattern: string;
  readonly existing: string;

  constructor(pattern: string, existing: string, message: string) {
    super(message);
    this.pattern = pattern;
    this.existing = existing;
  }
}
