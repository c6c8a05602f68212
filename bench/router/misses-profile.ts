// A profile target for the miss path (404/405): node --cpu-prof --import tsx bench/router/misses-profile.ts

import { ServeMux } from '../../core/index.ts';
import { targetRequest } from './request.ts';
import { misses, routes } from './routes.ts';

const mux = new ServeMux();
for (const r of routes) mux.handle(r, () => new Response(''));
const reqs = misses.map(([method, path]) => targetRequest(method, 'api.github.com', path));
let n = 0;
const start = performance.now();
while (performance.now() - start < 3000) {
  for (const r of reqs) {
    mux.handler(r);
    n++;
  }
}
console.log(`${Math.round(n / 3)} misses/s`);
