// Compile-time checks of urlFor where many routes serve pages of one type (core/tree/url-types.ts, KeyedArgs):
// TypeScript cannot tell such pages apart, so a call's params must be those of one of those routes (any of them);
// the call's keys find them in an index made once for the set, so each call costs the same whatever the size of
// the tree (bench/types). url-for-identical.types.ts has the missing and wrong params of such pages.
// Each @ts-expect-error line is a call that must not compile.

import { ServeMux, mount, route, type UrlParamsArg } from '../../core/index.ts';

// Ten pages of one type (only page()), in groups that have a param of their own.
class P0 {
  page() {
    return 'p';
  }
}
class P1 {
  page() {
    return 'p';
  }
}
class P2 {
  page() {
    return 'p';
  }
}
class P3 {
  page() {
    return 'p';
  }
}
class P4 {
  page() {
    return 'p';
  }
}
class GroupA {
  p0 = route('/p0/{id0}', P0);
  p1 = route('/p1/{id1}', P1);
  p2 = route('/p2/{id2}', P2);
  p3 = route('/p3/{id3}', P3);
  p4 = route('/p4/{id4}', P4);
}
class GroupB {
  p0 = route('/p0/{id0}', P0);
  p1 = route('/p1/{id1}', P1);
  p2 = route('/p2/{id2}', P2);
  p3 = route('/p3/{id3}', P3);
  p4 = route('/p4/{id4}', P4);
}
class Unique {
  page() {
    return 'u';
  }
  uniqueOnly() {
    return 1;
  }
}
class Big {
  a = route('/a/{a}', GroupA);
  b = route('/b/{b}', GroupB);
  unique = route('/u/{u}', Unique);
}
const big = mount(new ServeMux(), Big);

// Calls of a page of the shared type: the params of one of its routes, and the params object is not optional
// (every route has params).
big.urlFor([GroupA, P3], { a: 1, id3: 2 }); // a chain names the page; its params are checked as the last page's
big.urlFor(P3, { a: 1, id3: 2 });
big.urlFor(P3, { b: 1, id0: 2 }); // the params of another route of the same type: TypeScript cannot tell them apart
// @ts-expect-error a key that no route of the type has
big.urlFor(P3, { a: 1, id3: 2, nope: 3 });
// @ts-expect-error the params object is required: every route of the type has params
big.urlFor(P3);
// @ts-expect-error values are strings or numbers
big.urlFor(P3, { a: true });

// A page with a member of its own is still looked up exactly.
big.urlFor(Unique, { u: 1 });
// @ts-expect-error its param is missing
big.urlFor(Unique, {});
// @ts-expect-error the params of a page of the shared type
big.urlFor(Unique, { u: 1, id0: 2 });

// Two routes of one type under one parent: the params of one of them.
class Item {
  page() {
    return 'item';
  }
}
class Shelf {
  first = route('/first/{n}', Item);
  second = route('/second/{n}/{m}', Item);
}
class Store {
  shelf = route('/shelf/{s}', Shelf);
}
const store = mount(new ServeMux(), Store);
store.urlFor(Item, { s: 1, n: 2 });
store.urlFor(Item, { s: 1, n: 2, m: 3 });
// @ts-expect-error {n} is in both routes
store.urlFor(Item, { s: 1, m: 3 });

// `any` takes any params, as a field path does.
declare const anything: any; // eslint-disable-line @typescript-eslint/no-explicit-any
store.urlFor(anything, { whatever: 1 });

// What a wrapper of urlFor passes on: the params, as a tuple.
export const shelfArgs: UrlParamsArg<Store, typeof Shelf> = [{ s: 1 }];
// @ts-expect-error the params are required
export const noShelfArgs: UrlParamsArg<Store, typeof Shelf> = [];
