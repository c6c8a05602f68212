// Docs that misled a reader who followed them (issue 45.4–45.7), each checked where it said the wrong thing. The
// snippets compile (__tests__/package/docs.test.ts); this checks what they say and, for the not-found page, what it
// does.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { htmxDetails, htmxRequest, mount, renderComponent, route, ServeMux } from '../../core/index.ts';
import lintPlugin from '../../lint/index.ts';

const doc = (name: string) => readFileSync(join(__dirname, '../../docs', name), 'utf8');

// The block of `doc` that starts at the fence line containing `opening`.
function block(text: string, opening: string): string {
  const start = text.indexOf(opening);
  if (start === -1) throw new Error(`no block ${opening}`);
  return text.slice(start, text.indexOf('\n```\n', start));
}

test.each<[string, string, string, RegExp[], RegExp[]]>([
  [
    'auth.md: the login snippet checks ADMIN_PASSWORD before hashing it, and shows a logout',
    'auth.md',
    '```tsx title="src/login.tsx"',
    [
      /if \(!adminPassword\) throw new Error\('set ADMIN_PASSWORD/,
      /class LogoutPage/,
      /action=\{urlFor\(LogoutPage\)\}/,
    ],
    [/ADMIN_PASSWORD!/],
  ],
  [
    'auth.md: the app routes POST /logout',
    'auth.md',
    '```tsx title="src/app.tsx"',
    [/logout = route\('POST \/logout', LogoutPage\)/],
    [],
  ],
  [
    'errors-and-middleware.md: the not-found page asks swapsIntoElement',
    'errors-and-middleware.md',
    'class NotFoundPage {',
    [/if \(htmxDetails\(\)\.swapsIntoElement\) return renderComponent/],
    [/isHtmx &&/],
  ],
  [
    'htmx-regions.md: the row deletion swaps with delete',
    'htmx-regions.md',
    '```tsx fragment="ContactsPage"',
    [/hx-target="closest tr" hx-swap="delete swap:1s"/],
    [/outerHTML/],
  ],
])('%s', (_name, file, opening, present, absent) => {
  const text = block(doc(file), opening);
  for (const re of present) expect(text).toMatch(re);
  for (const re of absent) expect(text).not.toMatch(re);
});

// As many rules as configs.recommended turns on, in words, as lint.md writes them.
const recommended = Object.keys(lintPlugin.configs.recommended.rules ?? {}).length;
const count = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven'][recommended]!;

test.each<[string, string, RegExp, RegExp]>([
  [
    `lint.md counts the rules configs.recommended turns on (${recommended})`,
    'lint.md',
    new RegExp(`\`configs\\.recommended\` turns the ${count} rules on`),
    /both rules/,
  ],
  [
    'htmx-regions.md no longer says outerHTML works as written on both',
    'htmx-regions.md',
    /leaves that empty `<template>`/,
    /works as written on both/,
  ],
  [
    'jsx.md names the rule that catches hx-gett',
    'jsx.md',
    /misspelled `hx-gett` compiles;[^]*\[`htmx-attr`\]\(lint\.md#htmx-attr\)/,
    /^$/,
  ],
])('%s', (_name, file, present, absent) => {
  const text = doc(file);
  expect(text).toMatch(present);
  expect(text).not.toMatch(absent);
});

// The not-found page as errors-and-middleware.md now writes it: a fragment only where htmx swaps into an element.
class NotFoundPage {
  props() {
    if (htmxDetails().swapsIntoElement) return renderComponent(<p>Not found.</p>);
    return {};
  }
  page() {
    return <html>There is no page at this address.</html>;
  }
}
class App {
  home = route('/{$} Home', NotFoundPage);
}
const mux = new ServeMux();
mount(mux, App, '/', 'Home', { notFound: NotFoundPage });

test.each<[string, Request, string]>([
  ['htmx 4 into an element: the fragment', htmxRequest('/nope', { target: 'main' }), '<p>Not found.</p>'],
  ['htmx 2 into an element: the fragment', htmxRequest('/nope', { version: 2, target: 'main' }), '<p>Not found.</p>'],
  // The hand-written test the page had (isHtmx && !boosted && requestType !== 'full') gave this one a fragment.
  [
    'htmx 2 history restore: the whole page',
    htmxRequest('/nope', { version: 2, historyRestore: true }),
    '<html>There is no page at this address.</html>',
  ],
  [
    'htmx 4 history restore: the whole page',
    htmxRequest('/nope', { historyRestore: true }),
    '<html>There is no page at this address.</html>',
  ],
  [
    'a boosted link: the whole page',
    htmxRequest('/nope', { boosted: true }),
    '<html>There is no page at this address.</html>',
  ],
])('the not-found page: %s', async (_name, req, body) => {
  const res = await mux.fetch(req);
  expect([res.status, await res.text()]).toEqual([404, body]);
});
