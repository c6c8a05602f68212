// Static files, embedded: the directory is read into memory once, at mount,
// and requests are answered from that map alone.
//
//   route('GET /static/{path...}', staticFiles('static', { files: { 'htmx.min.js': require.resolve('htmx.org/dist/htmx.min.js') } }))
//
//   GET /static/app.css            → 200, text/css, strong ETag, Last-Modified, gzip/br when accepted
//   GET /static/app.3f2a9c1d.css   → the same file, cached for a year (a fingerprinted name: staticUrl)
//   GET /static/../package.json    → 404: lookups never touch the file system
//
// Text files get gzip and brotli variants computed at load (kept when smaller).

import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { contentType } from 'mime-types';
import type { PageRequest } from './mux/request';
import { liteResponse, textError } from './response';

/** Options of `staticFiles`. */
export interface StaticOptions {
  /** More files by URL path → absolute file path, e.g. an installed package's file (resolved with require.resolve). */
  files?: Record<string, string>;
  /** Cache-Control of plain names (default "no-cache": revalidate with the ETag). */
  cacheControl?: string;
  /** Cache-Control of fingerprinted names (default "public, max-age=31536000, immutable"). */
  immutableCacheControl?: string;
  /** Called instead of the default warning when the directory cannot be read. */
  onUnreadable?: (dir: string, err: unknown) => void;
}

interface Variant {
  body: Uint8Array;
  etag: string;
}

interface StaticFile {
  type: string;
  lastModified: string;
  /** 8 hex of the content hash, for fingerprinted names. */
  hash: string;
  identity: Variant;
  gzip?: Variant;
  br?: Variant;
}

const compressible = /^text\/|[/+](json|xml|javascript)\b|^image\/svg\+xml|^application\/wasm/;
const fingerprinted = /^(.*)\.([0-9a-f]{8})(\.[^./]+)$/;

/**
 * The static files of a directory as a page for a `GET /prefix/{path...}` route.
 * @example assets = route('GET /static/{path...}', staticFiles('static'))
 */
export function staticFiles(dir: string, options: StaticOptions = {}): StaticFiles {
  return new StaticFiles(dir, options);
}

/** The handler `staticFiles` returns: the files of a directory, held in memory. */
export class StaticFiles {
  #files: Map<string, StaticFile> | undefined;
  readonly #dir: string;
  readonly #options: StaticOptions;

  constructor(dir: string, options: StaticOptions = {}) {
    this.#dir = dir;
    this.#options = options;
  }

  /** Loads the files; mount calls it once. */
  init(): void {
    this.#load();
  }

  /** The URL path (below the route's prefix) with the content hash in the name, for caching forever. */
  fingerprint(path: string): string {
    const file = this.#load().get(path);
    if (!file) throw new Error(`staticUrl(${JSON.stringify(path)}): no such file in ${this.#dir}`);
    const dot = path.lastIndexOf('.');
    return dot > path.lastIndexOf('/')
      ? `${path.slice(0, dot)}.${file.hash}${path.slice(dot)}`
      : `${path}.${file.hash}`;
  }

  /** Whether the file exists. */
  has(path: string): boolean {
    return this.#load().has(path);
  }

  serveHTTP(req: PageRequest): Response {
    const files = this.#load();
    const path = req.pathValue('path');
    let file = files.get(path);
    let immutable = false;
    if (!file) {
      const m = fingerprinted.exec(path);
      const base = m ? files.get(m[1]! + m[3]!) : undefined;
      if (base && base.hash === m![2]) [file, immutable] = [base, true];
    }
    if (!file) return textError(404, '404 page not found');

    const variant = pickEncoding(file, req.headers.get('accept-encoding'));
    const encoding = variant === file.br ? 'br' : variant === file.gzip ? 'gzip' : undefined;
    const headers: Record<string, string> = {
      'content-type': file.type,
      etag: variant.etag,
      'last-modified': file.lastModified,
      'cache-control': immutable
        ? (this.#options.immutableCacheControl ?? 'public, max-age=31536000, immutable')
        : (this.#options.cacheControl ?? 'no-cache'),
    };
    if (file.gzip || file.br) headers.vary = 'Accept-Encoding';
    if (encoding) headers['content-encoding'] = encoding;
    if (notModified(req.headers, variant.etag, file.lastModified)) return liteResponse(304, null, headers);
    headers['content-length'] = String(variant.body.byteLength);
    return liteResponse(200, req.method === 'HEAD' ? null : variant.body, headers);
  }

  #load(): Map<string, StaticFile> {
    if (this.#files) return this.#files;
    const files = new Map<string, StaticFile>();
    try {
      for (const abs of walk(this.#dir)) files.set(relative(this.#dir, abs).split(sep).join('/'), readStatic(abs));
    } catch (err) {
      files.clear();
      (this.#options.onUnreadable ?? warnUnreadable)(this.#dir, err);
    }
    for (const [urlPath, abs] of Object.entries(this.#options.files ?? {})) {
      files.set(posix.normalize(urlPath).replace(/^\/+/, ''), readStatic(abs));
    }
    return (this.#files = files);
  }
}

function warnUnreadable(dir: string, err: unknown): void {
  console.warn(
    `pagetree: staticFiles(${JSON.stringify(dir)}) cannot read the directory; every request will be a 404:`,
    err,
  );
}

function* walk(dir: string): Generator<string> {
  if (!statSync(dir).isDirectory()) throw new Error(`${dir} is not a directory`);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const abs = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(abs);
    else if (entry.isFile()) yield abs;
  }
}

function readStatic(abs: string): StaticFile {
  const body = readFileSync(abs);
  const type = contentType(posix.basename(abs)) || 'application/octet-stream';
  const digest = createHash('sha256').update(body).digest();
  const etag = `"${digest.subarray(0, 16).toString('base64url')}"`;
  const file: StaticFile = {
    type,
    lastModified: statSync(abs).mtime.toUTCString(),
    hash: digest.subarray(0, 4).toString('hex'),
    identity: { body, etag },
  };
  if (compressible.test(type) && body.byteLength > 256) {
    const gz = gzipSync(body, { level: 9 });
    const br = brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } });
    if (gz.byteLength < body.byteLength) file.gzip = { body: gz, etag: etag.replace(/"$/, '-gz"') };
    if (br.byteLength < body.byteLength) file.br = { body: br, etag: etag.replace(/"$/, '-br"') };
  }
  return file;
}

// br, then gzip, when the client accepts them (q > 0); else the file as it is.
function pickEncoding(file: StaticFile, accept: string | null): Variant {
  if (!accept || (!file.br && !file.gzip)) return file.identity;
  const q = new Map<string, number>();
  for (const part of accept.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    q.set(name!, qParam ? Number(qParam.slice(2)) || 0 : 1);
  }
  const accepts = (enc: string) => (q.get(enc) ?? q.get('*') ?? 0) > 0;
  if (file.br && accepts('br')) return file.br;
  if (file.gzip && accepts('gzip')) return file.gzip;
  return file.identity;
}

// If-None-Match wins over If-Modified-Since (RFC 9110 13.2.2).
function notModified(headers: Headers, etag: string, lastModified: string): boolean {
  const inm = headers.get('if-none-match');
  if (inm !== null) {
    return inm.trim() === '*' || inm.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
  }
  const ims = headers.get('if-modified-since');
  if (ims === null) return false;
  const since = Date.parse(ims);
  return !Number.isNaN(since) && Date.parse(lastModified) <= since;
}
