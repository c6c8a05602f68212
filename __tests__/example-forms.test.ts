// The example's forms through HTTP: the add form on the home page and the edit form of a task, validated by one
// zod schema; 422 with the form again for htmx 4, htmx 2 and plain posts; "Task updated" as a flash after an edit.

import { createApp } from '../pages-example/app.tsx';
import { TaskPage, TasksPage } from '../pages-example/tasks.tsx';
import { htmxRequest, type ComponentRef } from '../core/index.ts';

let app: ReturnType<typeof createApp>;
beforeEach(async () => {
  app = createApp({ databasePath: ':memory:', secret: 'a test secret of at least 32 characters' });
  await app.store.addTask('Milk');
});
afterEach(() => app.store.close());

const urlencoded = { 'content-type': 'application/x-www-form-urlencoded' };

function plainPost(path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return app.mux.fetch(
    new Request(`http://localhost${path}`, {
      method: 'POST',
      headers: { ...urlencoded, ...headers },
      body: new URLSearchParams(fields).toString(),
    }),
  );
}

/** What htmx `version` sends when a form posts `title` to `path` and swaps the answer into `target`. */
function htmxPost(version: 2 | 4, path: string, title: string, target: ComponentRef) {
  return app.mux.fetch(htmxRequest(path, { version, form: { title }, target }));
}

function get(path: string, headers: Record<string, string> = {}) {
  return app.mux.fetch(new Request(`http://localhost${path}`, { headers }));
}

/** The cookie a browser sends back after `res`: name=value of each Set-Cookie that is not a deletion. */
function cookiesFrom(res: Response): string {
  return res.headers
    .getSetCookie()
    .filter((c) => !/max-age=0/i.test(c) && !/expires=thu, 01 jan 1970/i.test(c))
    .map((c) => c.slice(0, c.indexOf(';')))
    .join('; ');
}

describe('the edit form', () => {
  test('GET /tasks/1: the form filled from the task, posting to the same URL with and without htmx', async () => {
    const res = await get('/tasks/1');
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<title>Edit task · pagetree</title>');
    expect(html).toContain(
      '<div id="task-edit-form"><form class="edit" action="/tasks/1" method="post" hx-post="/tasks/1" ' +
        'hx-target="#task-edit-form">',
    );
    expect(html).toContain('<input id="edit-title" name="title" value="Milk"');
    expect(html).not.toContain('aria-invalid');
    expect((await get('/tasks/99')).status).toBe(404);
  });

  test('no JavaScript: an invalid title is a 422 with the whole page, the error and the value kept', async () => {
    const res = await plainPost('/tasks/1', { title: '   ' });
    expect(res.status).toBe(422);
    const html = await res.text();
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain(
      '<input id="edit-title" name="title" value="   " aria-label="Title" required maxlength="200" ' +
        'aria-invalid="true" aria-describedby="edit-title-error" autofocus/>',
    );
    expect(html).toContain('<p class="field-error" id="edit-title-error">A task needs a title</p>');
    expect((await app.store.task(1))?.title).toBe('Milk');
    const long = await plainPost('/tasks/1', { title: `"><script>alert(1)</script>${'x'.repeat(200)}` });
    expect(long.status).toBe(422);
    const longHtml = await long.text();
    expect(longHtml).toContain('value="&#34;><script>alert(1)</script>x');
    expect(longHtml).toContain('A title has at most 200 characters');
  });

  test.each([4, 2] as const)('htmx %s: an invalid title is a 422 with only the form', async (version) => {
    const res = await htmxPost(version, '/tasks/1', '', TaskPage.prototype.editForm);
    expect(res.status).toBe(422);
    const html = await res.text();
    expect(html).toMatch(/^<form class="edit" action="\/tasks\/1"/);
    expect(html).toContain('A task needs a title');
    expect(html).not.toContain('<html');
  });

  test('no JavaScript: a valid title saves, redirects (303) and the list says "Task updated" once', async () => {
    const res = await plainPost('/tasks/1', { title: '  Oat milk  ' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/');
    expect((await app.store.task(1))?.title).toBe('Oat milk');
    const [setCookie] = res.headers.getSetCookie();
    expect(setCookie).toMatch(/^pagetree-flash=[^;]+; Path=\/; HttpOnly; SameSite=Lax$/);
    const cookie = cookiesFrom(res);
    const list = await get('/', { cookie });
    const html = await list.text();
    expect(html).toContain('<p class="notice" id="notice" role="status">Task updated</p>');
    expect(list.headers.getSetCookie()).toEqual([expect.stringMatching(/^pagetree-flash=; /)]); // shown once
    expect(await (await get('/')).text()).toContain('<p class="notice" id="notice" role="status"></p>');
  });

  test.each([4, 2] as const)('htmx %s: a valid title answers HX-Location with the flash cookie', async (version) => {
    const res = await htmxPost(version, '/tasks/1', 'Bread', TaskPage.prototype.editForm);
    expect(res.status).toBe(200);
    expect(res.headers.get('hx-location')).toBe('/');
    expect((await app.store.task(1))?.title).toBe('Bread');
    // htmx then loads "/" (the body as target) with the cookie: the whole page, with the message.
    const next = await app.mux.fetch(htmxRequest('/', { version, headers: { cookie: cookiesFrom(res) } }));
    expect(await next.text()).toContain('role="status">Task updated</p>');
  });

  test('a search (the list alone) does not take the flash; the next whole page shows it', async () => {
    const cookie = cookiesFrom(await plainPost('/tasks/1', { title: 'Tea' }));
    const search = await app.mux.fetch(
      htmxRequest('/?q=te', { target: TasksPage.prototype.taskList, headers: { cookie } }),
    );
    expect(search.headers.getSetCookie()).toEqual([]);
    expect(await (await get('/', { cookie })).text()).toContain('role="status">Task updated</p>');
  });

  test('a tampered flash cookie shows nothing and is deleted', async () => {
    const cookie = cookiesFrom(await plainPost('/tasks/1', { title: 'Tea' }));
    const tampered = cookie.replace(/=(.)/, (_, c: string) => `=${c === 'A' ? 'B' : 'A'}`);
    const res = await get('/', { cookie: tampered });
    expect(await res.text()).toContain('<p class="notice" id="notice" role="status"></p>');
    expect(res.headers.getSetCookie()).toEqual([expect.stringMatching(/^pagetree-flash=; /)]);
  });

  test('DELETE /tasks/1 deletes the task: htmx gets the list, a plain request the redirect', async () => {
    const res = await app.mux.fetch(
      htmxRequest('/tasks/1', { method: 'DELETE', target: TasksPage.prototype.taskList }),
    );
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<p class="empty">No tasks.</p>');
    expect((await app.mux.fetch(new Request('http://localhost/tasks/1', { method: 'DELETE' }))).status).toBe(404);
    const put = await app.mux.fetch(new Request('http://localhost/tasks/1', { method: 'PUT' }));
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('DELETE, GET, HEAD, POST');
  });
});

describe('the add form', () => {
  test('the home page has it, posting to / and swapping itself', async () => {
    const html = await (await get('/')).text();
    expect(html).toContain(
      '<div id="tasks-add-form"><form class="add" action="/" method="post" hx-post="/" hx-target="#tasks-add-form">',
    );
  });

  test.each([4, 2] as const)(
    'htmx %s: a valid title answers a fresh form, with the list and the count beside',
    async (version) => {
      const res = await htmxPost(version, '/', ' Eggs ', TasksPage.prototype.addForm);
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).toMatch(/^<form class="add"/);
      expect(html).toContain('<input id="new-title" name="title" placeholder="What needs doing?"'); // empty again
      expect(html).toContain('<span class="title">Eggs</span>');
      expect(html).toContain('2 open tasks');
      expect(res.headers.get('hx-trigger')).toBe('{"task-added":{"title":"Eggs"}}');
    },
  );

  test.each([4, 2] as const)('htmx %s: an empty title is a 422 with the form and its error only', async (version) => {
    const res = await htmxPost(version, '/', '  ', TasksPage.prototype.addForm);
    expect(res.status).toBe(422);
    const html = await res.text();
    expect(html).toMatch(/^<form class="add"/);
    expect(html).toContain('<p class="field-error" id="new-title-error">A task needs a title</p>');
    expect(html).not.toContain('tasks-open-count');
    expect(await app.store.tasks()).toHaveLength(1);
  });

  test('no JavaScript: a valid title redirects to the list (303); an empty one is the whole page with 422', async () => {
    const ok = await plainPost('/', { title: 'Eggs' });
    expect(ok.status).toBe(303);
    expect((await app.store.tasks()).map((t) => t.title)).toEqual(['Milk', 'Eggs']);
    const bad = await plainPost('/', { title: '' });
    expect(bad.status).toBe(422);
    const html = await bad.text();
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('A task needs a title');
    expect(html).toContain('<span class="title">Milk</span>'); // the list is there too
  });

  test('a body that is not a form is a 415 (one line in the log); one over 10 MiB a 413', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
    const json = await app.mux.fetch(
      new Request('http://localhost/', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"title":"x"}',
      }),
    );
    expect(json.status).toBe(415);
    expect(warn.mock.calls).toEqual([[expect.stringContaining('POST http://localhost/: 415 Unsupported Media Type')]]);
    warn.mockRestore();
    const big = await plainPost('/', { title: 'x'.repeat(10 * 1024 * 1024) });
    expect(big.status).toBe(413);
  });
});
