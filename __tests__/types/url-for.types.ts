// Compile-time checks of urlFor, run by `tsc --noEmit` in `npm test`.
// Each @ts-expect-error line is a call that must not compile.

import { ServeMux, mount, route, type ParamNames } from '../../core/index.ts';

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
