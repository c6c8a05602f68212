// Compile-time checks for urlFor: the params argument follows from the route
// tags, so a renamed wildcard or a moved page fails `tsc`, not a click.
//
//   class App   { admin = route('/admin', Admin) }
//   class Admin { user = route('/users/{userId} User', UserPage) }
//
//   tree.urlFor(UserPage, { userId: 7 })   ✓
//   tree.urlFor(UserPage)                  ✗ missing params
//   tree.urlFor(UserPage, { userID: 7 })   ✗ unknown key
//   tree.urlFor(Admin, {})                 ✗ Admin takes no params
//
// The tree is read once per root into nested records (TypeScript caches each
// alias and interface instantiation by its arguments, so every call reuses them):
//
//   RootRoute<App> = RouteNode { target: App;            params: never;    children: ─┐
//                                targets: App | typeof Admin | typeof UserPage;        │
//                                keys: "admin" | "user" | …member names of them all }  │
//     ┌────────────────────────────────────────────────────────────────────────────────┘
//     └ RouteNode { target: typeof Admin;    params: never;    children: ─┐  targets, keys }
//         ┌───────────────────────────────────────────────────────────────┘
//         └ RouteNode { target: typeof UserPage; params: "userId"; children: never; … }
//
// A call looks its target up from the root down, entering only the subtrees
// whose `keys` hold every required member name of the target, and compares the
// target itself only with the routes it reaches (FindArgs below).

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

/** A route of the tree, with the params of all the patterns from the root to it. */
interface RouteNode<TTarget, TParams extends string, TChildren extends AnyRoute> {
  target: TTarget;
  params: TParams;
  /** The routes of the target's own fields (a union), or never. */
  children: TChildren;
  /** This target and every one below it. */
  targets: TTarget | TChildren['targets'];
  /** The member names of this target and of every one below it: see FindArgs. */
  keys: KeysOf<TTarget> | TChildren['keys'];
}

// The constraint of every RouteNode (`any` so that a node is checked against it by its type arguments, not by
// walking its children).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyRoute = RouteNode<any, string, any>;

// The routes declared on a node's fields.
type ChildRoutes<TNode, TParams extends string, TDepth extends number> = [TDepth] extends [never]
  ? never
  : {
      [K in keyof TNode]-?: TNode[K] extends Route<infer TTag, infer TTarget>
        ? RouteNode<
            TTarget,
            TParams | ParamNames<TTag>,
            ChildRoutes<InstanceOf<TTarget>, TParams | ParamNames<TTag>, Next[TDepth]>
          >
        : never;
    }[keyof TNode];

// The root is a target too (without params).
type RootRoute<TRoot> = RouteNode<TRoot, never, ChildRoutes<InstanceOf<TRoot>, never, 10>>;

type Flatten<TRoutes extends AnyRoute> = TRoutes extends unknown
  ? { target: TRoutes['target']; params: TRoutes['params'] } | Flatten<TRoutes['children']>
  : never;

// The same routes as one flat list (urlFor itself searches the nested records).
/** Every page of a tree with the params of all the patterns from the root to it. */
export type PageEntries<TNode, TParams extends string = never, TDepth extends number = 10> = Flatten<
  ChildRoutes<TNode, TParams, TDepth>
>;

/** What urlFor accepts for a tree: a mounted page, a chain of them (a template last), or a string. */
export type PageRef<TRoot> = unknown extends TRoot
  ? unknown
  : RootRoute<TRoot>['targets'] | readonly [ChainStep<TRoot>, ...(ChainStep<TRoot> | string)[]] | string;

// A step of a chain: a mounted page class, or the page object itself.
type ChainStep<TRoot> = RootRoute<TRoot>['targets'] | InstanceOf<RootRoute<TRoot>['targets']>;

// The params-argument tuples of the routes whose target T is. Two page classes
// with the same members are the same type to TypeScript, so T may match
// several routes: their tuples form a union, and a call passes if it fits one.
//
// A search, not a scan, for speed. IsTarget, the test that decides, compares two
// class types structurally (their construct signatures), and T fails it against
// almost every route: scanning a flat list of all the routes cost 2.9K type
// instantiations and ~6 ms per distinct target on bench/types' 200-route tree.
// A subtree is entered only if its `keys` hold every required member name of T
// (a lookup of a few string literals in a union, T itself is not compared), so
// such a call reaches the root, its 20 groups and the 10 pages of one group:
// 0.6K instantiations and ~1.3 ms. TypeScript has no cheaper identity test for
// two class types than the structural one.
type FindArgs<TRoutes extends AnyRoute, T, TKeys, TExtra extends string> = TRoutes extends unknown
  ? [TKeys] extends [TRoutes['keys']]
    ? | (IsTarget<T, TRoutes['target']> extends true ? ParamsObject<TRoutes['params'] | TExtra> : never)
      | FindArgs<TRoutes['children'], T, TKeys, TExtra>
    : never
  : never;

// Mutual assignability: the same class (or one with exactly the same members).
type IsTarget<T, TTarget> = [T] extends [TTarget] ? ([TTarget] extends [T] ? true : false) : false;

// The member names of a route's target, for the search: of the instance for a class (a constructor whose every
// construct signature returns one instance type), of the value itself for an object. A constructor with signatures
// that return different types matches any key (its instance type alone would not bound what T may be).
type KeysOf<TTarget> = TTarget extends abstract new (...args: never[]) => infer TInstance
  ? [AnyConstructor<TInstance>] extends [TTarget]
    ? keyof TInstance
    : PropertyKey
  : keyof TTarget;

// The keys T's routes must have: the required member names of T's instance (of a class) or of T itself. If T is the
// same type as a route's target, its instance must have them, so they are among the route's keys (names of
// optional members may be missing from a target of the same type; a class's `prototype` is not compared by
// TypeScript). `any` and constructors with signatures that return different types search everywhere.
type SearchKeys<T> = 0 extends 1 & T
  ? never
  : T extends abstract new (...args: never[]) => infer TInstance
    ? [AnyConstructor<TInstance>] extends [T]
      ? RequiredKeys<TInstance>
      : never
    : Exclude<RequiredKeys<T>, 'prototype'>;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyConstructor<TInstance> = new (...args: any[]) => TInstance;

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
type RequiredKeys<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? never : K }[keyof T];

type ArgsOfTarget<TRoot, T, TExtra extends string> = FindArgs<RootRoute<TRoot>, T, SearchKeys<T>, TExtra>;

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
// The form is for speed. To type a call's arguments, TypeScript reads this rest
// type before it knows T (is it `const`? what contextual type does `{ … }` get?),
// that is its constraint. As nested conditionals on T, the constraint was every
// branch for every target of the tree at once: the first call of a program on
// bench/types' tree cost 108K instantiations and ~0.55 s, ~70K of them for that
// constraint. As a property read, the constraint is ArgsByKind's index
// signature: the first call costs 28K (the route records and PageRef, needed
// anyway) and ~0.15 s. (The first version of these types, with distributive
// conditionals on T, cost 3M instantiations and 8 s for one call.)
export type UrlParamsArg<TRoot, T> = unknown extends TRoot
  ? [params?: Record<string, string | number>]
  : ArgsTable<TRoot, T>[TargetKind<T>];

// The params of each kind of target, one property read per call. The index
// signature is the constraint TypeScript sees before T is known (the rest
// parameter must be an array, and `{ … }` gets a cheap contextual type).
interface ArgsByKind<TRoot, T> {
  [kind: string]: [params?: Record<string, string | number>];
  pattern: ParamsObject<ParamNames<T & string>>;
  path: [params?: Record<string, string | number>];
  chain: ChainArgs<TRoot, T>;
  page: ArgsOfTarget<TRoot, T, never>;
}

// ArgsByKind behind a conditional on T: while T is a type parameter (a generic
// function passing its arguments on to urlFor), arguments are then checked
// against the entry of that exact T, as before, not against the index signature.
type ArgsTable<TRoot, T> = [T] extends [unknown] ? ArgsByKind<TRoot, T> : never;

// Every test on T is wrapped ([T] extends [...]) so that none distributes. The
// `string` branch is never taken (never takes the first one): it makes the
// constraint of the kind `string`, so that TypeScript reads the index signature
// and not every property of ArgsByKind before T is known.
type TargetKind<T> = [T] extends [string]
  ? [T] extends [`/${string}`]
    ? 'pattern'
    : 'path'
  : [T] extends [readonly unknown[]]
    ? 'chain'
    : [T] extends [never]
      ? string
      : 'page';

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
