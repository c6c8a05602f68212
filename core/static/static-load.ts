// Loading static files into memory: from a directory (staticFiles('public')), from contents given in code, or
// from a module that pagetree-embed generated. Every file is hashed once (ETag, fingerprinted names) and, when
// its type is text and compression pays, gets gzip and brotli variants, unless they come precompressed.
//
//   public/app.css (1,204 bytes) → { type: "text/css; charset=utf-8", hash: "1c587453", etag: "\"HGdF…\"",
//                                    identity: 1,204 bytes, gzip: 431 bytes, br: 366 bytes }
//
// node:fs, node:zlib and node:crypto are taken at run time (process.getBuiltinModule), never imported: pagetree's
// entry then pulls no Node module into a bundle, and a worker serving files that pagetree-embed wrote (types,
// digests and compressed variants included) needs none of them. mime rather than mime-types for the same reason:
// it is ES modules with no require('path').

import { base64url } from '../kernel/base64url.ts';
import { optionalNodeModule, type NodeModuleName, type NodeModules } from '../kernel/node-modules.ts';
import mime from 'mime';

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
  /** The SHA-256 of the body in hex (pagetree-embed writes it); computed with node:crypto when absent. */
  sha256?: string;
}

/** Files by URL path below the route (`'app.css'`, `'img/logo.svg'`): contents, or an EmbeddedFile. */
export type EmbeddedFiles = Record<string, string | Uint8Array | EmbeddedFile>;

const compressible = /^text\/|[/+](json|xml|javascript)\b|^image\/svg\+xml|^application\/wasm/;

// The types that mime-db gives a charset and a file extension: text/*, JSON and web manifests.
const utf8 = /^text\/|^application\/(json|manifest\+json)$/;

/** The Content-Type of a file name, from its extension (mime), with `charset=utf-8` for text. */
export function typeOf(name: string): string {
  const type = mime.getType(name.slice(name.lastIndexOf('/') + 1));
  if (!type) return 'application/octet-stream';
  return utf8.test(type) ? `${type}; charset=utf-8` : type;
}

/** The same, or an error that says what needed it (`why`: "reads a directory") and what to do instead. */
function nodeModule<TName extends NodeModuleName>(name: TName, why: string): NodeModules[TName] {
  const found = optionalNodeModule(name);
  if (!found)
    throw new Error(
      `pagetree: staticFiles ${why}, which needs ${name}: this runtime has none. Embed the files instead ` +
        '(npx pagetree-embed public src/assets.ts; docs/static.md#embedded-files).',
    );
  return found;
}

/** Every regular file below `dir`, by URL path ('img/logo.svg'). Throws when `dir` is not a readable directory. */
export function readDirectory(dir: string): Map<string, StaticFile> {
  const { relative, sep } = nodeModule('node:path', 'reads a directory');
  const files = new Map<string, StaticFile>();
  for (const abs of walk(dir)) files.set(relative(dir, abs).split(sep).join('/'), readFile(abs));
  return files;
}

/** One file from disk, with its modification time. */
export function readFile(abs: string): StaticFile {
  const { readFileSync, statSync } = nodeModule('node:fs', 'reads a file');
  return prepare(readFileSync(abs), typeOf(abs.replaceAll('\\', '/')), statSync(abs).mtime.toUTCString());
}

/** One file given in code. */
export function embeddedFile(name: string, file: string | Uint8Array | EmbeddedFile): StaticFile {
  const given = typeof file === 'string' || file instanceof Uint8Array ? { body: file } : file;
  const body = typeof given.body === 'string' ? new TextEncoder().encode(given.body) : given.body;
  return prepare(body, given.type ?? typeOf(name), null, given.encodings, given.sha256);
}

/**
 * The variants worth sending for a body: gzip (level 9) and brotli (quality 11) of a text type over 256 bytes,
 * each kept only when smaller. None on a runtime without node:zlib (the file is then sent as it is).
 */
export function compress(body: Uint8Array, type: string): { gzip?: Uint8Array; br?: Uint8Array } {
  const zlibModule = optionalNodeModule('node:zlib');
  if (!zlibModule || !compressible.test(type) || body.byteLength <= 256) return {};
  const { brotliCompressSync, constants: zlib, gzipSync } = zlibModule;
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
  sha256 = nodeModule('node:crypto', 'hashes a file').createHash('sha256').update(body).digest('hex'),
): StaticFile {
  // The ETag: the first 16 bytes of the digest, base64url (22 characters).
  const etag = `"${base64url(Uint8Array.from(sha256.slice(0, 32).match(/../g)!, (h) => parseInt(h, 16)))}"`;
  const file: StaticFile = { type, lastModified, hash: sha256.slice(0, 8), identity: { body, etag } };
  if (encodings.gzip) file.gzip = { body: encodings.gzip, etag: etag.replace(/"$/, '-gz"') };
  if (encodings.br) file.br = { body: encodings.br, etag: etag.replace(/"$/, '-br"') };
  return file;
}

function* walk(dir: string): Generator<string> {
  const { join } = nodeModule('node:path', 'reads a directory');
  const { readdirSync, statSync } = nodeModule('node:fs', 'reads a directory');
  if (!statSync(dir).isDirectory()) throw new Error(`${dir} is not a directory`);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const abs = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(abs);
    else if (entry.isFile()) yield abs;
  }
}
