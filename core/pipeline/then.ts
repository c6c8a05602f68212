// The page pipeline's tests of "value or promise", in one place (issue 42): every step that may be sync or async (props and the
// verb methods, a render, the regions, a serveHTTP page, an error page, a <Suspense> fallback) is chained through
// `andThen` and its failure answered through `orElse`, so a page that answers synchronously makes no promise, and an
// async one waits where it must.
//
//   andThen('<p>hi</p>', toResponse, route, ctx)                  → toResponse('<p>hi</p>', route, ctx), now
//   andThen(Promise.resolve('<p>hi</p>'), toResponse, route, ctx) → a promise of it, once the HTML is there

import { isThenable } from '../kernel/request.ts';

/**
 * `next(value, a, b)` now for a value, or once a promise (any thenable) resolves; a rejection passes through. The
 * arguments go along instead of in a closure, so the synchronous road allocates nothing.
 * @example return andThen(page.props(req, target), renderWith, route, ctx); // sync props → a Response, async → a Promise
 */
export function andThen<T, A, B, R>(
  value: T | PromiseLike<T>,
  next: (value: T, a: A, b: B) => R | Promise<R>,
  a: A,
  b: B,
): R | Promise<R> {
  return isThenable(value) ? Promise.resolve(value).then((v) => next(v, a, b)) : next(value, a, b);
}

/**
 * A promise's rejection answered by `failed(err, a, b)`; a value passes as it is. With andThen, the page pipeline's
 * only other test of "value or promise" (a thrown error is the caller's try).
 * @example return orElse(andThen(props, render, route, ctx), handleError, ctx, options);
 */
export function orElse<R, A, B>(
  res: R | Promise<R>,
  failed: (err: unknown, a: A, b: B) => R | Promise<R>,
  a: A,
  b: B,
): R | Promise<R> {
  return res instanceof Promise ? res.catch((err: unknown) => failed(err, a, b)) : res;
}
