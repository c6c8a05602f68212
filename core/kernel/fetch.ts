// The Web fetch adapter: a handler's answer as the one real Response that Bun, Deno and workerd take.
//
//   Deno.serve(mux.fetch)   →  what the runtime passes besides the Request (Deno's info, Bun's server) handed over
//                              for clientAddress (adapter.ts)
//                           →  handler(req) → Answer (LiteResponse) or a hand-made Response
//                              → toResponse: one Response, made here and nowhere before
//                              → HEAD: the same head, no body (a stream body cancelled, so what feeds it stops)
//
// Node's adapter (core/node) writes the same answers to node:http instead.

import { guardLogger, handlerFailed, type Logger } from './logger.ts';
import { asResponse, textError, toResponse } from './answer.ts';
import { handOver } from './adapter.ts';
import { isThenable } from './request.ts';

/**
 * A fetch handler that never rejects: a handler that throws, or answers with something that is not a Response, gets
 * a 500 with no detail in the body (the error is logged); an answer a Response refuses (a header value it cannot
 * hold) too; a HEAD answer loses its body (a stream is cancelled). What the runtime passes besides the Request
 * (Deno's `info`, Bun's `server`) gives `clientAddress` the client's address. `logger` is guarded (guardLogger).
 * @example const fetch = fetchHandler((req) => mux.serveHTTP(req), mux.logger); Deno.serve(fetch)
 */
export function fetchHandler(
  serve: (req: Request) => Response | Promise<Response>,
  logger: Logger,
): (req: Request, info?: unknown) => Promise<Response> {
  logger = guardLogger(logger);
  return async (req, info) => {
    if (typeof info === 'object' && info !== null) handOver(req, info);
    let res: Response;
    try {
      // Awaited only when it is a promise: a synchronous answer (the usual page) costs no turn of the microtask queue.
      const answer = serve(req);
      res = asResponse(isThenable(answer) ? await answer : answer);
    } catch (err) {
      res = handlerFailed(logger, req, err);
    }
    try {
      res = toResponse(res);
    } catch (err) {
      // A lite answer whose status or headers a Response refuses (issue 24): a 500, never a rejection.
      logger.error(`pagetree: the answer to ${req.method} ${req.url} could not be made a Response:`, err);
      res = toResponse(textError(500, 'Internal Server Error'));
    }
    if (req.method === 'HEAD' && res.body !== null) {
      // Cancelled, not dropped: a stream made by hand (a page's parts, a file, a feed) would run on unread until it
      // was collected. The cancel's promise is observed here: a source whose cancel throws rejects it.
      if (!res.body.locked) res.body.cancel().catch(ignore);
      res = new Response(null, { status: res.status, statusText: res.statusText, headers: res.headers });
    }
    return res;
  };
}

function ignore(): void {}
