// One page for htmx 2 and htmx 4 (issue 45.17), as docs/htmx.md's "htmx 2 and htmx 4" says to write it, in Chromium
// with the real htmx of each version:
//   - inheritance: htmx 2 inherits a parent's hx-target, htmx 4 only its hx-target:inherited (or every attribute
//     when its config says implicitInheritance); a parent that writes both, or the config, works on both;
//   - hx-on event names: htmx 2 fires htmx:after-request, htmx 4 htmx:after:request; an element that writes both
//     attributes runs one of them on each version, once.

import { mount, route, ServeMux, type PageRequest } from '../../core/index.ts';
import { HtmxConfig } from '../../core/htmx/index.ts';
import { poll, useChromium } from '../support/chromium.ts';
import { useAppServer } from '../support/app-server.ts';

jest.setTimeout(60_000);

type Inherit = 'plain' | 'both' | 'config';

// The list's buttons take their target from the list: written as htmx 2 reads it (plain), with htmx 4's
// :inherited form beside it (both), or plain with htmx 4 told to inherit as htmx 2 does (config).
class Home {
  props(req: PageRequest) {
    const q = new URL(req.url).searchParams;
    return { htmx: q.get('htmx') === '2' ? '2' : '4', inherit: (q.get('inherit') ?? 'plain') as Inherit };
  }
  page(props: { htmx: string; inherit: Inherit }) {
    const config = props.inherit === 'config' ? <HtmxConfig config={{ implicitInheritance: true }} /> : '';
    const list =
      props.inherit === 'both' ? (
        <ul hx-target="#out" hx-target:inherited="#out">
          {this.item()}
        </ul>
      ) : (
        <ul hx-target="#out">{this.item()}</ul>
      );
    return (
      '<!doctype html>' +
      (
        <html>
          <head>
            {config}
            <script>{"function log(name) { document.getElementById('log').textContent += name + ' '; }"}</script>
            <script src={`/htmx.js?v=${props.htmx}`}></script>
          </head>
          <body>
            {list}
            <p id="out"></p>
            <p id="log"></p>
          </body>
        </html>
      )
    );
  }
  item() {
    // JSX takes one colon in a name: hx-on::… is spread.
    const events = { 'hx-on::after-request': "log('after-request')", 'hx-on::after:request': "log('after:request')" };
    return (
      <li>
        <button hx-get="/hello" {...events}>
          Load
        </button>
      </li>
    );
  }
}

class Hello {
  page() {
    return <b>hello</b>;
  }
}

class App {
  home = route('GET /{$}', Home);
  hello = route('GET /hello', Hello);
}

const chromium = useChromium();
const mux = new ServeMux();
mount(mux, App);
const app = useAppServer(mux);

// Where the answer went (#out, or the button itself: htmx's default target is the element that asked), and the
// hx-on handlers that ran.
const cases: { htmx: string; inherit: Inherit; out: string; button: string; log: string }[] = [
  { htmx: '2', inherit: 'plain', out: 'hello', button: 'Load', log: 'after-request' },
  { htmx: '4', inherit: 'plain', out: '', button: 'hello', log: 'after:request' },
  { htmx: '2', inherit: 'both', out: 'hello', button: 'Load', log: 'after-request' },
  { htmx: '4', inherit: 'both', out: 'hello', button: 'Load', log: 'after:request' },
  { htmx: '2', inherit: 'config', out: 'hello', button: 'Load', log: 'after-request' },
  { htmx: '4', inherit: 'config', out: 'hello', button: 'Load', log: 'after:request' },
];

test.each(cases)(
  'htmx $htmx, inheritance written $inherit: the answer goes to "$out"/"$button", hx-on ran $log',
  async ({ htmx, inherit, out, button, log }) => {
    const page = await chromium.browser.newPage();
    await page.goto(`${app.base}/?htmx=${htmx}&inherit=${inherit}`);
    await page.locator('button').click();
    // Until the answer is swapped in somewhere and a handler has run (htmx 4 fires after:request before its swap).
    const seen = await poll(
      async () => ({
        out: await page.locator('#out').textContent(),
        button: await page.locator('button').textContent(),
        log: (await page.locator('#log').textContent())?.trim(),
      }),
      (s) => s.log !== '' && (s.out !== '' || s.button !== 'Load'),
    );
    expect(seen).toEqual({ out, button, log });
    await page.close();
  },
);
