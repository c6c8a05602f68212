// Calls an app wrote against an older pagetree keep compiling for one minor version after their signature changed
// (issue 42.4): an outside app stopped compiling when `defaultErrorHandler(err, req, node, target)` became
// `defaultErrorHandler(err)`. Each old call here is deprecated (the editor strikes it through) but still compiles.

import {
  defaultErrorHandler,
  type ErrorHandler,
  type PageNode,
  type PageRequest,
  type RenderTarget,
} from '../../core/index.ts';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

declare const req: PageRequest;
declare const node: PageNode;
declare const target: RenderTarget;

// The 0.1 call, as an errorHandler wrote it: still a Response.
export const old = defaultErrorHandler(new Error('x'), req, node, target);
export const oldIsResponse: Equal<typeof old, Response> = true;

// The current call.
export const current: Response = defaultErrorHandler(new Error('x'));

// Still an ErrorHandler where one is expected.
export const handler: ErrorHandler = defaultErrorHandler;

// @ts-expect-error two arguments were never a form of it
defaultErrorHandler(new Error('x'), req);
