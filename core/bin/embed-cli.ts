#!/usr/bin/env node
// pagetree-embed <dir> <out.ts|out.js> [--file <url path>=<file>]...: writes the module of embedded static files
// (embed.ts) for a directory, and for more files named one by one (staticFiles' `files` option).

import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { embedSource } from '../static/embed.ts';

const usage =
  'usage: pagetree-embed <dir> <out.ts|out.js> [--file <url path>=<file>]...\n' +
  '   e.g. pagetree-embed static src/assets.ts --file htmx.min.js=node_modules/htmx.org/dist/htmx.min.js';
let parsed;
try {
  parsed = parseArgs({ allowPositionals: true, options: { file: { type: 'string', multiple: true } } });
} catch (err) {
  console.error(`pagetree-embed: ${(err as Error).message}\n${usage}`);
  process.exit(2);
}
const [dir, out] = parsed.positionals;
const files = (parsed.values.file ?? []).map((spec) => spec.split(/=(.*)/s, 2));
if (!dir || !out || !/\.(ts|mts|js|mjs)$/.test(out) || files.some(([name, path]) => !name || !path)) {
  console.error(usage);
  process.exit(2);
}
writeFileSync(out, embedSource(dir, { typescript: /\.m?ts$/.test(out), files: Object.fromEntries(files) }));
console.log(`pagetree-embed: ${dir} → ${out}`);
