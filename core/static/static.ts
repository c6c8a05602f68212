// Static files, embedded: the files are held in memory, read once at mount from a directory or given in code
// (a module pagetree-embed generated, for a bundle or a worker), and requests are answered from that map alone.
//
//   route('GET /static/{path...}', staticFiles('static', { files: { 'htmx.min.js': 'node_modules/htmx.org/dist/htmx.min.js' } }))
//   route('GET /static/{path...}', staticFiles(assets))   // import assets from './assets.ts' (pagetree-embed)
//
//   GET /static/app.css            → 200, text/css, strong ETag, Last-Modified (files from disk), gzip/br when accepted
//   GET /static/app.3f2a9c1d.css   → the same file, cached for a year (a fingerprinted name: staticUrl)
//   GET /static/../package.json    → 404: lookups never touch the file system

import { consoleLogger, type Logger } from '../kernel/logger.ts';
import type { PageRequest } from '../kernel/request.ts';
import { liteResponse, textError } from '../kernel/answer.ts';
import { notModified, requestedRange } from './conditional.ts';
import { negotiate } from '../compress/compress.ts';
import {
  embeddedFile,
  readDirectory,
  readFile,
  type EmbeddedFiles,
  type StaticFile,
  type Variant,
} from './static-load.ts';

export type { EmbeddedFile, EmbeddedFiles } from './static-load.ts';

/** Options of `staticFiles`. */
export interface StaticOptions {
  /** More files from disk by URL path → file path, e.g. an installed package's file ('node_modules/htmx.org/dist/htmx.min.js'). */
  files?: Record<string, string>;
  /** Cache-Control of plain names (default "no-cache": revalidate with the ETag). */
  cacheControl?: string;
  /** Cache-Control of fingerprinted names (default "public, max-age=31536000, immutable"). */
  immutableCacheControl?: string;
  /** Called instead of the default warning when the directory cannot be read. */
  onUnreadable?: (dir: string, err: unknown) => void;
}

const fingerprinted = /^(.*)\.([0-9a-f]{8})(\.[^./]+)$/;

/**
 * Static files as a page for a `GET /prefix/{path...}` route: the files of a directory, or files given in code
 * (contents by URL path, or the module `pagetree-embed` generates, for runtimes without a file system).
 * @example assets = route('GET /static/{path...}', staticFiles('static'))
 * @example assets = route('GET /static/{path...}', staticFiles({ 'robots.txt': 'User-agent: *\nAllow: /\n' }))
 */
export function staticFiles(source: string | EmbeddedFiles, options: StaticOptions = {}): StaticFiles {
  return new StaticFiles(source, options);
}

// A registered symbol, the same in tree/tree.ts, which finds a tree's static files by it without importing this file
// (and the MIME table behind it: an app that serves no file bundles none of it, issue 42).
const staticFilesBrand: unique symbol = Symbol.for('pagetree.staticFiles');

/** The handler `staticFiles` returns: files held in memory. */
export class StaticFiles {
  /** What `tree.staticUrl` looks for (tree/tree.ts): a brand, so the tree's folder needs no import of this one. */
  readonly [staticFilesBrand] = true;
  #files: Map<string, StaticFile> | undefined;
  readonly #source: string | EmbeddedFiles;
  readonly #options: StaticOptions;
  #logger: Logger | undefined;

  constructor(source: string | EmbeddedFiles, options: StaticOptions = {}) {
    this.#source = source;
    this.#options = options;
  }

  /** Loads the files; mount calls it once, with the mux's logger for a directory it cannot read. */
  init(mounted?: { readonly logger: Logger }): void {
    this.#logger = mounted?.logger;
    this.#load();
  }

  /** The URL path (below the route's prefix) with the content hash in the name, for caching forever. */
  fingerprint(path: string): string {
    const file = this.#load().get(path);
    if (!file) {
      const where = typeof this.#source === 'string' ? this.#source : 'the embedded files';
      throw new Error(`staticUrl(${JSON.stringify(path)}): no such file in ${where}`);
    }
    const dot = path.lastIndexOf('.');
    return dot > path.lastIndexOf('/')
      ? `${path.slice(0, dot)}.${file.hash}${path.slice(dot)}`
      : `${path}.${file.hash}`;
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

    const headers: Record<string, string> = {
      'content-type': file.type,
      'cache-control': immutable
        ? (this.#options.immutableCacheControl ?? 'public, max-age=31536000, immutable')
        : (this.#options.cacheControl ?? 'no-cache'),
      'x-content-type-options': 'nosniff',
    };
    if (file.lastModified !== null) headers['last-modified'] = file.lastModified;
    if (file.gzip || file.br) headers.vary = 'Accept-Encoding';
    const head = req.method === 'HEAD';

    // A range counts bytes of the file itself, so it is served from the identity
    // bytes, never from a compressed variant (RFC 9110 14.1.2).
    const size = file.identity.body.byteLength;
    const range = req.headers.has('range')
      ? requestedRange(req.headers, { size, etag: file.identity.etag, lastModified: file.lastModified })
      : null;
    if (range !== null) {
      headers.etag = file.identity.etag;
      if (notModified(req.headers, file.identity.etag, file.lastModified)) return liteResponse(304, null, headers);
      if (typeof range === 'string') {
        const refused: Record<string, string> = { 'x-content-type-options': 'nosniff' };
        if (range === 'unsatisfiable') refused['content-range'] = `bytes */${size}`;
        if (headers.vary) refused.vary = headers.vary;
        return liteResponse(416, null, refused);
      }
      const [start, end] = range;
      headers['accept-ranges'] = 'bytes';
      headers['content-range'] = `bytes ${start}-${end}/${size}`;
      headers['content-length'] = String(end - start + 1);
      return liteResponse(206, head ? null : file.identity.body.subarray(start, end + 1), headers);
    }

    const variant = pickEncoding(file, req.headers.get('accept-encoding'));
    headers.etag = variant.etag;
    if (variant === file.br) headers['content-encoding'] = 'br';
    else if (variant === file.gzip) headers['content-encoding'] = 'gzip';
    if (notModified(req.headers, variant.etag, file.lastModified)) return liteResponse(304, null, headers);
    headers['accept-ranges'] = 'bytes';
    headers['content-length'] = String(variant.body.byteLength);
    return liteResponse(200, head ? null : variant.body, headers);
  }

  #load(): Map<string, StaticFile> {
    if (this.#files) return this.#files;
    const source = this.#source;
    let files = new Map<string, StaticFile>();
    if (typeof source === 'string') {
      try {
        files = readDirectory(source);
      } catch (err) {
        if (this.#options.onUnreadable) this.#options.onUnreadable(source, err);
        else warnUnreadable(this.#logger ?? consoleLogger, source, err);
      }
    } else {
      for (const [urlPath, file] of Object.entries(source)) files.set(cleanName(urlPath), embeddedFile(urlPath, file));
    }
    for (const [urlPath, path] of Object.entries(this.#options.files ?? {}))
      files.set(cleanName(urlPath), readFile(path));
    return (this.#files = files);
  }
}

// 'img//logo.svg', '/robots.txt' → 'img/logo.svg', 'robots.txt': the name a request path can match.
function cleanName(urlPath: string): string {
  return urlPath
    .split('/')
    .filter((seg) => seg !== '' && seg !== '.')
    .join('/');
}

function warnUnreadable(logger: Logger, dir: string, err: unknown): void {
  logger.warn(
    `pagetree: staticFiles(${JSON.stringify(dir)}) cannot read the directory; every request will be a 404: ` +
      String((err as { message?: unknown } | null)?.message ?? err),
  );
}

// The variant of the highest q the client gives among those the file has (ties: br, gzip, then the file as it is,
// the smallest first), as compress.ts's `negotiate` weighs them for rendered answers.
function pickEncoding(file: StaticFile, accept: string | null): Variant {
  if (!accept || (!file.br && !file.gzip)) return file.identity;
  const offered = file.br ? (file.gzip ? bothCodings : brOnly) : gzipOnly;
  const coding = negotiate(accept, offered);
  return (coding && file[coding]) ?? file.identity;
}
const bothCodings = ['br', 'gzip'] as const;
const brOnly = ['br'] as const;
const gzipOnly = ['gzip'] as const;
