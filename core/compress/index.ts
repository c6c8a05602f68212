// pagetree/compress: the options of compressed answers (mount's `compress: { … }`). Compression itself is on by
// default and needs no import.
//
//   import type { CompressOptions } from 'pagetree/compress';

export type { CompressOptions } from './compress.ts';
