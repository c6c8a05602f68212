// A form body read as it streams: counted before anything decodes it (issue 24), then parsed. Past a limit of
// fields, files or field size, the rest is read and dropped (up to maxBytes) and the answer is a 413.
//
// A 10 MiB urlencoded body of 1.7M empty fields took the runtime's parser and the decoding after it 11 s of one
// thread; 150,000 tiny file parts 6–10 s. So the fields, files and field sizes are counted on the raw bytes as they
// arrive, and the first one past its limit means a 413: nothing more is kept, and the parser only ever sees a body
// within them.
//
//   urlencoded   a=1&b=2&&c            → 3 fields (empty pairs are skipped, as URLSearchParams does); a field's size
//                                        is its bytes as sent, name and `=` included
//   multipart    --B\r\n               → a part per delimiter ("\r\n--B"; the first needs no CRLF before it);
//                Content-Disposition: form-data; name="f"; filename="a.txt"
//                \r\n …bytes… \r\n--B--     a part whose Content-Disposition has a filename is a file, any other a field;
//                                           a field's size is its body's bytes. multipart.ts reads the boundary and
//                                           the parts strictly enough that every runtime's parser sees those parts
//                                           (issue 40), and refuses (400) any body it could not count so.
//
// Each byte is looked at a bounded number of times (most are skipped by indexOf), so the cost is linear in the
// body. Why not a library: the runtime's own parser still builds a multipart FormData (files as the runtime's File);
// what is needed here is a counter that parses nothing.
//
// A urlencoded body is then decoded here (WHATWG's application/x-www-form-urlencoded parser), not by the runtime:
// Node 20's URLSearchParams takes 50–90 ms for the largest body the defaults accept (10 MiB of %E4%B8%AD), 3–5×
// what decodeURIComponent takes, and every other request waits meanwhile. Invalid percent-encoding falls back to
// the byte-wise decoding of the standard, so the result is URLSearchParams' (a test compares the two).

import { defaultFormLimits, formTooLarge, type FormCounter, type FormLimits } from './form-limits.ts';
import { multipartBoundary, multipartCounter } from './multipart.ts';

// The limits, for the node adapter's req.formData(), which reads the body through limitedFormData below.
export { defaultFormLimits, type FormLimits };

/** A form's fields in body order: name → text, or a File. */
export type FormEntries = [name: string, value: string | File][];

/**
 * A form body read as it streams, counted against `limits` (413 at the first one passed: the rest of the body read
 * and dropped, or left unread past maxBytes), then parsed: urlencoded here, multipart by the runtime's own parser.
 * @example await readForm(req, defaultFormLimits) // → [["title", "Milk"]], or HttpError(413)
 */
export async function readForm(req: Request, limits: FormLimits): Promise<FormEntries> {
  const body = await countedBody(req, limits);
  if (body.urlencoded) return urlencodedEntries(body.chunks);
  const entries: FormEntries = [];
  (await multipartFormData(body)).forEach((value, name) => void entries.push([name, value]));
  return entries;
}

/**
 * `readForm` as a FormData: what `req.formData()` answers through the node adapter and `mux.fetch`.
 * @example await limitedFormData(req, defaultFormLimits) // → FormData, or HttpError(413)
 */
export async function limitedFormData(req: Request, limits: FormLimits): Promise<FormData> {
  const body = await countedBody(req, limits);
  if (!body.urlencoded) return multipartFormData(body);
  const data = new FormData();
  for (const [name, value] of urlencodedEntries(body.chunks)) data.append(name, value);
  return data;
}

/** A form body within its limits: its bytes as they came, the type to parse them as, and whether it is urlencoded. */
interface CountedBody {
  type: string;
  urlencoded: boolean;
  chunks: Uint8Array<ArrayBuffer>[];
}

async function countedBody(req: Request, limits: FormLimits): Promise<CountedBody> {
  const type = req.headers.get('content-type') ?? '';
  const tooLarge = () => formTooLarge('maxBytes', limits.maxBytes, 'a form has at most {n} bytes');
  if (Number(req.headers.get('content-length')) > limits.maxBytes) throw tooLarge();
  let counter: FormCounter | null = null;
  let passed: unknown; // a limit passed or a malformed body: the rest is read, not kept
  try {
    counter = formCounter(type, limits);
  } catch (err) {
    passed = err;
  }
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  if (req.body) {
    const reader = req.body.getReader();
    let size = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > limits.maxBytes) throw tooLarge();
        if (passed !== undefined) continue;
        try {
          counter?.push(value);
          chunks.push(value);
        } catch (err) {
          passed = err;
          chunks.length = 0;
        }
      }
    } catch (err) {
      reader.cancel().catch(() => {});
      throw err;
    }
  }
  // Read to its end (at most maxBytes, nothing decoded or kept), so that the 4xx reaches a client still sending: a
  // runtime that closes a connection with its request body unread resets it (workerd, seen in the runtimes test),
  // and the client loses the answer.
  if (passed !== undefined) throw passed;
  counter?.end();
  return { type: counter?.type ?? type, urlencoded: counter?.kind === 'urlencoded', chunks };
}

// The runtime's own multipart parser (files as its File), on the bytes counted above, with the boundary they were
// counted with (multipart.ts).
function multipartFormData(body: CountedBody): Promise<FormData> {
  return new Response(new Blob(body.chunks), { headers: { 'content-type': body.type } }).formData();
}

/**
 * The query string of a request as form entries, counted against the same limits (fields, bytes per field).
 * @example queryEntries(new Request('http://x/?q=milk&tag=a&tag=b'), defaultFormLimits) // → [["q", "milk"], ["tag", "a"], ["tag", "b"]]
 */
export function queryEntries(req: Request, limits: FormLimits): FormEntries {
  const url = req.url;
  const q = url.indexOf('?');
  if (q === -1) return [];
  const hash = url.indexOf('#', q);
  const bytes = toUtf8.encode(url.slice(q + 1, hash === -1 ? undefined : hash));
  urlencodedCounter(limits).push(bytes);
  return urlencodedEntries([bytes]);
}

const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });
const toUtf8 = new TextEncoder();

/**
 * The WHATWG urlencoded parser on a body's bytes: `&`-separated pairs (empty ones skipped), split at the first
 * `=`, `+` as space, percent-decoded, UTF-8 with U+FFFD for what is not.
 * @example urlencodedEntries([bytesOf('a=1&b=%E2%9C%93')]) // → [["a", "1"], ["b", "✓"]]
 */
export function urlencodedEntries(chunks: readonly Uint8Array[]): FormEntries {
  const text = utf8.decode(chunks.length === 1 ? chunks[0] : concat(chunks));
  const data: FormEntries = [];
  let from = 0;
  while (from <= text.length) {
    let to = text.indexOf('&', from);
    if (to === -1) to = text.length;
    if (to > from) {
      const pair = text.slice(from, to);
      const eq = pair.indexOf('=');
      data.push([formDecode(eq === -1 ? pair : pair.slice(0, eq)), eq === -1 ? '' : formDecode(pair.slice(eq + 1))]);
    }
    from = to + 1;
  }
  return data;
}

function formDecode(s: string): string {
  if (s.includes('+')) s = s.replace(/\+/g, ' ');
  if (!s.includes('%')) return s;
  try {
    return decodeURIComponent(s);
  } catch {
    return percentDecode(s); // "%zz", "%FF", a lone "%": what decodeURIComponent refuses
  }
}

// The standard's percent-decode, byte by byte: "%" and two hex digits is that byte, anything else stays as it is;
// the bytes are then read as UTF-8, invalid sequences as U+FFFD.
function percentDecode(s: string): string {
  const bytes = toUtf8.encode(s);
  const out = new Uint8Array(bytes.length);
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    const hi = b === 0x25 && i + 2 < bytes.length ? hexValue(bytes[i + 1]!) : -1;
    const lo = hi === -1 ? -1 : hexValue(bytes[i + 2]!);
    if (lo === -1) {
      out[n++] = b;
    } else {
      out[n++] = (hi << 4) | lo;
      i += 2;
    }
  }
  return utf8.decode(out.subarray(0, n));
}

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const lower = c | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

function concat(chunks: readonly Uint8Array[]): Uint8Array {
  let size = 0;
  for (const c of chunks) size += c.byteLength;
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.byteLength;
  }
  return all;
}

/**
 * A counter for a body of this Content-Type; `null` for a type that is not a form (the parser refuses it). A
 * multipart type whose boundary cannot be read unambiguously is an HttpError(400) (multipart.ts).
 * @example const counter = formCounter('application/x-www-form-urlencoded', defaultFormLimits); counter.push(bytes)
 */
export function formCounter(contentType: string, limits: FormLimits): FormCounter | null {
  if (/^\s*application\/x-www-form-urlencoded\s*(;|$)/i.test(contentType)) return urlencodedCounter(limits);
  if (!/^\s*multipart\/form-data\s*(;|$)/i.test(contentType)) return null;
  return multipartCounter(multipartBoundary(contentType), limits);
}

function urlencodedCounter(limits: FormLimits): FormCounter {
  let fields = 0;
  let pairBytes = 0; // bytes of the pair being read
  return {
    kind: 'urlencoded',
    type: 'application/x-www-form-urlencoded',
    push(chunk) {
      let i = 0;
      while (i < chunk.length) {
        const amp = chunk.indexOf(0x26, i); // '&'
        const end = amp === -1 ? chunk.length : amp;
        if (end > i) {
          if (pairBytes === 0 && ++fields > limits.maxFields) {
            throw formTooLarge('maxFields', limits.maxFields, 'a form has at most {n} fields');
          }
          pairBytes += end - i;
          if (pairBytes > limits.maxFieldBytes) {
            throw formTooLarge('maxFieldBytes', limits.maxFieldBytes, 'a form field has at most {n} bytes');
          }
        }
        if (amp === -1) break;
        pairBytes = 0;
        i = amp + 1;
      }
    },
    end() {}, // any end is a whole urlencoded body
  };
}
