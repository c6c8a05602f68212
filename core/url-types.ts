// Compile-time checks for urlFor: the params argument follows from the route
// tags, so a renamed wildcard or a moved page fails `tsc`, not a click.
//
//   class App   { admin = route('/admin', Admin) }
//   class Admin { user = route('/users/{userId} User', UserPage) }
//
//   PageEntries<App> = { target: typeof Admin;    params: never }
//                    | { target: typeof UserPage; params: "userId" }
//   tree.urlFor(UserPage, { userId: 7 })   ✓
//   tree.urlFor(UserPage)                  ✗ missing params
//   tree.urlFor(UserPage, { userID: 7 })   ✗ unknown key
//   tree.urlFor(Admin, {})                 ✗ Admin takes no params

import type { Route } from './route.ts';

/**
 * The placeholder names of a pattern, tag or template: `{name}` and
 * `{name...}` count, `{$}` does not.
 * @example ParamNames<'GET /b/{bucket}/o/{path...} Files'> // → "bucket" | "path"
 */
export type ParamNames<TPattern extends string> = TPattern extends `${string}{${infer TName}}${infer TRest}`
  ? (TName extends '$' ? never : TName extends `${infer TMulti}...` ? TMulti : TName) | ParamNames<TRest>
  : never;

type InstanceOf<T> = T extends abstract new (...args: never[]) => infer TInstance ? TInstance : T;

// Depth budget for the recursion below (route trees deeper than 10 are not checked further).
type Next = [never, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9];

/** Every page of a tree with the params of all the patterns from the root to it. */
export type PageEntries<TNode, TParams extends string = never, TDepth extends number = 10> = [TDepth] extends [never]
  ? never
  : {
      [K in keyof TNode]-?: TNode[K] extends Route<infer TTag, infer TTarget>
        ? | { target: TTarget; params: TParams | ParamNames<TTag> }
          | PageEntries<InstanceOf<TTarget>, TParams | ParamNames<TTag>, Next[TDepth]>
        : never;
    }[keyof TNode];

type EntriesOf<TRoot> = PageEntries<InstanceOf<TRoot>> | { target: TRoot; params: never };

/** What urlFor accepts for a tree: a mounted page, a chain of them (a template last), or a string. */
export type UrlTarget<TRoot> = unknown extends TRoot
  ? unknown
  : EntriesOf<TRoot>['target'] | readonly [ChainStep<TRoot>, ...(ChainStep<TRoot> | string)[]] | string;

// A step of a chain: a mounted page class, or the page object itself.
type ChainStep<TRoot> = EntriesOf<TRoot>['target'] | InstanceOf<EntriesOf<TRoot>['target']>;

// The params-argument tuples of the entries whose target T is. Two page classes
// with the same members are the same type to TypeScript, so T may match
// several entries: their tuples form a union, and a call passes if it fits one.
type ArgsOf<TEntries, T, TExtra extends string> = TEntries extends {
  target: infer TTarget;
  params: infer TParams;
}
  ? IsTarget<T, TTarget> extends true
    ? ParamsObject<Extract<TParams, string> | TExtra>
    : never
  : never;

// Mutual assignability: the same class (or one with exactly the same members).
type IsTarget<T, TTarget> = [T] extends [TTarget] ? ([TTarget] extends [T] ? true : false) : false;

type ArgsOfTarget<TRoot, T, TExtra extends string> = ArgsOf<EntriesOf<TRoot>, T, TExtra>;

type LastPage<TChain> = TChain extends readonly [...unknown[], infer TLast] ? TLast : never;

type ChainArgs<TRoot, TChain> = TChain extends readonly [...infer TInit, infer TLast]
  ? TLast extends string
    ? ArgsOfTarget<TRoot, LastPage<TInit>, ParamNames<TLast>>
    : ArgsOfTarget<TRoot, TLast, never>
  : never;

/**
 * The rest parameters of urlFor: none when the target has no params, else
 * an object with exactly those keys. Field-path strings are not checked.
 */
//
// Every test on T is wrapped ([T] extends [...]) so that none distributes: to
// type the arguments of a call, TypeScript takes the constraint of this rest
// type, i.e. instantiates it with every target of the tree at once, and a
// distributive form then looked each one up (one call on a 200-route tree cost
// 3M type instantiations and 8 s; now 0.1M and under a second: bench/types).
export type UrlParamsArg<TRoot, T> = unknown extends TRoot
  ? [params?: Record<string, string | number>]
  : [T] extends [string]
    ? [T] extends [`/${string}`]
      ? ParamsObject<ParamNames<T>>
      : [params?: Record<string, string | number>]
    : [T] extends [readonly unknown[]]
      ? ChainArgs<TRoot, T>
      : ArgsOfTarget<TRoot, T, never>;

type ParamsObject<TNames extends string> = [TNames] extends [never] ? [] : [params: { [K in TNames]: string | number }];

/**
 * Register your root page class once, and the context `urlFor` is checked
 * like `tree.urlFor`:
 * @example declare module 'pagetree' { interface Register { root: App } }
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Register {}

/** The root registered through `Register`, or unknown. */
export type RegisteredRoot = Register extends { root: infer TRoot } ? TRoot : unknown;
