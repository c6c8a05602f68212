#!/usr/bin/env node
// pagetree-embed <dir> <out.ts|out.js>: writes the module of embedded static files (embed.ts) for a directory.

import { writeFileSync } from 'node:fs';
import { embedSource } from './embed.ts';

const [dir, out] = process.argv.slice(2);
if (!dir || !out || !/\.(ts|mts|js|mjs)$/.test(out)) {
  console.error('usage: pagetree-embed <dir> <out.ts|out.js>   e.g. pagetree-embed public src/assets.ts');
  process.exit(2);
}
writeFileSync(out, embedSource(dir, { typescript: /\.m?ts$/.test(out) }));
console.log(`pagetree-embed: ${dir} → ${out}`);
