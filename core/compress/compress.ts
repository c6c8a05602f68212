// Compressed dynamic answers: what the page pipeline renders, compressed once for the client that asks.
//
//   Accept-Encoding: gzip, deflate, br, zstd   + 5 KiB of text/html  → zstd (br where the runtime has no zstd),
//                                                                       Vary: …, Accept-Encoding
//   Accept-Encoding: gzip, deflate, br         + 5 KiB of text/html  → br
//   Accept-Encoding: gzip;q=1, br;q=0.5        + 5 KiB of text/html  → gzip (the client's weights first)
//   Accept-Encoding: br;q=0, gzip;q=0          + 5 KiB of text/html  → as it is (nothing else acceptable)
//   (no header), 204/304, 600 bytes, image/png, no-transform, already encoded, text/event-stream → as it is
//   HEAD → the head GET would get (Content-Encoding, the compressed Content-Length, weak ETag, Vary), no body
//
// An answer that could be compressed (a body over the threshold, of a text type, nothing forbidding it) says
// `Vary: Accept-Encoding` whatever was chosen, merged into the htmx Vary, so a cache keeps the variants apart. A
// compressed answer has its own Content-Length and a weak ETag (`"x"` → `W/"x"`: the bytes differ, the content
// does not; If-None-Match compares weakly, so the page's own 304 keeps working).
//
// Bodies are compressed whole, in one call (codecs.ts: the levels of each preset, and the contexts kept from answer
// to answer): the pipeline renders the whole body before it answers, and for a page of a few KiB one call costs less
// than a stream (bench/compress). A streamed page's body (marked by `compressAsItStreams`, docs/streaming.md) is
// compressed as it streams, each chunk flushed at once (gzip Z_SYNC_FLUSH, brotli BROTLI_OPERATION_FLUSH), so every
// boundary reaches the browser when it is ready (bench/streaming). node:zlib is taken at run time
// (process.getBuiltinModule, as static-load.ts does): Node, Bun, Deno and workerd (nodejs_compat) have it; where
// it is missing the answers go as they are. Event streams are left alone: they say `no-transform`, and one
// compressor per open stream would cost memory per client and turn the fan-out's one set of bytes for every
// subscriber into one compression per subscriber (bench/compress, event streams).

import type { HandlerFunc, PageRequest } from '../kernel/request.ts';
import { answerOf, answerResponse, type Answer } from '../kernel/answer.ts';
import { qValue } from '../kernel/header-value.ts';
import { optionalNodeModule } from '../kernel/node-modules.ts';
import { codecsOf, presetOrder, presets, type Codec, type Encoding, type Preset } from './codecs.ts';

export type { Encoding } from './codecs.ts';

/** Options of mount's `compress`. */
export interface CompressOptions {
  /** Bodies smaller than this many bytes are sent as they are (default 1024: below, the headers outweigh the gain). */
  threshold?: number;
  /**
   * The codings offered, preferred first where the client weighs several alike (default: the preset's order,
   * `['zstd', 'br', 'gzip']`, or `['br', 'zstd', 'gzip']` for `'small'`).
   */
  encodings?: readonly ('br' | 'zstd' | 'gzip')[];
  /**
   * How to weigh the server's CPU against the bytes sent (docs/compression.md): `'balanced'` (default: zstd 3,
   * br 4, gzip 6), `'fast'` (zstd 1, br 2, gzip 1: for CPU dearer than bytes) or `'small'` (br 5 first, zstd 6,
   * gzip 9: for bytes dearer than CPU).
   */
  preset?: 'balanced' | 'fast' | 'small';
}

/** What an answer is compressed with, decided once at mount. */
export interface Compression {
  threshold: number;
  /** The codings this runtime has, in the order of preference. */
  offered: readonly Encoding[];
  codecs: Partial<Record<Encoding, Codec>>;
  /** Accept-Encoding header → the chosen coding, or null for the body as it is. */
  chosen: Map<string, Encoding | null>;
  /** A body through a streaming compressor, flushed after every chunk (gzip and br); the client may cancel it. */
  streams: Partial<Record<Encoding, (body: ReadableStream<Uint8Array>) => ReadableStream<Uint8Array>>>;
  /** The codings offered for a stream: `offered` that have a streaming compressor. */
  streamOffered: readonly Encoding[];
  /** Accept-Encoding header → the coding of a stream. */
  streamChosen: Map<string, Encoding | null>;
}

const allEncodings: readonly Encoding[] = ['br', 'zstd', 'gzip'];

/**
 * The compression of a mount's `compress` option, or null for none: `false`, a runtime whose server or edge
 * compresses itself (workerd: Cloudflare's edge; Deno.serve) unless asked for explicitly, or a runtime without
 * node:zlib. Throws a TypeError for a bad option (mount reports it with the root's name).
 */
export function compression(option: boolean | CompressOptions | undefined): Compression | null {
  if (option === false) return null;
  if (option === undefined && compressesItself()) return null;
  const options = typeof option === 'object' && option !== null ? option : {};
  const threshold = options.threshold ?? 1024;
  if (!(Number.isInteger(threshold) && threshold >= 0)) {
    throw new TypeError(`compress.threshold ${String(threshold)} is not a number of bytes; give e.g. 1024`);
  }
  const preset: Preset = options.preset ?? 'balanced';
  if (!presets.includes(preset)) {
    throw new TypeError(
      `compress.preset ${JSON.stringify(preset)} is not one of ${presets.map((p) => JSON.stringify(p)).join(', ')}`,
    );
  }
  const wanted = options.encodings ?? presetOrder(preset);
  for (const e of wanted) {
    if (!allEncodings.includes(e)) {
      throw new TypeError(`compress.encodings: ${JSON.stringify(e)} is not one of "br", "zstd", "gzip"`);
    }
  }
  const zlib = optionalNodeModule('node:zlib');
  if (!zlib) return null;
  const codecs = codecsOf(zlib, preset, wanted);
  const offered = wanted.filter((e) => codecs[e] !== undefined);
  if (offered.length === 0) return null;
  const streams = streamsOf(zlib);
  const streamOffered = offered.filter((e) => streams[e] !== undefined);
  return { threshold, offered, codecs, chosen: new Map(), streams, streamOffered, streamChosen: new Map() };
}

// gzip and brotli contexts that flush after every write: the bytes of a chunk go out with it, not when zlib's
// window fills (a streamed page's boundary would wait for the next one, or the end).
function streamsOf(zlib: typeof import('node:zlib')): Compression['streams'] {
  const { constants } = zlib;
  return {
    gzip: (body) => compressing(body, zlib.createGzip({ level: 6, flush: constants.Z_SYNC_FLUSH })),
    br: (body) =>
      compressing(
        body,
        zlib.createBrotliCompress({
          flush: constants.BROTLI_OPERATION_FLUSH,
          params: { [constants.BROTLI_PARAM_QUALITY]: 5 },
        }),
      ),
  };
}

type Compressor = import('node:zlib').Gzip | import('node:zlib').BrotliCompress;

// `source` through the compressor `z`, as a stream that owns both ends. A client can leave at any byte (its
// runtime cancels the body): then the compressor is destroyed, what it still emits from the thread pool is dropped
// (an enqueue into a cancelled stream throws, and from a 'data' listener that ends the process: issue 40), and the
// source is cancelled, so a streamed page drops its pending parts. A source or compressor that fails fails the
// stream, and the compressor is destroyed with it. Pulled, not piped: the source is read one chunk at a time as
// the client takes the output (a ReadableStream's `cancel` runs everywhere; a TransformStream's is newer).
function compressing(source: ReadableStream<Uint8Array>, z: Compressor): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  // Set once the output has nowhere to go (cancelled, failed or closed): zlib's later events are dropped.
  let done = false;
  let ending = false;
  const stop = () => {
    done = true;
    z.destroy();
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      z.on('data', (b: Buffer) => {
        if (!done) controller.enqueue(new Uint8Array(b.buffer, b.byteOffset, b.byteLength));
      });
      // 'end', not end()'s callback: that one comes when the input is taken, before the last output.
      z.once('end', () => {
        if (done) return;
        done = true;
        controller.close();
      });
      z.on('error', (err) => {
        if (done) return;
        stop();
        controller.error(err);
        reader.cancel(err).catch(noop);
      });
    },
    async pull() {
      if (ending) return; // the rest comes from zlib's 'data' and 'end'
      let next: Awaited<ReturnType<typeof reader.read>>;
      try {
        next = await reader.read();
      } catch (err) {
        stop(); // the source failed: so does this stream (the rejection errors it)
        throw err;
      }
      if (done) return;
      if (next.done) {
        ending = true;
        z.end();
        return;
      }
      // Settles on every path: written, failed (the 'error' listener fails the stream), or destroyed meanwhile.
      await new Promise<void>((resolve) => z.write(next.value, () => resolve()));
    },
    cancel(reason) {
      stop();
      return reader.cancel(reason);
    },
  });
}

function noop(): void {}

// workerd: Cloudflare compresses at the edge (and `wrangler dev` not at all); Deno.serve compresses by itself.
function compressesItself(): boolean {
  const agent = (globalThis as { navigator?: { userAgent?: unknown } }).navigator?.userAgent;
  return typeof agent === 'string' && (agent === 'Cloudflare-Workers' || agent.startsWith('Deno/'));
}

/**
 * A handler whose answers are compressed for the client that asks; a synchronous answer stays synchronous.
 * @example mux.handle(pattern, compressAnswers(handler, compression({ threshold: 2048 })!))
 */
export function compressAnswers(handler: HandlerFunc, c: Compression): HandlerFunc {
  return (req) => {
    const res = handler(req);
    return res instanceof Promise ? res.then((r) => compressAnswer(req, r, c)) : compressAnswer(req, res, c);
  };
}

// The bodies of streamed pages: compressed as they stream.
const flushedStreams = new WeakSet<ReadableStream<Uint8Array>>();

/**
 * Marks a body of unknown length to be compressed as it streams, each chunk flushed at once (a streamed page's
 * body: every chunk is a part the browser should see now); returns it.
 * @example new Response(compressAsItStreams(stream), { headers: { 'content-type': 'text/html; charset=utf-8' } })
 */
export function compressAsItStreams(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  flushedStreams.add(body);
  return body;
}

/** Types worth compressing: text, JSON, XML, JavaScript, SVG (as static-load.ts), not event streams. */
const compressible = /^text\/(?!event-stream)|[/+](json|xml|javascript)\b|^image\/svg\+xml/i;

// The answer compressed, or with Vary only, or as it is; see the top of the file. A hand-made Response is read into
// its answer (answerOf) and passed on untouched unless it is compressed.
function compressAnswer(req: PageRequest, res: Response, c: Compression): Response | Promise<Response> {
  const answer = answerOf(res);
  const { status, body, headers } = answer;
  if (body === null) return res;
  // Too small whatever its head says: the usual page or partial leaves here, having run nothing more of this file
  // (bench/path). A string's UTF-8 size is at most 3 bytes a unit; stringBytes below counts it when that cannot tell.
  if (
    typeof body === 'string'
      ? body.length * 3 < c.threshold
      : !(body instanceof ReadableStream) && body.byteLength < c.threshold
  )
    return res;
  if (!compressibleStatus(status)) return res;
  if (!compressibleHead(one(headers['content-type']), one(headers['cache-control']), (n) => headers[n] !== undefined))
    return res;
  if (body instanceof ReadableStream) return compressBodyStream(req, res, answer, body, c);
  const size = typeof body === 'string' ? stringBytes(body, c.threshold) : body.byteLength;
  if (size < c.threshold) return res;
  // Object.assign, not a spread with an added key: ~10x cheaper on Node 20 (core/node/index.ts).
  const out: Record<string, string | string[]> = Object.assign({}, headers);
  out.vary = withAcceptEncoding(one(headers.vary));
  // A HEAD is negotiated and compressed as GET is (RFC 9110 9.3.2: the same header fields), for GET's Content-Length;
  // the adapters drop its body.
  const coding = choose(req.headers.get('accept-encoding'), c.offered, c.chosen);
  if (coding === null) return answerResponse({ ...answer, headers: out });
  const bytes = c.codecs[coding]!(body, size);
  if (bytes.byteLength >= size) return answerResponse({ ...answer, headers: out });
  out['content-encoding'] = coding;
  out['content-length'] = String(bytes.byteLength);
  const etag = one(headers.etag);
  if (etag?.startsWith('"')) out.etag = `W/${etag}`;
  return answerResponse({ ...answer, body: bytes, headers: out });
}

// A body of unknown length may be a stream that must not be held back: a streamed page's is compressed as it
// streams, each chunk flushed; another is compressed when its Content-Length says it is whole and big enough, and
// sent as it is otherwise.
function compressBodyStream(
  req: PageRequest,
  res: Response,
  answer: Answer,
  body: ReadableStream<Uint8Array>,
  c: Compression,
): Response | Promise<Response> {
  const length = one(answer.headers['content-length']);
  if (length === undefined) return flushedStreams.has(body) ? compressStream(req, answer, body, c) : res;
  if (!(Number(length) >= c.threshold)) return res;
  return new Response(body).arrayBuffer().then((buf) => {
    const whole = answerResponse({ ...answer, body: new Uint8Array(buf) });
    return compressAnswer(req, whole, c);
  });
}

// An HTML stream through a flushing compressor, or as it is with Vary when the client takes none. A HEAD gets the head
// of GET's answer at once, and no compressor: its body (a streamed page's HEAD has an empty one) is dropped.
function compressStream(req: PageRequest, answer: Answer, body: ReadableStream<Uint8Array>, c: Compression): Response {
  const headers: Record<string, string | string[]> = Object.assign({}, answer.headers);
  headers.vary = withAcceptEncoding(one(headers.vary));
  const coding = choose(req.headers.get('accept-encoding'), c.streamOffered, c.streamChosen);
  if (coding === null) return answerResponse({ ...answer, headers });
  headers['content-encoding'] = coding;
  if (req.method !== 'HEAD') return answerResponse({ ...answer, body: c.streams[coding]!(body), headers });
  body.cancel().catch(noop);
  return answerResponse({ ...answer, body: null, headers });
}

// 204, 304 and 1xx have no body; a 206 is a range of the identity bytes.
function compressibleStatus(status: number): boolean {
  return status >= 200 && status !== 204 && status !== 206 && status !== 304;
}

// Not encoded already, not a range-capable representation (static files, sendFile: their ranges count the bytes as
// they are), of a compressible type, and not marked no-transform.
function compressibleHead(
  type: string | undefined,
  cacheControl: string | undefined,
  has: (name: string) => boolean,
): boolean {
  if (has('content-encoding') || has('content-range') || has('accept-ranges')) return false;
  if (type === undefined || !compressible.test(type)) return false;
  return cacheControl === undefined || !/(^|[\s,])no-transform\b/i.test(cacheControl);
}

// The UTF-8 size of a string, counted only when the length alone cannot tell which side of the threshold it is.
function stringBytes(body: string, threshold: number): number {
  if (body.length >= threshold || body.length * 3 < threshold) return body.length;
  return new TextEncoder().encode(body).byteLength;
}

function one(v: string | string[] | undefined): string | undefined {
  return typeof v === 'string' || v === undefined ? v : v.join(', ');
}

/**
 * A Vary value with Accept-Encoding, each name once (`*` already says everything varies).
 * @example withAcceptEncoding('HX-Request, HX-Target, HX-Request-Type') // → "HX-Request, HX-Target, HX-Request-Type, Accept-Encoding"
 */
export function withAcceptEncoding(vary: string | undefined): string {
  if (vary === undefined || vary.trim() === '') return 'Accept-Encoding';
  for (const name of vary.split(',')) {
    const n = name.trim().toLowerCase();
    if (n === 'accept-encoding' || n === '*') return vary;
  }
  return `${vary}, Accept-Encoding`;
}

// The coding for an Accept-Encoding header among `offered`, cached in `memo`: browsers send a handful of distinct
// values. A bounded map, so that a client sending random headers cannot grow it.
function choose(accept: string | null, offered: readonly Encoding[], memo: Map<string, Encoding | null>) {
  if (accept === null) return null;
  let coding = memo.get(accept);
  if (coding === undefined) {
    coding = negotiate(accept, offered);
    if (memo.size < 64) memo.set(accept, coding);
  }
  return coding;
}

/**
 * The coding of the highest weight the client gives among `offered`, the first offered on a tie; null for the body as
 * it is. A coding with q=0 is refused; `*` weighs every coding not named. The body as it is stays acceptable unless
 * `identity` (or `*`) says q=0, and ranks below any coding the client names unless weighed itself; when nothing is
 * acceptable it is sent anyway (RFC 9110 12.5.3). No header: as it is.
 * @example negotiate('gzip, deflate, br, zstd', ['br', 'zstd', 'gzip']) // → "br"
 * @example negotiate('gzip;q=1, br;q=0.5', ['br', 'gzip']) // → "gzip"
 */
export function negotiate<TCoding extends Encoding>(accept: string, offered: readonly TCoding[]): TCoding | null {
  const weights = new Map<string, number>();
  for (const part of accept.split(',')) {
    const semi = part.indexOf(';');
    const name = (semi < 0 ? part : part.slice(0, semi)).trim().toLowerCase();
    if (name === '') continue;
    const q = semi < 0 ? 1 : qValue(part.slice(semi + 1));
    if (q < 0) continue; // a malformed weight: as if the coding were not named
    const key = name === 'x-gzip' ? 'gzip' : name;
    weights.set(key, Math.max(q, weights.get(key) ?? -1));
  }
  const star = weights.get('*');
  const identity = weights.get('identity') ?? star ?? Number.MIN_VALUE;
  let best: TCoding | null = null;
  let bestQ = identity;
  for (const coding of offered) {
    const q = weights.get(coding) ?? star ?? 0;
    if (q > 0 && (q > bestQ || (q === bestQ && best === null))) [best, bestQ] = [coding, q];
  }
  return best;
}
