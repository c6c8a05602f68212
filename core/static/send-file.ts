// A generated file as the answer: a download (Flask's send_file, Django's FileResponse), with what static files
// have (ETag, 304, single ranges, HEAD), on every runtime.
//
//   return sendFile(req, csvBytes, { filename: 'contacts €.csv' })
//   → 200, text/csv; charset=utf-8, ETag "…", Accept-Ranges: bytes,
//     Content-Disposition: attachment; filename="contacts _.csv"; filename*=UTF-8''contacts%20%E2%82%AC.csv
//   the same with If-None-Match: "…"   → 304        with Range: bytes=0-99 → 206, Content-Range: bytes 0-99/…
//
// Bytes, a string or a Blob are whole in hand: their ETag is a SHA-256 of the bytes (Web Crypto), and ranges are
// served. A stream is sent as it comes: no ETag unless given, no ranges (its length is not known beforehand).

import { base64url } from '../kernel/base64url.ts';
import { liteResponse } from '../kernel/answer.ts';
import { notModified, requestedRange, type Entity } from './conditional.ts';
import { typeOf } from './static-load.ts';

/** Options of `sendFile`. */
export interface SendFileOptions {
  /** The name the browser saves it under (`Content-Disposition`), any text; its extension gives the default type. */
  filename?: string;
  /** Content-Type; default from the filename's extension, else application/octet-stream. */
  type?: string;
  /** Shown in the browser (`inline`) instead of downloaded (`attachment`, the default when there is a filename). */
  inline?: boolean;
  /** A strong ETag of your own (quoted); default: a hash of the bytes (none for a stream). */
  etag?: string;
  /** When the content last changed: Last-Modified and If-Modified-Since. */
  lastModified?: Date;
  /** Cache-Control; default `private, no-cache` (a generated file is often the user's own: revalidate it). */
  cacheControl?: string;
}

const encoder = new TextEncoder();

/**
 * Answers with a file made by the app: bytes, text, a Blob or a stream, with `Content-Disposition` (RFC 6266, the
 * name in UTF-8 as `filename*` and an ASCII fallback), and for bytes in hand an ETag, 304 and single-range 206/416.
 * @example return sendFile(req, await archive.zip(), { filename: 'contacts.zip' });
 */
export async function sendFile(
  req: Request,
  file: Uint8Array | ArrayBuffer | string | Blob | ReadableStream<Uint8Array>,
  options: SendFileOptions = {},
): Promise<Response> {
  const headers: Record<string, string> = {
    'content-type': options.type ?? (options.filename ? typeOf(options.filename) : 'application/octet-stream'),
    'cache-control': options.cacheControl ?? 'private, no-cache',
    'x-content-type-options': 'nosniff',
  };
  if (options.filename !== undefined || options.inline) {
    headers['content-disposition'] = contentDisposition(options.inline ? 'inline' : 'attachment', options.filename);
  }
  const lastModified = options.lastModified ? options.lastModified.toUTCString() : null;
  if (lastModified !== null) headers['last-modified'] = lastModified;
  const head = req.method === 'HEAD';

  if (file instanceof ReadableStream) {
    if (options.etag !== undefined) headers.etag = checkEtag(options.etag);
    if (notModified(req.headers, options.etag ?? null, lastModified)) {
      await file.cancel().catch(() => {});
      return liteResponse(304, null, headers);
    }
    if (head) await file.cancel().catch(() => {});
    return liteResponse(200, head ? null : file, headers);
  }

  const bytes = await bytesOf(file);
  const etag = options.etag === undefined ? await hashEtag(bytes) : checkEtag(options.etag);
  headers.etag = etag;
  const entity: Entity = { size: bytes.byteLength, etag, lastModified };
  const range = requestedRange(req.headers, entity);
  if (notModified(req.headers, etag, lastModified)) return liteResponse(304, null, headers);
  headers['accept-ranges'] = 'bytes';
  if (range === null) {
    headers['content-length'] = String(bytes.byteLength);
    return liteResponse(200, head ? null : bytes, headers);
  }
  if (typeof range === 'string') {
    const refused: Record<string, string> = { 'x-content-type-options': 'nosniff' };
    if (range === 'unsatisfiable') refused['content-range'] = `bytes */${bytes.byteLength}`;
    return liteResponse(416, null, refused);
  }
  const [start, end] = range;
  headers['content-range'] = `bytes ${start}-${end}/${bytes.byteLength}`;
  headers['content-length'] = String(end - start + 1);
  return liteResponse(206, head ? null : bytes.subarray(start, end + 1), headers);
}

async function bytesOf(file: Uint8Array | ArrayBuffer | string | Blob): Promise<Uint8Array> {
  if (typeof file === 'string') return encoder.encode(file);
  if (file instanceof Uint8Array) return file;
  if (file instanceof ArrayBuffer) return new Uint8Array(file);
  return new Uint8Array(await file.arrayBuffer());
}

// The first 16 bytes of the SHA-256, base64url: the form static files' ETags have.
async function hashEtag(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  return `"${base64url(digest.subarray(0, 16))}"`;
}

function checkEtag(etag: string): string {
  if (!/^"[\x21\x23-\x7e]*"$/.test(etag)) {
    throw new TypeError(`sendFile(): the etag ${JSON.stringify(etag)} is not a quoted strong ETag, e.g. '"v42"'`);
  }
  return etag;
}

// What a filename from user data may not carry into a saved file's name, each replaced by `_`: a path separator
// (never wanted in a name, on any system), and the bidi controls (U+061C, U+200E/F, U+202A-202E, U+2066-2069, issue
// 40), with which `invoice\u202Efdp.exe` shows as "invoiceexe.pdf". Joiners (U+200C/D) stay: emoji sequences and
// several scripts need them; control characters are percent-encoded in `filename*` and browsers replace them.
const unsafeInName = /[\\/\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
// A UTF-16 half without its other half: not text, and encodeURIComponent throws URIError on it.
const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * RFC 6266: `attachment; filename="ascii fallback"; filename*=UTF-8''percent-encoded`. The fallback keeps printable
 * ASCII but `"` and `\` (each other character becomes `_`), for the rare client that reads only `filename`. A name
 * from user data is made safe first: path separators and bidi controls become `_`, and a lone surrogate U+FFFD (as
 * a TextEncoder does), so any string gives a header and never an exception.
 * @example contentDisposition('attachment', 'Q1 €.csv') // → attachment; filename="Q1 _.csv"; filename*=UTF-8''Q1%20%E2%82%AC.csv
 */
export function contentDisposition(kind: 'attachment' | 'inline', filename: string | undefined): string {
  if (filename === undefined) return kind;
  const name = filename.replace(loneSurrogate, '\ufffd').replace(unsafeInName, '_');
  const fallback = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return fallback === name && /^[\x20-\x7e]*$/.test(name)
    ? `${kind}; filename="${fallback}"`
    : `${kind}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
