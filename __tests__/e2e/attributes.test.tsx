// attribute-values-round-trip: what a page puts in an attribute is what the browser reads back
// (issue 12: @kitajs/html escaped only `"`, so `value="&lt;b&gt;"` showed `<b>` in an edit form).

import { ServeMux, mount, route } from '../../core/index.ts';
import { useChromium } from '../support/chromium.ts';
import { useAppServer } from '../support/app-server.ts';

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
const mux = new ServeMux();
mount(mux, App);
const app = useAppServer(mux);

test('attribute-values-round-trip in Chromium: value, title and data-* read back exactly', async () => {
  const page = await chromium.browser.newPage();
  await page.goto(app.base + '/');
  const seen = await page.$$eval('input', (inputs) =>
    inputs.map((i) => [(i as HTMLInputElement).value, i.title, i.getAttribute('data-raw')]),
  );
  expect(seen).toEqual(values.map((v) => [v, v, v]));
  const link = await page.$eval('a', (a) => [a.getAttribute('href'), a.className, a.getAttribute('style')]);
  expect(link).toEqual(['/search?q=a&b=c&amp=1', 'one two&three', 'content:"&";']);
  await page.close();
});
