// pagetree/bun's serve(mux) on the real Bun (1.4.5, from the npm registry as the runtime tests get it): the app in
// server.tsx answers as mux.fetch would, a synchronous page and one that waits, HEAD without a body, a handler that
// throws with a bare 500, and clientAddress from Bun's server.

import { join } from 'node:path';
import { request } from 'node:http';
import { repoRoot, serveProcess, toolPackage, type Served } from '../support/package.ts';
import * as bunEntry from '../../core/bun/index.ts';
import { serve } from '../../core/bun/index.ts';
import { ServeMux } from '../../core/index.ts';

jest.setTimeout(120_000);

let app: Served;

beforeAll(async () => {
  const bun = join(toolPackage('bun', '1.4.5'), '../.bin/bun');
  app = await serveProcess(bun, [join(__dirname, 'server.tsx')], repoRoot);
});

afterAll(() => app?.stop());

/** One request on a fresh connection, the answer as the client sees it. */
function send(method: string, path: string): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    request(`${app.url}${path}`, { method, agent: false }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, type: String(res.headers['content-type']), body }));
    })
      .on('error', reject)
      .end();
  });
}

test.each([
  { method: 'GET', path: '/items/pen', status: 200, type: 'text/html; charset=utf-8', body: '<p>item pen</p>' },
  { method: 'GET', path: '/slow', status: 200, type: 'text/html; charset=utf-8', body: '<p>later</p>' },
  { method: 'HEAD', path: '/items/pen', status: 200, type: 'text/html; charset=utf-8', body: '' },
  { method: 'GET', path: '/who', status: 200, type: 'text/plain;charset=utf-8', body: '127.0.0.1' },
  { method: 'GET', path: '/throws', status: 500, type: 'text/plain; charset=utf-8', body: 'Internal Server Error\n' },
  { method: 'GET', path: '/nowhere', status: 404, type: 'text/plain; charset=utf-8', body: '404 page not found\n' },
  { method: 'POST', path: '/slow', status: 405, type: 'text/plain; charset=utf-8', body: 'Method Not Allowed\n' },
])('serve(mux) on Bun: $method $path → $status', async ({ method, path, status, type, body }) => {
  expect(await send(method, path)).toEqual({ status, type, body });
});

test("serve(mux) on Bun: a handler's failure is logged by the mux's logger", async () => {
  await send('GET', '/throws');
  expect(app.output()).toContain('logged: pagetree: handler for GET http://127.0.0.1');
});

test('serve(mux) outside Bun says so and what to use instead', () => {
  expect(() => serve(new ServeMux())).toThrow(
    "pagetree/bun serve(): Bun.serve is missing, so this is not Bun; run the app with bun, or serve it with pagetree/node's serve",
  );
});

test('the public names of pagetree/bun', () => {
  expect(Object.keys(bunEntry).sort()).toEqual(['serve']);
});
