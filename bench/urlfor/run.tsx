// What urlFor and id() cost per call, against rendering a small page.
//
//   npm run bench:urlfor
//
// The page: a props+page route rendering a 20-item list through the whole
// pipeline (mux match, props, JSX, the response object). The calls:
// tree.urlFor with a param, with a chain and a query template, and tree.id.
// Interleaved rounds; medians; "page / call" is how many calls cost one render.

import { ServeMux, mount, route, type PageRequest } from '../../core/index.ts';
import { kTarget } from '../../core/mux/request.ts';
import { liteData } from '../../core/mux/response.ts';
import { environment, formatInt, median, printTable } from '../lib/report.ts';

const ROUNDS = 15;
const ROUND_MS = 100;

interface Item {
  id: number;
  title: string;
}
const items: Item[] = Array.from({ length: 20 }, (_, i) => ({ id: i, title: `Item number ${i} <b>` }));

class ListPage {
  props(req: PageRequest) {
    return { items, q: req.pathValue('listId') };
  }
  page(props: { items: Item[]; q: string }) {
    return (
      <main>
        <h1 safe>{props.q}</h1>
        <ul>
          {props.items.map((i) => (
            <li>
              <a href={'#' + String(i.id)} safe>
                {i.title}
              </a>
            </li>
          ))}
        </ul>
      </main>
    );
  }
  itemList() {
    return '';
  }
}
class UserPage {
  page() {
    return '';
  }
}
class Admin {
  user = route('/users/{userId}', UserPage);
}
class App {
  list = route('/lists/{listId}', ListPage);
  admin = route('/admin', Admin);
}

const mux = new ServeMux();
const tree = mount(mux, App);
const pageRequest = (() => {
  const req = Object.create(Request.prototype) as Request;
  Object.defineProperty(req, 'method', { value: 'GET' });
  Object.defineProperty(req, 'headers', { value: new Headers() });
  return Object.assign(req, { [kTarget]: { host: 'localhost', path: '/lists/groceries', query: '' } });
})();

const contenders: Record<string, () => unknown> = {
  // As the node adapter sends it: the LiteResponse's string, no Response body stream.
  'render the 20-item page': async () => liteData(await mux.serveHTTP(pageRequest))!.body,
  'tree.urlFor(UserPage, { userId })': () => tree.urlFor(UserPage, { userId: 7 }),
  "tree.urlFor([ListPage, '?q={q}'], …)": () => tree.urlFor([ListPage, '?q={q}'], { listId: 'a b', q: 'x&y' }),
  'tree.id(ListPage.prototype.itemList)': () => tree.id(ListPage.prototype.itemList),
};

async function opsPerSecond(fn: () => unknown): Promise<number> {
  let n = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ROUND_MS) {
    for (let i = 0; i < 50; i++) await fn();
    n += 50;
    now = performance.now();
  }
  return (n / (now - start)) * 1000;
}

async function main() {
  // Check first: the page renders what we think, and the URLs are right.
  const html = liteData(await mux.serveHTTP(pageRequest))!.body as string;
  if (!html.includes('<h1>groceries</h1>') || (html.match(/<li>/g) ?? []).length !== 20) throw new Error('bad page');
  if (tree.urlFor(UserPage, { userId: 7 }) !== '/admin/users/7') throw new Error('bad url');
  for (const fn of Object.values(contenders)) await opsPerSecond(fn); // warm up
  const results = new Map<string, number[]>(Object.keys(contenders).map((k) => [k, []]));
  for (let r = 0; r < ROUNDS; r++) {
    for (const [name, fn] of Object.entries(contenders)) results.get(name)!.push(await opsPerSecond(fn));
  }
  const page = median(results.get('render the 20-item page')!);
  console.log(`bench/urlfor: ${environment()}; ${ROUNDS} interleaved rounds of ${ROUND_MS} ms, medians`);
  printTable(
    ['operation', 'ops/s', 'µs per op', 'calls per page render'],
    [...results].map(([name, xs]) => {
      const ops = median(xs);
      return [name, formatInt(ops), (1e6 / ops).toFixed(2), (ops / page).toFixed(1)];
    }),
  );
}

void main();
