// pagetree/static: files from disk or embedded in the build (staticFiles, with `pagetree-embed`'s module), and one
// file as an answer (sendFile), with conditional requests, ranges and compression. staticUrl, which names a file
// with its content hash, is in 'pagetree' with the other URL helpers.
//
//   import { sendFile, staticFiles } from 'pagetree/static';

export { staticFiles } from './static.ts';
export type { EmbeddedFile, EmbeddedFiles, StaticFiles, StaticOptions } from './static.ts';
export { sendFile } from './send-file.ts';
export type { SendFileOptions } from './send-file.ts';
