// core/ is organised by feature (issue 42): each folder is one feature, and it imports only the features listed for
// it below, which never reach back to it. Read bottom-up, the table is the order a newcomer can learn core in:
//
//   kernel/   requests, answers, the logger, the adapter contract, byte helpers   → nothing outside kernel/
//   mux/      Go's ServeMux                                                        → kernel/
//   compress/ compressed answers (negotiation, streaming compressor)               → kernel/
//   static/   static files, embedding, sendFile, conditional requests              → compress/, kernel/
//   forms/    request bodies and their limits, parseForm, multipart                → kernel/, errors.ts
//   tree/     the page tree: route tags, collecting, page nodes, ids, urlFor       → mux/, kernel/, errors.ts
//   request/  the current request: what was asked (context, htmx details, target) → tree/, kernel/, errors.ts
//   observe/  tracing, Server-Timing, the access log                               → request/, tree/, kernel/
//   htmx/     htmx response helpers, regions, the request builder, htmx's config   → request/, tree/, kernel/
//   live/     event streams, sockets, the hubs and their brokers, live reload     → request/, tree/, forms/, mux/,
//                                                                                      kernel/
//   pipeline/ the page step: dispatch, answers, error pages, streaming             → live/ htmx/ observe/ request/ tree/
//                                                                                      forms/ compress/ mux/ kernel/ errors.ts
//   auth/     cookies, sessions, login, passwords, throttle, cross-origin checks   → pipeline/ and below
//   app/      mount: a page class and its options become a tree on a mux          → every feature above but live/
//   node/     the node:http adapter                                                → pagetree/adapter (adapter.ts),
//                                                                                      and ServeMux from mux/
//   bun/      Bun.serve for a mux (pagetree/bun), its WebSockets                   → pagetree/adapter, kernel/ (fetch answer)
//   deno/     Deno.serve for a mux (pagetree/deno), its WebSockets                 → pagetree/adapter, kernel/ (fetch answer)
//   cloudflare/ socket routes in a Durable Object, the Worker (pagetree/cloudflare) → pagetree/adapter, kernel/
//   engines/  Postgres and Redis (pagetree/postgres, pagetree/redis)               → auth/, live/, kernel/
//   bin/      the CLIs (pagetree-dev, pagetree-embed)                              → static/
//   errors.ts the error classes                                                    → kernel/, mux/
//   index.ts, adapter.ts, testing.ts: the entries                                  → anything
//
// No file of core/ is part of an import circle, type-only imports included. And the lint plugin loads no runtime:
// from core/ it imports only the route grammar (the tag, and the mux's pattern parser with its error class: both import
// nothing else) and the names.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(__dirname, '..');

function sources(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** The repository paths a source file imports (relative imports only), and the bare specifiers. */
function imports(file: string): { local: string[]; bare: string[] } {
  const text = readFileSync(join(root, file), 'utf8');
  const specs = [...text.matchAll(/^(?:import|export)\s[^;]*?from\s+'([^']+)'/gms)].map((m) => m[1]!);
  return {
    local: specs.filter((s) => s.startsWith('.')).map((s) => relative(root, resolve(root, dirname(file), s))),
    bare: specs.filter((s) => !s.startsWith('.')),
  };
}

function layerOf(path: string): string {
  const parts = path.split('/');
  return parts.length > 2 && parts[0] === 'core' ? parts[1]! : path;
}

const below: Record<string, string[]> = {
  kernel: [],
  mux: ['kernel'],
  compress: ['kernel'],
  static: ['compress', 'kernel'],
  forms: ['kernel', 'core/errors.ts'],
  live: ['request', 'tree', 'forms', 'mux', 'kernel'],
  tree: ['mux', 'kernel', 'core/errors.ts'],
  request: ['tree', 'kernel', 'core/errors.ts'],
  observe: ['request', 'tree', 'kernel'],
  htmx: ['request', 'tree', 'kernel', 'core/errors.ts'],
  pipeline: ['live', 'htmx', 'observe', 'request', 'tree', 'forms', 'compress', 'mux', 'kernel', 'core/errors.ts'],
  auth: ['pipeline', 'htmx', 'observe', 'request', 'tree', 'forms', 'compress', 'mux', 'kernel', 'core/errors.ts'],
  app: [
    'auth',
    'pipeline',
    'htmx',
    'observe',
    'request',
    'tree',
    'forms',
    'static',
    'compress',
    'mux',
    'kernel',
    'core/errors.ts',
  ],
  node: ['core/adapter.ts', 'mux'],
  bun: ['core/adapter.ts', 'kernel'],
  deno: ['core/adapter.ts', 'kernel'],
  cloudflare: ['core/adapter.ts', 'kernel'],
  engines: ['auth', 'live', 'kernel'],
  bin: ['static'],
  'core/errors.ts': ['kernel', 'mux'],
};

const coreFiles = sources('core').filter((f) => layerOf(f) in below);
const entries = ['core/index.ts', 'core/adapter.ts', 'core/testing.ts'];

// A new folder (another adapter, another engine) must say where it stands, or its imports go unchecked.
test('every folder and file of core/ is a feature of the table above, or an entry', () => {
  const names = readdirSync(join(root, 'core')).map((name) =>
    statSync(join(root, 'core', name)).isDirectory() ? name : `core/${name}`,
  );
  expect(names.filter((name) => !(name in below) && !entries.includes(name))).toEqual([]);
});

test.each(coreFiles)('%s imports only the layers below it', (file) => {
  const allowed = [layerOf(file), ...below[layerOf(file)]!];
  for (const target of imports(file).local)
    expect([file, target, allowed.includes(layerOf(target))]).toEqual([file, target, true]);
});

// Tarjan's strongly connected components over every import of core/ (type-only ones too): a component of more than one
// file is a circle.
test('no file of core/ is part of an import circle', () => {
  const graph = new Map(sources('core').map((f) => [f, imports(f).local.filter((t) => t.startsWith('core/'))]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const circles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (stack.includes(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let top: string;
    do component.push((top = stack.pop()!));
    while (top !== file);
    if (component.length > 1) circles.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  expect(circles).toEqual([]);
});

// The node adapter is written as any adapter can be (issue 42): with what pagetree/adapter offers, and ServeMux, a name
// of the root entry, from its own file (the root entry would load every feature into the adapter).
test('node/ imports only pagetree/adapter (and ServeMux from its file)', () => {
  const outside = sources('core/node').flatMap((file) =>
    [...readFileSync(join(root, file), 'utf8').matchAll(/^(?:import|export)\s([^;]*?)\s*from\s+'(\.[^']+)'/gms)]
      .map((m) => [file, m[1]!.replace(/\s+/g, ' '), relative(root, resolve(root, dirname(file), m[2]!))])
      .filter(([, , target]) => !target!.startsWith('core/node/')),
  );
  expect(outside.length).toBeGreaterThan(0);
  const allowed = ([, names, target]: string[]) =>
    target === 'core/adapter.ts' || (target === 'core/mux/serve-mux.ts' && /^(type )?\{ ServeMux \}$/.test(names!));
  expect(outside.filter((row) => !allowed(row))).toEqual([]);
});

test('core/kernel and core/mux import no package and no Node module', () => {
  for (const file of coreFiles.filter((f) => f.startsWith('core/mux/') || f.startsWith('core/kernel/')))
    expect([file, imports(file).bare]).toEqual([file, []]);
});

test('the lint plugin imports only runtime-free modules of core/', () => {
  const reached = new Set<string>();
  const visit = (file: string) => {
    for (const target of imports(file).local) {
      if (reached.has(target)) continue;
      reached.add(target);
      visit(target);
    }
  };
  for (const file of sources('lint')) visit(file);
  const core = [...reached].filter((f) => f.startsWith('core/')).sort();
  expect(core).toEqual(['core/mux/errors.ts', 'core/mux/pattern.ts', 'core/tree/names.ts', 'core/tree/route.ts']);
});
