// The app's own 404 page (mount option notFound) for unmatched paths, while 405 with Allow, the trailing-slash
// redirect and path cleaning stay Go's.

import {
  currentPage,
  htmxDetails,
  htmxRequest,
  mount,
  MountError,
  renderComponent,
  route,
  ServeMux,
  type Children,
  type Middleware,
} from '../core/index.ts';

function Layout(props: { children?: Children }) {
  return (
    <html>
      <head>
        <title safe>{currentPage().title}</title>
      </head>
      <body>{props.children}</body>
    </html>
  );
}

class NotFoundPage {
  props() {
    // htmx swaps the answer into an element: a fragment, not a second layout.
    const hx = htmxDetails();
    if (hx.isHtmx && !hx.boosted && hx.requestType !== 'full') return renderComponent(<p class="missing">Not found</p>);
    return {};
  }
  page() {
    return (
      <Layout>
        <h1>Nothing here</h1>
      </Layout>
    );
  }
}

class Home {
  page() {
    return <p>home</p>;
  }
}
class Admin {
  index = route('/{$} Admin', Home);
}
class App {
  home = route('GET /{$} Home', Home);
  admin = route('/admin Admin', Admin);
}

const marked: Middleware = (next) => async (req) => {
  const res = await next(req);
  res.headers.set('x-app', '1');
  return res;
};

const mux = new ServeMux();
mount(mux, App, '/', 'App', { notFound: NotFoundPage, middlewares: [marked] });

async function send(req: Request) {
  const res = await mux.fetch(req);
  return { status: res.status, headers: res.headers, body: await res.text() };
}

test('an unmatched path gets the app page with status 404, through the middlewares', async () => {
  const r = await send(new Request('http://localhost/nope?x=1'));
  expect(r.status).toBe(404);
  expect(r.body).toBe('<html><head><title>Not Found</title></head><body><h1>Nothing here</h1></body></html>');
  expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(r.headers.get('vary')).toBe('HX-Request, HX-Target, HX-Request-Type');
  expect(r.headers.get('x-app')).toBe('1');
  const head = await send(new Request('http://localhost/nope', { method: 'HEAD' }));
  expect([head.status, head.body]).toEqual([404, '']);
});

test.each<[string, Parameters<typeof htmxRequest>[1]]>([
  ['htmx 4', { target: 'list' }],
  ['htmx 2', { version: 2, target: 'list' }],
])('%s swapping into an element gets a fragment', async (_name, options) => {
  const r = await send(htmxRequest('/nope', options));
  expect([r.status, r.body]).toEqual([404, '<p class="missing">Not found</p>']);
});

test('a boosted link gets the whole page', async () => {
  const r = await send(htmxRequest('/nope', { boosted: true }));
  expect([r.status, r.body]).toEqual([404, expect.stringContaining('<h1>Nothing here</h1>')]);
});

test.each([
  ['405 with Allow', new Request('http://localhost/', { method: 'POST' }), 405, 'allow', 'GET, HEAD'],
  ['the trailing-slash redirect', new Request('http://localhost/admin'), 307, 'location', '/admin/'],
  ['path cleaning', new Request('http://localhost/admin//'), 307, 'location', '/admin/'],
])('%s stays as Go does it', async (_name, req, status, header, value) => {
  const r = await send(req);
  expect([r.status, r.headers.get(header)]).toEqual([status, value]);
});

test('without the option, the plain 404', async () => {
  const m = new ServeMux();
  mount(m, App);
  const res = await m.fetch(new Request('http://localhost/nope'));
  expect([res.status, await res.text()]).toEqual([404, '404 page not found\n']);
});

test('a not-found page that fails gets the error handler, no half page', async () => {
  class Broken {
    page(): JSX.Element {
      throw new Error('broken 404 page');
    }
  }
  const m = new ServeMux({ logger: { error: () => {}, warn: () => {} } });
  mount(m, App, '/', 'App', { notFound: Broken });
  const res = await m.fetch(new Request('http://localhost/nope'));
  expect([res.status, await res.text()]).toEqual([500, 'Internal Server Error\n']);
});

test.each<[string, object, string]>([
  [
    'a group',
    { admin: route('/admin', Admin) },
    'App (notFound): the notFound page has no page(), props() or serveHTTP()',
  ],
  ['an empty object', {}, 'App (notFound): the notFound page has no page(), props() or serveHTTP()'],
])('a not-found page that cannot render is a mount error: %s', (_name, page, message) => {
  expect(() => mount(new ServeMux(), App, '/', 'App', { notFound: page })).toThrow(MountError);
  expect(() => mount(new ServeMux(), App, '/', 'App', { notFound: page })).toThrow(message);
});
