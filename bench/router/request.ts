// A request as the node adapter hands it to the mux: it passes `instanceof
// Request`, answers `method`, and carries the already-split target, so the
// mux parses no URL. Building a real Request per match would cost far more
// than the match; benchmarks build these once.

import { kTarget, type RequestTarget } from '../../core/kernel/request.ts';

class TargetRequest {
  #method: string;
  [kTarget]: RequestTarget;
  constructor(method: string, host: string, path: string) {
    this.#method = method;
    this[kTarget] = { host, path, query: '' };
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
