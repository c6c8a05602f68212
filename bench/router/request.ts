// A request as the node adapter hands it to the mux: it passes `instanceof
// Request`, answers `method`, and carries the already-split target, so the
// mux parses no URL. Building a real Request per match would cost far more
// than the match; benchmarks build these once.

import { requestFacts, type RequestFacts } from '../../core/kernel/adapter.ts';

class TargetRequest {
  #method: string;
  [requestFacts]: RequestFacts;
  constructor(method: string, host: string, path: string) {
    this.#method = method;
    this[requestFacts] = { target: { host, path, query: '' }, client: '' };
  }
  get method(): string {
    return this.#method;
  }
}
Object.setPrototypeOf(TargetRequest.prototype, Request.prototype);

/** A request for `method host path` that the mux routes without parsing a URL. */
export function targetRequest(method: string, host: string, path: string): Request {
  return new TargetRequest(method, host, path) as unknown as Request;
}
