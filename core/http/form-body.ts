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
//                                           a field's size is its body's bytes
//
// Each byte is looked at once (and most are skipped by indexOf), so the cost is linear in the body. Why not a
// library: the runtime's own parser still builds a multipart FormData (files as the runtime's File, charsets);
// what is needed here is a counter that parses nothing, and the delimiter search below is the whole of it.
//
// A urlencoded body is then decoded here (WHATWG's application/x-www-form-urlencoded parser), not by the runtime:
// Node 20's URLSearchParams takes 50–90 ms for the largest body the defaults accept (10 MiB of %E4%B8%AD), 3–5×
// what decodeURIComponent takes, and every other request waits meanwhile. Invalid percent-encoding falls back to
// the byte-wise decoding of the standard, so the result is URLSearchParams' (a test compares the two).

import { HttpError } from '../errors.ts';

/** The limits of a form body; `parseForm` takes them as options, `req.formData()` uses the defaults. */
export interface FormLimits {
  /** Text fields (urlencoded pairs, multipart parts without a filename). */
  readonly maxFields: number;
  /** File parts (multipart parts with a filename). */
  readonly maxFiles: number;
  /** Bytes of one text field as sent. */
  readonly maxFieldBytes: number;
  /** Bytes of the whole body. */
  readonly maxBytes: number;
}

/**
 * The defaults, near Django's (1,000 fields, 100 files) and Go's (1,000 parts, 10 MB of form): a form a person
 * fills in stays far below them.
 */
export const defaultFormLimits: FormLimits = {
  maxFields: 1000,
  maxFiles: 100,
  maxFieldBytes: 1024 * 1024,
  maxBytes: 10 * 1024 * 1024,
};

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

/** A form body within its limits: its bytes as they came, and whether it is urlencoded. */
interface CountedBody {
  type: string;
  urlencoded: boolean;
  chunks: Uint8Array<ArrayBuffer>[];
}

async function countedBody(req: Request, limits: FormLimits): Promise<CountedBody> {
  const type = req.headers.get('content-type') ?? '';
  const tooLarge = () => formTooLarge('maxBytes', limits.maxBytes, 'a form has at most {n} bytes');
  if (Number(req.headers.get('content-length')) > limits.maxBytes) throw tooLarge();
  const counter = formCounter(type, limits);
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  if (req.body) {
    const reader = req.body.getReader();
    let size = 0;
    let passed: unknown; // a limit of fields, files or field size: the rest of the body is read, not kept
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
    // Read to its end (at most maxBytes, nothing decoded or kept), so that the 413 reaches a client still
    // sending: a runtime that closes a connection with its request body unread resets it (workerd, seen in the
    // runtimes test), and the client loses the answer.
    if (passed !== undefined) throw passed;
  }
  return { type, urlencoded: counter?.kind === 'urlencoded', chunks };
}

// The runtime's own multipart parser (boundaries, charsets, files as its File), on the bytes counted above.
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

/** A multipart part's header block past this many bytes is refused (Go's textproto allows 10,000 per part). */
const maxPartHeaderBytes = 16 * 1024;

/** Counts a body chunk by chunk; `push` throws HttpError(413) at the first limit passed. */
export interface FormCounter {
  readonly kind: 'urlencoded' | 'multipart';
  push(chunk: Uint8Array): void;
}

/**
 * A counter for a body of this Content-Type; `null` for a type that is not a form (the parser refuses it).
 * @example const counter = formCounter('application/x-www-form-urlencoded', defaultFormLimits); counter.push(bytes)
 */
export function formCounter(contentType: string, limits: FormLimits): FormCounter | null {
  if (/^\s*application\/x-www-form-urlencoded\s*(;|$)/i.test(contentType)) return urlencodedCounter(limits);
  if (!/^\s*multipart\/form-data\s*(;|$)/i.test(contentType)) return null;
  const boundary = /;\s*boundary\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(contentType);
  const value = boundary?.[1] ?? boundary?.[2];
  // Without a usable boundary there is nothing to count: the parser answers 400.
  if (!value || value.length > 200 || /[\r\n]/.test(value)) return null;
  return multipartCounter(value, limits);
}

/**
 * The 413 for a limit passed: the message names the limit, the log line says what was seen.
 * @example tooMany('maxFields', 1000, 'fields') // HttpError 413 "Content Too Large: a form has at most 1000 fields (maxFields)"
 */
export function formTooLarge(option: keyof FormLimits, limit: number, what: string): HttpError {
  return new HttpError(413, `Content Too Large: ${what.replace('{n}', String(limit))} (${option})`);
}

function urlencodedCounter(limits: FormLimits): FormCounter {
  let fields = 0;
  let pairBytes = 0; // bytes of the pair being read
  return {
    kind: 'urlencoded',
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
  };
}

// Where the multipart counter is. Body: looking for a delimiter, in the preamble (no part yet) or in a part's body.
// AfterDelimiter: "--" ends the body, anything else up to LF is padding before the headers. Done: the epilogue,
// after the closing delimiter, ignored.
const Body = 0;
const AfterDelimiter = 1;
const Padding = 2;
const Headers = 3;
const Done = 4;

function multipartCounter(boundary: string, limits: FormLimits): FormCounter {
  const delimiter = Uint8Array.from(`\r\n--${boundary}`, (c) => c.charCodeAt(0) & 0xff);
  let state = Body;
  // The body may start with the delimiter without its CRLF: begin as if the CRLF was seen.
  let matched = 2;
  let inPart = false; // in a part's body (not the preamble)
  let isFile = false;
  let partBytes = 0; // bytes seen in this part's body, the delimiter bytes matched so far included
  let afterDelimiter = 0; // bytes seen after the delimiter: "--" closes
  const headers = new Uint8Array(maxPartHeaderBytes); // this part's header block
  let headerBytes = 0;
  let last4 = 0; // the last four header bytes, to see the blank line that ends the block
  let fields = 0;
  let files = 0;

  const fieldTooLarge = () => formTooLarge('maxFieldBytes', limits.maxFieldBytes, 'a form field has at most {n} bytes');

  function startPart(): void {
    const text = String.fromCharCode(...headers.subarray(0, headerBytes));
    isFile = /^content-disposition:[^\r\n]*;\s*filename\*?\s*=/im.test(text);
    if (isFile) {
      if (++files > limits.maxFiles) throw formTooLarge('maxFiles', limits.maxFiles, 'a form has at most {n} files');
    } else if (++fields > limits.maxFields) {
      throw formTooLarge('maxFields', limits.maxFields, 'a form has at most {n} fields');
    }
    inPart = true;
    partBytes = 0;
    matched = 0;
    headerBytes = 0;
    last4 = 0;
  }

  return {
    kind: 'multipart',
    push(chunk) {
      let i = 0;
      const n = chunk.length;
      while (i < n) {
        switch (state) {
          case Body: {
            if (matched === 0) {
              // Skip to the next CR: only there can a delimiter start (a boundary holds no CR).
              const cr = chunk.indexOf(0x0d, i);
              const to = cr === -1 ? n : cr;
              partBytes += to - i;
              i = to;
              if (cr === -1) break;
            }
            const b = chunk[i++]!;
            partBytes++;
            if (b === delimiter[matched]) {
              if (++matched === delimiter.length) {
                if (inPart && !isFile && partBytes - delimiter.length > limits.maxFieldBytes) throw fieldTooLarge();
                state = AfterDelimiter;
                afterDelimiter = 0;
                matched = 0;
              }
            } else {
              matched = b === 0x0d ? 1 : 0;
            }
            break;
          }
          case AfterDelimiter: {
            const b = chunk[i++]!;
            if (b === 0x2d && afterDelimiter === 0) {
              afterDelimiter = 1;
            } else if (b === 0x2d && afterDelimiter === 1) {
              state = Done;
            } else {
              state = b === 0x0a ? Headers : Padding;
            }
            break;
          }
          case Padding: {
            const lf = chunk.indexOf(0x0a, i);
            if (lf === -1) {
              i = n;
            } else {
              i = lf + 1;
              state = Headers;
            }
            break;
          }
          case Headers: {
            const b = chunk[i++]!;
            if (headerBytes === maxPartHeaderBytes) {
              throw new HttpError(
                413,
                `Content Too Large: a form part's headers have at most ${maxPartHeaderBytes} bytes`,
              );
            }
            headers[headerBytes++] = b;
            last4 = ((last4 << 8) | b) >>> 0;
            if (last4 === 0x0d0a0d0a || (headerBytes === 2 && last4 === 0x0d0a)) {
              startPart();
              state = Body;
            }
            break;
          }
          case Done:
            return;
        }
      }
      // Checked per chunk as well, so that one huge field stops the read without waiting for its end.
      if (state === Body && inPart && !isFile && partBytes - matched > limits.maxFieldBytes) throw fieldTooLarge();
    },
  };
}
