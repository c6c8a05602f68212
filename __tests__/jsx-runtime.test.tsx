// The tsconfig's jsxImportSource is "pagetree": this file renders through pagetree/jsx-runtime.

import { Fragment, jsx } from '../jsx-runtime';

test('htmx 2 and htmx 4 attributes render as written', async () => {
  const html = await (
    <form
      hx-post="/todos"
      hx-target="#todo-list"
      hx-swap="outerHTML"
      // Names with "::", two colons, or a digit after ":" are not JSX names: spread them.
      {...{ 'hx-on::after-request': 'this.reset()', 'hx-on:htmx:after:request': 'this.reset()' }}
      {...{ 'hx-status:404': 'swap:none' }}
      hx-target:inherited="#main"
      hx-config='{"timeout": 1000}'
    >
      <input name="title" />
    </form>
  );
  expect(html).toBe(
    '<form hx-post="/todos" hx-target="#todo-list" hx-swap="outerHTML" hx-on::after-request="this.reset()" ' +
      'hx-on:htmx:after:request="this.reset()" hx-status:404="swap:none" hx-target:inherited="#main" ' +
      'hx-config="{&#34;timeout&#34;: 1000}"><input name="title"/></form>',
  );
});

test('the runtime is @kitajs/html: children are not escaped unless safe', async () => {
  // Typed `string`: the XSS scanner trusts literal types and would call this `safe` unused.
  const evil: string = '<script>alert(1)</script>';
  expect(await (<p safe>{evil}</p>)).toBe('<p>&lt;script>alert(1)&lt;/script></p>');
  expect(await jsx(Fragment, { children: ['a', 'b'] })).toBe('ab');
});
