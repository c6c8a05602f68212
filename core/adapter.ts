// pagetree/adapter: the contract between a server adapter and the core (core/kernel/adapter.ts, docs/adapters.md).
//
//   an adapter hands the core a Request that carries RequestFacts under `requestFacts` (target, client, abort)
//   and reads what the handler answered with answerOf: status, headers, and a body to write once

export { clientAddress, handOver, requestFacts } from './kernel/adapter.ts';
export type { AdapterRequest, RequestFacts, RequestTarget } from './kernel/adapter.ts';
export { answerOf } from './kernel/answer.ts';
export type { Answer } from './kernel/answer.ts';
