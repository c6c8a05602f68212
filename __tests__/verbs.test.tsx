// Verb methods: one page answers GET (props) and POST/PUT/PATCH/DELETE (post/put/patch/delete), one pattern per
// method, so the rest get Go's 405 with Allow.

import {
  htmxRequest,
  HttpError,
  id,
  mount,
  MountError,
  redirect,
  renderComponent,
  route,
  ServeMux,
  setStatus,
  type PageRequest,
} from '../core/index.ts';
import { urlFor } from './support/url-for.ts';

interface Task {
  title: string;
}
const tasks = new Map<string, Task>();

/** /tasks/{taskId}: the resource pattern. */
class TaskPage {
  props(req: PageRequest) {
    const task = tasks.get(req.pathValue('taskId'));
    if (!task) throw new HttpError(404, 'No such task');
    return { title: task.title, error: '' };
  }
  async post(req: PageRequest) {
    const title = String((await req.formData()).get('title') ?? '').trim();
    if (title === '') {
      setStatus(422);
      return { title, error: 'A task needs a title' }; // re-rendered: the page, or the form for htmx
    }
    tasks.set(req.pathValue('taskId'), { title });
    return redirect(urlFor(TaskPage, { taskId: req.pathValue('taskId') }));
  }
  delete(req: PageRequest) {
    tasks.delete(req.pathValue('taskId'));
    return renderComponent(<p>deleted</p>);
  }
  page(props: { title: string; error: string }) {
    return (
      <main>
        <h1 safe>{props.title}</h1>
        <div id={id(this.editForm)}>{this.editForm(props)}</div>
      </main>
    );
  }
  editForm(props: { title: string; error: string }) {
    return (
      <form>
        <input name="title" value={props.title} />
        <p class="error" safe>
          {props.error}
        </p>
      </form>
    );
  }
}

/** /ping: an action only. */
class Ping {
  put() {
    return new Response('pong');
  }
}

class App {
  task = route('/tasks/{taskId} Task', TaskPage);
  ping = route('/ping', Ping);
}

const mux = new ServeMux();
const tree = mount(mux, App, '/', 'App');

beforeEach(() => {
  tasks.clear();
  tasks.set('1', { title: 'Milk' });
});

async function send(req: Request) {
  const res = await mux.fetch(req);
  return { status: res.status, headers: res.headers, body: await res.text() };
}

const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields),
});

test('one pattern per method, listed by routes()', () => {
  expect(tree.routes().map((r) => [r.pattern, r.fieldPath])).toEqual([
    ['GET /tasks/{taskId}', 'App.task'],
    ['POST /tasks/{taskId}', 'App.task'],
    ['DELETE /tasks/{taskId}', 'App.task'],
    ['PUT /ping', 'App.ping'],
  ]);
});

test('GET and HEAD answer with props and page', async () => {
  const r = await send(new Request('http://localhost/tasks/1'));
  expect([r.status, r.body]).toEqual([200, expect.stringContaining('<h1>Milk</h1>')]);
  const head = await send(new Request('http://localhost/tasks/1', { method: 'HEAD' }));
  expect([head.status, head.body]).toEqual([200, '']);
});

test.each([
  ['PUT', '/tasks/1', 'DELETE, GET, HEAD, POST'],
  ['PATCH', '/tasks/1', 'DELETE, GET, HEAD, POST'],
  ['GET', '/ping', 'PUT'],
  ['POST', '/ping', 'PUT'],
])('verb-methods-405-with-allow: %s %s', async (method, path, allow) => {
  const r = await send(new Request(`http://localhost${path}`, { method }));
  expect([r.status, r.headers.get('allow')]).toEqual([405, allow]);
});

test('post() answers POST: a valid form redirects (303, or HX-Location for htmx)', async () => {
  const plain = await send(new Request('http://localhost/tasks/1', form({ title: 'Eggs' })));
  expect([plain.status, plain.headers.get('location')]).toEqual([303, '/tasks/1']);
  expect(tasks.get('1')).toEqual({ title: 'Eggs' });
  const hx = await send(htmxRequest('/tasks/1', { form: { title: 'Bread' } }));
  expect([hx.status, hx.headers.get('hx-location')]).toEqual([200, '/tasks/1']);
});

test('post() re-renders with its props: the whole page for a plain post, the form for htmx', async () => {
  const plain = await send(new Request('http://localhost/tasks/1', form({ title: ' ' })));
  expect(plain.status).toBe(422);
  expect(plain.body).toContain('<main><h1></h1>');
  expect(plain.body).toContain('<p class="error">A task needs a title</p>');
  const hx = await send(htmxRequest('/tasks/1', { form: { title: '<b>' }, target: TaskPage.prototype.editForm }));
  expect(hx.status).toBe(200); // "<b>" is a title: saved
  const bad = await send(htmxRequest('/tasks/1', { form: { title: '' }, target: TaskPage.prototype.editForm }));
  expect([bad.status, bad.body]).toEqual([
    422,
    '<form><input name="title" value=""/><p class="error">A task needs a title</p></form>',
  ]);
});

test('delete() answers DELETE; PUT on an action-only page', async () => {
  const r = await send(new Request('http://localhost/tasks/1', { method: 'DELETE' }));
  expect([r.status, r.body, tasks.has('1')]).toEqual([200, '<p>deleted</p>', false]);
  expect((await send(new Request('http://localhost/ping', { method: 'PUT' }))).body).toBe('pong');
});

test('verb methods are not components: an HX-Target naming one gets the full page', async () => {
  const r = await send(htmxRequest('/tasks/1', { version: 2, target: 'post' }));
  expect(r.body).toContain('<main>');
  expect(tree.root.children[0]!.components.map((c) => c.name)).toEqual(['page', 'editForm']);
});

test('urlFor treats the page as one route', () => {
  expect(tree.urlFor(TaskPage, { taskId: 7 })).toBe('/tasks/7');
});

describe('contradictions are mount errors naming the field', () => {
  class Edit {
    page() {
      return <p>edit</p>;
    }
    post() {
      return renderComponent(<p>saved</p>);
    }
  }
  class Handler {
    serveHTTP() {
      return new Response('x');
    }
    delete() {
      return new Response('gone');
    }
  }
  class GetOnly {
    edit = route('/edit', Edit);
  }
  test.each<[string, object, string]>([
    [
      'a method in the tag',
      { edit: route('GET /edit', Edit) },
      'Root.edit: defines post() but its route tag says GET: verb methods register their own methods ' +
        '(props and page answer GET); remove "GET" from the tag',
    ],
    [
      "a method inherited from a parent's tag",
      { admin: route('GET /admin', GetOnly) },
      'Root.admin.edit: defines post() but the route tag of a parent (Root.admin) says GET',
    ],
    [
      'serveHTTP beside a verb method',
      { h: route('/h', Handler) },
      'Root.h: defines serveHTTP() and delete(): serveHTTP answers every method itself; remove one of them',
    ],
  ])('%s', (_name, root, message) => {
    class Root {
      constructor() {
        Object.assign(this, root);
      }
    }
    expect(() => mount(new ServeMux(), Root)).toThrow(MountError);
    expect(() => mount(new ServeMux(), Root)).toThrow(message);
  });
});
