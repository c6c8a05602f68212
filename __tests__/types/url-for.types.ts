// Compile-time checks of urlFor, run by `tsc --noEmit` in `npm test`.
// Each @ts-expect-error line is a call that must not compile.

import { ServeMux, mount, route, type ParamNames, type UrlParamsArg, type PageRef } from '../../core/index.ts';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;

export type Cases = [
  Expect<Equal<ParamNames<'/users/{userId}'>, 'userId'>>,
  Expect<Equal<ParamNames<'GET /b/{bucket}/o/{path...} Files'>, 'bucket' | 'path'>>,
  Expect<Equal<ParamNames<'/admin/{$}'>, never>>,
  Expect<Equal<ParamNames<'/plain Title'>, never>>,
  Expect<Equal<ParamNames<'?page={page}&q={q}'>, 'page' | 'q'>>,
];

class Home {
  page() {
    return 'home';
  }
}
class UserPage {
  page() {
    return 'user';
  }
  userOnly() {
    return 1;
  }
}
class OrderPage {
  page() {
    return 'order';
  }
  orderOnly() {
    return 2;
  }
}
class Orders {
  order = route('/orders/{orderId}', OrderPage);
}
class Admin {
  index = route('/{$} Dashboard', Home);
  user = route('/users/{userId} User', UserPage);
}
class Tenant {
  orders = route('/shop', Orders);
}
class App {
  index = route('/{$} Home', Home);
  admin = route('/admin Admin', Admin);
  tenant = route('/t/{tenant}', Tenant);
}

const tree = mount(new ServeMux(), App);

tree.urlFor(UserPage, { userId: 1 });
tree.urlFor(UserPage, { userId: 'a' });
tree.urlFor(Admin);
tree.urlFor(OrderPage, { tenant: 'acme', orderId: 7 }); // a parent's param is required too
tree.urlFor([Orders, OrderPage], { tenant: 'acme', orderId: 7 });
tree.urlFor([UserPage, '?tab={tab}'], { userId: 1, tab: 'posts' });
tree.urlFor('/admin/users/{userId}', { userId: 1 });
tree.urlFor('admin.user', { userId: 1 }); // field paths are checked at run time only

// @ts-expect-error missing param
tree.urlFor(UserPage, {});
// @ts-expect-error missing params object
tree.urlFor(UserPage);
// @ts-expect-error unknown param
tree.urlFor(UserPage, { userId: 1, userID: 2 });
// @ts-expect-error param of a parent pattern missing
tree.urlFor(OrderPage, { orderId: 7 });
// @ts-expect-error a page without params takes no params object
tree.urlFor(Admin, {});
// @ts-expect-error template param missing
tree.urlFor([UserPage, '?tab={tab}'], { userId: 1 });
// @ts-expect-error pattern param missing
tree.urlFor('/admin/users/{userId}', {});
// @ts-expect-error a class that is not in the tree
tree.urlFor(class Stray {});
// @ts-expect-error param values are strings or numbers
tree.urlFor(UserPage, { userId: true });

// What the search by member names in core/tree/url-types.ts must keep: the same
// type at several routes, page objects, chains, and generic wrappers.
class Twin1 {
  page() {
    return 'twin';
  }
}
class Twin2 {
  page() {
    return 'twin';
  }
}
class WithOptional {
  note?: string;
  page() {
    return 'twin';
  }
}
class Base {
  page() {
    return 'base';
  }
  base() {
    return 1;
  }
}
class Derived extends Base {
  derived() {
    return 2;
  }
}
const about = {
  page() {
    return 'about';
  },
};
class Section {
  twin = route('/twin/{a}', Twin1);
  base = route('/base/{b}', Base);
}
class Site {
  section = route('/s/{s}', Section);
  twin = route('/other/{c}', Twin2);
  about = route('/about/{d}', about);
}
const site = mount(new ServeMux(), Site);

site.urlFor(Twin1, { s: 1, a: 2 });
site.urlFor(Twin1, { c: 1 }); // Twin2's route: a class with the same members is the same type
site.urlFor(WithOptional, { c: 1 }); // so is one with an optional member more
site.urlFor(about, { d: 1 }); // a page object
site.urlFor([Section, Base], { s: 1, b: 2 });

export function siteUrl<const T extends PageRef<Site>>(target: T, ...params: UrlParamsArg<Site, T>): string {
  return site.urlFor(target, ...params); // a generic wrapper passes its arguments on
}
siteUrl(Base, { s: 1, b: 2 });

// @ts-expect-error the params of two routes mixed
site.urlFor(Twin1, { s: 1, a: 2, c: 3 });
// @ts-expect-error a subclass of a mounted page is not mounted
site.urlFor(Derived, { s: 1, b: 2 });
// @ts-expect-error a page object's params are required too
site.urlFor(about, {});
// @ts-expect-error param missing, through the generic wrapper
siteUrl(Base, { s: 1 });
export function basePage<const T extends typeof Base>(target: T): string {
  // @ts-expect-error while T is a type parameter, no params object fits
  return site.urlFor(target, { s: 1, b: 2 });
}
