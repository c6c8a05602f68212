// The app without a server: mux.fetch(request) answers as the running app would, and htmxRequest builds the
// request htmx sends. Run with `npm test`.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { htmxRequest } from 'pagetree/testing';
import { createApp } from '../src/app.tsx';
import { HomePage } from '../src/pages/home.tsx';

const secret = 'a-test-secret-of-at-least-32-characters';
const htmx = __HTMX__;

test('the home page', async () => {
  const { mux } = createApp({ secret });
  const res = await mux.fetch(new Request('http://localhost/'));
  assert.equal(res.status, 200);
  assert.match(await res.text(), /<h1>Guestbook<\/h1>/);
});

test('signing with htmx answers an empty form, with the list beside it', async () => {
  const { mux } = createApp({ secret });
  const form = { name: 'Ada', message: 'Hello <world>' };
  const res = await mux.fetch(htmxRequest('/', { version: htmx, form, target: HomePage.prototype.entryForm }));
  assert.equal(res.status, 200);
  const body = await res.text();
  assert.match(body, /^<form /);
  assert.match(body, /<strong>Ada<\/strong>: <span>Hello &lt;world/); // Bun also escapes >
});

test('a form with a missing field answers 422 and says what is wrong', async () => {
  const { mux, guestbook } = createApp({ secret });
  const form = { name: 'Ada', message: ' ' };
  const res = await mux.fetch(htmxRequest('/', { version: htmx, form, target: HomePage.prototype.entryForm }));
  assert.equal(res.status, 422);
  assert.match(await res.text(), /Write a message/);
  assert.deepEqual(guestbook.entries(), []);
});

test('without JavaScript, signing redirects and the page shows a flash message once', async () => {
  const { mux } = createApp({ secret });
  const res = await mux.fetch(
    new Request('http://localhost/', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
      body: new URLSearchParams({ name: 'Ada', message: 'Hello' }),
    }),
  );
  assert.equal(res.status, 303);
  const cookie = res.headers.getSetCookie()[0]!.split(';')[0]!;
  const page = await (await mux.fetch(new Request('http://localhost/', { headers: { cookie } }))).text();
  assert.match(page, /Thank you, Ada!/);
});
