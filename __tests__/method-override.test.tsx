// methodOverride (issue 45, item 12): an HTML form can only GET or POST, so a no-JavaScript form says the verb it
// means in a `_method` field, and the wrapper around the mux turns that POST into a PUT, PATCH or DELETE before the
// mux routes it. The same verb methods then serve the form, htmx and curl.

import type { Server } from 'node:http';
import { z } from 'zod';
import {
  CrossOriginProtection,
  crossOriginProtection,
  htmxRequest,
  mount,
  parseForm,
  renderComponent,
  route,
  ServeMux,
  type PageRequest,
} from '../core/index.ts';
import { clientAddress } from '../core/kernel/adapter.ts';
import { serve } from '../core/node/index.ts';
import { MethodField, methodOverride, type MethodOverrideOptions } from '../core/forms/method-override.ts';
import { portOf, send } from './support/node-http.ts';

const urlencoded = { 'content-type': 'application/x-www-form-urlencoded' };
const sameOrigin = { ...urlencoded, 'sec-fetch-site': 'same-origin' };

/** /tasks/{taskId}: a page whose verb methods say which one ran, with the path value and the form's other fields. */
class TaskPage {
  props(req: PageRequest) {
    return { said: `get ${req.pathValue('taskId')}` };
  }
  async post(req: PageRequest) {
    const type = req.headers.get('content-type') ?? '';
    const body = type.startsWith('application/json') ? JSON.stringify(await req.json()) : await req.text();
    return renderComponent(<p safe>{`post ${req.pathValue('taskId')} ${body}`}</p>);
  }
  async put(req: PageRequest) {
    const form = await parseForm(req, z.object({ title: z.string().min(1) }));
    const title = form.ok ? form.data.title : 'invalid';
    return renderComponent(<p safe>{`put ${req.pathValue('taskId')} ${title}`}</p>);
  }
  async patch(req: PageRequest) {
    const form = await req.formData();
    return renderComponent(<p safe>{`patch ${req.pathValue('taskId')} ${String(form.get('done'))}`}</p>);
  }
  async delete(req: PageRequest) {
    const form = await parseForm(req, z.object({ note: z.string().default('none') }));
    const note = form.ok ? form.data.note : 'invalid';
    const from = clientAddress(req) || 'nowhere';
    return renderComponent(<p safe>{`delete ${req.pathValue('taskId')} ${note} from ${from}`}</p>);
  }
  page(props: { said: string }) {
    return (
      <form method="post">
        <MethodField method="DELETE" />
        <p safe>{props.said}</p>
      </form>
    );
  }
}

/** A page with no delete(): an overridden DELETE gets Go's 405, as a real one would. */
class NotePage {
  props() {
    return {};
  }
  post() {
    return renderComponent(<p>post note</p>);
  }
  page() {
    return <p>note</p>;
  }
}

class App {
  task = route('/tasks/{taskId} Task', TaskPage);
  note = route('/notes/{noteId} Note', NotePage);
}

/** The app with the cross-origin check as a mount middleware: inside the wrapper, it sees the verb. */
function app(options: MethodOverrideOptions = {}) {
  const mux = new ServeMux();
  mount(mux, App, '/', 'Home', { middlewares: [crossOriginProtection()] });
  return methodOverride(mux, options);
}

/** The same app with the check outside the wrapper (CrossOriginProtection.handler): it sees the POST. */
function appCheckedOutside() {
  const mux = new ServeMux();
  mount(mux, App, '/', 'Home');
  const outer = new ServeMux();
  outer.handle('/', new CrossOriginProtection().handler(methodOverride(mux)));
  return outer;
}

async function answer(res: Response | Promise<Response>): Promise<[number, string]> {
  const r = await res;
  return [r.status, (await r.text()).trim()];
}

function post(path: string, body: BodyInit, headers: Record<string, string> = sameOrigin): Request {
  return new Request(`http://localhost${path}`, { method: 'POST', headers, body });
}

function multipart(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
}

describe('methodOverride through fetch', () => {
  test.each<[string, Request, number, string]>([
    [
      'a POST form with _method=DELETE reaches delete() with its other fields',
      post('/tasks/7', '_method=DELETE&note=bye'),
      200,
      '<p>delete 7 bye from nowhere</p>',
    ],
    [
      '_method is read whatever its case, and the page can parseForm the body',
      post('/tasks/7', 'title=Milk&_method=put'),
      200,
      '<p>put 7 Milk</p>',
    ],
    [
      'a multipart form becomes a PATCH',
      post('/tasks/7', multipart({ _method: 'Patch', done: 'on' }), { 'sec-fetch-site': 'same-origin' }),
      200,
      '<p>patch 7 on</p>',
    ],
    [
      'a POST form without _method stays a POST, its body whole',
      post('/tasks/7', 'title=Milk'),
      200,
      '<p>post 7 title=Milk</p>',
    ],
    ['_method=POST stays a POST', post('/tasks/7', '_method=POST'), 200, '<p>post 7 _method=POST</p>'],
    [
      'a JSON POST is not read: it stays a POST',
      post('/tasks/7', '{"_method":"DELETE"}', { 'content-type': 'application/json' }),
      200,
      '<p>post 7 {&#34;_method&#34;:&#34;DELETE&#34;}</p>',
    ],
    [
      '_method=GET is refused: a GET has no body and changes nothing',
      post('/tasks/7', '_method=GET'),
      400,
      'Bad Request: _method &#34;GET&#34; is not PUT, PATCH or DELETE (methodOverride)',
    ],
    [
      'two _method fields that disagree are refused',
      post('/tasks/7', '_method=PUT&_method=DELETE'),
      400,
      'Bad Request: two _method fields disagree: &#34;PUT&#34; and &#34;DELETE&#34; (methodOverride)',
    ],
    [
      'an overridden DELETE of a page without delete() gets the 405 a DELETE gets',
      post('/notes/1', '_method=DELETE'),
      405,
      'Method Not Allowed',
    ],
    ['a GET stays a GET, _method in its query or not', new Request('http://localhost/tasks/7?_method=DELETE'), 200, ''],
    [
      'htmx sends the real verb: untouched',
      htmxRequest('/tasks/7', { version: 2, method: 'DELETE', form: { note: 'hx' } }),
      200,
      '<p>delete 7 hx from nowhere</p>',
    ],
  ])('%s', async (_name, req, status, body) => {
    const [got, text] = await answer(app().fetch(req));
    expect(got).toBe(status);
    if (req.method === 'GET') expect(text).toContain('get 7');
    else expect(text).toBe(body);
  });

  test('the form keeps the limits of parseForm: too many fields is a 413 naming the limit', async () => {
    const body = '_method=DELETE&' + Array.from({ length: 1001 }, (_, i) => `f${i}=1`).join('&');
    const [status, text] = await answer(app().fetch(post('/tasks/7', body)));
    expect(status).toBe(413);
    expect(text).toBe('Content Too Large: a form has at most 1000 fields (maxFields)');
  });

  test('the limits are options: a body past maxBytes is a 413 and is not read to its end', async () => {
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(c) {
        pulled++;
        c.enqueue(new TextEncoder().encode('_method=DELETE&note=' + 'x'.repeat(1000) + '&'));
      },
    });
    const req = new Request('http://localhost/tasks/7', {
      method: 'POST',
      headers: sameOrigin,
      body: endless,
      duplex: 'half',
    } as RequestInit);
    const [status, text] = await answer(app({ maxBytes: 10_000, maxFieldBytes: 2000 }).fetch(req));
    expect(status).toBe(413);
    expect(text).toBe('Content Too Large: a form has at most 10000 bytes (maxBytes)');
    expect(pulled).toBeLessThan(50);
  });

  test('a limit that is not a number is refused when the wrapper is made', () => {
    expect(() => methodOverride(new ServeMux(), { maxFields: Number('many') })).toThrow(
      'methodOverride(): maxFields NaN is not a number; give e.g. 1000',
    );
  });

  test.each([
    ['the check inside the wrapper (a mount middleware)', app],
    ['the check outside the wrapper (CrossOriginProtection.handler)', appCheckedOutside],
  ])('a cross-site form is refused, %s', async (_name, make) => {
    const { fetch } = make();
    const crossSite = { ...urlencoded, 'sec-fetch-site': 'cross-site' };
    expect(await answer(fetch(post('/tasks/7', '_method=DELETE&note=x', crossSite)))).toEqual([
      403,
      'cross-origin request detected from Sec-Fetch-Site header',
    ]);
    const evilOrigin = { ...urlencoded, origin: 'https://evil.example' };
    expect((await answer(fetch(post('/tasks/7', '_method=DELETE', evilOrigin))))[0]).toBe(403);
    // The same form from the app's own page passes.
    expect(await answer(fetch(post('/tasks/7', '_method=DELETE&note=ok')))).toEqual([
      200,
      '<p>delete 7 ok from nowhere</p>',
    ]);
  });
});

describe('MethodField', () => {
  test('renders the hidden field the wrapper reads', () => {
    expect(<MethodField method="DELETE" />).toBe('<input type="hidden" name="_method" value="DELETE">');
    expect(<MethodField method="PUT" />).toBe('<input type="hidden" name="_method" value="PUT">');
  });

  test('a method a form cannot mean is refused', () => {
    // @ts-expect-error: GET is a form's own method="get"
    expect(() => <MethodField method="GET" />).toThrow(
      'MethodField: method "GET" is not PUT, PATCH or DELETE; a form sends GET and POST itself (<form method="get">)',
    );
  });
});

describe('methodOverride on a real server (serve)', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    await new Promise<void>((resolve) => {
      server = serve(app({ maxBytes: 64 * 1024 }), {
        port: 0,
        hostname: '127.0.0.1',
        handleSignals: false,
        onListen: () => resolve(),
      });
    });
    port = portOf(server);
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test('a POST form with _method=DELETE reaches delete() with its fields, path value and client address', async () => {
    const r = await send(port, '/tasks/9', { method: 'POST', headers: sameOrigin, body: '_method=DELETE&note=bye' });
    expect([r.status, r.body.trim()]).toEqual([200, '<p>delete 9 bye from 127.0.0.1</p>']);
  });

  test('a multipart form with _method=PUT reaches put(), whose parseForm reads the body', async () => {
    const body = [
      '--b',
      'Content-Disposition: form-data; name="_method"',
      '',
      'PUT',
      '--b',
      'Content-Disposition: form-data; name="title"',
      '',
      'Milk',
      '--b--',
      '',
    ].join('\r\n');
    const headers = { 'content-type': 'multipart/form-data; boundary=b', 'sec-fetch-site': 'same-origin' };
    const r = await send(port, '/tasks/9', { method: 'POST', headers, body });
    expect([r.status, r.body.trim()]).toEqual([200, '<p>put 9 Milk</p>']);
  });

  test('a cross-site form is refused', async () => {
    const headers = { ...urlencoded, 'sec-fetch-site': 'cross-site' };
    const r = await send(port, '/tasks/9', { method: 'POST', headers, body: '_method=DELETE' });
    expect(r.status).toBe(403);
  });

  test('a body past the limit is a 413', async () => {
    const body = '_method=DELETE&note=' + 'x'.repeat(70 * 1024);
    const r = await send(port, '/tasks/9', { method: 'POST', headers: sameOrigin, body });
    expect([r.status, r.body.trim()]).toEqual([413, 'Content Too Large: a form has at most 65536 bytes (maxBytes)']);
  });

  test('a GET stays a GET; curl and htmx send the real verb', async () => {
    expect((await send(port, '/tasks/9?_method=DELETE')).body).toContain('get 9');
    const r = await send(port, '/tasks/9', { method: 'DELETE', headers: sameOrigin });
    expect([r.status, r.body.trim()]).toEqual([200, '<p>delete 9 none from 127.0.0.1</p>']);
  });
});
