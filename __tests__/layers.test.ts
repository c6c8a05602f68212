// The folders of core/ are layers, and each imports only the layers below it (issue 13):
//
//   kernel/ requests, answers, the logger,     → nothing outside kernel/
//           the adapter contract
//   mux/   Go's ServeMux                       → kernel/
//   http/  static files, cross-origin, bodies  → mux/, kernel/, errors.ts
//   page/  route tags, page tree, pipeline     → http/, mux/, kernel/, errors.ts
//   node/  the node:http adapter               → http/, mux/, kernel/, errors.ts
//   engines/ Postgres and Redis (pagetree/postgres, pagetree/redis) → page/, http/, mux/, kernel/, errors.ts
//   index.ts, errors.ts                        → anything
//
// and the lint plugin loads no runtime: from core/ it imports only the route grammar (the tag, and the mux's
// pattern parser with its error class: both import nothing else) and the names.

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
  kernel: ['kernel'],
  mux: ['mux', 'kernel'],
  http: ['http', 'mux', 'kernel', 'core/errors.ts'],
  page: ['page', 'http', 'mux', 'kernel', 'core/errors.ts'],
  node: ['node', 'http', 'mux', 'kernel', 'core/errors.ts'],
  engines: ['engines', 'page', 'http', 'mux', 'kernel', 'core/errors.ts'],
};

const coreFiles = sources('core').filter((f) => layerOf(f) in below);

// A new folder (another adapter, another engine) must say where it stands, or its imports go unchecked.
test('every folder of core/ is a layer of the table above', () => {
  const folders = readdirSync(join(root, 'core')).filter((name) => statSync(join(root, 'core', name)).isDirectory());
  expect(folders.filter((name) => !(name in below))).toEqual([]);
});

test.each(coreFiles)('%s imports only the layers below it', (file) => {
  const allowed = below[layerOf(file)]!;
  for (const target of imports(file).local)
    expect([file, target, allowed.includes(layerOf(target))]).toEqual([file, target, true]);
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
  expect(core).toEqual(['core/mux/errors.ts', 'core/mux/pattern.ts', 'core/page/names.ts', 'core/page/route.ts']);
});
