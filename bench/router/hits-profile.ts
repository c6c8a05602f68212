// A profile target for matching routes: node --cpu-prof --import tsx bench/router/hits-profile.ts

import { ServeMux } from '../../core/index.ts';
import { targetRequest } from './request.ts';
import { routes, samplePath, splitRoute } from './routes.ts';

const mux = new ServeMux();
for (const r of routes) mux.handle(r, () => new Response(''));
const reqs = routes.map((r) => {
  const [method, path] = splitRoute(r);
  return targetRequest(method || 'GET', 'api.github.com', samplePath(path));
});
let n = 0;
const start = performance.now();
while (performance.now() - start < 3000) {
  for (const r of reqs) {
    mux.handler(r);
    n++;
  }
}
console.log(`${Math.round(n / 3)} hits/s`);
