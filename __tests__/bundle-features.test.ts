// A one-page worker ships only the features it uses (issue 42, item 5): bundled as wrangler bundles a worker
// (esbuild, ES modules, the workerd conditions), from core/'s sources, a page that serves no file, streams nothing
// and turns on no tracing, sessions or cookies carries none of their code. The same page with the feature turned on
// carries it, so each row checks the cut and not a bundle that lost the feature. bench/bundle measures the bytes;
// this test pins which files are in.

import { build, type Plugin } from 'esbuild';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './support/package.ts';

let dir: string;
beforeAll(() => {
  mkdirSync(join(repoRoot, 'build'), { recursive: true }); // absent in a fresh clone
  dir = mkdtempSync(join(repoRoot, 'build', 'bundle-features-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// 'pagetree' and its JSX runtime from the sources, as tsconfig.json's paths map them.
const sources: Plugin = {
  name: 'pagetree-sources',
  setup(b) {
    b.onResolve({ filter: /^pagetree$/ }, () => ({ path: join(repoRoot, 'core/index.ts') }));
    b.onResolve({ filter: /^pagetree\/jsx-runtime$/ }, () => ({ path: join(repoRoot, 'jsx-runtime/index.ts') }));
  },
};

/** The repository files (and packages) a worker of `app`'s source bundles, with their minified bytes. */
async function inputs(name: string, app: string): Promise<Map<string, number>> {
  const entry = join(dir, `${name}.tsx`);
  writeFileSync(entry, app);
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    conditions: ['workerd', 'worker', 'browser'],
    external: ['node:*', 'cloudflare:*'],
    metafile: true,
    logLevel: 'silent',
    absWorkingDir: repoRoot,
    tsconfigRaw: JSON.stringify({ compilerOptions: { jsx: 'react-jsx', jsxImportSource: 'pagetree' } }),
    plugins: [sources],
  });
  const output = Object.values(result.metafile.outputs)[0]!;
  return new Map(
    Object.entries(output.inputs)
      .filter(([, i]) => i.bytesInOutput > 0)
      .map(([path, i]) => [path, i.bytesInOutput]),
  );
}

const page = (extra = '', imports = '') => `
import { id, mount, route, ServeMux } from 'pagetree';
${imports}
class HomePage {
  ${extra}
  page() {
    return <ul id={id(this.items)}>{this.items()}</ul>;
  }
  items() {
    return <li>Milk</li>;
  }
}
class App {
  home = route('GET /{$} Home', HomePage);
}
const mux = new ServeMux();
mount(mux, App, '/', 'Home');
export default { fetch: (req: Request) => mux.fetch(req) };
`;

const has = (files: Map<string, number>, part: string) => [...files.keys()].some((f) => f.includes(part));

test('one-page-worker-ships-no-static-files-code', async () => {
  const files = await inputs('plain', page());
  expect(has(files, 'node_modules/mime/')).toBe(false);
  expect(has(files, 'core/static/')).toBe(false);
}, 30_000);

test('one-page-worker-ships-no-streaming-code', async () => {
  const files = await inputs('plain', page());
  expect(has(files, 'core/pipeline/streaming.ts')).toBe(false);
  // …and a page that streams with <Suspense> does.
  const streamed = await inputs(
    'streamed',
    page(
      'stream = true;',
      "import { Suspense } from 'pagetree';\nconst Late = async () => <p>late</p>;\nexport const s = <Suspense fallback={<p>…</p>}><Late /></Suspense>;",
    ),
  );
  expect(has(streamed, 'core/pipeline/streaming.ts')).toBe(true);
}, 30_000);

test('one-page-worker-ships-no-cookie-or-session-code', async () => {
  const files = await inputs('plain', page());
  expect(has(files, 'core/auth/')).toBe(false);
  expect(has(files, 'node_modules/cookie/')).toBe(false);
}, 30_000);

test('one-page-worker-ships-no-websocket-connection-code', async () => {
  const files = await inputs('plain', page());
  expect(has(files, 'core/live/connection.ts')).toBe(false);
  // …and a worker that opens sockets itself (an adapter, through pagetree/adapter's openSocket) does.
  const adapter = await inputs(
    'sockets',
    page('', `import { openSocket } from '${join(repoRoot, 'core/adapter.ts')}';\nexport const open = openSocket;`),
  );
  expect(has(adapter, 'core/live/connection.ts')).toBe(true);
}, 30_000);
