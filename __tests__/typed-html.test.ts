// pagetree renders pages whose components come from any string JSX library: here typed-html.
// Its components live in their own TypeScript program (see typed-html/tsconfig.json), so they are
// loaded with require() and typed here by hand.

import { ServeMux, id, mount, route, type PageRequest, type RenderTarget } from '../core/index.ts';
import { fetchPage, htmx2 } from './support/http.ts';

interface Item {
  name: string;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports -- an import would pull typed-html's global JSX into this program
const components = require('./typed-html/components.tsx') as {
  itemList(items: Item[]): string;
  layout(title: string, body: string): string;
};

class ItemsPage {
  props(_req: PageRequest, target: RenderTarget) {
    return { items: [{ name: 'a & b' }, { name: '<i>x</i>' }], partial: target.partial };
  }
  page(props: { items: Item[] }) {
    return components.layout('Items', `<div id="${id(this.itemList)}">${this.itemList(props)}</div>`);
  }
  itemList(props: { items: Item[] }) {
    return components.itemList(props.items);
  }
}

class App {
  items = route('/items', ItemsPage);
}

const mux = new ServeMux();
mount(mux, App);

test('a full page from typed-html components', async () => {
  const r = await fetchPage(mux, '/items');
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(r.body).toBe(
    '<html><body><h1>Items</h1><div id="items-item-list"><ul class="items">' +
      '<li>a &#38; b</li><li>&#60;i&#62;x&#60;/i&#62;</li></ul></div></body></html>',
  );
});

test('a partial from a typed-html component', async () => {
  const r = await fetchPage(mux, '/items', { headers: htmx2('items-item-list') });
  expect(r.body).toBe('<ul class="items"><li>a &#38; b</li><li>&#60;i&#62;x&#60;/i&#62;</li></ul>');
});
