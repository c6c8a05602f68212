import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Admin, UserPage } from '../pages-example/admin.tsx';
import { createApp } from '../pages-example/app.tsx';
import { TasksPage, ToggleTask } from '../pages-example/tasks.tsx';
import { htmxRequest } from '../core/index.ts';
import { serve, shutdown } from '../core/node/index.ts';
import { fetchPage, htmx2, htmx4 } from './support/http.ts';
import { sendFrom } from './support/node-http.ts';

const form = (fields: Record<string, string>) => ({
  'content-type': 'application/x-www-form-urlencoded',
  body: new URLSearchParams(fields).toString(),
});

function post(mux: ReturnType<typeof createApp>['mux'], path: string, headers: Record<string, string>, fields = {}) {
  const { body, ...type } = form(fields);
  return fetchPage(mux, path, { method: 'POST', headers: { ...headers, ...type }, body });
}

let app: ReturnType<typeof createApp>;
/** The admin's session cookie (`name=value`), for the admin section. */
let admin: string;
beforeEach(async () => {
  app = createApp({ databasePath: ':memory:' });
  admin = await logIn(app);
});

/** Logs in as the example's admin, as the login form does; returns the session cookie. */
async function logIn(on: ReturnType<typeof createApp>): Promise<string> {
  const { email, password } = on.admin;
  const r = await post(on.mux, '/login?next=%2Fadmin%2F', { 'sec-fetch-site': 'same-origin' }, { email, password });
  expect([r.status, r.headers.get('location')]).toEqual([303, '/admin/']);
  return r.headers.getSetCookie()[0]!.split(';')[0]!;
}
afterEach(() => app.store.close());

test('every dynamic link of the example resolves (boot-time check)', () => {
  expect(app.tree.validate([[TasksPage], [Admin], [UserPage, { userId: 1 }], [ToggleTask, { taskId: 2 }]])).toEqual([
    '/',
    '/admin/',
    '/admin/users/1',
    '/tasks/2/toggle',
  ]);
});

test('the home page is a full document with the nav, the add form and the list region', async () => {
  const r = await fetchPage(app.mux, '/');
  expect(r.status).toBe(200);
  expect(r.body).toMatch(/^<!doctype html><html lang="en">/);
  expect(r.body).toContain('<a href="/" aria-current="page">Tasks</a><a href="/admin/">Admin</a>');
  expect(r.body).toContain('<form class="add" action="/" method="post" hx-post="/" hx-target="#tasks-add-form">');
  expect(r.body).toContain('<section id="tasks-task-list"><p class="empty">No tasks.</p></section>');
  expect(r.body).toContain('<p class="open-count" id="tasks-open-count" aria-live="polite">0 open tasks</p>');
  // Not deferred: a deferred htmx 4 can start before its deferred SSE extension registers (layout.tsx).
  expect(r.body).toMatch(/<script src="\/static\/htmx\.min\.[0-9a-f]{8}\.js"><\/script>/);
  expect(r.body).toMatch(/<script src="\/static\/htmx-sse\.[0-9a-f]{8}\.js" defer><\/script>/);
});

// The count region beside each answer, in the form each htmx reads.
const countRegion = {
  4: (text: string) => `<hx-partial id="tasks-open-count" hx-swap="innerHTML">${text}</hx-partial>`,
  2: (text: string) => `<template><div id="tasks-open-count" hx-swap-oob="innerHTML">${text}</div></template>`,
};

test.each([4, 2] as const)(
  'adding, toggling and deleting answer htmx %s with the list and the open-task count',
  async (version) => {
    const send = (url: string, method: string) =>
      app.mux.fetch(htmxRequest(url, { version, method, target: TasksPage.prototype.taskList }));
    // The add form targets itself: a fresh form, with the list and the count as regions beside it.
    const added = await app.mux.fetch(
      htmxRequest('/', { version, form: { title: 'Café <b>' }, target: TasksPage.prototype.addForm }),
    );
    const addedBody = await added.text();
    expect(added.status).toBe(200);
    expect(addedBody).toMatch(/^<form class="add" action="\/" method="post"/);
    expect(addedBody).toContain('<ul class="tasks"><li><button class="toggle" hx-post="/tasks/1/toggle"');
    expect(addedBody).toContain('<span class="title">Café &lt;b></span>');
    expect(addedBody.endsWith(countRegion[version]('1 open task'))).toBe(true);
    expect(added.headers.get('hx-trigger')).toBe('{"task-added":{"title":"Caf\\u00e9 <b>"}}');
    const toggled = await (await send('/tasks/1/toggle', 'POST')).text();
    expect(toggled).toContain('<li class="done">');
    expect(toggled.endsWith(countRegion[version]('0 open tasks'))).toBe(true);
    const deleted = await (await send('/tasks/1', 'DELETE')).text();
    expect(deleted).toBe('<p class="empty">No tasks.</p>' + countRegion[version]('0 open tasks'));
  },
);

test('the search answers htmx with only the matching tasks', async () => {
  await post(app.mux, '/', htmx2('tasks-add-form'), { title: 'buy milk' });
  await post(app.mux, '/', htmx2('tasks-add-form'), { title: 'walk the dog' });
  const r = await fetchPage(app.mux, '/?q=milk', { headers: htmx4('section#tasks-task-list') });
  expect(r.body).toContain('buy milk');
  expect(r.body).not.toContain('walk the dog');
  expect(r.body).not.toContain('<h1>');
  const percent = await fetchPage(app.mux, '/?q=%25', { headers: htmx4('section#tasks-task-list') });
  expect(percent.body).toBe('<p class="empty">No tasks.</p>'); // LIKE wildcards are escaped
});

test('an unknown address gets the app 404 page; a wrong method still gets 405 with Allow', async () => {
  const r = await fetchPage(app.mux, '/no/such/page');
  expect(r.status).toBe(404);
  expect(r.body).toMatch(/^<!doctype html>/);
  expect(r.body).toContain('<title>Not found · pagetree</title>');
  expect(r.body).toContain('<a href="/">Back to the tasks</a>');
  const hx = await app.mux.fetch(htmxRequest('/no/such/page', { target: TasksPage.prototype.taskList }));
  expect([hx.status, await hx.text()]).toEqual([404, '<p class="empty">Not found.</p>']);
  const wrong = await fetchPage(app.mux, '/tasks/1/toggle', { method: 'GET' });
  expect([wrong.status, wrong.headers.get('allow')]).toEqual([405, 'POST']);
});

test('user input is escaped everywhere', async () => {
  await post(app.mux, '/', htmx2('tasks-add-form'), { title: '<script>alert(1)</script>' });
  const r = await fetchPage(app.mux, '/');
  expect(r.body).toContain('<span class="title">&lt;script>alert(1)&lt;/script></span>');
  expect(r.body).not.toContain('<script>alert(1)');
  // An attribute value cannot be closed from the query string.
  const q = await fetchPage(app.mux, `/?q=${encodeURIComponent('"><script>alert(2)</script>')}`);
  expect(q.body).toContain('value="&#34;><script>alert(2)</script>"');
});

test('a cross-site form post is refused (CSRF protection); same-origin htmx requests pass', async () => {
  const r = await post(app.mux, '/', { 'sec-fetch-site': 'cross-site' }, { title: 'forged' });
  expect(r.status).toBe(403);
  expect((await fetchPage(app.mux, '/')).body).not.toContain('forged');
  const ok = await post(
    app.mux,
    '/',
    { ...htmx2('tasks-add-form'), 'sec-fetch-site': 'same-origin' },
    { title: 'mine' },
  );
  expect(ok.status).toBe(200);
});

test('a plain form post (no JavaScript) is redirected home with 303', async () => {
  const r = await post(app.mux, '/', {}, { title: 'no js' });
  expect(r.status).toBe(303);
  expect(r.headers.get('location')).toBe('/');
  expect((await fetchPage(app.mux, '/')).body).toContain('no js');
});

test.each([
  ['a missing task', () => post(app.mux, '/tasks/99/toggle', htmx2('tasks-task-list')), 404],
  ['a task id that is not a number', () => post(app.mux, '/tasks/abc/toggle', htmx2('tasks-task-list')), 404],
])('%s is a clean 4xx', async (_, call, status) => {
  const r = await call();
  expect(r.status).toBe(status);
  expect(r.headers.get('content-type')).toBe('text/plain; charset=utf-8');
});

const adminError = '<p class="error" role="alert"><b>404</b> <span>No such user</span></p>';

test("the admin section's errors get its error page: the admin layout, status and message", async () => {
  const r = await fetchPage(app.mux, '/admin/users/999', { headers: { cookie: admin } });
  expect(r.status).toBe(404);
  expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
  // A page over 1 KiB varies by Accept-Encoding too (mount's compress, on by default).
  expect(r.headers.get('vary')).toBe('HX-Request, HX-Target, HX-Request-Type, Accept-Encoding');
  expect(r.body).toMatch(/^<!doctype html>/);
  expect(r.body).toContain('<title>Admin · pagetree</title>');
  expect(r.body).toContain('<a href="/admin/" aria-current="page">Admin</a>');
  expect(r.body).toContain(`<h1>Admin</h1>${adminError}<p><a href="/admin/">All users</a></p>`);
  // The group's middleware wraps the error page too.
  expect(r.headers.get('cache-control')).toBe('private, no-store');
  // A boosted link replaces the whole page: the layout again.
  const boosted = await app.mux.fetch(htmxRequest('/admin/users/999', { boosted: true, headers: { cookie: admin } }));
  expect(await boosted.text()).toContain(`<h1>Admin</h1>${adminError}`);
});

test.each([4, 2] as const)('an admin error swapped into an element by htmx %s is a fragment', async (version) => {
  const res = await app.mux.fetch(
    htmxRequest('/admin/users/999', { version, target: UserPage.prototype.activityList, headers: { cookie: admin } }),
  );
  expect([res.status, await res.text()]).toEqual([404, adminError]);
});

test('outside the admin section, errors keep the plain answer', async () => {
  const task = await post(app.mux, '/tasks/99/toggle', htmx2('tasks-task-list'));
  expect([task.status, task.headers.get('content-type')]).toEqual([404, 'text/plain; charset=utf-8']);
});

test('/admin redirects to /admin/, and the admin group middleware marks every admin page', async () => {
  const r = await fetchPage(app.mux, '/admin');
  expect([r.status, r.headers.get('location')]).toEqual([307, '/admin/']);
  const dashboard = await fetchPage(app.mux, '/admin/', { headers: { cookie: admin } });
  expect(dashboard.body).toContain('<a href="/admin/users/1">Ada Lovelace</a>');
  expect(dashboard.body).toContain('<a href="/admin/" aria-current="page">Admin</a>');
  const user = await fetchPage(app.mux, '/admin/users/2', { headers: { cookie: admin } });
  for (const page of [dashboard, user]) {
    expect(page.headers.get('cache-control')).toBe('private, no-store');
    expect(page.headers.get('x-robots-tag')).toBe('noindex');
  }
  expect((await fetchPage(app.mux, '/')).headers.get('cache-control')).toBeNull();
});

test('the user page refreshes its activity as a partial', async () => {
  const r = await fetchPage(app.mux, '/admin/users/2', {
    headers: { ...htmx4('div#admin-user-activity-list'), cookie: admin },
  });
  expect(r.body).toMatch(/^<ul><li><time>[^<]+<\/time> <span>found the first bug<\/span><\/li><\/ul>$/);
});

describe('the admin section requires a login', () => {
  test('without one, a browser is sent to /login with the page it wanted, and htmx gets HX-Location', async () => {
    for (const path of ['/admin/', '/admin/users/2', '/admin/events']) {
      const r = await fetchPage(app.mux, path);
      expect([r.status, r.headers.get('location')]).toEqual([303, `/login?next=${encodeURIComponent(path)}`]);
    }
    const cell = await fetchPage(app.mux, '/admin/users/2', {
      headers: htmx4('div#admin-user-activity-list', { 'HX-Current-URL': 'http://localhost/admin/users/2' }),
    });
    expect([cell.status, cell.headers.get('hx-location'), cell.body]).toEqual([
      200,
      '/login?next=%2Fadmin%2Fusers%2F2',
      '',
    ]);
  });

  test('the login page: a wrong password is a 422 that says so; without an address, five lock the account', async () => {
    const page = await fetchPage(app.mux, '/login?next=%2Fadmin%2Fusers%2F2');
    expect(page.body).toContain('<form class="login" action="/login?next=%2Fadmin%2Fusers%2F2" method="post">');
    const attempt = (password: string) =>
      post(app.mux, '/login', { 'sec-fetch-site': 'same-origin' }, { email: app.admin.email, password });
    for (let i = 0; i < 5; i++) {
      const wrong = await attempt('wrong');
      expect([wrong.status, wrong.headers.getSetCookie()]).toEqual([422, []]);
      expect(wrong.body).toContain('That e-mail address and password do not match.');
    }
    const locked = await attempt(app.admin.password);
    // The window (900 s) began at the first try, five password checks ago: a second may have passed since.
    expect([locked.status, Number(locked.headers.get('retry-after'))]).toEqual([429, expect.any(Number)]);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThanOrEqual(890);
    expect(Number(locked.headers.get('retry-after'))).toBeLessThanOrEqual(900);
  });

  test('an outside next is not followed; logging out ends the session', async () => {
    const { email, password } = app.admin;
    const r = await post(
      app.mux,
      '/login?next=%2F%2Fevil.example',
      { 'sec-fetch-site': 'same-origin' },
      { email, password },
    );
    expect([r.status, r.headers.get('location')]).toEqual([303, '/']);
    const out = await post(app.mux, '/logout', { 'sec-fetch-site': 'same-origin', cookie: admin });
    expect([out.status, out.headers.get('location')]).toEqual([303, '/']);
    expect(out.headers.getSetCookie()).toEqual([expect.stringMatching(/^pagetree-session=; Max-Age=0;/)]);
  });

  test('a cookie kept from before a logout no longer opens the admin section', async () => {
    expect((await fetchPage(app.mux, '/admin/', { headers: { cookie: admin } })).status).toBe(200);
    await post(app.mux, '/logout', { 'sec-fetch-site': 'same-origin', cookie: admin });
    const after = await fetchPage(app.mux, '/admin/', { headers: { cookie: admin } });
    expect([after.status, after.headers.get('location')]).toEqual([303, '/login?next=%2Fadmin%2F']);
  });
});

describe('the example on a real server (serve), where each client has an address', () => {
  let server: Server;
  let port = 0;
  beforeEach(async () => {
    server = serve(app.mux, { port: 0, hostname: '127.0.0.1', handleSignals: false, onListen: () => {} });
    await once(server, 'listening');
    port = (server.address() as { port: number }).port;
  });
  afterEach(() => shutdown(server, 500));

  /** A request from `from` (any 127.x.y.z reaches the server): its status, Location and session cookie. */
  function send(from: string, method: string, path: string, headers: Record<string, string>, body = '') {
    return sendFrom(port, from, method, path, headers, body);
  }
  const logIn = (from: string, password: string) => {
    const { body, ...type } = form({ email: app.admin.email, password });
    return send(from, 'POST', '/login?next=%2Fadmin%2F', type, body);
  };

  test('six wrong passwords lock the admin out from that address only, not from another', async () => {
    for (let i = 0; i < 5; i++) expect((await logIn('127.0.0.1', 'wrong')).status).toBe(422);
    expect((await logIn('127.0.0.1', app.admin.password)).status).toBe(429);
    expect(await logIn('127.0.0.2', app.admin.password)).toEqual({
      status: 303,
      location: '/admin/',
      cookie: expect.stringMatching(/^pagetree-session=v1\./),
    });
  });

  test('a logout ends the session: the cookie kept from before is sent to the login page', async () => {
    const { cookie } = await logIn('127.0.0.1', app.admin.password);
    expect((await send('127.0.0.1', 'GET', '/admin/', { cookie: cookie! })).status).toBe(200);
    expect((await send('127.0.0.1', 'POST', '/logout', { cookie: cookie! })).status).toBe(303);
    expect(await send('127.0.0.3', 'GET', '/admin/', { cookie: cookie! })).toEqual({
      status: 303,
      location: '/login?next=%2Fadmin%2F',
      cookie: undefined,
    });
  });
});

test('a restart keeps the tasks (SQLite file)', async () => {
  const databasePath = join(mkdtempSync(join(tmpdir(), 'pagetree-example-')), 'tasks.db');
  const first = createApp({ databasePath });
  await post(first.mux, '/', htmx2('tasks-add-form'), { title: 'survives restarts' });
  await first.store.close();
  const second = createApp({ databasePath });
  expect((await fetchPage(second.mux, '/')).body).toContain('survives restarts');
  await second.store.close();
});

test('htmx comes from the npm package, in the version asked for', async () => {
  const four = createApp({ databasePath: ':memory:' });
  const two = createApp({ databasePath: ':memory:', htmxVersion: '2' });
  const js4 = (await fetchPage(four.mux, '/static/htmx.min.js')).body;
  const js2 = (await fetchPage(two.mux, '/static/htmx.min.js')).body;
  expect(js4).toContain('"4.');
  expect(js2).toContain('"2.');
  await four.store.close();
  await two.store.close();
});
