// Compile-time checks for urlFor: the params argument follows from the route
// tags, so a renamed wildcard or a moved page fails `tsc`, not a click.
//
//   class App   { admin = route('/admin', Admin) }
//   class Admin { user = route('/users/{userId} User', UserPage) }
//
//   tree.urlFor(UserPage, { userId: 7 })   ✓
//   tree.urlFor(UserPage)                  ✗ RequiredParams<"userId">
//   tree.urlFor(UserPage, { userID: 7 })   ✗ unknown key
//   tree.urlFor(Admin, {})                 ✗ Admin takes no params
//
// The tree is read once per root (TypeScript caches each alias instantiation by its arguments, so every call
// reuses it) into two maps: the routes by id (their field path below the root), and the ids by the member names
// that tell their targets apart, pagetree's own names (`page`, `props`, …) set aside:
//
//   ById<App>   { "": { target: App; params: never }, "admin": { target: typeof Admin; params: never },
//                 "admin.user": { target: typeof UserPage; params: "userId" } }
//   ByName<App> { admin: "", user: "admin", userOnly: "admin.user" }
//
// A call takes the required member names of its target (`userOnly` for UserPage), reads their ids (several names:
// the ids all of them give), and compares the target with those few routes only: one call costs about the same
// whatever the size of the tree. A target with only pagetree's own names (`page()` alone) is looked up by the set
// of them ("(class page)", SharedIds). Classes with the same members are one type to TypeScript, so such a set may
// hold many routes; either way the call's params must be exactly those of one of the routes whose target is that
// type. Up to MaxExact of them, no two under one parent, the target is compared with each (ExactArgs). More, and
// the call's own keys find the routes: urlFor takes its arguments as a type parameter too (TArgs), and the routes
// of the set are indexed once by their params (ByParamsKey), so that the keys a call passes are one property read:
//
//   ByParamsKey<routes of "(class page)">  { " group3 id4": { id: "g3.p4"; … }, " group3 id5": …, "": … }
//   urlFor(Page3x4, { group3: 'g', id4: 4 })   reads " group3 id4"   ✓ RequiredParams<"group3" | "id4">
//   urlFor(Page3x4, { group3: 'g' })           reads " group3": none ✗ RequiredParams<"group3" | "id0"> | …
//
// Only a call that fits no route searches the set, to name what is missing. (Comparing the target with every
// route of the tree, as the first versions did, made each call cost as much as the tree: 38 million
// instantiations and 100 s for 1,000 routes of one page type; now ~330K and a few seconds, bench/types. Checking
// such a set's params as a whole, SharedArgs, was as cheap but let a missing param pass: it remains for
// UrlParamsArg without TArgs, a wrapper's two-argument form.)

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

/** A route of the tree: its id (field path below the root), its parent's, its target, the params down to it. */
interface RouteEntry<TId extends string, TParent extends string, TTarget, TParams extends string> {
  id: TId;
  parent: TParent;
  target: TTarget;
  params: TParams;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyEntry = RouteEntry<string, string, any, string>;

// The routes declared on a node's fields and below them, one union.
type Entries<TNode, TParent extends string, TParams extends string, TDepth extends number> = [TDepth] extends [never]
  ? never
  : {
      [K in keyof TNode & string]-?: TNode[K] extends Route<infer TTag, infer TTarget>
        ? EntriesFrom<IdOf<TParent, K>, TParent, TTarget, TParams | ParamNames<TTag>, TDepth>
        : never;
    }[keyof TNode & string];

type EntriesFrom<TId extends string, TParent extends string, TTarget, TParams extends string, TDepth extends number> =
  RouteEntry<TId, TParent, TTarget, TParams> | Entries<InstanceOf<TTarget>, TId, TParams, Next[TDepth]>;

type IdOf<TParent extends string, TField extends string> = TParent extends '' ? TField : `${TParent}.${TField}`;

// Every route of a tree; the root is a target too (without params).
type TreeEntries<TRoot> = RouteEntry<'', '(root)', TRoot, never> | Entries<InstanceOf<TRoot>, '', never, 10>;

// The routes by id: a call reads the few its target's names give.
type ById<TRoot> = { [E in TreeEntries<TRoot> as E['id']]: E };

// The ids by member name (IndexNames of their targets, but sets of pagetree's own names: SharedIds). A mapped type
// with `as` merges the entries that give the same name: its property is the union of their ids. (Merging adds one
// id at a time, a cost that grows with the square of a name's routes: fine for names of their own, not for the set
// of `page()` alone that every page of the issue 41 app has, 0.3 s at 1,000 routes and 1.8 s at 2,000.)
type ByName<TRoot> = { [P in IndexPairs<TreeEntries<TRoot>> as P['name']]: P['id'] };

type IndexPairs<TEntry> = TEntry extends AnyEntry ? PairsOf<IndexNames<TEntry['target']>, TEntry['id']> : never;

type PairsOf<TName, TId> = TName extends SharedKey
  ? never
  : TName extends PropertyKey
    ? { name: TName; id: TId }
    : never;

// The ids whose targets have one set of pagetree's own names and no other: every route read once, the union made
// at once (computed once per set that calls use).
type SharedIds<TRoot, TKey> = SharedIdsOf<TreeEntries<TRoot>, TKey>;

type SharedIdsOf<TEntry, TKey> = TEntry extends AnyEntry
  ? IndexNames<TEntry['target']> extends TKey
    ? TEntry['id']
    : never
  : never;

// Member names every page may have: pagetree's own (names.ts), which tell no two pages apart.
type SharedName =
  'page' | 'props' | 'serveHTTP' | 'middlewares' | 'init' | 'error' | 'post' | 'put' | 'patch' | 'delete';

// The names a target is found by: the required member names of its instance (of a class) or of itself (of a
// page object), but pagetree's own; or, with none other, the set of pagetree's own it has ("(class page props)").
// Two mutually assignable types have the same required member names, so the target of any route of the same type
// as T has T's names (RequiredKeys on both sides; an optional member is in neither).
// A page with only pagetree's own names is found by the props its `page()` takes ("page.userId"), as pages whose
// members are only `props()` and `page()` are told apart, and else by the set of its own names.
type IndexNames<T> = T extends abstract new (...args: never[]) => infer TInstance
  ? NamesOf<'class', TInstance, RequiredKeys<TInstance>>
  : NamesOf<'object', T, Exclude<RequiredKeys<T>, 'prototype'>>;

type NamesOf<TKind extends string, TPage, TRequired> = [Exclude<TRequired, SharedName>] extends [never]
  ? OrElse<PropsNames<TPage>, SharedSet<TKind, TRequired>>
  : Exclude<TRequired, SharedName>;

type OrElse<TNames, TOther> = [TNames] extends [never] ? TOther : TNames;

type PropsNames<TPage> = TPage extends { page: (props: infer TProps, ...rest: never[]) => unknown }
  ? 0 extends 1 & TProps
    ? never
    : TProps extends object
      ? `page.${RequiredKeys<TProps> & string}`
      : never
  : never;

// A set of pagetree's own names as one string, in a fixed order, so that equal sets give one key: "(class page)".
type SharedSet<
  TKind extends string,
  TNames,
> = `(${TKind}${Has<TNames, 'page'>}${Has<TNames, 'props'>}${Has<TNames, 'serveHTTP'>}${Has<TNames, 'middlewares'>}${Has<TNames, 'init'>}${Has<TNames, 'error'>}${Has<TNames, 'post'>}${Has<TNames, 'put'>}${Has<TNames, 'patch'>}${Has<TNames, 'delete'>})`;

type SharedKey = `(${string})`;

type Has<TNames, TName extends string> = TName extends TNames ? ` ${TName}` : '';

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
type RequiredKeys<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? never : K }[keyof T];

// The ids every one of the names gives (one name: its ids; several: the ids they share). Contravariant inference
// from a union of functions intersects their parameters; ids are string literals, which TypeScript intersects as
// sorted lists.
type IdsOf<TRoot, TNames> = [TNames] extends [SharedKey]
  ? SharedIds<TRoot, TNames>
  : (TNames extends PropertyKey ? (ids: IdsOfName<TRoot, TNames>) => void : never) extends (ids: infer TIds) => void
    ? TIds
    : never;

// The ids of one name: a property read, and a name that no route has reads as unknown (a missing property), here
// never. (Asking first whether the name is one of the tree's, `name extends keyof ByName<App>` or a union of the
// names, costs as much as the rest of the call and more: ~6K instantiations, or ~10 ms a call at 1,000 routes.)
type IdsOfName<TRoot, TName extends PropertyKey> = KnownOrNever<Get<ByName<TRoot>, TName>>;

type KnownOrNever<T> = unknown extends T ? never : T;

// A property read the declaration allows without `keyof`: the index signature of the constraint admits any key.
type Get<TMap extends { [key: PropertyKey]: unknown }, TKey extends PropertyKey> = TMap[TKey];

/**
 * What urlFor accepts for a tree: a page (class or object), a chain of them (a template last), or a string.
 * Whether the page is mounted in the tree is checked with the params (UrlParamsArg).
 */
//
// Not the union of the tree's targets, for speed: TypeScript instantiates a type parameter's constraint at every
// call, and a union of classes member by member (each class could be generic), ~1,050 instantiations a call at
// 1,000 routes, about as much as the rest of the call.
export type PageRef<TRoot> = unknown extends TRoot
  ? unknown
  : PageTarget | readonly [PageTarget, ...(PageTarget | string)[]] | string;

// A page class or page object (its methods are checked by mount, not here).
type PageTarget = object;

// The params-argument tuples of the routes whose target T is: T's names give a few ids, and of their routes the
// ones whose target is the same type as T (two page classes with the same members are: their tuples form a union,
// and a call passes if it fits one). `any` matches everything: its params are not checked. TArgs is the call's
// arguments (never: not known, UrlParamsArg with two arguments).
type ArgsOfTarget<TRoot, T, TExtra extends string, TArgs> = 0 extends 1 & T
  ? [params?: Record<string, string | number>]
  : ArgsOfIds<TRoot, IdsOf<TRoot, IndexNames<T>>, T, TExtra, TArgs>;

type ArgsOfIds<TRoot, TIds, T, TExtra extends string, TArgs> = [TIds] extends [never]
  ? NotMountedInTree
  : ArgsOfEntries<EntriesById<TRoot, TIds>, T, TExtra, TArgs>;

// The routes of a set of ids. A conditional, for speed: TypeScript caches a conditional's instantiation by its
// arguments, not an indexed access by a union, which it maps member by member at every instantiation (at 2,000
// routes of one type, 2,000 property reads and a union of 2,000 made a call; on TypeScript 7, which orders a
// union's members by comparing them, that was most of a call's time and grew with the tree). An alias alone does
// not cache it: an alias of an indexed access is instantiated as the indexed access.
type EntriesById<TRoot, TIds> = [TIds] extends [infer TKey extends PropertyKey] ? Get<ById<TRoot>, TKey> : never;

// A few routes: the target is compared with each (ExactArgs). More: the call's keys find the routes that take
// exactly them (KeyedArgs); without the call's arguments, the routes' params are checked as a whole (SharedArgs).
type ArgsOfEntries<TEntries, T, TExtra extends string, TArgs> =
  IsFew<TEntries> extends true
    ? ExactArgs<TEntries, T, TExtra>
    : [TArgs] extends [never]
      ? SharedArgs<TEntries, TExtra>
      : KeyedArgs<TEntries, T, TExtra, KeysOf<TArgs>>;

type ExactArgs<TEntry, T, TExtra extends string> = OrNotMounted<
  TEntry extends AnyEntry
    ? IsTarget<T, TEntry['target']> extends true
      ? ParamsArg<TEntry['params'] | TExtra>
      : never
    : never
>;

type OrNotMounted<TArgs> = [TArgs] extends [never] ? NotMountedInTree : TArgs;

// The params argument of a page that is not mounted in the tree: no call fits, and the error says why ("Argument
// of type '[]' is not assignable to parameter of type 'NotMountedInTree'"). Two tuples, as RequiredParams.
type NotMountedInTree = [page: { readonly 'urlFor: this page is not mounted in the tree': never }] | [page: never];

// Mutual assignability: the same class (or one with exactly the same members).
type IsTarget<T, TTarget> = [T] extends [TTarget] ? ([TTarget] extends [T] ? true : false) : false;

// Whether a call compares its target with the routes one by one (each comparison is a structural one: TypeScript
// has no cheaper identity test for two class types), or checks them as a whole: one by one when they are at most
// MaxExact, no two under the same parent. Computed once per set of routes, and for speed by their parents: the
// count of a union takes one member at a time (LastOf), whose cost grows with the square of the union, and a set
// of routes has fewer parents than routes; whether one parent has one route of the set is a cheap test (IsOne).
type IsFew<TEntries> = FewParents<TEntries, ParentOf<TEntries>, MaxExact>;

// How many routes of one set of names a call compares its target with, one by one.
type MaxExact = [0, 0, 0, 0, 0, 0, 0, 0];

type FewParents<TEntries, TParents, TCount extends unknown[]> = [TParents] extends [never]
  ? true
  : TCount extends [unknown, ...infer TRest]
    ? LastOf<TParents> extends infer TParent
      ? IsOne<IdsUnder<TEntries, TParent>> extends true
        ? FewParents<TEntries, Exclude<TParents, TParent>, TRest>
        : false
      : never
    : false;

type ParentOf<TEntries> = TEntries extends AnyEntry ? TEntries['parent'] : never;

type IdsUnder<TEntries, TParent> = TEntries extends AnyEntry
  ? TEntries['parent'] extends TParent
    ? TEntries['id']
    : never
  : never;

// Whether a union of string literals has one member: the intersection of two or more is never.
type IsOne<TUnion> = [TUnion] extends [never] ? false : [UnionToIntersection<TUnion>] extends [never] ? false : true;

type LastOf<TUnion> =
  UnionToIntersection<TUnion extends unknown ? (x: TUnion) => void : never> extends (x: infer TLast) => void
    ? TLast
    : never;

type UnionToIntersection<TUnion> = (TUnion extends unknown ? (x: TUnion) => void : never) extends (
  x: infer TIntersection,
) => void
  ? TIntersection
  : never;

// Many routes whose targets have the same names, checked as a whole (once per set): every name a param of one
// of them, the names all of them have required. The params argument may be left out when one of them has none.
type SharedArgs<TEntries, TExtra extends string> = SharedParams<
  ParamsOf<TEntries> | TExtra,
  CommonParams<TEntries> | TExtra,
  true extends (TEntries extends AnyEntry ? ([TEntries['params'] | TExtra] extends [never] ? true : false) : never)
    ? true
    : false
>;

// The params every one of the routes has: the intersection of their params (one function type per route, made
// while distributing over the routes, before their params merge into one union).
type CommonParams<TEntries> = (TEntries extends AnyEntry ? (params: TEntries['params']) => void : never) extends (
  params: infer TCommon extends string,
) => void
  ? TCommon
  : never;

type ParamsOf<TEntries> = TEntries extends AnyEntry ? TEntries['params'] : never;

type SharedParams<TNames extends string, TCommon extends string, TOptional extends boolean> = [TNames] extends [never]
  ? []
  : TOptional extends true
    ? [params?: SharedObject<TNames, TCommon>]
    : ParamsTuples<SharedObject<TNames, TCommon>>;

type SharedObject<TNames extends string, TCommon extends string> = { [K in TCommon]: string | number } & {
  [K in Exclude<TNames, TCommon>]?: string | number;
};

// The keys of a call's params object (the first argument after the target), none when it passes none.
type KeysOf<TArgs> = [TArgs] extends [readonly [infer TParams, ...unknown[]]]
  ? [TParams] extends [object]
    ? keyof TParams & string
    : never
  : never;

// Many routes whose targets have the same names, and a call's keys: the routes that take exactly those params are
// one property read (ByParamsKey, made once per set of routes), whatever the number of routes; of them, the ones
// whose target is the same type as T. A call that fits none is an error: then (only then) the routes are searched
// for the ones that take every key the call passes, to say which params are missing (MissingArgs).
type KeyedArgs<TEntries, T, TExtra extends string, TKeys extends string> = OrMissing<
  KeyedHits<
    Get<ByParamsKey<TEntries>, ParamsKey<[TExtra] extends [never] ? TKeys : Exclude<TKeys, TExtra>>>,
    T,
    TExtra
  >,
  TEntries,
  T,
  TExtra,
  TKeys
>;

// The routes of a set by their params, as one string in the order of TypeScript's union (ParamsKey): routes with
// the same params merge into one property. A call's keys and a route's params that are the same names are one
// union type to TypeScript, so they give one key (and ParamsKey of it is computed once).
// (The filter in the key, not `TEntries & AnyEntry` in the source: that intersection of 1,000 routes was too deep
// for TypeScript, TS2589.)
type ByParamsKey<TEntries> = { [E in TEntries as E extends AnyEntry ? ParamsKey<E['params']> : never]: E };

// "" for no names, " group3 id4" for two: one name at a time (LastOf), a cost that grows with the square of a
// route's params (a few), not with the routes.
type ParamsKey<TNames> = [TNames] extends [never]
  ? ''
  : LastOf<TNames> extends infer TLast extends string
    ? `${ParamsKey<Exclude<TNames, TLast>>} ${TLast}`
    : never;

// The params argument of the routes found whose target is the same type as T (unknown: no route was found).
type KeyedHits<THits, T, TExtra extends string> = unknown extends THits
  ? never
  : THits extends AnyEntry
    ? IsTarget<T, THits['target']> extends true
      ? ParamsArg<THits['params'] | TExtra>
      : never
    : never;

type OrMissing<TArgs, TEntries, T, TExtra extends string, TKeys extends string> = [TArgs] extends [never]
  ? MissingArgs<TEntries, T, TExtra, TKeys & (ParamsOf<TEntries> | TExtra)>
  : TArgs;

// What a call that fits no route is told: the params of the routes (of T's type) that take every known key it
// passes, so that the error names the missing ones ("RequiredParams<"group3" | "id4">") or the unknown key (an
// excess property of those). Searches every route of the set: for an erroneous call only.
type MissingArgs<TEntries, T, TExtra extends string, TKnown extends string> = OrNoRoute<
  TEntries extends AnyEntry
    ? [TKnown] extends [TEntries['params'] | TExtra]
      ? IsTarget<T, TEntries['target']> extends true
        ? ParamsArg<TEntries['params'] | TExtra>
        : never
      : never
    : never,
  TKnown
>;

type OrNoRoute<TArgs, TKnown extends string> = [TArgs] extends [never] ? NoRouteTakes<TKnown> : TArgs;

// The params argument when no route of the page's type takes all the keys a call passes ("Object literal may only
// specify known properties, and 'id5' does not exist in type '{ readonly "urlFor: no route of this page takes
// all of these params": "id4" | "id5"; }'"). One tuple: the call passes params, so no arity error hides this one.
type NoRouteTakes<TKeys extends string> = [
  params: { readonly 'urlFor: no route of this page takes all of these params': TKeys },
];

type LastPage<TChain> = TChain extends readonly [...unknown[], infer TLast] ? TLast : never;

type ChainArgs<TRoot, TChain, TArgs> = TChain extends readonly [...infer TInit, infer TLast]
  ? TLast extends string
    ? ArgsOfTarget<TRoot, LastPage<TInit>, ParamNames<TLast>, TArgs>
    : ArgsOfTarget<TRoot, TLast, never, TArgs>
  : never;

/**
 * The rest parameters of urlFor: none when the target has no params, else
 * an object with exactly those keys. Field-path strings are not checked.
 * TArgs, the arguments themselves as a type parameter of the call, lets
 * pages of one type served by many routes be checked exactly (as urlFor
 * does); without it, their params are checked as a whole.
 * @example function link<const T extends PageRef<App>, TArgs extends unknown[] = never>(target: T, ...params: UrlParamsArg<App, T, TArgs>) {}
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
//
// TArgs is inferred from the call's arguments: it must appear bare in a branch for that (TypeScript infers into
// both branches of a conditional, not into a property read), here where it is never, so that it adds nothing.
// Two arguments (never), or a call whose arguments are not known yet (an editor's completion), check as before.
export type UrlParamsArg<TRoot, T, TArgs extends unknown[] = never> = unknown extends TRoot
  ? [params?: Record<string, string | number>]
  : [TArgs] extends [never]
    ? TArgs | ArgsTable<TRoot, T, never>[TargetKind<T>]
    : ArgsTable<TRoot, T, TArgs>[TargetKind<T>];

// The params of each kind of target, one property read per call. The index
// signature is the constraint TypeScript sees before T is known (the rest
// parameter must be an array, and `{ … }` gets a cheap contextual type).
interface ArgsByKind<TRoot, T, TArgs> {
  // `undefined` too: the shared params object (SharedObject) has optional members.
  [kind: string]: [params?: Record<string, string | number | undefined>];
  pattern: ParamsArg<ParamNames<T & string>>;
  path: [params?: Record<string, string | number>];
  chain: ChainArgs<TRoot, T, TArgs>;
  page: ArgsOfTarget<TRoot, T, never, TArgs>;
}

// ArgsByKind behind a conditional on T: while T is a type parameter (a generic
// function passing its arguments on to urlFor), arguments are then checked
// against the entry of that exact T, as before, not against the index signature.
type ArgsTable<TRoot, T, TArgs> = [T] extends [unknown] ? ArgsByKind<TRoot, T, TArgs> : never;

// `any` (a target typed any, or urlFor cast to a looser function type) takes any
// params, as a field path does. Every other test on T is wrapped ([T] extends
// [...]) so that none distributes. The
// `string` branch is never taken (never takes the first one): it makes the
// constraint of the kind `string`, so that TypeScript reads the index signature
// and not every property of ArgsByKind before T is known.
type TargetKind<T> = 0 extends 1 & T
  ? 'path'
  : [T] extends [string]
    ? [T] extends [`/${string}`]
      ? 'pattern'
      : 'path'
    : [T] extends [readonly unknown[]]
      ? 'chain'
      : [T] extends [never]
        ? string
        : 'page';

type ParamsArg<TNames extends string> = [TNames] extends [never] ? [] : RequiredParams<TNames>;

// The params argument of a page that has params: two tuples that take the same arguments (the second's object is
// the first's and an empty interface). As a union they are no tuple to TypeScript's arity check, which then reports
// a call without params as "Argument of type '[]' is not assignable to parameter of type 'RequiredParams<"bookId">'"
// instead of "Expected 2 arguments, but got 1". (An intersection with a marker type would do the same, for ~300
// instantiations a call: relating each call's arguments to it resolves every member of their tuple, as an array.)
type RequiredParams<TNames extends string> = ParamsTuples<{ [K in TNames]: string | number }>;

type ParamsTuples<TObject> = [params: TObject] | [params: TObject & ParamsMarker];

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
interface ParamsMarker {}

/**
 * Register your root page class once, and the context `urlFor` is checked
 * like `tree.urlFor`:
 * @example declare module 'pagetree' { interface Register { root: App } }
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Register {}

/** The root registered through `Register`, or unknown. */
export type RegisteredRoot = Register extends { root: infer TRoot } ? TRoot : unknown;
