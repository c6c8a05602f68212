// How long mounting 1,000 routes takes, and the memory each mounted route holds.
//
//   npm run bench:mount     (runs node with --expose-gc)
//
// The tree: 50 groups with a param each, 20 pages per group with a param of
// their own and two partials (1,000 registered patterns), built as classes at
// run time. Each round mounts a fresh copy on a fresh ServeMux; median of 15 (ROUNDS) after 3 untimed.
// Memory: heap used after mounting 5 trees, minus before, over 5,000 routes,
// with a full GC around each measurement.

import { ServeMux, mount, route } from '../../core/index.ts';
import { environment, setting } from '../lib/main.ts';
import { median, printTable } from '../lib/report.ts';

const GROUPS = 50;
const PAGES = 20;
const ROUNDS = setting('ROUNDS', 15);

function makeTree(): new () => object {
  const groups: Record<string, unknown> = {};
  for (let g = 0; g < GROUPS; g++) {
    const fields: Record<string, unknown> = {};
    for (let p = 0; p < PAGES; p++) {
      class Page {
        props() {
          return { p };
        }
        page() {
          return `<main id="${p}"></main>`;
        }
        list() {
          return '<ul></ul>';
        }
        summary() {
          return '<p></p>';
        }
      }
      fields[`page${p}`] = route(`/item${p}/{id${p}} Page ${p}`, Page);
    }
    const Group = class {
      constructor() {
        Object.assign(this, fields);
      }
    };
    Object.defineProperty(Group, 'name', { value: `Group${g}` });
    groups[`group${g}`] = route(`/group${g}/{group${g}}`, Group);
  }
  return class App {
    constructor() {
      Object.assign(this, groups);
    }
  };
}

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc (npm run bench:mount does)');

const times: number[] = [];
for (let r = 0; r < ROUNDS + 3; r++) {
  const App = makeTree();
  const mux = new ServeMux();
  gc(); // the previous round's garbage is not this round's cost
  const start = performance.now();
  const tree = mount(mux, App);
  const ms = performance.now() - start;
  if (tree.routes().length !== GROUPS * PAGES) throw new Error(`mounted ${tree.routes().length} routes`);
  if (r >= 3) times.push(ms); // the first rounds warm the JIT
}

const trees: unknown[] = [];
const apps = Array.from({ length: 5 }, makeTree);
gc();
const before = process.memoryUsage().heapUsed;
for (const App of apps) trees.push(mount(new ServeMux(), App));
gc();
const after = process.memoryUsage().heapUsed;
const perRoute = (after - before) / (5 * GROUPS * PAGES);

const t = median(times);
console.log(`bench/mount: ${environment()}; ${GROUPS * PAGES} routes, ${ROUNDS} rounds after 3 warm-up, medians`);
printTable(
  ['measure', 'value'],
  [
    ['mount 1,000 routes', `${t.toFixed(1)} ms (${((t / 50) * 100).toFixed(0)}% of the 50 ms goal)`],
    ['per route', `${((t / (GROUPS * PAGES)) * 1000).toFixed(1)} µs`],
    ['heap per mounted route', `${(perRoute / 1024).toFixed(2)} KiB`],
  ],
);
console.log(`(${trees.length} trees kept alive for the memory measurement)`);
