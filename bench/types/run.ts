// How long the compile-time urlFor checks take on a large tree.
//
//   npm run bench:types
//
// Generates a tree of GROUPS × PAGES routes (every page with a param of its own
// plus its group's), one typed `tree.urlFor` call per page, and type-checks it
// with `tsc --extendedDiagnostics`; then the same file with the calls untyped
// (`as any` tree), so the difference is the cost of the checks. Median of 3 runs each (ROUNDS).
//
// The program imports pagetree as an app does, through its declarations, emitted
// here first from the sources (tsconfig.build.json): the package's own name would
// resolve to dist/, which is only as new as the last build.

import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { environment, setting } from '../lib/main.ts';
import { median, printTable } from '../lib/report.ts';

const GROUPS = 20;
const PAGES = 10;
const RUNS = setting('ROUNDS', 3);
const dir = join(__dirname, '.generated');

function source(typed: boolean): string {
  const lines = [`import { ServeMux, mount, route } from './dist/core/index.js';`];
  for (let g = 0; g < GROUPS; g++) {
    for (let p = 0; p < PAGES; p++) {
      lines.push(`export class Page${g}x${p} { page() { return 'p${g}x${p}'; } own${g}x${p}() { return ${p}; } }`);
    }
    const fields = Array.from(
      { length: PAGES },
      (_, p) => `  p${p} = route('/item${p}/{id${p}} Page ${p}', Page${g}x${p});`,
    );
    lines.push(`export class Group${g} {\n${fields.join('\n')}\n}`);
  }
  lines.push(`export class App {`);
  for (let g = 0; g < GROUPS; g++) lines.push(`  g${g} = route('/group${g}/{group${g}}', Group${g});`);
  lines.push(`}`);
  lines.push(`const tree = mount(new ServeMux(), App)${typed ? '' : ' as any'};`);
  for (let g = 0; g < GROUPS; g++) {
    for (let p = 0; p < PAGES; p++) lines.push(`tree.urlFor(Page${g}x${p}, { group${g}: 'g', id${p}: ${p} });`);
  }
  return lines.join('\n') + '\n';
}

const root = join(__dirname, '..', '..');
const tsc = require.resolve('typescript/bin/tsc');

function checkTime(file: string): { seconds: number; instantiations: number } {
  const out = execFileSync(
    process.execPath,
    [
      tsc,
      '--noEmit',
      '--extendedDiagnostics',
      '--ignoreConfig',
      '--strict',
      '--skipLibCheck',
      '--module',
      'nodenext',
      '--target',
      'es2022',
      '--types',
      'node',
      '--rootDir',
      root,
      file,
    ],
    { encoding: 'utf8' },
  );
  const m = /Check time:\s+([\d.]+)s/.exec(out);
  const n = /Instantiations:\s+(\d+)/.exec(out);
  if (!m || !n) throw new Error(`no check time or instantiations in tsc output:\n${out}`);
  return { seconds: Number(m[1]), instantiations: Number(n[1]) };
}

rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
// The declarations as `npm run build` writes them, ECMAScript modules (scripts/build.mjs).
execFileSync(process.execPath, [
  tsc,
  '-p',
  join(root, 'tsconfig.build.json'),
  '--emitDeclarationOnly',
  '--declarationMap',
  'false',
  '--outDir',
  join(dir, 'dist'),
]);
writeFileSync(join(dir, 'dist', 'package.json'), '{ "type": "module" }\n');
const typedFile = join(dir, 'typed.ts');
const untypedFile = join(dir, 'untyped.ts');
writeFileSync(typedFile, source(true));
writeFileSync(untypedFile, source(false));
const typed: number[] = [];
const untyped: number[] = [];
const instantiations: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const run = checkTime(typedFile);
  typed.push(run.seconds);
  instantiations.push(run.instantiations);
  untyped.push(checkTime(untypedFile).seconds);
}
const t = median(typed);
const u = median(untyped);
const { version } = JSON.parse(readFileSync(require.resolve('typescript/package.json'), 'utf8')) as { version: string };
console.log(`bench/types: ${environment()}, TypeScript ${version}; ${GROUPS * PAGES} routes and typed urlFor calls`);
printTable(
  ['program', `tsc check time (median of ${RUNS})`],
  [
    ['typed urlFor calls', `${t.toFixed(2)} s`],
    ['same calls untyped', `${u.toFixed(2)} s`],
    ['cost of the checks', `${(t - u).toFixed(2)} s`],
    ['type instantiations (typed)', String(median(instantiations))],
  ],
);
rmSync(dir, { recursive: true, force: true });
