// The programs bench/types checks: one app of GROUPS × PAGES routes, written once per way of calling it.
//
//   class Page3x4 { page() { return 'p3x4'; } }                       every page has the same members (the
//   class Group3 { p4 = route('/item4/{id4} Page 4', Page3x4); … }    issue 41 shape: to TypeScript they are
//   class App { g3 = route('/group3/{group3}', Group3); … }           one type)
//
//   urlfor    urlFor(Page3x4, { group3: 'g', id4: 4 })  through `interface Register { root: App }`
//   tree      tree.urlFor(Page3x4, { group3: 'g', id4: 4 })
//             (both end with two calls that must not compile, a missing param and one of another route, each
//             marked @ts-expect-error: a check that lets them pass fails the program, issue 41)
//   ids       id(Page3x4.prototype.page); idTarget([Group3, Page3x4, 'page'])
//   untyped   the same app, tree.urlFor on an `as any` tree: the cost of the app without the checks
//   hono      the same routes as Hono sub-apps, one `hc` client `$url()` per page (Hono RPC)
//
// `distinct` gives every page a method of its own (`own3x4()`), so that no two pages are the same type.
//
// The programs import pagetree as an app does, through its declarations, emitted beside them first from the
// sources (emitDeclarations): the package's own name would resolve to dist/, which is only as new as the last build.
// Hono comes from the root devDependencies (the same copy the runtime benchmarks run).

import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** One way of calling the app. */
export type AppKind = 'urlfor' | 'tree' | 'ids' | 'untyped' | 'hono';

/** The size and page shape of an app. */
export interface AppShape {
  groups: number;
  pages: number;
  distinct: boolean;
}

/**
 * The issue 41 sizes: 200 routes = 20 groups × 10 pages, more in groups of 20 pages.
 * @example shapeOf(1000, false) // → { groups: 50, pages: 20, distinct: false }
 */
export function shapeOf(routes: number, distinct: boolean): AppShape {
  const pages = routes <= 200 ? 10 : 20;
  if (routes % pages !== 0) throw new Error(`${routes} routes are not groups of ${pages} pages`);
  return { groups: routes / pages, pages, distinct };
}

/**
 * Emits pagetree's declarations into `dir`/dist, as `npm run build` writes them (ECMAScript modules,
 * scripts/build.mjs). A type error elsewhere in the sources (an edit in progress) does not stop the emit: only
 * missing declarations do.
 * @example emitDeclarations('bench/types/.generated') // then `import … from './dist/core/index.js'`
 */
export function emitDeclarations(dir: string): void {
  const root = join(__dirname, '..', '..');
  const tsc = require.resolve('typescript/bin/tsc');
  const args = ['-p', join(root, 'tsconfig.build.json'), '--emitDeclarationOnly', '--declarationMap', 'false'];
  const emit = spawnSync(process.execPath, [tsc, ...args, '--outDir', join(dir, 'dist')], { encoding: 'utf8' });
  if (!existsSync(join(dir, 'dist', 'core', 'index.d.ts'))) throw new Error(`no declarations emitted:\n${emit.stdout}`);
  if (emit.status !== 0) console.warn(`bench/types: the declarations were emitted with errors:\n${emit.stdout}`);
  writeFileSync(join(dir, 'dist', 'package.json'), '{ "type": "module" }\n');
}

/**
 * The source of one program; pagetree is imported from `./dist/core/index.js` (declarations emitted beside it).
 * @example appSource('tree', { groups: 20, pages: 10, distinct: false }) // → "import { ServeMux, … } …"
 */
export function appSource(kind: AppKind, shape: AppShape): string {
  return (kind === 'hono' ? honoApp(shape) : pagetreeApp(kind, shape)).join('\n') + '\n';
}

function each(shape: AppShape, line: (g: number, p: number) => string): string[] {
  const out: string[] = [];
  for (let g = 0; g < shape.groups; g++) for (let p = 0; p < shape.pages; p++) out.push(line(g, p));
  return out;
}

function pagetreeApp(kind: Exclude<AppKind, 'hono'>, shape: AppShape): string[] {
  const lines = [`import { ServeMux, id, idTarget, mount, route, urlFor } from './dist/core/index.js';`];
  if (kind === 'urlfor') {
    lines.push(`declare module './dist/core/index.js' {`, `  interface Register {`, `    root: App;`, `  }`, `}`);
  }
  for (let g = 0; g < shape.groups; g++) {
    for (let p = 0; p < shape.pages; p++) {
      const own = shape.distinct ? ` own${g}x${p}() { return ${p}; }` : '';
      lines.push(`export class Page${g}x${p} { page() { return 'p${g}x${p}'; }${own} }`);
    }
    lines.push(`export class Group${g} {`);
    for (let p = 0; p < shape.pages; p++) lines.push(`  p${p} = route('/item${p}/{id${p}} Page ${p}', Page${g}x${p});`);
    lines.push(`}`);
  }
  lines.push(`export class App {`);
  for (let g = 0; g < shape.groups; g++) lines.push(`  g${g} = route('/group${g}/{group${g}}', Group${g});`);
  lines.push(`}`);
  lines.push(`export const tree = mount(new ServeMux(), App)${kind === 'untyped' ? ' as any' : ''};`);
  const args = (g: number, p: number) => `Page${g}x${p}, { group${g}: 'g', id${p}: ${p} }`;
  if (kind === 'urlfor') lines.push(...each(shape, (g, p) => `urlFor(${args(g, p)});`));
  if (kind === 'tree' || kind === 'untyped') lines.push(...each(shape, (g, p) => `tree.urlFor(${args(g, p)});`));
  if (kind === 'urlfor' || kind === 'tree') {
    const call = kind === 'tree' ? 'tree.urlFor' : 'urlFor';
    lines.push(
      `// @ts-expect-error a missing param`,
      `${call}(Page0x0, { group0: 'g' });`,
      `// @ts-expect-error a param of another route`,
      `${call}(Page0x0, { group0: 'g', id0: 0, id1: 1 });`,
    );
  }
  if (kind === 'ids') {
    lines.push(
      ...each(shape, (g, p) => `id(Page${g}x${p}.prototype.page);\nidTarget([Group${g}, Page${g}x${p}, 'page']);`),
    );
  }
  return lines;
}

// Hono's own way to a typed URL: each group a sub-app of chained routes, mounted with .route(), and the client
// built from the app's type; `$url()` checks the params as urlFor does.
function honoApp(shape: AppShape): string[] {
  const lines = [`import { Hono } from 'hono';`, `import { hc } from 'hono/client';`];
  for (let g = 0; g < shape.groups; g++) {
    lines.push(`const group${g} = new Hono()`);
    for (let p = 0; p < shape.pages; p++) lines.push(`  .get('/item${p}/:id${p}', (c) => c.text('p${g}x${p}'))`);
    lines.push(`;`);
  }
  lines.push(`const app = new Hono()`);
  for (let g = 0; g < shape.groups; g++) lines.push(`  .route('/group${g}/:group${g}', group${g})`);
  lines.push(`;`, `export const client = hc<typeof app>('/');`);
  lines.push(
    ...each(
      shape,
      (g, p) =>
        `client.group${g}[':group${g}'].item${p}[':id${p}'].$url({ param: { group${g}: 'g', id${p}: '${p}' } });`,
    ),
  );
  return lines;
}
