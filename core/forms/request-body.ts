// What a page reads of its request beyond the headers: the body and the signal.
//
//   await req.formData()   JSON body             → HttpError(415), not a TypeError (a 500)
//                          no Content-Type       → HttpError(400)
//                          truncated multipart   → HttpError(400)
//                          a multipart boundary or part the runtimes' parsers could read apart → HttpError(400),
//                                                  before the parser runs (multipart.ts)
//   await req.json()       not JSON              → HttpError(400)
//   page timeout           req.signal aborts; the node adapter also stops the body
//
// A body that cannot be parsed is the client's fault: the page pipeline answers
// the HttpError with its status and logs one line (the cause), not a stack.

import { HttpError } from '../errors.ts';
import { ownFacts } from '../kernel/adapter.ts';
import { limitedFormData } from './form-body.ts';
import { defaultFormLimits } from './form-limits.ts';

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
 * `req.formData()` as pages expect it from any adapter: counted against the default form limits as it streams (413
 * past them), and a body that is not a form, or not a well-formed one, a 4xx (`readFormData`). `body` gives the
 * Request whose body is read, when it is not `req` itself: the real Request behind an adapter's lazy one, made only
 * when the Content-Type is a form's.
 * @example formData() { return readFormBody(this, () => real(this)); } // in an adapter's own Request class
 */
export function readFormBody(req: Request, body: () => Request = () => req): Promise<FormData> {
  return readFormData(req, () => limitedFormData(body(), defaultFormLimits));
}

/**
 * What a request body past an adapter's size limit fails with: HttpError(413), which a page answers with a 413.
 * @example controller.error(bodyTooLarge(1024)) // → HttpError 413 "Request body larger than 1024 bytes"
 */
export function bodyTooLarge(max: number): HttpError {
  return new HttpError(413, `Request body larger than ${max} bytes`);
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
  // Two own properties, the same two functions for every request, assigned as setRoute assigns `pathValue`: the
  // stores cost a request nothing measurable on Deno, Bun or Node, where giving it a prototype of its own cost Deno
  // 250–450 ns and two defineProperty calls with their closures 640–770 (bench/runtimes/guard.ts). The runtime's own
  // object stays what it was: `Deno.upgradeWebSocket(req)`, `server.upgrade(req)` and `fetch(req)` still take it.
  const r = req as { formData: unknown; json: unknown };
  try {
    r.formData = guardedFormData;
    r.json = guardedJson;
  } catch {
    // A runtime whose Request.prototype holds them read-only (none known): defined, as assignment cannot.
    Object.defineProperties(req, {
      formData: { value: guardedFormData, configurable: true, writable: true },
      json: { value: guardedJson, configurable: true, writable: true },
    });
  }
}

function guardedFormData(this: Request): Promise<FormData> {
  return readFormBody(this);
}

// The runtime's own json(), from the request's prototype (its own property is this function).
function guardedJson(this: Request): Promise<unknown> {
  const json = (Object.getPrototypeOf(this) as Request).json;
  return readJson(() => json.call(this));
}
