// What escaping `&` in attribute values costs: bench/e2e's 20-item page (a
// layout, a title, 20 escaped items with links), rendered by @kitajs/html's
// JSX runtime and by pagetree's (which escapes `&` in attribute values before
// kitajs writes them).
//
//   npm run bench:attrs
//
// The same component module is loaded twice: once bound to pagetree's runtime
// (as the tsconfig's jsxImportSource says), once with the runtime swapped for
// kitajs's in the module cache. The two renders must be byte-identical (the
// page has no "&" in an attribute) before anything is timed. Interleaved
// rounds, medians.

import { environment, fail, formatRatio, median, printTable } from '../lib/report';

type PageModule = typeof import('../e2e/page');

const ROUNDS = Number(process.env.ROUNDS ?? 21);
const ROUND_MS = 150;

// CommonJS on purpose: loading one module twice with another runtime needs the require cache.
/* eslint-disable @typescript-eslint/no-require-imports */
function loadPages(): { pagetree: PageModule; kitajs: PageModule } {
  const pagePath = require.resolve('../e2e/page');
  const runtimePath = require.resolve('pagetree/jsx-runtime');
  const pagetree = require(pagePath) as PageModule;
  const saved = require.cache[runtimePath]!;
  require.cache[runtimePath] = { ...saved, exports: require('@kitajs/html/jsx-runtime') } as NodeJS.Module;
  delete require.cache[pagePath];
  const kitajs = require(pagePath) as PageModule;
  require.cache[runtimePath] = saved;
  return { pagetree, kitajs };
}
/* eslint-enable @typescript-eslint/no-require-imports */

function rendersPerSecond(render: () => string): number {
  let n = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ROUND_MS) {
    for (let i = 0; i < 100; i++) render();
    n += 100;
    now = performance.now();
  }
  return (n / (now - start)) * 1000;
}

function main(): void {
  const pages = loadPages();
  const contenders = {
    'full page, kitajs runtime': () => pages.kitajs.fullPage(pages.kitajs.loadList('groceries')),
    'full page, pagetree runtime': () => pages.pagetree.fullPage(pages.pagetree.loadList('groceries')),
    'list partial, kitajs runtime': () => pages.kitajs.partialPage(pages.kitajs.loadList('groceries')),
    'list partial, pagetree runtime': () => pages.pagetree.partialPage(pages.pagetree.loadList('groceries')),
  };
  const names = Object.keys(contenders) as (keyof typeof contenders)[];
  for (let i = 0; i < names.length; i += 2) {
    const [a, b] = [contenders[names[i]!](), contenders[names[i + 1]!]()];
    if (a !== b || a.length < 1000) fail(`${names[i]} and ${names[i + 1]} render different pages`);
  }
  for (const name of names) rendersPerSecond(contenders[name]); // warm up
  const results = new Map(names.map((n) => [n, [] as number[]]));
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 === 0 ? names : [...names].reverse();
    for (const name of order) results.get(name)!.push(rendersPerSecond(contenders[name]));
  }
  console.log(`bench/attrs: ${environment()}; ${ROUNDS} interleaved rounds of ${ROUND_MS} ms, medians`);
  const rows: string[][] = [];
  for (let i = 0; i < names.length; i += 2) {
    const kita = median(results.get(names[i]!)!);
    const ours = median(results.get(names[i + 1]!)!);
    const bytes = String(contenders[names[i]!]().length);
    rows.push([names[i]!, bytes, (1e6 / kita).toFixed(2), '1.00×']);
    rows.push([names[i + 1]!, bytes, (1e6 / ours).toFixed(2), formatRatio(kita / ours)]);
  }
  printTable(['render', 'bytes', 'µs per render', 'time vs kitajs'], rows);
}

main();
