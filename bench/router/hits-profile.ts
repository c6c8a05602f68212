// A profile of matching routes: every route of routes.ts requested once per pass, through ServeMux.handler.
//
//   tsx bench/router/hits-profile.ts      (compiled: npm run bench:router builds it, then node build/bench/router/hits-profile.js)

import { ServeMux } from '../../core/index.ts';
import { profileLoop } from '../lib/cpuprofile.ts';
import { targetRequest } from './request.ts';
import { routes, samplePath, splitRoute } from './routes.ts';

const mux = new ServeMux();
for (const r of routes) mux.handle(r, () => new Response(''));
const reqs = routes.map((r) => {
  const [method, path] = splitRoute(r);
  return targetRequest(method || 'GET', 'api.github.com', samplePath(path));
});
void profileLoop('router-hits', 'hits', () => {
  for (const r of reqs) mux.handler(r);
  return reqs.length;
});
