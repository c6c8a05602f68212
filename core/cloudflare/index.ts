// pagetree/cloudflare: WebSockets on Cloudflare Workers, through a Durable Object with hibernation (issue 44).
//
//   export const Sockets = socketObject(mux);                                    the Durable Object class
//   export default { fetch: workerFetch(mux, { object: (env) => env.SOCKETS }) } the Worker: upgrades to the object
//
// Sockets that must see each other's messages live in one object (workerd shares no memory between isolates): a
// SocketHub in the object reaches every socket of that object's name. No import of 'cloudflare:workers' and no
// @cloudflare/workers-types: the few members used are declared in workerd.ts.

export { socketObject } from './socket-object.ts';
export type { SocketObject, SocketObjectClass, SocketObjectOptions, WorkerHandler } from './socket-object.ts';
export { workerFetch } from './worker-fetch.ts';
export type { WorkerFetchOptions } from './worker-fetch.ts';
export type { DurableObjectBinding, DurableObjectContext, WorkerdWebSocket } from './workerd.ts';
