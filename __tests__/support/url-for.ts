// The plain urlFor, untyped, for tests that mount trees of their own.
//
// The example app registers its root (interface Register), which types the plain urlFor for the whole program;
// a test's tree is another, so its calls would not type-check against the example's routes. At run time the
// plain urlFor reads the tree of the request being served, whatever its type.

import { urlFor as typedUrlFor, type UrlParams } from '../../core/index.ts';

/**
 * The plain urlFor with its first argument and params untyped.
 * @example urlFor(UserPage, { userId: 7 }) // → "/users/7" inside a request to a tree that mounts UserPage there
 */
export const urlFor = typedUrlFor as (target: unknown, params?: UrlParams) => string;
