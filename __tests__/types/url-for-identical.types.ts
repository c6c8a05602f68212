// Compile-time checks of urlFor where many routes serve pages of one type (issue 41): TypeScript cannot tell
// structurally identical page classes apart, yet a call's params must still be exactly those of one of the routes
// whose target is that type: a missing param and an unknown one fail, as for a page of its own. Both cases of
// core/tree/url-types.ts's keyed check: more than 8 such routes (MaxExact), and two under one parent.
// Each @ts-expect-error line is a call that must not compile.

import { ServeMux, mount, route, type PageRef, type UrlParamsArg } from '../../core/index.ts';

// Nine page classes with only page(): one type to TypeScript, served by 18 routes in two groups.
class Q0 {
  page() {
    return 'q';
  }
}
class Q1 {
  page() {
    return 'q';
  }
}
class Q2 {
  page() {
    return 'q';
  }
}
class Q3 {
  page() {
    return 'q';
  }
}
class Q4 {
  page() {
    return 'q';
  }
}
class Q5 {
  page() {
    return 'q';
  }
}
class Q6 {
  page() {
    return 'q';
  }
}
class Q7 {
  page() {
    return 'q';
  }
}
class Q8 {
  page() {
    return 'q';
  }
}
class Shelf {
  q0 = route('/q0/{id0}', Q0);
  q1 = route('/q1/{id1}', Q1);
  q2 = route('/q2/{id2}', Q2);
  q3 = route('/q3/{id3}', Q3);
  q4 = route('/q4/{id4}', Q4);
  q5 = route('/q5/{id5}', Q5);
  q6 = route('/q6/{id6}', Q6);
  q7 = route('/q7/{id7}', Q7);
  q8 = route('/q8/{id8}', Q8);
}
class Library {
  a = route('/a/{shelfA}', Shelf);
  b = route('/b/{shelfB}', Shelf);
  about = route('/about', Q0); // a route of the type without params
}
const library = mount(new ServeMux(), Library);

// The params of one route pass, whichever page class of the type names it.
library.urlFor(Q4, { shelfA: 'x', id4: 4 });
library.urlFor(Q4, { shelfB: 'x', id8: 8 }); // another route of the same type: TypeScript cannot tell them apart
library.urlFor(Q0); // the route without params
library.urlFor([Shelf, Q3], { shelfA: 1, id3: 2 }); // a chain is checked as its last page
// @ts-expect-error a missing param: no route of the type takes only {shelfA}
library.urlFor(Q4, { shelfA: 'x' });
// @ts-expect-error a missing param: no route of the type takes only {id4}
library.urlFor(Q4, { id4: 4 });
// @ts-expect-error an unknown key
library.urlFor(Q4, { shelfA: 'x', id4: 4, nope: 1 });
// @ts-expect-error a wrong param: {id4} and {id5} are params of different routes
library.urlFor(Q4, { shelfA: 'x', id4: 4, id5: 5 });
// @ts-expect-error the params of no route: a param of each shelf
library.urlFor(Q4, { shelfA: 'x', shelfB: 'y', id4: 4 });
// @ts-expect-error values are strings or numbers
library.urlFor(Q4, { shelfA: true, id4: 4 });
// @ts-expect-error the route without params takes none
library.urlFor(Q0, {});

// Two routes of one type under one parent: each call takes the params of one of them.
class Item {
  page() {
    return 'item';
  }
}
class Aisle {
  first = route('/first/{n}', Item);
  second = route('/second/{n}/{m}', Item);
}
class Store {
  aisle = route('/aisle/{s}', Aisle);
}
const store = mount(new ServeMux(), Store);
store.urlFor(Item, { s: 1, n: 2 });
store.urlFor(Item, { s: 1, n: 2, m: 3 });
// @ts-expect-error {s} is missing
store.urlFor(Item, { n: 2, m: 3 });
// @ts-expect-error {n} is missing
store.urlFor(Item, { s: 1, m: 3 });
// @ts-expect-error an unknown key
store.urlFor(Item, { s: 1, n: 2, k: 3 });
// @ts-expect-error no params at all
store.urlFor(Item);

// A wrapper that takes the params as a type parameter (as the plain urlFor does, through Register) checks exactly
// too, and passes them on to tree.urlFor.
export function storeUrl<const T extends PageRef<Store>, TArgs extends unknown[]>(
  target: T,
  ...params: UrlParamsArg<Store, T, TArgs>
): string {
  return store.urlFor<T, TArgs>(target, ...params);
}
storeUrl(Item, { s: 1, n: 2 });
// @ts-expect-error {n} is missing
storeUrl(Item, { s: 1, m: 3 });
export function libraryUrl<const T extends PageRef<Library>, TArgs extends unknown[]>(
  target: T,
  ...params: UrlParamsArg<Library, T, TArgs>
): string {
  return library.urlFor<T, TArgs>(target, ...params);
}
libraryUrl(Q7, { shelfB: 'b', id7: 7 });
// @ts-expect-error a missing param
libraryUrl(Q7, { shelfB: 'b' });
// @ts-expect-error a wrong param
libraryUrl(Q7, { shelfB: 'b', id6: 6, id7: 7 });

// A wrapper that takes UrlParamsArg<App, T> (two arguments) passes its params on unchanged.
export function looseUrl<const T extends PageRef<Library>>(target: T, ...params: UrlParamsArg<Library, T>): string {
  return library.urlFor(target, ...params);
}
