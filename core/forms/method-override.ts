// Method override (issue 45): an HTML form sends only GET and POST, so a form without JavaScript says the verb it
// means in a hidden `_method` field, and `methodOverride(mux)` makes that POST the PUT, PATCH or DELETE it names
// before the mux routes it. The page's verb methods then serve the form as they serve htmx and curl, which send the
// real verb and pass untouched.
//
//   POST, a form body (urlencoded or multipart)   _method=DELETE (any case)   → DELETE
//                                                  _method=POST, or none       → POST, untouched
//                                                  _method=GET (or any other)  → 400: a GET has no body, and a
//                                                                                 request that changes state is
//                                                                                 never made a safe one
//   POST whose body is not a form (JSON, …), any other method (htmx's and curl's real PUT or DELETE, a GET with
//   ?_method=… in its query)                                                  → untouched, its body not read
//
// The form is read from a clone of the request, counted against the form limits (parseForm's defaults, or the
// options: past one the answer is the 413 parseForm would give), so the request's own body stays unread for the page
// (`parseForm`, `req.formData()`). The request itself is the one the adapter made, with its facts (target, client
// address, abort): only its `method` changes, an own property over the prototype's getter. A cross-origin check
// therefore refuses a cross-site form whichever side of the wrapper it is: inside (a mount middleware) it sees the
// verb, outside (`CrossOriginProtection.handler`) the POST, and both are checked alike.

import { HttpError } from '../errors.ts';
import { serveHandler } from '../kernel/adapter.ts';
import { textError } from '../kernel/answer.ts';
import { fetchHandler } from '../kernel/fetch.ts';
import { consoleLogger, guardLogger, type Logger } from '../kernel/logger.ts';
import type { Handler, HandlerObject } from '../kernel/request.ts';
import { readForm } from './form-body.ts';
import { defaultFormLimits, type FormLimits } from './form-limits.ts';
import { isFormType, readFormData } from './request-body.ts';

/** Options of `methodOverride`: the limits of the form it reads, as `parseForm` takes them (its defaults). */
export type MethodOverrideOptions = Partial<FormLimits>;

/** What `methodOverride` returns: a handler for `serve()` and a Web fetch handler for Bun, Deno and workerd. */
export interface MethodOverrideHandler extends HandlerObject {
  /** Reads a POST form's `_method`, then calls the wrapped handler. */
  serveHTTP(req: Request): Response | Promise<Response>;
  /** The Web fetch handler, as `mux.fetch`: a real Response, never a rejection. */
  readonly fetch: (req: Request, info?: unknown) => Promise<Response>;
  /** The wrapped mux's logger (where its fetch reports a failing handler). */
  readonly logger: Logger;
}

// The verbs a form may ask for. POST is the form's own; GET, HEAD and OPTIONS are safe methods that a cross-origin
// check lets pass and that carry no body; CONNECT and TRACE are no page's.
const verbs = new Set(['PUT', 'PATCH', 'DELETE']);

/**
 * Wraps a mux so that a POST form with a `_method` field of PUT, PATCH or DELETE reaches that verb's route: the
 * page's `put`, `patch` or `delete`, with the form's fields. Anything else passes untouched. Wrap the mux (the mux
 * routes on the method, so a mount middleware would be too late); put `<MethodField method="DELETE" />` in the form.
 * @example const app = methodOverride(mux); serve(app); // or Deno.serve(app.fetch)
 */
export function methodOverride(handler: Handler, options: MethodOverrideOptions = {}): MethodOverrideHandler {
  const limits = formLimits(options);
  const own = (handler as { logger?: Logger }).logger;
  const logger = own === undefined ? consoleLogger : guardLogger(own);
  const serveHTTP = (req: Request): Response | Promise<Response> => {
    // Only a form POST is read: the common requests (GET, htmx's and curl's verbs, JSON) cost one comparison or two.
    if (req.method !== 'POST' || !isFormType(req.headers.get('content-type'))) {
      return serveHandler(handler, req, logger);
    }
    return overridden(req, limits).then((refused) => refused ?? serveHandler(handler, req, logger));
  };
  return { serveHTTP, fetch: fetchHandler(serveHTTP, logger), logger };
}

// Reads the form's `_method` and makes the request that verb: undefined then (or when it stays a POST), else the
// answer that refuses it (400 for a `_method` no form may mean, 413 past a limit, 400 for a body that cannot be read).
async function overridden(req: Request, limits: FormLimits): Promise<Response | undefined> {
  let method: string | undefined;
  try {
    // A clone: its body is read here, and the request's own stays whole for the page (the runtime buffers what this
    // read took, at most limits.maxBytes).
    const copy = req.clone();
    for (const [name, value] of await readFormData(copy, () => readForm(copy, limits))) {
      if (name !== '_method') continue;
      const verb = typeof value === 'string' ? value.toUpperCase() : '(a file)';
      if (method !== undefined && method !== verb) {
        return refuse(`two _method fields disagree: ${JSON.stringify(method)} and ${JSON.stringify(verb)}`);
      }
      method = verb;
    }
  } catch (err) {
    // A client that left mid-body is no failure of the app: a 400, as the page's own read would answer it.
    if (err instanceof HttpError) return textError(err.status, err.message, err.headers);
    return textError(400, 'Bad Request: the form body could not be read');
  }
  if (method === undefined || method === 'POST') return undefined;
  if (!verbs.has(method)) return refuse(`_method ${JSON.stringify(method)} is not PUT, PATCH or DELETE`);
  // An own property over Request.prototype's getter: the same object, so the adapter's facts stay with it.
  Object.defineProperty(req, 'method', { value: method, configurable: true, enumerable: true });
  return undefined;
}

function refuse(why: string): Response {
  return textError(400, `Bad Request: ${why} (methodOverride)`);
}

function formLimits(options: MethodOverrideOptions): FormLimits {
  const limits = { ...defaultFormLimits };
  for (const name of ['maxBytes', 'maxFields', 'maxFiles', 'maxFieldBytes'] as const) {
    const value = options[name];
    if (value === undefined) continue;
    if (!(value >= 0)) {
      throw new TypeError(`methodOverride(): ${name} ${value} is not a number; give e.g. ${limits[name]}`);
    }
    limits[name] = value;
  }
  return limits;
}

/**
 * The hidden field that makes a form's POST the verb it names, through `methodOverride`.
 * @example <form method="post" action={urlFor(TaskPage, { taskId })}><MethodField method="DELETE" /><button>Delete</button></form>
 *          // → …<input type="hidden" name="_method" value="DELETE">…
 */
export function MethodField(props: { method: 'PUT' | 'PATCH' | 'DELETE' }): string {
  const method = props.method;
  if (!verbs.has(method)) {
    throw new TypeError(
      `MethodField: method ${JSON.stringify(method)} is not PUT, PATCH or DELETE; a form sends GET and POST itself (<form method="get">)`,
    );
  }
  return `<input type="hidden" name="_method" value="${method}">`;
}
