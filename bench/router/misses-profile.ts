// A profile of the miss path (404/405): the requests of routes.ts that match no route, once per pass.
//
//   tsx bench/router/misses-profile.ts    (compiled: node build/bench/router/misses-profile.js)

import { ServeMux } from '../../core/index.ts';
import { profileLoop } from '../lib/cpuprofile.ts';
import { targetRequest } from './request.ts';
import { misses, routes } from './routes.ts';

const mux = new ServeMux();
for (const r of routes) mux.handle(r, () => new Response(''));
const reqs = misses.map(([method, path]) => targetRequest(method, 'api.github.com', path));
void profileLoop('router-misses', 'misses', () => {
  for (const r of reqs) mux.handler(r);
  return reqs.length;
});
