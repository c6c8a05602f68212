// Loading static files into memory: from a directory (staticFiles('public')), from contents given in code, or
// from a module that pagetree-embed generated. Every file is hashed once (ETag, fingerprinted names) and, when
// its type is text and compression pays, gets gzip and brotli variants, unless they come precompressed.
//
//   public/app.css (1,204 bytes) → { type: "text/css; charset=utf-8", hash: "1c587453", etag: "\"HGdF…\"",
//                                    identity: 1,204 bytes, gzip: 431 bytes, br: 366 bytes }

import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { contentType } from 'mime-types';

/** One encoding of a file as it is sent, with its own ETag. */
export interface Variant {
  body: Uint8Array;
  etag: string;
}

/** A file ready to serve. */
export interface StaticFile {
  type: string;
  /** The modification time of a file read from disk; embedded files have none. */
  lastModified: string | null;
  /** 8 hex of the content hash, for fingerprinted names. */
  hash: string;
  identity: Variant;
  gzip?: Variant;
  br?: Variant;
}

/**
 * A file given in code: its contents (text is sent as UTF-8), and optionally its type and its precompressed
 * variants. With `encodings` present, no other variant is computed (pagetree-embed writes them).
 */
export interface EmbeddedFile {
  /** Content-Type; by default from the name's extension. */
  type?: string;
  body: string | Uint8Array;
  encodings?: { gzip?: Uint8Array; br?: Uint8Array };
}

/** Files by URL path below the route (`'app.css'`, `'img/logo.svg'`): contents, or an EmbeddedFile. */
export type EmbeddedFiles = Record<string, string | Uint8Array | EmbeddedFile>;

const compressible = /^text\/|[/+](json|xml|javascript)\b|^image\/svg\+xml|^application\/wasm/;

/** The Content-Type of a file name, from its extension (mime-types). */
export function typeOf(name: string): string {
  return contentType(name.slice(name.lastIndexOf('/') + 1)) || 'application/octet-stream';
}

/** Every regular file below `dir`, by URL path ('img/logo.svg'). Throws when `dir` is not a readable directory. */
export function readDirectory(dir: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  for (const abs of walk(dir)) files.set(relative(dir, abs).split(sep).join('/'), readFile(abs));
  return files;
}

/** One file from disk, with its modification time. */
export function readFile(abs: string): StaticFile {
  return prepare(readFileSync(abs), typeOf(abs.split(sep).join('/')), statSync(abs).mtime.toUTCString());
}

/** One file given in code. */
export function embeddedFile(name: string, file: string | Uint8Array | EmbeddedFile): StaticFile {
  const given = typeof file === 'string' || file instanceof Uint8Array ? { body: file } : file;
  const body = typeof given.body === 'string' ? new TextEncoder().encode(given.body) : given.body;
  return prepare(body, given.type ?? typeOf(name), null, given.encodings);
}

/**
 * The variants worth sending for a body: gzip (level 9) and brotli (quality 11) of a text type over 256 bytes,
 * each kept only when smaller.
 */
export function compress(body: Uint8Array, type: string): { gzip?: Uint8Array; br?: Uint8Array } {
  if (!compressible.test(type) || body.byteLength <= 256) return {};
  const gzip = gzipSync(body, { level: 9 });
  const br = brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } });
  return {
    ...(gzip.byteLength < body.byteLength ? { gzip } : {}),
    ...(br.byteLength < body.byteLength ? { br } : {}),
  };
}

function prepare(
  body: Uint8Array,
  type: string,
  lastModified: string | null,
  encodings = compress(body, type),
): StaticFile {
  const digest = createHash('sha256').update(body).digest();
  const etag = `"${digest.subarray(0, 16).toString('base64url')}"`;
  const file: StaticFile = {
    type,
    lastModified,
    hash: digest.subarray(0, 4).toString('hex'),
    identity: { body, etag },
  };
  if (encodings.gzip) file.gzip = { body: encodings.gzip, etag: etag.replace(/"$/, '-gz"') };
  if (encodings.br) file.br = { body: encodings.br, etag: etag.replace(/"$/, '-br"') };
  return file;
}

function* walk(dir: string): Generator<string> {
  if (!statSync(dir).isDirectory()) throw new Error(`${dir} is not a directory`);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const abs = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(abs);
    else if (entry.isFile()) yield abs;
  }
}
