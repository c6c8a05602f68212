// attribute-values-round-trip: what a page puts in an attribute is what the browser reads back
// (issue 12: @kitajs/html escaped only `"`, so `value="&lt;b&gt;"` showed `<b>` in an edit form).

import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ServeMux, mount, route } from '../../core/index.ts';
import { serve, shutdown } from '../../core/node/index.ts';
import { useChromium } from '../support/chromium.ts';

jest.setTimeout(60_000);

const values = [
  '&lt;b&gt;bold&lt;/b&gt;',
  'Tom & Jerry',
  '&amp;',
  '&#34;',
  '"quoted" and \'single\'',
  '<script>alert(1)</script>',
  'a&b=c&d',
  '&',
  '&&&;;',
  '&notanentity;',
  '&copy &copy; &#169;',
  'ünïcødé 𝄞 & more',
];

class Form {
  page() {
    return (
      <form>
        {values.map((v, i) => (
          <input name={`f${i}`} value={v} title={v} data-raw={v} />
        ))}
        <a href={'/search?q=a&b=c&amp=1'} class={['one', 'two&three']} style={{ content: '"&"' }}>
          link
        </a>
      </form>
    );
  }
}
class App {
  form = route('GET /{$}', Form);
}

const chromium = useChromium();
let server: Server;
let base: string;
beforeAll(async () => {
  const mux = new ServeMux();
  mount(mux, App);
  server = serve(mux, { port: 0, hostname: '127.0.0.1', handleSignals: false, onListen: () => {} });
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await shutdown(server, 1000);
});

test('attribute-values-round-trip in Chromium: value, title and data-* read back exactly', async () => {
  const page = await chromium.browser.newPage();
  await page.goto(base + '/');
  const seen = await page.$$eval('input', (inputs) =>
    inputs.map((i) => [(i as HTMLInputElement).value, i.title, i.getAttribute('data-raw')]),
  );
  expect(seen).toEqual(values.map((v) => [v, v, v]));
  const link = await page.$eval('a', (a) => [a.getAttribute('href'), a.className, a.getAttribute('style')]);
  expect(link).toEqual(['/search?q=a&b=c&amp=1', 'one two&three', 'content:"&";']);
  await page.close();
});
