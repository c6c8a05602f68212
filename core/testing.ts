// pagetree/testing: what a test of an app needs from pagetree. htmxRequest builds the Request htmx would send (its
// HX-* headers, a form body), to hand to `mux.fetch` and read the answer as a browser would get it.
//
//   import { htmxRequest } from 'pagetree/testing';
//   const res = await mux.fetch(htmxRequest('/todos', { target: '#todo-list' }));

export { htmxRequest } from './htmx/request-builder.ts';
export type { HtmxRequestOptions } from './htmx/request-builder.ts';
