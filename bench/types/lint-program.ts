// The lint plugin's share of a program: the route tree its rules read (lint/route-tree.ts), built from the
// TypeScript program of one app as typescript-eslint would hand it over. Run by run.ts in a child of its own:
//
//   node --expose-gc --import tsx bench/types/lint-program.ts <app.ts>
//   → {"routes":1050,"instantiations":0,"seconds":0.41,"cpuSeconds":2.9,"memoryKB":301234}
//
// `seconds` is the time routeTreeOf takes (the type checker's work on the app happens there, lazily), `cpuSeconds`
// the process's CPU time to then (parsing and binding the program too); memory is the heap used after it, with a
// full GC first, as tsc's "Memory used" is the heap.

import ts from 'typescript';
import { routeTreeOf } from '../../lint/route-tree.ts';

const file = process.argv[2];
if (!file) throw new Error('usage: lint-program.ts <app.ts>');
const program = ts.createProgram([file], {
  strict: true,
  skipLibCheck: true,
  noEmit: true,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  types: ['node'],
});
const start = performance.now();
const tree = routeTreeOf(program);
const seconds = (performance.now() - start) / 1000;
const cpu = process.cpuUsage();
globalThis.gc?.();
console.log(
  JSON.stringify({
    routes: tree.routes.length,
    instantiations: program.getInstantiationCount(),
    seconds,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    memoryKB: Math.round(process.memoryUsage().heapUsed / 1024),
  }),
);
