// What a page reads of its request beyond the headers: the body and the signal.
//
//   await req.formData()   JSON body             → HttpError(415), not a TypeError (a 500)
//                          no Content-Type       → HttpError(400)
//                          truncated multipart   → HttpError(400)
//   await req.json()       not JSON              → HttpError(400)
//   page timeout           req.signal aborts; the node adapter also stops the body
//
// A body that cannot be parsed is the client's fault: the page pipeline answers
// the HttpError with its status and logs one line (the cause), not a stack.

import { HttpError } from '../errors.ts';
import { ownFacts } from '../kernel/adapter.ts';
import { defaultFormLimits, limitedFormData } from './form-body.ts';

const formTypes = /^\s*(multipart\/form-data|application\/x-www-form-urlencoded)\s*(;|$)/i;

/**
 * Whether a Content-Type is a form's: urlencoded or multipart.
 * @example isFormType('multipart/form-data; boundary=x') // → true
 */
export function isFormType(type: string | null): boolean {
  return type !== null && formTypes.test(type);
}

/**
 * `req.formData()` with parse failures as HttpErrors: 415 for a body that is
 * not a form, 400 for a missing or malformed one. A failure that already is
 * an HttpError (413 from the size limit) or an abort passes as it is.
 * @example await readFormData(req, () => realRequest.formData())
 */
export async function readFormData<T = FormData>(req: Request, read: () => Promise<T>): Promise<T> {
  const type = req.headers.get('content-type');
  if (type === null || type === '') {
    throw new HttpError(400, 'Bad Request: expected a form body', {}, { cause: 'no Content-Type' });
  }
  if (!isFormType(type)) {
    const expected = 'expected application/x-www-form-urlencoded or multipart/form-data';
    throw new HttpError(
      415,
      `Unsupported Media Type: ${expected}`,
      {},
      { cause: `Content-Type ${JSON.stringify(type)}` },
    );
  }
  return clientFault(read, 'the form body could not be parsed');
}

/**
 * `req.json()` with a body that is not JSON as HttpError(400).
 * @example await readJson(() => realRequest.json())
 */
export function readJson(read: () => Promise<unknown>): Promise<unknown> {
  return clientFault(read, 'the body is not valid JSON');
}

/**
 * A body read (`text`, `arrayBuffer`, …) whose stream failed because the
 * client did (a truncated chunked body) as HttpError(400).
 * @example await readBody(() => realRequest.text())
 */
export function readBody<T>(read: () => Promise<T>): Promise<T> {
  return clientFault(read, 'the body could not be read');
}

async function clientFault<T>(read: () => Promise<T>, what: string): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof HttpError || isAbort(err)) throw err;
    // The parser's TypeError or SyntaxError, or a stream the client cut short.
    throw new HttpError(400, `Bad Request: ${what}`, {}, { cause: err });
  }
}

function isAbort(err: unknown): boolean {
  return err instanceof Error && (err.name === 'AbortError' || err.name === 'TimeoutError');
}

/**
 * Makes `req` abortable by a page timeout and returns the function that aborts
 * it. A request whose adapter gives an `abort` in its facts (the node adapter's)
 * aborts its own signal and body; any other Request gets its own `signal`
 * property: the original one joined with the timeout's (a Request's signal
 * cannot be aborted from outside).
 * @example const abort = abortable(req); setTimeout(() => abort(new HttpError(503, 'late')), 1000)
 */
export function abortable(req: Request): (reason: unknown) => void {
  // ownFacts, not factsOf: a Request without facts would have them derived (its URL parsed) only to be asked this.
  const facts = ownFacts(req);
  if (facts?.abort !== undefined) return (reason) => facts.abort!(reason);
  const controller = new AbortController();
  const original = req.signal;
  Object.defineProperty(req, 'signal', {
    value: AbortSignal.any([original, controller.signal]),
    configurable: true,
  });
  return (reason) => controller.abort(reason);
}

/**
 * Gives a Request from outside the node adapter (`mux.fetch` on any runtime)
 * the body reads above: `formData()` and `json()` answer 4xx on bad bodies,
 * and `formData()` counts the body against the default form limits (413).
 * @example guardBody(req); await req.formData() // HttpError(415) for a JSON body
 */
export function guardBody(req: Request): void {
  // The request gets a prototype of its own prototype with the two reads guarded, made once per prototype (so once
  // per runtime): one prototype switch a request costs Deno 250 ns where two defineProperty calls and their closures
  // cost 641, Bun 62 ns against 122 (bench/runtimes/guard.ts). The runtime's own object stays what it was:
  // `Deno.upgradeWebSocket(req)`, `server.upgrade(req)` and `fetch(req)` still take it.
  const proto = Object.getPrototypeOf(req) as Request;
  let guarded = guardedProtos.get(proto);
  if (guarded === undefined) {
    guarded = guardedProtoOf(proto);
    guardedProtos.set(proto, guarded).set(guarded, guarded);
  }
  if (guarded !== proto) Object.setPrototypeOf(req, guarded);
}

// Each prototype a guarded request had, to its guarded one; each guarded one to itself (a request that a page hands
// on to another mounted tree is guarded once).
const guardedProtos = new WeakMap<object, object>();

function guardedProtoOf(proto: Request): object {
  const json = proto.json;
  return Object.create(proto, {
    formData: {
      value(this: Request): Promise<FormData> {
        return readFormData(this, () => limitedFormData(this, defaultFormLimits));
      },
      configurable: true,
      writable: true,
    },
    json: {
      value(this: Request): Promise<unknown> {
        return readJson(() => json.call(this));
      },
      configurable: true,
      writable: true,
    },
  }) as object;
}
