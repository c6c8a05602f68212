// What escaping `&` in attribute values costs. Two pages, each rendered by
// three JSX runtimes:
//
//   - kitajs: @kitajs/html's own runtime (escapes only `"`: lossy);
//   - pagetree: pagetree/jsx-runtime, which writes attributes in one pass
//     escaping `&` and `"` (jsx-runtime/attributes.ts);
//   - kitajs + pre-escape: the design not taken, kitajs behind a pass that
//     escapes `&` first (pre-escape-runtime.ts).
//
// The pages: bench/e2e's 20-item list page (a layout, a title, 20 escaped
// items with links; no `&` in any attribute) and its list partial, and an edit
// form of 20 rows whose values and URLs have `&` and `"` (edit-page.tsx).
//
//   npm run bench:attrs
//
// Each page module is loaded once per runtime (the runtime swapped in the
// module cache). Before anything is timed, the renders must mean the same: the
// e2e pages byte-identical, the edit form with the same text and the same
// attribute values once each runtime's escaping is undone (kitajs's `&#34;`;
// pagetree's `&amp;` and `&#34;`), and pagetree's bytes equal to the pre-escape
// design's. Interleaved rounds (lib/micro.ts), medians; each ratio is the median
// of the per-round ratios to kitajs on the same page.

import { environment, runMain, setting } from '../lib/main.ts';
import { repeat, timeOps } from '../lib/micro.ts';
import { fail, formatRatio, median, medianRatio, printTable } from '../lib/report.ts';

type ListModule = typeof import('../e2e/page.tsx');
type EditModule = typeof import('./edit-page.tsx');

const TIMING = { rounds: setting('ROUNDS', 21), roundMs: 150, warmupMs: 150 };
const RUNTIMES = ['kitajs', 'pagetree', 'kitajs + pre-escape'] as const;
type Runtime = (typeof RUNTIMES)[number];

// CommonJS on purpose: loading one module with another runtime needs the require cache.
/* eslint-disable @typescript-eslint/no-require-imports */
function loadWith<M>(runtime: Runtime, modulePath: string): M {
  const runtimePath = require.resolve('pagetree/jsx-runtime');
  require(runtimePath);
  const saved = require.cache[runtimePath]!;
  if (runtime !== 'pagetree') {
    const exports = require(runtime === 'kitajs' ? '@kitajs/html/jsx-runtime' : './pre-escape-runtime');
    require.cache[runtimePath] = { ...saved, exports } as NodeJS.Module;
  }
  delete require.cache[modulePath];
  try {
    return require(modulePath) as M;
  } finally {
    require.cache[runtimePath] = saved;
    delete require.cache[modulePath];
  }
}
/* eslint-enable @typescript-eslint/no-require-imports */

// The attribute values of a page, unescaped as an HTML parser would for these two escapers.
function attributeValues(html: string, references: RegExp): string[] {
  const decode = (ref: string) => (ref === '&amp;' ? '&' : '"');
  return [...html.matchAll(/ [\w:-]+="([^"]*)"/g)].map((m) => m[1]!.replace(references, decode));
}
const withoutValues = (html: string) => html.replace(/="[^"]*"/g, '=""');

function sameMeaning(kitajs: string, pagetree: string): boolean {
  const a = attributeValues(kitajs, /&#34;/g);
  const b = attributeValues(pagetree, /&#34;|&amp;/g);
  return withoutValues(kitajs) === withoutValues(pagetree) && a.length > 0 && a.join('\n') === b.join('\n');
}

async function main(): Promise<void> {
  const listPath = require.resolve('../e2e/page');
  const editPath = require.resolve('./edit-page');
  const pages: { name: string; byRuntime: Record<Runtime, () => string>; identical: boolean }[] = [];
  const byRuntime = (page: (r: Runtime) => () => string) =>
    Object.fromEntries(RUNTIMES.map((r) => [r, page(r)])) as Record<Runtime, () => string>;
  const lists = byRuntime((r) => {
    const m = loadWith<ListModule>(r, listPath);
    return () => m.fullPage(m.loadList('groceries'));
  });
  const partials = byRuntime((r) => {
    const m = loadWith<ListModule>(r, listPath);
    return () => m.partialPage(m.loadList('groceries'));
  });
  const edits = byRuntime((r) => {
    const m = loadWith<EditModule>(r, editPath);
    return () => m.editPage(m.loadRows());
  });
  pages.push({ name: 'list page (e2e)', byRuntime: lists, identical: true });
  pages.push({ name: 'list partial (e2e)', byRuntime: partials, identical: true });
  pages.push({ name: 'edit form, & and " in attributes', byRuntime: edits, identical: false });

  for (const page of pages) {
    const [kitajs, pagetree, preEscape] = RUNTIMES.map((r) => page.byRuntime[r]());
    if (pagetree!.length < 1000) fail(`${page.name}: only ${pagetree!.length} bytes`);
    if (pagetree !== preEscape) fail(`${page.name}: pagetree and kitajs + pre-escape write different bytes`);
    if (page.identical ? kitajs !== pagetree : kitajs === pagetree || !sameMeaning(kitajs!, pagetree!)) {
      fail(`${page.name}: kitajs and pagetree render pages that differ in meaning`);
    }
  }

  const contenders = pages.flatMap((p) => RUNTIMES.map((r) => ({ page: p.name, runtime: r, render: p.byRuntime[r] })));
  const ops = await timeOps(
    contenders.map((c) => ({ run: repeat(c.render) })),
    TIMING,
  );

  console.log(`bench/attrs: ${environment()}; ${TIMING.rounds} interleaved rounds of ${TIMING.roundMs} ms, medians`);
  // Time against kitajs's on the same page: the ratio of ops/s the other way round.
  const rows = contenders.map((c, i) => {
    const kitajs = ops[i - RUNTIMES.indexOf(c.runtime)]!;
    return [
      c.page,
      c.runtime,
      String(c.render().length),
      (1e6 / median(ops[i]!)).toFixed(2),
      formatRatio(medianRatio(kitajs, ops[i]!)),
    ];
  });
  printTable(['page', 'runtime', 'bytes', 'µs per page', 'time vs kitajs'], rows);
}

runMain(main);
