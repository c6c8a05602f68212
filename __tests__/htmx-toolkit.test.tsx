// The htmx toolkit through the mux: what a request says (htmxDetails, currentRequest), what a page says back
// (the hx* header helpers, alsoRender), for htmx 2 and htmx 4, with requests built by htmxRequest.

import {
  HtmxConfig,
  alsoRender,
  currentRequest,
  htmxDetails,
  htmxRequest,
  hxLocation,
  hxPushUrl,
  hxRedirect,
  hxRefresh,
  hxReplaceUrl,
  hxReselect,
  hxReswap,
  hxRetarget,
  hxTrigger,
  id,
  mount,
  redirect,
  renderComponent,
  route,
  ServeMux,
  setHeader,
  setStatus,
  stopPolling,
  type HtmxDetails,
  type HtmxRequestOptions,
  type PageRequest,
  type RenderTarget,
} from '../core/index.ts';
import { detailsRecord, notHtmx, readHtmx } from '../core/request/htmx-details.ts';

const quiet = { error: () => {}, warn: () => {} };

// What a layout deep in the page reads without being handed the request.
function Footer() {
  return <footer safe>{new URL(currentRequest().url).pathname}</footer>;
}

class TasksPage {
  props(_req: PageRequest, target: RenderTarget) {
    alsoRender(this.openCount, <b>2</b>); // dropped unless the answer is a fragment
    return { partial: target.partial, component: target.component };
  }
  page(props: { partial: boolean }) {
    return (
      <main>
        <p id={id(this.openCount)}>{this.openCount()}</p>
        <ul id={id(this.taskList)}>{this.taskList(props)}</ul>
        <Footer />
      </main>
    );
  }
  taskList(props: { partial: boolean }) {
    return <li safe>{`partial: ${props.partial}`}</li>;
  }
  openCount() {
    return <b>2</b>;
  }
}

type StepFn = (req: PageRequest) => unknown;
const steps: Record<string, StepFn> = {
  'trigger-one': () => hxTrigger('task-added'),
  'trigger-many': () => {
    hxTrigger('task-added', { title: 'Café <b>' });
    hxTrigger('count-changed', 3);
    hxTrigger('swapped', undefined, { after: 'swap' });
    hxTrigger('settled', { n: 1 }, { after: 'settle' });
  },
  retarget: () => hxRetarget(TasksPage.prototype.taskList),
  'retarget-selector': () => hxRetarget('closest tr'),
  reswap: () => hxReswap('outerHTML swap:100ms'),
  reselect: () => hxReselect('#results'),
  push: () => hxPushUrl('/tasks?q=milk'),
  'no-push': () => hxPushUrl(false),
  replace: () => hxReplaceUrl('/tasks'),
  refresh: () => hxRefresh(),
  'hx-redirect': () => hxRedirect('/login'),
  location: () => hxLocation('/tasks'),
  'location-object': () =>
    hxLocation({ path: '/tasks', target: TasksPage.prototype.taskList, swap: 'outerHTML', push: false }),
  'stop-polling': () => {
    setHeader('x-stopped', String(stopPolling()));
  },
  'bad-header': () => hxPushUrl('/a\r\nset-cookie: x=1'),
  'bad-swap': () => hxReswap('sideways' as 'innerHTML'),
  // props returns a Response: what the helpers and setHeader recorded goes with it.
  'redirect-with-trigger': () => {
    hxTrigger('task-added');
    setHeader('Cache-Control', 'no-store');
    return redirect('/tasks');
  },
  'status-then-response': () => {
    setStatus(422);
    return new Response('nope', { status: 200 });
  },
  'response-keeps-its-own': () => {
    setHeader('Cache-Control', 'no-store');
    return new Response('own', { headers: { 'cache-control': 'max-age=60', 'set-cookie': 'a=1' } });
  },
};

/** POST /steps/{step}: an action that runs a step and answers with a fragment. */
class Step {
  props(req: PageRequest) {
    const result = steps[req.pathValue('step')]!(req);
    return result instanceof Response ? result : renderComponent(<p>done</p>);
  }
}

/** POST /add: adds a task and also updates the count region. */
class AddTask {
  async props(req: PageRequest) {
    const how = new URL(req.url).searchParams.get('how');
    if (how === 'async') alsoRender(TasksPage.prototype.openCount, Promise.resolve(<b>3</b>));
    else if (how === 'rows')
      alsoRender(
        'rows',
        <tr>
          <td>row</td>
        </tr>,
        { tag: 'tbody', swap: 'beforeend' },
      );
    else if (how === 'outer') alsoRender('panel', <section class="new">x</section>, { swap: 'outerHTML' });
    else if (how === 'odd-id') alsoRender('a"b<c', <i>odd</i>);
    else if (how === 'hash') alsoRender('#x', <i>x</i>);
    else if (how === 'fails') alsoRender('x', Promise.reject(new Error('region failed')));
    else alsoRender(TasksPage.prototype.openCount, <b>3</b>);
    return renderComponent(<li>new</li>);
  }
}

/** GET /details: the request's htmx details as JSON. */
class Details {
  serveHTTP() {
    return Response.json(htmxDetails());
  }
}

class App {
  tasks = route('/tasks Tasks', TasksPage);
  step = route('POST /steps/{step}', Step);
  add = route('POST /add', AddTask);
  details = route('/details', Details);
}

const mux = new ServeMux({ logger: quiet });
mount(mux, App, '/', 'App');

async function send(url: string, options: HtmxRequestOptions = {}) {
  const res = await mux.fetch(htmxRequest(url, options));
  return { status: res.status, headers: res.headers, body: await res.text() };
}

describe('htmxDetails: one view of what htmx 2 and htmx 4 say', () => {
  const none: HtmxDetails = {
    isHtmx: false,
    version: null,
    boosted: false,
    historyRestore: false,
    requestType: null,
    target: null,
    sourceId: null,
    sourceTag: null,
    sourceName: null,
    currentUrl: null,
    prompt: null,
    swapsIntoElement: false,
  };
  test.each<[string, Record<string, string>, Partial<HtmxDetails>]>([
    ['a plain request', {}, {}],
    ['htmx 2 partial', { 'hx-request': 'true', 'hx-target': 'tasks-task-list' }, { target: 'tasks-task-list' }],
    [
      'htmx 2 source element',
      { 'hx-request': 'true', 'hx-trigger': 'delete-btn', 'hx-trigger-name': 'action' },
      { sourceId: 'delete-btn', sourceName: 'action' },
    ],
    [
      'htmx 2 history restore',
      { 'hx-request': 'true', 'hx-history-restore-request': 'true', 'hx-current-url': 'http://x/a' },
      { historyRestore: true, currentUrl: 'http://x/a', swapsIntoElement: false },
    ],
    ['htmx 2 boosted', { 'hx-request': 'true', 'hx-boosted': 'true' }, { boosted: true, swapsIntoElement: false }],
    ['htmx 2 prompt', { 'hx-request': 'true', 'hx-prompt': 'yes' }, { prompt: 'yes' }],
    [
      'htmx 4 partial',
      { 'hx-request': 'true', 'hx-request-type': 'partial', 'hx-target': 'UL#tasks-task-list' },
      { version: 4, requestType: 'partial', target: 'tasks-task-list' },
    ],
    [
      'htmx 4 source element',
      { 'hx-request': 'true', 'hx-request-type': 'partial', 'hx-source': 'BUTTON#delete-btn' },
      { version: 4, requestType: 'partial', sourceTag: 'button', sourceId: 'delete-btn' },
    ],
    [
      'htmx 4 source without id',
      { 'hx-request': 'true', 'hx-request-type': 'full', 'hx-source': 'form', 'hx-target': 'body' },
      { version: 4, requestType: 'full', sourceTag: 'form', swapsIntoElement: false },
    ],
    // Issue 26: an element that is no component (a bare tag, a row) is still swapped into: a fragment.
    [
      'htmx 4 into a bare tag',
      { 'hx-request': 'true', 'hx-request-type': 'partial', 'hx-target': 'tr', 'hx-source': 'button' },
      { version: 4, requestType: 'partial', sourceTag: 'button' },
    ],
    ['htmx 2 into an id of no component', { 'hx-request': 'true', 'hx-target': 'row-3' }, { target: 'row-3' }],
    [
      'htmx 4 prompt (URI-encoded by its extension)',
      { 'hx-request': 'true', 'hx-request-type': 'partial', 'hx-prompt': 'caf%C3%A9' },
      { version: 4, requestType: 'partial', prompt: 'café' },
    ],
    // htmx 2 never names a target on a restore (what htmx 2.0 sent, seen in Chromium): one that does is no restore.
    [
      'htmx 2 history header with a target',
      { 'hx-request': 'true', 'hx-history-restore-request': 'true', 'hx-target': 'tasks-task-list' },
      { target: 'tasks-task-list' },
    ],
    // htmx 4 restores history without HX-Request (what htmx 4.0 sent, seen in Chromium): a page load.
    ['htmx 4 history restore', { 'hx-history-restore-request': 'true', 'hx-request-type': 'full' }, {}],
    // And an htmx 4 request never is one: htmx 2's header is not read from it (docs/htmx.md).
    [
      'htmx 4 with htmx 2 history header',
      { 'hx-request': 'true', 'hx-request-type': 'partial', 'hx-history-restore-request': 'true' },
      { version: 4, requestType: 'partial' },
    ],
  ])('%s', async (_name, headers, want) => {
    const res = await mux.fetch(new Request('http://localhost/details', { headers }));
    const isHtmx = headers['hx-request'] === 'true';
    const htmx = isHtmx ? { isHtmx, version: 2, swapsIntoElement: true } : {};
    expect(await res.json()).toEqual({ ...none, ...htmx, ...want });
  });

  // A header read costs Deno ~1,500 instructions (issue 28): what picks the component is read at once, the rest
  // when a page asks, once.
  test('reads the headers that pick a component at once, each other one on first use, once', () => {
    const asked: string[] = [];
    const headers = new Headers({
      'hx-request': 'true',
      'hx-target': 'list',
      'hx-trigger': 'del',
      'hx-trigger-name': 'action',
      'hx-current-url': 'http://x/a',
      'hx-boosted': 'true',
    });
    const get = headers.get.bind(headers);
    headers.get = (name: string) => (asked.push(name), get(name));
    const details = readHtmx(headers);
    expect(asked).toEqual(['hx-request', 'hx-request-type', 'hx-target']);
    expect(details.target).toBe('list');
    expect(details.sourceId).toBe('del');
    expect(details.sourceId).toBe('del');
    expect(details.currentUrl).toBe('http://x/a');
    expect(details.swapsIntoElement).toBe(false);
    expect(details.boosted).toBe(true);
    expect(asked.slice(3)).toEqual(['hx-trigger', 'hx-current-url', 'hx-boosted']);
  });

  test('reads htmx 2 history header only when the request names no target', () => {
    const asked: string[] = [];
    const headers = new Headers({ 'hx-request': 'true', 'hx-history-restore-request': 'true' });
    const get = headers.get.bind(headers);
    headers.get = (name: string) => (asked.push(name), get(name));
    expect(readHtmx(headers)).toMatchObject({ historyRestore: true, target: null, swapsIntoElement: false });
    expect(asked).toEqual(['hx-request', 'hx-request-type', 'hx-target', 'hx-history-restore-request']);
  });

  test('details give every field to JSON.stringify and detailsRecord, a spread the five read at once', () => {
    const details = htmxDetails(
      htmxRequest('/x', { version: 2, target: 'list', source: 'del', currentUrl: 'http://x/a' }),
    );
    const all = {
      isHtmx: true,
      version: 2,
      boosted: false,
      historyRestore: false,
      requestType: null,
      target: 'list',
      sourceId: 'del',
      sourceTag: null,
      sourceName: null,
      currentUrl: 'http://x/a',
      prompt: null,
      swapsIntoElement: true,
    };
    expect(JSON.parse(JSON.stringify(details))).toEqual(all);
    expect(detailsRecord(details)).toEqual(all);
    expect({ ...details }).toEqual({
      isHtmx: true,
      version: 2,
      requestType: null,
      historyRestore: false,
      target: 'list',
    });
    expect(detailsRecord(notHtmx)).toEqual(notHtmx);
  });

  test('a prompt round-trips through htmxRequest and htmxDetails', () => {
    expect(htmxDetails(htmxRequest('/x', { prompt: 'café 100%' })).prompt).toBe('café 100%');
    expect(htmxDetails(htmxRequest('/x', { version: 2, prompt: 'yes' })).prompt).toBe('yes');
  });

  test('a component chain resolves outside a request with the app mounted twice', () => {
    mount(new ServeMux(), App, '/', 'App');
    expect(htmxRequest('/tasks', { target: [TasksPage, 'taskList'] }).headers.get('hx-target')).toBe(
      'div#tasks-task-list',
    );
  });

  test('outside a request it needs the request', () => {
    expect(() => htmxDetails()).toThrow('htmxDetails(): called outside a request; pass the request');
    const req = htmxRequest('/x', { version: 2, target: 'list' });
    expect(htmxDetails(req).target).toBe('list');
  });
});

describe('htmxRequest builds what each htmx sends', () => {
  test.each<[string, HtmxRequestOptions, Record<string, string>]>([
    [
      'htmx 4 partial for a component',
      { target: TasksPage.prototype.taskList },
      { 'hx-request': 'true', 'hx-target': 'div#tasks-task-list', 'hx-request-type': 'partial' },
    ],
    [
      'htmx 2 partial for a component',
      { version: 2, target: TasksPage.prototype.taskList },
      { 'hx-request': 'true', 'hx-target': 'tasks-task-list' },
    ],
    [
      'htmx 4 boosted',
      { boosted: true },
      { 'hx-request': 'true', 'hx-target': 'body', 'hx-request-type': 'full', 'hx-boosted': 'true' },
    ],
    [
      'htmx 4 source and tags',
      { target: 'list', targetTag: 'ul', source: 'del', sourceTag: 'a' },
      { 'hx-request': 'true', 'hx-target': 'ul#list', 'hx-request-type': 'partial', 'hx-source': 'a#del' },
    ],
    [
      'htmx 2 source',
      { version: 2, source: 'del', sourceName: 'go', currentUrl: 'http://localhost/tasks' },
      {
        'hx-request': 'true',
        'hx-trigger': 'del',
        'hx-trigger-name': 'go',
        'hx-current-url': 'http://localhost/tasks',
      },
    ],
    // Issue 26.5: elements without an id (htmx 4 sends the bare tag; htmx 2 names elements by id only).
    [
      'htmx 4 bare tags',
      { targetTag: 'TR', sourceTag: 'button' },
      { 'hx-request': 'true', 'hx-target': 'tr', 'hx-request-type': 'partial', 'hx-source': 'button' },
    ],
    ['htmx 2 bare tags', { version: 2, targetTag: 'tr', sourceTag: 'button' }, { 'hx-request': 'true' }],
    [
      'htmx 4 tag#id and #id strings',
      { target: 'tr#row-3', source: '#delete' },
      { 'hx-request': 'true', 'hx-target': 'tr#row-3', 'hx-request-type': 'partial', 'hx-source': 'button#delete' },
    ],
    [
      'htmx 2 tag#id and #id strings',
      { version: 2, target: 'tr#row-3', source: '#delete' },
      { 'hx-request': 'true', 'hx-target': 'row-3', 'hx-trigger': 'delete' },
    ],
    [
      'htmx 2 history restore',
      { version: 2, historyRestore: true, target: 'list' },
      { 'hx-request': 'true', 'hx-history-restore-request': 'true' },
    ],
    [
      'htmx 4 history restore: no HX-Request',
      { historyRestore: true },
      { 'hx-history-restore-request': 'true', 'hx-request-type': 'full' },
    ],
    [
      'htmx 4 prompt, URI-encoded as its extension sends it',
      { prompt: 'café 100%' },
      { 'hx-request': 'true', 'hx-target': 'body', 'hx-request-type': 'full', 'hx-prompt': 'caf%C3%A9%20100%25' },
    ],
    [
      'a form post',
      { version: 2, form: { title: 'a&b', tag: ['x', 'y'] } },
      { 'hx-request': 'true', 'content-type': 'application/x-www-form-urlencoded' },
    ],
  ])('%s', async (_name, options, want) => {
    const req = htmxRequest('/tasks', options);
    // htmx 4 asks for HTML; htmx 2's XHR sends the browser's default.
    expect(Object.fromEntries(req.headers)).toEqual({ ...want, accept: options.version === 2 ? '*/*' : 'text/html' });
    expect(req.url).toBe('http://localhost/tasks');
    if (options.form) expect([req.method, await req.text()]).toEqual(['POST', 'title=a%26b&tag=x&tag=y']);
    else expect(req.method).toBe('GET');
  });

  // Issue 45.2: where each htmx puts a form's values, and its Content-Type, per method (seen in Chromium:
  // __tests__/first-hour/htmx-requests.test.ts compares these requests with the browser's).
  const form = { ids: ['1', '2'], note: 'a b' };
  const urlencoded = 'application/x-www-form-urlencoded';
  test.each<[2 | 4, string, string, string | null, string]>([
    [4, 'GET', '/tasks?page=2&ids=1&ids=2&note=a+b', null, ''],
    [4, 'POST', '/tasks?page=2', `${urlencoded};charset=UTF-8`, 'ids=1&ids=2&note=a+b'],
    [4, 'PUT', '/tasks?page=2', `${urlencoded};charset=UTF-8`, 'ids=1&ids=2&note=a+b'],
    [4, 'PATCH', '/tasks?page=2', `${urlencoded};charset=UTF-8`, 'ids=1&ids=2&note=a+b'],
    [4, 'DELETE', '/tasks?page=2&ids=1&ids=2&note=a+b', null, ''],
    [2, 'GET', '/tasks?page=2&ids=1&ids=2&note=a%20b', null, ''],
    [2, 'POST', '/tasks?page=2', urlencoded, 'ids=1&ids=2&note=a%20b'],
    [2, 'PUT', '/tasks?page=2', urlencoded, 'ids=1&ids=2&note=a%20b'],
    [2, 'PATCH', '/tasks?page=2', urlencoded, 'ids=1&ids=2&note=a%20b'],
    [2, 'DELETE', '/tasks?page=2&ids=1&ids=2&note=a%20b', urlencoded, ''],
  ])('htmx %s %s: a form in %s, Content-Type %s', async (version, method, url, type, body) => {
    const req = htmxRequest('/tasks?page=2', { version, method, form });
    const where = new URL(req.url);
    expect([req.method, where.pathname + where.search, req.headers.get('content-type'), await req.text()]).toEqual([
      method,
      url,
      type,
      body,
    ]);
  });
});

describe('the render target tells the truth', () => {
  test.each<[string, HtmxRequestOptions, string]>([
    [
      'htmx 4 partial',
      { target: TasksPage.prototype.taskList },
      '<hx-partial id="tasks-open-count" hx-swap="innerHTML"><b>2</b></hx-partial>',
    ],
    [
      'htmx 2 partial',
      { version: 2, target: TasksPage.prototype.taskList },
      '<template><div id="tasks-open-count" hx-swap-oob="innerHTML"><b>2</b></div></template>',
    ],
  ])('%s renders the component, partial, with the region props added', async (_name, options, region) => {
    expect((await send('/tasks', options)).body).toBe('<li>partial: true</li>' + region);
  });

  // htmx 2 follows HX-Location with HX-Request and no HX-Target: a full page, and props must not think it partial.
  test.each<[string, HtmxRequestOptions]>([
    ['htmx-location-follow-is-not-partial (htmx 2)', { version: 2 }],
    ['htmx 4 HX-Location follow (target body)', {}],
    ['an id that names no component', { version: 2, target: 'somewhere-else' }],
    ['htmx 2 history restore', { version: 2, historyRestore: true }],
    ['htmx 4 boosted', { boosted: true }],
    ['an id that selects page() itself', { version: 2, target: 'page' }],
  ])('%s: the full page, target not partial', async (_name, options) => {
    const r = await send('/tasks', options);
    expect(r.body).toContain('<li>partial: false</li>');
    expect(r.body).toContain('<footer>/tasks</footer>');
    expect(r.body).not.toContain('hx-partial');
    expect(r.body).not.toContain('hx-swap-oob');
  });
});

describe('response headers', () => {
  test.each<[string, 2 | 4, Record<string, string>]>([
    ['trigger-one', 4, { 'hx-trigger': 'task-added' }],
    ['trigger-one', 2, { 'hx-trigger': 'task-added' }],
    [
      'trigger-many',
      2,
      {
        'hx-trigger': '{"task-added":{"title":"Caf\\u00e9 <b>"},"count-changed":3}',
        'hx-trigger-after-swap': 'swapped',
        'hx-trigger-after-settle': '{"settled":{"n":1}}',
      },
    ],
    // htmx 4 has no after-swap/after-settle headers: one HX-Trigger, fired after the swap.
    [
      'trigger-many',
      4,
      { 'hx-trigger': '{"task-added":{"title":"Caf\\u00e9 <b>"},"count-changed":3,"swapped":null,"settled":{"n":1}}' },
    ],
    ['retarget', 4, { 'hx-retarget': '#tasks-task-list' }],
    ['retarget-selector', 2, { 'hx-retarget': 'closest tr' }],
    ['reswap', 4, { 'hx-reswap': 'outerHTML swap:100ms' }],
    ['reselect', 2, { 'hx-reselect': '#results' }],
    ['push', 4, { 'hx-push-url': '/tasks?q=milk' }],
    ['no-push', 2, { 'hx-push-url': 'false' }],
    ['replace', 4, { 'hx-replace-url': '/tasks' }],
    ['refresh', 2, { 'hx-refresh': 'true' }],
    ['hx-redirect', 4, { 'hx-redirect': '/login' }],
    ['location', 2, { 'hx-location': '/tasks' }],
    [
      'location-object',
      4,
      { 'hx-location': '{"path":"/tasks","target":"#tasks-task-list","swap":"outerHTML","push":"false"}' },
    ],
    ['stop-polling', 4, { 'x-stopped': 'false' }],
  ])('%s (htmx %s)', async (step, version, want) => {
    const r = await send(`/steps/${step}`, { version, method: 'POST', target: 'out' });
    expect(r.status).toBe(200);
    const hx = Object.fromEntries([...r.headers].filter(([name]) => name.startsWith('hx-') || name === 'x-stopped'));
    expect(hx).toEqual(want);
  });

  test('stopPolling answers htmx 2 with 286', async () => {
    const r = await send('/steps/stop-polling', { version: 2, method: 'POST' });
    expect([r.status, r.headers.get('x-stopped'), r.body]).toEqual([286, 'true', '<p>done</p>']);
  });

  test.each([
    ['bad-header', 'hxPushUrl(): the URL "/a\\r\\nset-cookie: x=1" holds a control character (U+000D)'],
    ['bad-swap', 'hxReswap(): unknown swap style "sideways"'],
    ['status-then-response', 'returned a Response with status 200 after setStatus(422)'],
  ])('%s is a clear error: a 500, logged, nothing half-sent', async (step, message) => {
    const logged: unknown[] = [];
    const m = new ServeMux({ logger: { error: (...args) => logged.push(...args), warn: () => {} } });
    mount(m, App, '/', 'App');
    const res = await m.fetch(htmxRequest(`/steps/${step}`, { method: 'POST' }));
    expect([res.status, await res.text()]).toEqual([500, 'Internal Server Error\n']);
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(String(logged.find((x) => x instanceof Error))).toContain(message);
  });

  test('a Response from props gets the recorded headers: redirect() with a trigger', async () => {
    const r = await send('/steps/redirect-with-trigger', { version: 2, method: 'POST' });
    expect([r.status, r.headers.get('hx-location'), r.headers.get('hx-trigger')]).toEqual([
      200,
      '/tasks',
      'task-added',
    ]);
    expect(r.headers.get('cache-control')).toBe('no-store');
    const plain = await mux.fetch(new Request('http://localhost/steps/redirect-with-trigger', { method: 'POST' }));
    expect([plain.status, plain.headers.get('location'), plain.headers.get('cache-control')]).toEqual([
      303,
      '/tasks',
      'no-store',
    ]);
  });

  test("a Response's own headers win over recorded ones, cookies kept", async () => {
    const r = await send('/steps/response-keeps-its-own', { method: 'POST' });
    expect([r.body, r.headers.get('cache-control'), r.headers.get('set-cookie')]).toEqual(['own', 'max-age=60', 'a=1']);
  });
});

describe('alsoRender: several regions in one answer', () => {
  test.each<[string, HtmxRequestOptions, string]>([
    [
      'htmx 4 gets <hx-partial>',
      { method: 'POST', target: TasksPage.prototype.taskList },
      '<li>new</li><hx-partial id="tasks-open-count" hx-swap="innerHTML"><b>3</b></hx-partial>',
    ],
    [
      'htmx 2 gets hx-swap-oob',
      { method: 'POST', version: 2, target: TasksPage.prototype.taskList },
      '<li>new</li><template><div id="tasks-open-count" hx-swap-oob="innerHTML"><b>3</b></div></template>',
    ],
  ])('%s', async (_name, options, want) => {
    expect((await send('/add', options)).body).toBe(want);
    expect((await send('/add?how=async', options)).body).toBe(want);
  });

  test.each<[string, 2 | 4, string]>([
    ['rows', 4, '<hx-partial id="rows" hx-swap="beforeend"><tr><td>row</td></tr></hx-partial>'],
    ['rows', 2, '<template><tbody id="rows" hx-swap-oob="beforeend"><tr><td>row</td></tr></tbody></template>'],
    ['outer', 4, '<hx-partial id="panel" hx-swap="outerHTML"><section class="new">x</section></hx-partial>'],
    ['outer', 2, '<template><section hx-swap-oob="outerHTML:#panel" class="new">x</section></template>'],
    ['odd-id', 4, '<hx-partial id="a&#34;b&lt;c" hx-swap="innerHTML"><i>odd</i></hx-partial>'],
  ])('%s (htmx %s)', async (how, version, region) => {
    expect((await send(`/add?how=${how}`, { method: 'POST', version })).body).toBe('<li>new</li>' + region);
  });

  test('a plain form post and a full page get no regions', async () => {
    const plain = await mux.fetch(new Request('http://localhost/add', { method: 'POST' }));
    expect(await plain.text()).toBe('<li>new</li>');
    const page = await send('/tasks', { version: 2 });
    expect(page.body).toContain('<p id="tasks-open-count"><b>2</b></p>');
    expect(page.body).not.toContain('hx-swap-oob');
  });

  test.each([
    ['hash', 'alsoRender("#x"): give the element id without "#", or the component'],
    ['fails', 'region failed'],
  ])('%s: a clear error, a 500 with no half answer', async (how, message) => {
    const logged: unknown[] = [];
    const m = new ServeMux({ logger: { error: (...args) => logged.push(...args), warn: () => {} } });
    mount(m, App, '/', 'App');
    const res = await m.fetch(htmxRequest(`/add?how=${how}`, { method: 'POST' }));
    expect([res.status, await res.text()]).toEqual([500, 'Internal Server Error\n']);
    expect(String(logged.find((x) => x instanceof Error))).toContain(message);
  });

  test('outside a request the helpers say where to call them', () => {
    expect(() => alsoRender('x', 'y')).toThrow('alsoRender(): called outside a request');
    expect(() => hxTrigger('x')).toThrow('hxTrigger(): called outside a request');
    expect(() => currentRequest()).toThrow('currentRequest(): called outside a request');
  });
});

// Issue 26.7: the meta that makes htmx 2 swap a 422, exported instead of copied into every app.
describe('HtmxConfig', () => {
  const entities: Record<string, string> = { '&#34;': '"', '&#39;': "'", '&lt;': '<', '&gt;': '>', '&amp;': '&' };
  const meta = (html: string) =>
    JSON.parse(
      /content="([^"]*)"/.exec(html)![1]!.replace(/&#34;|&#39;|&lt;|&gt;|&amp;/g, (e) => entities[e]!),
    ) as unknown;

  test('htmx 2 swaps 422; 204 stays unswapped; other 4xx and 5xx are errors', () => {
    const html = (<HtmxConfig />) as string;
    expect(html).toMatch(/^<meta name="htmx-config" content="[^"<>]*"\/>$/);
    expect(meta(html)).toEqual({
      responseHandling: [
        { code: '204', swap: false },
        { code: '[23]..', swap: true },
        { code: '422', swap: true },
        { code: '[45]..', swap: false, error: true },
        { code: '...', swap: true },
      ],
    });
  });

  test("the app's own settings merge in, and its own responseHandling replaces pagetree's", () => {
    const html = (<HtmxConfig config={{ historyCacheSize: 0, note: `"</meta><script>` }} />) as string;
    expect(html).not.toContain('<script>');
    expect(meta(html)).toMatchObject({ historyCacheSize: 0, note: `"</meta><script>` });
    const own = (<HtmxConfig config={{ responseHandling: [{ code: '...', swap: true }] }} />) as string;
    expect(meta(own)).toEqual({ responseHandling: [{ code: '...', swap: true }] });
  });
});

// Issue 26.2: an answer made only of regions swaps its empty fragment too, on htmx 4 as on htmx 2.
describe('an answer made only of regions', () => {
  class Rows {
    page() {
      return <p id={id(this.count)}>{this.count()}</p>;
    }
    count() {
      return <>2 rows</>;
    }
    delete() {
      alsoRender(Rows.prototype.count, <>1 row</>);
      return renderComponent('');
    }
  }
  class RowsApp {
    rows = route('/rows', Rows);
  }
  const rowsMux = new ServeMux({ logger: quiet });
  mount(rowsMux, RowsApp);

  test.each<[2 | 4, string]>([
    [4, '<template></template><hx-partial id="rows-count" hx-swap="innerHTML">1 row</hx-partial>'],
    [2, '<template><div id="rows-count" hx-swap-oob="innerHTML">1 row</div></template>'],
  ])('htmx %s', async (version, body) => {
    const res = await rowsMux.fetch(htmxRequest('/rows', { version, method: 'DELETE', targetTag: 'tr' }));
    expect([res.status, await res.text()]).toEqual([200, body]);
  });
});
