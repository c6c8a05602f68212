// The Web fetch adapter: a handler's answer as the one real Response that Bun, Deno and workerd take.
//
//   Deno.serve(mux.fetch)   →  what the runtime passes besides the Request (Deno's info, Bun's server) handed over
//                              for clientAddress (adapter.ts)
//                           →  a host no URL parses: 400, before any handler (kernel/adapter.ts's validUrlHost)
//                           →  handler(req) → Answer (LiteResponse) or a hand-made Response
//                              → toResponse: one Response, made here and nowhere before
//                              → HEAD: the same head, no body (a stream body cancelled, so what feeds it stops)
//
// `fetchAnswer` does all of it, a synchronous page answered synchronously (pagetree/bun serves with it);
// `fetchHandler` (mux.fetch) is the same behind a promise, as the Web's fetch handlers are typed. Under wrk on Bun the
// two cost the same within the noise, ±5–8% on a shared VM (bench/README.md, issue 43): a synchronous page's promise
// is already fulfilled when Bun gets it.
// Node's adapter (core/node) writes the same answers to node:http instead.

import { guardLogger, handlerFailed, type Logger } from './logger.ts';
import { asResponse, textError, toResponse } from './answer.ts';
import { handOver, validUrlHost } from './adapter.ts';
import { isThenable } from './request.ts';

/** What fetchHandler and fetchAnswer answer with: a handler function, or an object with serveHTTP (a ServeMux). */
type Serve =
  ((req: Request) => Response | Promise<Response>) | { serveHTTP(req: Request): Response | Promise<Response> };

/**
 * A fetch handler that never rejects: a handler that throws, or answers with something that is not a Response, gets
 * a 500 with no detail in the body (the error is logged); an answer a Response refuses (a header value it cannot
 * hold) too; a HEAD answer loses its body (a stream is cancelled). What the runtime passes besides the Request
 * (Deno's `info`, Bun's `server`) gives `clientAddress` the client's address. `logger` is guarded (guardLogger).
 * `serve` is a handler function or an object with `serveHTTP` (a mux: its serveHTTP called from the handler's own
 * frame, and looked up per request).
 * @example const fetch = fetchHandler((req) => mux.serveHTTP(req), mux.logger); Deno.serve(fetch)
 */
export function fetchHandler(serve: Serve, logger: Logger): (req: Request, info?: unknown) => Promise<Response> {
  const answer = fetchAnswer(serve, logger);
  return (req, info) => {
    const res = answer(req, info);
    return res instanceof Promise ? res : Promise.resolve(res);
  };
}

/**
 * `fetchHandler`'s answers, a synchronous one without a promise around it: what a runtime that takes either (Bun.serve,
 * Deno.serve) sends soonest. Never throws, and its promise never rejects.
 * @example Bun.serve({ fetch: fetchAnswer((req) => mux.serveHTTP(req), mux.logger) })
 */
export function fetchAnswer(
  serve: Serve,
  logger: Logger,
): (req: Request, info?: unknown) => Response | Promise<Response> {
  logger = guardLogger(logger);
  const failed = (req: Request, err: unknown) => finish(req, handlerFailed(logger, req, err), logger);
  const settle = (req: Request, answer: unknown): Response => {
    let res: Response;
    try {
      res = asResponse(answer);
    } catch (err) {
      return failed(req, err);
    }
    return finish(req, res, logger);
  };
  return (req, info) => {
    // Bun and Deno hand over a Host header no URL parses ("http://ex ample/"): a 400 here, as the node adapter and Go
    // answer it, not a 500 from the first `new URL(req.url)` of a page.
    if (!validUrlHost(req.url)) return finish(req, textError(400, 'Bad Request: malformed Host header'), logger);
    if (typeof info === 'object' && info !== null) handOver(req, info);
    let answer: Response | Promise<Response>;
    try {
      answer = typeof serve === 'function' ? serve(req) : serve.serveHTTP(req);
    } catch (err) {
      return failed(req, err);
    }
    // A synchronous answer (the usual page) is sent as it is: no promise, no turn of the microtask queue.
    if (!isThenable(answer)) return settle(req, answer);
    return Promise.resolve(answer).then(
      (a) => settle(req, a),
      (err: unknown) => failed(req, err),
    );
  };
}

// The answer made the one Response, and a HEAD's body dropped.
function finish(req: Request, answer: Response, logger: Logger): Response {
  let res: Response;
  try {
    res = toResponse(answer);
  } catch (err) {
    // A lite answer whose status or headers a Response refuses (issue 24): a 500, never a throw.
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
}

function ignore(): void {}
