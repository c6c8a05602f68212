// The compressors of answers made per request: one call per whole body, at the levels of the mount's preset.
//
//   preset      offered first on a tie    zstd   br (window)          gzip
//   'balanced'  zstd, br, gzip             3      4 (the body's size)  6     the default
//   'fast'      zstd, br, gzip             1      2                    1     CPU dearer than bytes
//   'small'     br, zstd, gzip             6      5                    9     bytes dearer than CPU
//
// Measured on Node 24 with bench/compress's 7.5 KB page and 6.3 KB partial, each with its own token (in process, one
// core of a shared VM, µs per body with its UTF-8 encoding → bytes): zstd 3 in a kept context 22 → 1,285 and
// 16 → 523 (zstd 3 made afresh per body, as zlib.zstdCompressSync and @fastify/compress do: 53 and 48, the same
// bytes); br 4 71 → 1,136 and 52 → 461; br 5 75 → 1,064 and 49 → 445 (at brotli's default window of 4 MiB: ~99 and
// ~64, the same bytes); gzip 6 kept 48 → 1,286; br 2 37 → 1,303; gzip 1 kept 36 → 1,331. For pages of a few KiB
// zstd's levels 1 to 6 differ little; they part on larger bodies.
//
// zstd and gzip keep one context per mount, from answer to answer: a zstd frame ended with ZSTD_e_end (and a gzip
// member after deflateReset) starts afresh, so each body decodes alone, but the context's tables are reused instead
// of allocated and cleared per body, and no stream object is built per call: that halves zstd's cost on a page of a
// few KiB. node:zlib has no public call for it; the kept context writes through the handle its own sync functions
// use (`_handle.writeSync`, as lib/zlib.js's processChunkSync does). Where that handle is missing or does not answer
// as Node's does (checked once at mount with a round trip), each body goes through the public one-shot call. A mount
// holds ~400 KiB for its contexts and buffers (more once it has compressed larger bodies). brotli's handle forgets
// its parameters when reset, so brotli is made afresh per body (its quality and a window no larger than the body keep
// that cheap).

/** A content coding pagetree can compress with (`zstd` only where the runtime has it: Node 22.15+, 23.8+). */
export type Encoding = 'br' | 'zstd' | 'gzip';

/** How a mount weighs CPU against bytes (mount's `compress.preset`). */
export type Preset = 'fast' | 'balanced' | 'small';

/** Compresses a whole body whose UTF-8 size is about `size`. */
export type Codec = (body: string | Uint8Array, size: number) => Uint8Array;

/** The presets, as their option names them. */
export const presets: readonly Preset[] = ['balanced', 'fast', 'small'];

const levels: Record<Preset, { order: readonly Encoding[]; zstd: number; br: number; gzip: number }> = {
  balanced: { order: ['zstd', 'br', 'gzip'], zstd: 3, br: 4, gzip: 6 },
  fast: { order: ['zstd', 'br', 'gzip'], zstd: 1, br: 2, gzip: 1 },
  small: { order: ['br', 'zstd', 'gzip'], zstd: 6, br: 5, gzip: 9 },
};

/**
 * The codings a preset offers, preferred first where the client weighs several alike.
 * @example presetOrder('small') // → ["br", "zstd", "gzip"]
 */
export function presetOrder(preset: Preset): readonly Encoding[] {
  return levels[preset].order;
}

type Zlib = typeof import('node:zlib');

// The part of a node:zlib stream its sync functions drive: the native handle and the two counts it writes back.
interface Handle {
  writeSync(
    flush: number,
    input: Uint8Array,
    inOff: number,
    inLen: number,
    out: Uint8Array,
    outOff: number,
    outLen: number,
  ): void;
  reset(): void;
}
interface KeptStream {
  _handle?: Handle;
  /** [output bytes left, input bytes left] after each writeSync. */
  _writeState?: Uint32Array;
  destroyed: boolean;
  on(event: 'error', listener: () => void): unknown;
}

/**
 * The one-shot compressors of a preset for the codings `wanted` (default: all): zstd only where the runtime has it
 * (Node 22.15+, 23.8+), br and gzip.
 * @example codecsOf(zlib, 'balanced').br!('<p>…</p>', 3000) // → the body, brotli quality 4
 */
export function codecsOf(
  zlib: Zlib,
  preset: Preset,
  wanted: readonly Encoding[] = ['zstd', 'br', 'gzip'],
): Partial<Record<Encoding, Codec>> {
  const { constants } = zlib;
  const level = levels[preset];
  const bytesOf = utf8Scratch();
  const codec =
    (compress: (bytes: Uint8Array, size: number) => Uint8Array): Codec =>
    (body, size) =>
      compress(typeof body === 'string' ? bytesOf(body) : body, size);
  const codecs: Partial<Record<Encoding, Codec>> = {};
  if (wanted.includes('gzip')) {
    codecs.gzip = codec(
      kept(
        () => zlib.createGzip({ level: level.gzip }) as unknown as KeptStream,
        constants.Z_FINISH,
        true,
        zlib.gunzipSync,
        (bytes) => zlib.gzipSync(bytes, { level: level.gzip }),
      ),
    );
  }
  if (wanted.includes('br')) {
    codecs.br = codec((bytes, size) =>
      zlib.brotliCompressSync(bytes, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: level.br,
          [constants.BROTLI_PARAM_SIZE_HINT]: size,
          // brotli's default window (4 MiB) makes quality 5 a fifth dearer on a page of a few KiB, for no byte less:
          // a window as large as the body (64 KiB at least) costs its tables only (bench/compress).
          [constants.BROTLI_PARAM_LGWIN]: Math.min(22, Math.max(16, 32 - Math.clz32(size))),
        },
      }),
    );
  }
  // Node 22.15+ and 23.8+; typed by newer @types/node only.
  const z = zlib as Partial<{
    createZstdCompress(options: object): unknown;
    zstdCompressSync(body: Uint8Array, options: object): Uint8Array;
    zstdDecompressSync(body: Uint8Array): Uint8Array;
  }>;
  const zstdLevel = (constants as Record<string, number>).ZSTD_c_compressionLevel;
  const zstdEnd = (constants as Record<string, number>).ZSTD_e_end;
  if (
    wanted.includes('zstd') &&
    z.createZstdCompress &&
    z.zstdCompressSync &&
    z.zstdDecompressSync &&
    zstdLevel !== undefined
  ) {
    const options = { params: { [zstdLevel]: level.zstd } };
    const { createZstdCompress, zstdCompressSync, zstdDecompressSync } = z;
    const once = (bytes: Uint8Array) => zstdCompressSync(bytes, options);
    codecs.zstd = codec(
      zstdEnd === undefined
        ? once
        : kept(() => createZstdCompress(options) as KeptStream, zstdEnd, false, zstdDecompressSync, once),
    );
  }
  return codecs;
}

const encoder = new TextEncoder();

// A string's UTF-8 bytes, written into one buffer kept for the purpose: half the cost of a new buffer per body
// (Node 24, the 7.5 KB page: 4 µs, against 8–10 µs for TextEncoder.encode or Buffer.from). The bytes are good until
// the next call: every codec takes them at once.
function utf8Scratch(): (text: string) => Uint8Array {
  const scratch = new Uint8Array(65536);
  return (text) => {
    if (text.length <= scratch.length) {
      const { read, written } = encoder.encodeInto(text, scratch);
      if (read === text.length) return scratch.subarray(0, written);
    }
    return encoder.encode(text);
  };
}

/**
 * A compressor of whole bodies through one context kept from body to body, each body ended with `finish` (and the
 * context reset after it when `reset`); `once`, the public one-shot call, where the runtime's stream has no such
 * handle or its round trip through `decode` fails. A context that fails later is dropped: that body goes through
 * `once`, the next through a new context.
 */
function kept(
  make: () => KeptStream,
  finish: number,
  reset: boolean,
  decode: (bytes: Uint8Array) => Uint8Array,
  once: (bytes: Uint8Array) => Uint8Array,
): (bytes: Uint8Array) => Uint8Array {
  const open = (): KeptStream | undefined => {
    const s = make();
    // A failing handle destroys its stream, which then emits 'error': heard here, read from `destroyed` below.
    s.on('error', noop);
    // isView, not instanceof: the array is made in node's realm (a test runner's vm context has its own Uint32Array).
    const state = s._writeState;
    return typeof s._handle?.writeSync === 'function' && ArrayBuffer.isView(state) && state.length === 2
      ? s
      : undefined;
  };
  let stream: KeptStream | undefined;
  // One output buffer for every body: a page of a few KiB compresses to 1–2 KiB; a larger body takes several turns.
  const out = new Uint8Array(16384);
  const compress = (bytes: Uint8Array): Uint8Array => {
    stream ??= open();
    const s = stream;
    if (s === undefined) throw new Error('node:zlib: no stream handle');
    const handle = s._handle!;
    const state = s._writeState!;
    let inOff = 0;
    let inLen = bytes.byteLength;
    let parts: Uint8Array[] | undefined;
    for (;;) {
      handle.writeSync(finish, bytes, inOff, inLen, out, 0, out.byteLength);
      if (s.destroyed) {
        stream = undefined;
        throw new Error('node:zlib: the compressor failed');
      }
      const outLeft = state[0]!;
      const inLeft = state[1]!;
      inOff += inLen - inLeft;
      inLen = inLeft;
      const chunk = out.slice(0, out.byteLength - outLeft);
      if (outLeft === 0) {
        (parts ??= []).push(chunk); // the output buffer is full: there is more
        continue;
      }
      if (reset) handle.reset();
      return parts === undefined ? chunk : concat([...parts, chunk]);
    }
  };
  try {
    const probe = encoder.encode('<li>pagetree</li>'.repeat(64)); // 1 KB: the context grows with the bodies it gets
    for (let i = 0; i < 2; i++) {
      const back = decode(compress(probe));
      if (back.byteLength !== probe.byteLength || !back.every((b, j) => b === probe[j])) return once;
    }
  } catch {
    return once;
  }
  return (bytes) => {
    try {
      return compress(bytes);
    } catch {
      stream = undefined;
      return once(bytes); // a failure of zlib itself fails here too, and is the answer's error
    }
  };
}

function concat(parts: Uint8Array[]): Uint8Array {
  const all = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.byteLength;
  }
  return all;
}

function noop(): void {}
