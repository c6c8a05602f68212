// pagetree/adapter: the contract between a server adapter and the core (core/kernel/adapter.ts, docs/adapters.md).
// The node adapter (core/node) is written with it and nothing else of core but ServeMux, as any adapter can be.
//
//   the request in    a Request carrying RequestFacts under `requestFacts` (target, client, abort, guardsBody), or a
//                     runtime's own Request and `handOver(req, info)`; `parseTarget` splits a raw absolute target
//   the handler       a ServeMux: `mux.serveHTTP(req)`; any other Handler: `serveHandler(handler, req, logger)`
//   its body          an adapter's own Request reads it with `readBody`, `readJson`, `readFormBody` (a bad body is a
//                     4xx, a form is counted against its limits), and fails past its size limit with `bodyTooLarge`
//   the answer out    `answerOf(res)`: status, headers, body (a string or bytes sent whole, or a stream); an event
//                     stream's bytes can be taken as they are sent (`takeEvents`) instead of read from its body;
//                     a socket route's answer to an upgrade carries the endpoint to open (`takeSocket`), which
//                     `openSocket` opens on the adapter's WebSocket
//   failures          `handlerFailed(logger, req, err)`: logged, and a bare 500; `textError` for an adapter's own 4xx;
//                     `guardLogger` makes a user's logger safe to call anywhere, `consoleLogger` is the default
//   laziness          `lazyInherit`: a cheap class that passes for a Request (or Headers), the real one made on use

export {
  clientAddress,
  handOver,
  parseTarget,
  requestFacts,
  serveHandler,
  validHost,
  validUrlHost,
} from './kernel/adapter.ts';
export type { AdapterRequest, RequestFacts, RequestTarget } from './kernel/adapter.ts';
export { answerOf, textError } from './kernel/answer.ts';
export type { Answer } from './kernel/answer.ts';
export { consoleLogger, guardLogger, handlerFailed } from './kernel/logger.ts';
export type { Logger } from './kernel/logger.ts';
export type { Handler } from './kernel/request.ts';
export { lazyInherit } from './kernel/lazy-inherit.ts';
export { bodyTooLarge, readBody, readFormBody, readJson } from './forms/request-body.ts';
export { takeEvents } from './live/event-stream.ts';
export type { EventSink } from './live/event-stream.ts';
export { guardSocketHandler, isUpgrade, SocketAnswers, takeSocket } from './live/socket.ts';
export { utf8Over, frameText } from './live/socket-text.ts';
export { PingSweeps, type Pingable } from './live/ping-sweep.ts';
export { openSocket } from './live/connection.ts';
export type { SocketConnection, SocketEndpoint, SocketPeer } from './live/socket.ts';
