// What urlFor and id() cost per call, against rendering a small page.
//
//   npm run bench:urlfor
//
// The page: a props+page route rendering a 20-item list through the whole pipeline (mux match, props, JSX, the
// response object). The calls: tree.urlFor with a param, with a chain and a query template, and tree.id. Timed in
// interleaved rounds (lib/micro.ts); "calls per page render" is the median of the per-round ratios to the render.

import { ServeMux, mount, route, type PageRequest } from '../../core/index.ts';
import { requestFacts } from '../../core/kernel/adapter.ts';
import { liteData } from '../../core/kernel/answer.ts';
import { environment, runMain, setting } from '../lib/main.ts';
import { repeatAsync, timeOps } from '../lib/micro.ts';
import { fail, formatInt, median, medianRatio, printTable } from '../lib/report.ts';

const TIMING = { rounds: setting('ROUNDS', 15), roundMs: 100, warmupMs: 100 };

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
  return Object.assign(req, {
    [requestFacts]: { target: { host: 'localhost', path: '/lists/groceries', query: '' }, client: '' },
  });
})();

const contenders: Record<string, () => unknown> = {
  // As the node adapter sends it: the LiteResponse's string, no Response body stream.
  'render the 20-item page': async () => liteData(await mux.serveHTTP(pageRequest))!.body,
  'tree.urlFor(UserPage, { userId })': () => tree.urlFor(UserPage, { userId: 7 }),
  "tree.urlFor([ListPage, '?q={q}'], …)": () => tree.urlFor([ListPage, '?q={q}'], { listId: 'a b', q: 'x&y' }),
  'tree.id(ListPage.prototype.itemList)': () => tree.id(ListPage.prototype.itemList),
};

async function main() {
  // Check first: the page renders what we think, and the URLs are right.
  const html = liteData(await mux.serveHTTP(pageRequest))!.body as string;
  if (!html.includes('<h1>groceries</h1>') || (html.match(/<li>/g) ?? []).length !== 20) fail('bad page');
  if (tree.urlFor(UserPage, { userId: 7 }) !== '/admin/users/7') fail('bad url');
  const names = Object.keys(contenders);
  // Every call awaited, the render's and the others', so that the loop around them costs the same.
  const ops = await timeOps(
    Object.values(contenders).map((fn) => ({ run: repeatAsync(fn) })),
    TIMING,
  );
  console.log(`bench/urlfor: ${environment()}; ${TIMING.rounds} interleaved rounds of ${TIMING.roundMs} ms, medians`);
  printTable(
    ['operation', 'ops/s', 'µs per op', 'calls per page render'],
    names.map((name, i) => {
      const m = median(ops[i]!);
      return [name, formatInt(m), (1e6 / m).toFixed(2), medianRatio(ops[i]!, ops[0]!).toFixed(1)];
    }),
  );
}

runMain(main);
