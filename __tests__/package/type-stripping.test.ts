// pagetree's sources run under Node's own type stripping (Node 24, no loader): relative imports carry their `.ts`
// extension and the sources use only erasable syntax (tsconfig's erasableSyntaxOnly; no parameter properties, no
// enums). The same property lets Deno run them without --sloppy-imports.

import { join } from 'node:path';
import { nodeBinary, repoRoot, run } from '../support/package.ts';

jest.setTimeout(300_000);

test('Node 24 runs the sources as they are: a mux, a page tree and a fetch', () => {
  const script = `
    import { ServeMux, mount, route } from './core/index.ts';
    class Hello { serveHTTP(req) { return new Response('hello ' + req.pathValue('name')); } }
    class App { hello = route('GET /hello/{name}', Hello); }
    const mux = new ServeMux();
    mount(mux, App);
    const res = await mux.fetch(new Request('http://localhost/hello/node'));
    const missing = await mux.fetch(new Request('http://localhost/nope'));
    console.log(JSON.stringify([res.status, await res.text(), missing.status]));
  `;
  const out = run(nodeBinary(24), ['--input-type=module', '--eval', script], repoRoot);
  expect(JSON.parse(out)).toEqual([200, 'hello node', 404]);
});

test('every source module of the package loads under type stripping', () => {
  const entries = ['core/index.ts', 'core/node/index.ts', 'core/static/embed.ts', 'jsx-runtime/index.ts'];
  const script = `for (const e of ${JSON.stringify(entries)}) await import('./' + e); console.log('ok');`;
  expect(run(nodeBinary(24), ['--input-type=module', '--eval', script], join(repoRoot)).trim()).toBe('ok');
});
