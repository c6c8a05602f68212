// A profile of urlFor with one param on a two-level tree.
//
//   tsx bench/urlfor/profile.ts

import { ServeMux, mount, route } from '../../core/index.ts';
import { profileLoop } from '../lib/cpuprofile.ts';

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
void profileLoop('urlfor', 'urlFor', () => {
  for (let i = 0; i < 1000; i++) tree.urlFor(UserPage, { userId: 7 });
  return 1000;
});
