// A profile target for urlFor: node --cpu-prof --import tsx bench/urlfor/profile.ts

import { ServeMux, mount, route } from '../../core/index.ts';

class UserPage {
  page() {
    return '';
  }
}
class Admin {
  user = route('/users/{userId}', UserPage);
}
class App {
  admin = route('/admin', Admin);
}
const tree = mount(new ServeMux(), App);
let n = 0;
const start = performance.now();
while (performance.now() - start < 3000) {
  for (let i = 0; i < 1000; i++) tree.urlFor(UserPage, { userId: 7 });
  n += 1000;
}
console.log(`${Math.round(n / 3)} urlFor/s`);
