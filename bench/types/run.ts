// What the compile-time checks cost on large apps: the type checker's work for typed URLs and ids, at 200, 1,000
// and 2,000 routes, beside Hono RPC's typed URLs on the same routes.
//
//   npm run bench:types                          every size and program, TypeScript 6 (and 7 when installed)
//   SIZES=1000 PROGRAMS=urlfor,hono npm run bench:types
//   npm install --prefix bench/types             adds the TypeScript 7 columns (bench/types/package.json)
//
// apps.ts writes each program: an app of G groups × P pages (every page with a param of its own and its group's,
// one typed call per page; the issue 41 shape); `tsc --extendedDiagnostics` checks it (strict, skipLibCheck) and
// reports instantiations, check time and memory. `lint` is the lint plugin's route tree of the urlfor program
// (lint-program.ts). DISTINCT=1 gives every page a member of its own (no two pages the same type).

import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { environment, setting } from '../lib/main.ts';
import { formatInt, median, printTable } from '../lib/report.ts';
import { appSource, emitDeclarations, shapeOf, type AppKind } from './apps.ts';

type Program = AppKind | 'lint';
const allPrograms: readonly Program[] = ['urlfor', 'tree', 'ids', 'untyped', 'hono', 'lint'];

const sizes = (process.env.SIZES ?? '200,1000,2000').split(',').map(Number);
const programs = (process.env.PROGRAMS?.split(',') ?? allPrograms) as Program[];
for (const p of programs) if (!allPrograms.includes(p)) throw new Error(`PROGRAMS: unknown program ${p}`);
const RUNS = setting('ROUNDS', 1);
const distinct = process.env.DISTINCT === '1';
// NODE_FLAGS="--max-semi-space-size=64": the node flags tsc runs with (to see how much of a check is the GC's).
const nodeFlags = process.env.NODE_FLAGS?.split(/\s+/).filter(Boolean) ?? [];
const dir = join(__dirname, '.generated');
const root = join(__dirname, '..', '..');
const tsc6 = require.resolve('typescript/bin/tsc');
const tsc7 = join(__dirname, 'node_modules', 'typescript7', 'bin', 'tsc');
const compilers = [{ name: 'TS 6', tsc: tsc6 }, ...(existsSync(tsc7) ? [{ name: 'TS 7', tsc: tsc7 }] : [])];

interface Figures {
  instantiations: number;
  /** tsc's "Check time" (wall clock), or the time routeTreeOf takes. */
  seconds: number;
  /** User + system CPU time of the whole run (parse, bind, check): steadier than wall time on a shared machine. */
  cpuSeconds: number;
  memoryKB: number;
  /** The first error tsc reported (Hono's only). */
  error?: string;
}

function check(tsc: string, file: string, allowError: boolean): Figures {
  const args = ['--noEmit', '--extendedDiagnostics', '--ignoreConfig', '--strict', '--skipLibCheck'];
  args.push('--module', 'nodenext', '--target', 'es2022', '--types', 'node', '--rootDir', root, file);
  const run = spawnSync('/usr/bin/time', ['-f', 'cpu %U %S', process.execPath, ...nodeFlags, tsc, ...args], {
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  const out = run.stdout;
  const cpu = /cpu ([\d.]+) ([\d.]+)/.exec(run.stderr);
  // A pagetree program with a type error does not measure what it should: stop. Hono's client type fails to check
  // past some size (TS2859, "Excessive complexity comparing types"): that is its result, noted beside its figures.
  const error = /error (TS\d+)/.exec(out)?.[1];
  if (run.status !== 0 && !(allowError && error)) {
    throw new Error(`tsc ${file} failed:\n${out.split('\n').slice(0, 20).join('\n')}`);
  }
  const figure = (label: string) => {
    const m = new RegExp(`${label}:\\s+([\\d.]+)`).exec(out);
    if (!m) throw new Error(`no "${label}" in tsc output:\n${out}`);
    return Number(m[1]);
  };
  return {
    instantiations: figure('Instantiations'),
    seconds: figure('Check time'),
    cpuSeconds: cpu ? Number(cpu[1]) + Number(cpu[2]) : NaN,
    memoryKB: figure('Memory used'),
    error,
  };
}

function lintProgram(file: string): Figures {
  const script = join(__dirname, 'lint-program.ts');
  const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', script, file], {
    encoding: 'utf8',
    cwd: root,
  });
  return JSON.parse(out) as Figures;
}

function medianOf(runs: readonly Figures[]): Figures {
  return {
    instantiations: median(runs.map((r) => r.instantiations)),
    seconds: median(runs.map((r) => r.seconds)),
    cpuSeconds: median(runs.map((r) => r.cpuSeconds)),
    memoryKB: median(runs.map((r) => r.memoryKB)),
    error: runs.find((r) => r.error)?.error,
  };
}

rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
emitDeclarations(dir);

const versions = compilers.map(({ name, tsc }) => {
  const pkg = join(tsc, '..', '..', 'package.json');
  return `${name} = ${(JSON.parse(readFileSync(pkg, 'utf8')) as { version: string }).version}`;
});
const shapeNote = distinct ? 'every page a type of its own' : 'pages of one type (issue 41)';
console.log(`bench/types: ${environment()}, ${versions.join(', ')}; ${shapeNote}; median of ${RUNS}`);

const rows: string[][] = [];
for (const routes of sizes) {
  const shape = shapeOf(routes, distinct);
  for (const program of programs) {
    const kind = program === 'lint' ? 'urlfor' : program;
    const file = join(dir, `${kind}-${routes}.ts`);
    if (!existsSync(file)) writeFileSync(file, appSource(kind, shape));
    const row = [formatInt(routes), program];
    for (const { tsc } of program === 'lint' ? [compilers[0]!] : compilers) {
      const runs: Figures[] = [];
      for (let i = 0; i < RUNS; i++)
        runs.push(program === 'lint' ? lintProgram(file) : check(tsc, file, program === 'hono'));
      const f = medianOf(runs);
      const seconds = (x: number) => `${x.toFixed(2)} s`;
      const failed = f.error ? ` (${f.error})` : '';
      row.push(
        formatInt(f.instantiations) + failed,
        seconds(f.seconds),
        seconds(f.cpuSeconds),
        `${Math.round(f.memoryKB / 1024)} MB`,
      );
    }
    rows.push(row);
    console.error(`  ${row.join('  ')}`);
  }
}
const header = ['routes', 'program'];
for (const { name } of compilers) {
  header.push(`${name} instantiations`, `${name} check time`, `${name} CPU`, `${name} memory`);
}
printTable(
  header,
  rows.map((r) => [...r, ...Array<string>(header.length - r.length).fill('')]),
);
rmSync(dir, { recursive: true, force: true });
