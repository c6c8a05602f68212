// The mux.fetch side of the chaos suite, run inside the server's process (server.ts) beside the raw sockets: random
// Requests to one route of app.tsx's table, with odd headers and bodies (a body stream that errors or stalls, a
// multipart flood), aborted before or during the answer, or read for k bytes and cancelled: what a runtime that
// calls `mux.fetch` (Bun, Deno, workerd) does when its client leaves. A rejection of mux.fetch for a request that
// was not aborted is a failure, and so is a status the route forbids.
//
//   await fetchTraffic(mux, routes[0], { seed: 40, ms: 1500, concurrency: 4 }) // → { sent: 812, failures: [] }

import type { ServeMux } from '../../core/index.ts';
import type { ChaosRoute, Target } from './app.tsx';
import type { Failure } from './driver.ts';
import { deriveSeed, Rng } from './rng.ts';
import { anyHeaders, boundary, multipartBody, multipartFlood, urlencodedBody } from './spellings.ts';

const encoder = new TextEncoder();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// A body that sends some chunks, then errors (a client that dropped) or stalls until the request is aborted.
function brokenBody(rng: Rng, text: string, signal: AbortSignal): ReadableStream<Uint8Array> {
  const chunks = rng.size(0, 5);
  const stall = rng.chance(0.5);
  let sent = 0;
  return new ReadableStream({
    async pull(controller) {
      if (sent < chunks) {
        await sleep(rng.int(5));
        controller.enqueue(encoder.encode(text.slice(sent * 64, ++sent * 64) || 'x'));
        return;
      }
      if (!stall) return controller.error(new Error('chaos: the client left mid-body'));
      if (!signal.aborted) await new Promise((r) => signal.addEventListener('abort', r, { once: true }));
      controller.error(new Error('chaos: the client left mid-body'));
    },
  });
}

interface Made {
  req: Request;
  label: string;
  abort: 'none' | 'before' | 'during' | 'after-read';
  controller: AbortController;
  oracle?: (status: number) => string | undefined;
  /** The target fails on purpose: a 500 is right. */
  mayFail: boolean;
}

// One random Request for `t`, or undefined when the Request constructor refuses what was drawn (our mistake).
function make(rng: Rng, t: Target): Made | undefined {
  const controller = new AbortController();
  const method = rng.chance(0.1) ? rng.pick(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH']) : t.method;
  const path = t.path + (rng.chance(0.1) ? rng.pick(['%zz', '&x=%', '/..%2f', '?a[]=1']) : '');
  const headers = anyHeaders(rng);
  let abort: Made['abort'] = rng.pick(['none', 'none', 'before', 'during', 'after-read', 'after-read']);
  let body: BodyInit | undefined;
  let label = `${method} ${path}`;
  let oracle: Made['oracle'];
  if (method !== 'GET' && method !== 'HEAD' && (t.body !== undefined || rng.chance(0.2))) {
    const multipart = t.body === 'multipart' || rng.chance(0.3);
    const b = boundary(rng);
    const delimiter = rng.pick(b.delimiters);
    headers['Content-Type'] = multipart ? b.contentType : 'application/x-www-form-urlencoded';
    const text = multipart ? multipartBody(rng, delimiter) : urlencodedBody(rng);
    label += multipart ? `, Content-Type: ${b.contentType}` : ', urlencoded';
    const kind = rng.int(10);
    if (kind < 2) {
      body = brokenBody(rng, text, controller.signal);
      label += ', a body stream that breaks';
      if (abort === 'none' || abort === 'after-read') abort = 'during';
    } else if (kind < 5 && multipart) {
      // Past every maxFields of the app, and small: an in-memory body is one chunk, counted in one go (~60 ms for
      // 20,000 parts here), which would be this traffic's delay of the loop rather than the server's.
      const n = rng.pick([2_000, 5_000]);
      // Mostly the first reading of the boundary (a parser's unquoted, unescaped one): the one a counter may miss.
      const first = rng.chance(0.7) ? b.delimiters[0]! : delimiter;
      body = Buffer.from(multipartFlood(first, n), 'latin1');
      label += `, ${n} parts delimited by ${JSON.stringify(first)}`;
      // Where the body holds the form: a DELETE whose body is no form (multipart/mixed) is read from its query, as
      // htmx sends a DELETE's values (parseForm), so its 422 is the query's verdict, not a flood let through.
      const formBody = method !== 'DELETE' || /^\s*multipart\/form-data\s*;/i.test(b.contentType);
      if (t.body && formBody) {
        oracle = (s) => (s < 300 || s === 422 ? `${n} parts past maxFields answered ${s}` : undefined);
      }
    } else body = Buffer.from(text, 'latin1');
  }
  try {
    const init = { method, headers, body, signal: controller.signal, duplex: 'half' } as RequestInit;
    const req = new Request(`http://127.0.0.1${path}`, init);
    label += abort === 'none' ? '' : `, aborted ${abort}`;
    return { req, label, abort, controller, oracle, mayFail: t.fails === true };
  } catch {
    return undefined;
  }
}

// The mount's timeout answers 503 after 5 s: a request still unanswered after `ms` is one the server lost.
function within<T>(answer: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const lost = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms);
  });
  return Promise.race([answer, lost]).finally(() => clearTimeout(timer));
}

// Reads up to `k` bytes of the answer (at most `ms`), then cancels it, as a client that leaves.
async function readSome(res: Response, k: number, ms: number): Promise<void> {
  const reader = res.body?.getReader();
  if (!reader) return;
  const until = Date.now() + ms;
  let got = 0;
  try {
    while (got < k && Date.now() < until) {
      const next = await Promise.race([reader.read(), sleep(until - Date.now()).then(() => undefined)]);
      if (!next || next.done) break;
      got += next.value.byteLength;
    }
  } catch {
    // the answer broke off: what a client sees when a stream fails after its head
  }
  await reader.cancel().catch(() => {});
}

// The requests under way, for the report of a crash (server.ts sends them with it).
const underWay = new Set<string>();

/** The labels of the mux.fetch requests under way. */
export function fetchesUnderWay(): string[] {
  return [...underWay];
}

// Sends one request as drawn: aborted, read in part and cancelled as it says; what it got wrong goes to `failures`.
async function send(
  mux: Pick<ServeMux, 'fetch'>,
  made: Made,
  rng: Rng,
  until: number,
  failures: Failure[],
): Promise<void> {
  const { req, controller, label } = made;
  if (made.abort === 'before') controller.abort();
  const timer = made.abort === 'during' ? setTimeout(() => controller.abort(), rng.int(30)) : undefined;
  let res: Response;
  try {
    res = await within(mux.fetch(req), 6000);
  } catch (err) {
    if (!controller.signal.aborted) failures.push({ fault: 'fetch', label, problem: `mux.fetch rejected: ${err}` });
    return;
  } finally {
    clearTimeout(timer);
  }
  const problem = res.status === 500 && !made.mayFail ? 'answered 500' : made.oracle?.(res.status);
  if (problem) failures.push({ fault: 'fetch', label, problem });
  const k = made.abort === 'after-read' ? rng.size(0, 100_000) : Infinity;
  await readSome(res, k, Math.min(300, Math.max(0, until - Date.now())));
  controller.abort();
}

/**
 * Sends random Requests to `route` through `mux.fetch` for `ms`, `concurrency` at a time.
 * @example await fetchTraffic(mux, route, { seed: 40, ms: 1500, concurrency: 4 })
 */
export async function fetchTraffic(
  mux: Pick<ServeMux, 'fetch'>,
  route: ChaosRoute,
  options: { seed: number; ms: number; concurrency: number },
): Promise<{ sent: number; failures: Failure[] }> {
  const until = Date.now() + options.ms;
  const failures: Failure[] = [];
  let sent = 0;
  const loop = async (n: number) => {
    const rng = new Rng(deriveSeed(options.seed, 'fetch', route.name, n));
    while (Date.now() < until) {
      // A turn of the event loop per request: answers made synchronously (static files) would otherwise chain in
      // microtasks and hold the loop for the whole run, which is this loop's fault, not the server's.
      await new Promise((r) => setImmediate(r));
      const made = make(rng, rng.pick(route.requests));
      if (!made) continue;
      sent++;
      const label = `${sent}: ${made.label}`;
      underWay.add(label);
      await send(mux, made, rng, until, failures).finally(() => underWay.delete(label));
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, (_, n) => loop(n)));
  return { sent, failures };
}
