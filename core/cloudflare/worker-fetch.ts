// The Worker's fetch beside a socketObject: which requests go to a Durable Object, and to which one.
//
//   workerFetch(mux, { object: (env) => env.SOCKETS })
//     GET /rooms/7/live, Upgrade: websocket   → name "/rooms/7/live" → env.SOCKETS.idFromName(name) → the object's fetch
//     anything else                           → mux.fetch, in the Worker
//
//   workerFetch(mux, { object: (env) => env.SOCKETS, objectName: (req) => /^\/rooms\/([^/]+)\//.exec(path)?.[1] })
//     GET /rooms/7/live (upgrade) and POST /rooms/7/say both → the object "7": the POST runs beside the sockets, so
//     a SocketHub there reaches them all

import { fetchAnswer } from '../kernel/fetch.ts';
import { guardLogger, handlerFailed } from '../kernel/logger.ts';
import { toResponse } from '../kernel/answer.ts';
import { isUpgrade } from '../adapter.ts';
import type { WorkerHandler } from './socket-object.ts';
import type { DurableObjectBinding } from './workerd.ts';

/** Options of `workerFetch`. */
export interface WorkerFetchOptions<TEnv> {
  /** The Durable Object binding of the `socketObject` class, from the Worker's env. */
  object: (env: TEnv) => DurableObjectBinding;
  /**
   * The name of the object a request goes to, or undefined to answer it in the Worker. Default: the path of an
   * upgrade request (each socket route's path its own object), undefined for every other request.
   */
  objectName?: (req: Request) => string | undefined;
}

/**
 * The Worker's `fetch`: a request with an object name goes to that Durable Object (a `socketObject`), which answers
 * it with the same mux; every other is `mux.fetch`, in the Worker. Never rejects: a failure is logged and a 500.
 * @example
 * export default { fetch: workerFetch(mux, { object: (env: Env) => env.SOCKETS }) };
 */
export function workerFetch<TEnv>(
  mux: WorkerHandler,
  options: WorkerFetchOptions<TEnv>,
): (req: Request, env: TEnv) => Response | Promise<Response> {
  if (mux == null || typeof mux.serveHTTP !== 'function') {
    throw new TypeError(
      `pagetree/cloudflare workerFetch(mux): mux is ${String(mux)}, not a ServeMux; pass the mux your pages are mounted on`,
    );
  }
  if (typeof options?.object !== 'function') {
    throw new TypeError(
      'pagetree/cloudflare workerFetch(mux, options): options.object is not a function; ' +
        'give the binding of your socketObject class, e.g. { object: (env) => env.SOCKETS }',
    );
  }
  const logger = guardLogger(mux.logger);
  const answer = fetchAnswer(mux, logger);
  const objectName = options.objectName ?? upgradePath;
  const failed = (req: Request, err: unknown) => toResponse(handlerFailed(logger, req, err));
  return (req, env) => {
    let name: string | undefined;
    try {
      name = objectName(req);
      if (name === undefined) return answer(req);
      const binding = options.object(env);
      return binding
        .get(binding.idFromName(name) as never)
        .fetch(req)
        .catch((err: unknown) => failed(req, err));
    } catch (err) {
      return failed(req, err);
    }
  };
}

function upgradePath(req: Request): string | undefined {
  return isUpgrade(req) ? new URL(req.url).pathname : undefined;
}
