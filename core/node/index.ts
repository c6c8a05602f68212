// pagetree/node: serve a ServeMux (or any handler) with node:http.
//
//   serve(mux)                  a server that owns its shutdown (server.ts): server.shutdown(), server.onShutdown(fn)
//   toNodeListener(mux)         the listener alone, for a server of your own (listener.ts)
//
// The hot path writes a LiteResponse's status, headers and string body straight to the ServerResponse; a real
// Response is streamed. Nothing a client sends can crash the process: node answers unparsable requests with 400/431
// itself, a bad Host gets 400, a handler that throws or rejects gets a 500 with no detail, and a client that goes
// away mid-response is dropped. The adapter uses the core only through pagetree/adapter, as any adapter can.

export { toNodeListener } from './listener.ts';
export type { ListenerOptions, NodeListener } from './listener.ts';
export { onShutdown, serve, shutdown } from './server.ts';
export type { NodeServer, ServeOptions, ShutdownOptions } from './server.ts';
