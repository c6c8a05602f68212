// liveReload: a dev-only script in full pages, and the id that says which process serves.

import { ServeMux, liveReload, mount, route } from '../core/index.ts';
import { createApp } from '../pages-example/app.tsx';
import { fetchPage, htmx2, htmx4 } from './support/http.ts';

class Home {
  page() {
    return (
      <html>
        <body>
          <p>home</p>
        </body>
      </html>
    );
  }
  list() {
    return <ul></ul>;
  }
}
class Data {
  serveHTTP() {
    return Response.json({ ok: true });
  }
}
class App {
  home = route('/{$}', Home);
  data = route('/data', Data);
}

function devMux(): ServeMux {
  const mux = new ServeMux();
  mount(mux, App, '/', '', { middlewares: [liveReload(mux)] });
  return mux;
}

test('a full page gets the reload script before </body>', async () => {
  const page = await fetchPage(devMux(), '/');
  expect(page.body).toMatch(/^<html><body><p>home<\/p><script>\(\(\)=>\{let id;.*fetch\("\/__pagetree\/live-reload"/);
  expect(page.body.endsWith('</script></body></html>')).toBe(true);
  expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
});

test.each([
  ['an htmx 2 partial', htmx2('home-list')],
  ['an htmx 4 partial', htmx4('ul#home-list')],
])('%s gets no script', async (_, headers) => {
  expect((await fetchPage(devMux(), '/', { headers })).body).toBe('<ul></ul>');
});

test('a history restore is a full page and gets the script', async () => {
  const page = await fetchPage(devMux(), '/', {
    headers: htmx2(undefined, { 'HX-History-Restore-Request': 'true' }),
  });
  expect(page.body).toContain('/__pagetree/live-reload');
});

test('other content types are left alone', async () => {
  expect((await fetchPage(devMux(), '/data')).body).toBe('{"ok":true}');
});

test('the endpoint answers the id of this server, never cached; another server has another', async () => {
  const mux = devMux();
  const a = await fetchPage(mux, '/__pagetree/live-reload');
  expect(a.headers.get('cache-control')).toBe('no-store');
  expect(a.body).toMatch(/^[0-9a-f-]{36}$/);
  expect((await fetchPage(mux, '/__pagetree/live-reload')).body).toBe(a.body);
  expect((await fetchPage(devMux(), '/__pagetree/live-reload')).body).not.toBe(a.body);
});

test('the example serves no reload code unless asked (npm start)', async () => {
  const plain = createApp({ databasePath: ':memory:' });
  expect((await fetchPage(plain.mux, '/')).body).not.toContain('live-reload');
  expect((await fetchPage(plain.mux, '/__pagetree/live-reload')).status).toBe(404);
  await plain.store.close();
  const dev = createApp({ databasePath: ':memory:', liveReload: true });
  expect((await fetchPage(dev.mux, '/')).body).toContain('/__pagetree/live-reload');
  await dev.store.close();
});
