import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Admin, UserPage } from '../pages-example/admin.tsx';
import { createApp } from '../pages-example/app.tsx';
import { TasksPage, ToggleTask } from '../pages-example/tasks.tsx';
import { fetchPage, htmx2, htmx4 } from './support/http.ts';

const form = (fields: Record<string, string>) => ({
  'content-type': 'application/x-www-form-urlencoded',
  body: new URLSearchParams(fields).toString(),
});

function post(mux: ReturnType<typeof createApp>['mux'], path: string, headers: Record<string, string>, fields = {}) {
  const { body, ...type } = form(fields);
  return fetchPage(mux, path, { method: 'POST', headers: { ...headers, ...type }, body });
}

let app: ReturnType<typeof createApp>;
beforeEach(() => {
  app = createApp({ databasePath: ':memory:' });
});
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
  expect(r.body).toContain('hx-post="/tasks" hx-target="#tasks-task-list"');
  expect(r.body).toContain('<section id="tasks-task-list"><p class="empty">No tasks.</p></section>');
  expect(r.body).toMatch(/<script src="\/static\/htmx\.min\.[0-9a-f]{8}\.js" defer><\/script>/);
});

test.each([
  ['htmx 2', htmx2('tasks-task-list')],
  ['htmx 4', htmx4('section#tasks-task-list')],
])('adding, toggling and deleting answer %s with the list fragment', async (_, headers) => {
  const added = await post(app.mux, '/tasks', headers, { title: 'buy milk' });
  expect(added.status).toBe(200);
  expect(added.body).toMatch(/^<ul class="tasks"><li><button class="toggle" hx-post="\/tasks\/1\/toggle"/);
  expect(added.body).not.toContain('<html');
  const toggled = await post(app.mux, '/tasks/1/toggle', headers);
  expect(toggled.body).toContain('<li class="done">');
  const deleted = await fetchPage(app.mux, '/tasks/1', { method: 'DELETE', headers });
  expect(deleted.body).toBe('<p class="empty">No tasks.</p>');
});

test('the search answers htmx with only the matching tasks', async () => {
  await post(app.mux, '/tasks', htmx2('tasks-task-list'), { title: 'buy milk' });
  await post(app.mux, '/tasks', htmx2('tasks-task-list'), { title: 'walk the dog' });
  const r = await fetchPage(app.mux, '/?q=milk', { headers: htmx4('section#tasks-task-list') });
  expect(r.body).toContain('buy milk');
  expect(r.body).not.toContain('walk the dog');
  expect(r.body).not.toContain('<h1>');
  const percent = await fetchPage(app.mux, '/?q=%25', { headers: htmx4('section#tasks-task-list') });
  expect(percent.body).toBe('<p class="empty">No tasks.</p>'); // LIKE wildcards are escaped
});

test('user input is escaped everywhere', async () => {
  await post(app.mux, '/tasks', htmx2('tasks-task-list'), { title: '<script>alert(1)</script>' });
  const r = await fetchPage(app.mux, '/');
  expect(r.body).toContain('<span class="title">&lt;script>alert(1)&lt;/script></span>');
  expect(r.body).not.toContain('<script>alert(1)');
  // An attribute value cannot be closed from the query string.
  const q = await fetchPage(app.mux, `/?q=${encodeURIComponent('"><script>alert(2)</script>')}`);
  expect(q.body).toContain('value="&#34;><script>alert(2)</script>"');
});

test('a cross-site form post is refused (CSRF protection); same-origin htmx requests pass', async () => {
  const r = await post(app.mux, '/tasks', { 'sec-fetch-site': 'cross-site' }, { title: 'forged' });
  expect(r.status).toBe(403);
  expect((await fetchPage(app.mux, '/')).body).not.toContain('forged');
  const ok = await post(
    app.mux,
    '/tasks',
    { ...htmx2('tasks-task-list'), 'sec-fetch-site': 'same-origin' },
    { title: 'mine' },
  );
  expect(ok.status).toBe(200);
});

test('a plain form post (no JavaScript) is redirected home with 303', async () => {
  const r = await post(app.mux, '/tasks', {}, { title: 'no js' });
  expect(r.status).toBe(303);
  expect(r.headers.get('location')).toBe('/');
  expect((await fetchPage(app.mux, '/')).body).toContain('no js');
});

test.each([
  ['an empty title', () => post(app.mux, '/tasks', htmx2('tasks-task-list'), { title: '  ' }), 422],
  ['a missing task', () => post(app.mux, '/tasks/99/toggle', htmx2('tasks-task-list')), 404],
  ['a task id that is not a number', () => post(app.mux, '/tasks/abc/toggle', htmx2('tasks-task-list')), 404],
  ['a missing user', () => fetchPage(app.mux, '/admin/users/99'), 404],
])('%s is a clean 4xx', async (_, call, status) => {
  const r = await call();
  expect(r.status).toBe(status);
  expect(r.headers.get('content-type')).toBe('text/plain; charset=utf-8');
});

test('/admin redirects to /admin/, and the admin group middleware marks every admin page', async () => {
  const r = await fetchPage(app.mux, '/admin');
  expect([r.status, r.headers.get('location')]).toEqual([307, '/admin/']);
  const dashboard = await fetchPage(app.mux, '/admin/');
  expect(dashboard.body).toContain('<a href="/admin/users/1">Ada Lovelace</a>');
  expect(dashboard.body).toContain('<a href="/admin/" aria-current="page">Admin</a>');
  const user = await fetchPage(app.mux, '/admin/users/2');
  for (const page of [dashboard, user]) {
    expect(page.headers.get('cache-control')).toBe('private, no-store');
    expect(page.headers.get('x-robots-tag')).toBe('noindex');
  }
  expect((await fetchPage(app.mux, '/')).headers.get('cache-control')).toBeNull();
});

test('the user page refreshes its activity as a partial', async () => {
  const r = await fetchPage(app.mux, '/admin/users/2', { headers: htmx4('div#admin-user-activity-list') });
  expect(r.body).toMatch(/^<ul><li><time>[^<]+<\/time> <span>found the first bug<\/span><\/li><\/ul>$/);
});

test('a restart keeps the tasks (SQLite file)', async () => {
  const databasePath = join(mkdtempSync(join(tmpdir(), 'pagetree-example-')), 'tasks.db');
  const first = createApp({ databasePath });
  await post(first.mux, '/tasks', htmx2('tasks-task-list'), { title: 'survives restarts' });
  first.store.close();
  const second = createApp({ databasePath });
  expect((await fetchPage(second.mux, '/')).body).toContain('survives restarts');
  second.store.close();
});

test('htmx comes from the npm package, in the version asked for', async () => {
  const four = createApp({ databasePath: ':memory:' });
  const two = createApp({ databasePath: ':memory:', htmxVersion: '2' });
  const js4 = (await fetchPage(four.mux, '/static/htmx.min.js')).body;
  const js2 = (await fetchPage(two.mux, '/static/htmx.min.js')).body;
  expect(js4).toContain('"4.');
  expect(js2).toContain('"2.');
  four.store.close();
  two.store.close();
});
