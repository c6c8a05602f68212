// What a worker ships: the minified and gzip sizes of Cloudflare Workers bundles, built as wrangler builds them
// (esbuild, minified), and the files of pagetree's that weigh most in its one-page worker (issue 42, item 5).
//
//   pagetree     bench/bundle/pagetree-app.tsx: one page class with page() and a partial, mux.fetch
//   Hono         bench/bundle/hono-app.tsx: the same page and partial on Hono 4 (hono/jsx)
//   Hono, html   bench/bundle/hono-html-app.ts: the same without JSX (hono/html), Hono's smallest
//   template     what `npm create pagetree -- --runtime workers` writes (create-pagetree/template/workers + common),
//                its static files embedded as its `npm run assets` does (pagetree-embed: static/ and htmx)
//
//   npm run bench:bundle                         builds dist/ (npm run build), then bundles
//   TOP=30 npm run bench:bundle                  the 30 heaviest inputs instead of 15
//   KEEP_NAMES=0 npm run bench:bundle            esbuild's plain --minify (wrangler keeps names unless told not to)
//   PAGETREE_PACKAGE=/tmp/base tsx bench/bundle/run.ts
//                                                another checkout's pagetree, built (its package.json and dist/)
//
// pagetree is imported by its name ('pagetree', 'pagetree/jsx-runtime') and resolved through the package's
// "exports", as in an app's node_modules: the built dist/, whatever core/'s files are called. Before measuring,
// each bundle is imported and must answer: the page and the partial (the same bytes from pagetree and Hono), the
// template's home page. The work (the scaffolded template, the bundles) is left in <package>/build/bundle/.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, version as esbuildVersion, type BuildOptions, type Metafile, type Plugin } from 'esbuild';
import { environment, runMain, setting } from '../lib/main.ts';
import { fail, formatInt, formatRatio, printTable } from '../lib/report.ts';

const repo = resolve(__dirname, '..', '..');
const pkgDir = resolve(process.env.PAGETREE_PACKAGE ?? repo);
const work = join(pkgDir, 'build', 'bundle');
const TOP = setting('TOP', 15, 1, 500);
const KEEP_NAMES = setting('KEEP_NAMES', 1, 0, 1) === 1;

interface PackageJson {
  version: string;
  exports: Record<string, { default?: string } | string>;
  bin: Record<string, string>;
}

interface Bundle {
  name: string;
  /** Its row in the tables. */
  label: string;
  code: Uint8Array;
  /** Each input file (relative to the package) with the bytes it contributes to the minified output. */
  inputs: Map<string, number>;
}

/** A Workers fetch handler, as a bundle's default export is. */
interface Worker {
  fetch(req: Request): Response | Promise<Response>;
}

/**
 * wrangler's esbuild settings for `wrangler deploy --minify` (nodejs_compat): ES modules for the browser-like
 * platform, the conditions workerd resolves, `node:*` left to the runtime, names kept (wrangler passes
 * `keepNames: config.keep_names ?? true`; ~5% of pagetree's bytes), NODE_ENV production.
 */
const workerd: BuildOptions = {
  bundle: true,
  write: false,
  minify: true,
  keepNames: KEEP_NAMES,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  conditions: ['workerd', 'worker', 'browser'],
  external: ['node:*', 'cloudflare:*'],
  define: { 'process.env.NODE_ENV': '"production"' },
  metafile: true,
  logLevel: 'silent',
  absWorkingDir: pkgDir,
};

/**
 * Resolves 'pagetree' and its subpaths as the package resolves itself (its own name, through package.json's
 * "exports"), from any importer: the bench's apps and the scaffolded template, which has no node_modules.
 */
function pagetreePackage(): Plugin {
  const again = Symbol('pagetree-package');
  return {
    name: 'pagetree-package',
    setup(b) {
      b.onResolve({ filter: /^pagetree(\/|$)/ }, (args) =>
        args.pluginData === again
          ? undefined
          : b.resolve(args.path, { kind: args.kind, resolveDir: pkgDir, pluginData: again }),
      );
    },
  };
}

/**
 * Bundles one worker; `tsconfig` is given whole so that no tsconfig.json on disk applies (the repository's maps
 * 'pagetree' to core/'s sources, not to what users get).
 */
async function bundle(name: string, label: string, entry: string, tsconfig: object): Promise<Bundle> {
  const outfile = join(work, 'out', `${name}.mjs`);
  const result = await build({
    ...workerd,
    entryPoints: [entry],
    outfile,
    tsconfigRaw: JSON.stringify(tsconfig),
    plugins: [pagetreePackage()],
  });
  const file = result.outputFiles?.[0];
  if (!file || !result.metafile) throw new Error(`bench/bundle: esbuild gave ${name} no output or metafile`);
  mkdirSync(join(work, 'out'), { recursive: true });
  writeFileSync(outfile, file.contents);
  return { name, label, code: file.contents, inputs: inputsOf(result.metafile) };
}

function inputsOf(metafile: Metafile): Map<string, number> {
  const output = Object.values(metafile.outputs).find((o) => o.entryPoint !== undefined);
  if (!output) throw new Error('bench/bundle: no output with an entry point in the metafile');
  const inputs = new Map<string, number>();
  for (const [path, { bytesInOutput }] of Object.entries(output.inputs)) inputs.set(path, bytesInOutput);
  return inputs;
}

/** The package to measure: its package.json, after checking that its build is there (and newer than core/). */
function readPackage(): PackageJson {
  const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as PackageJson;
  const root = pkg.exports['.'];
  const main = join(pkgDir, (typeof root === 'string' ? root : root?.default) ?? 'dist/core/index.js');
  if (!existsSync(main)) {
    const missing = relative(process.cwd(), main);
    throw new Error(`bench/bundle: ${missing} is missing; build the package first (npm run bench:bundle does)`);
  }
  const built = statSync(main).mtimeMs;
  const edited = newest(['core', 'jsx-runtime'].map((d) => join(pkgDir, d)));
  if (edited > built) console.log('warning: dist/ is older than core/; `npm run build` (bench:bundle does) first\n');
  return pkg;
}

/** The newest modification time of the files under `dirs` (0 when there are none). */
function newest(dirs: string[]): number {
  let latest = 0;
  for (const dir of dirs.filter((d) => existsSync(d))) {
    for (const file of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
      latest = Math.max(latest, statSync(join(dir, file)).mtimeMs);
    }
  }
  return latest;
}

/**
 * Writes the scaffolder's Workers project into build/bundle/workers-template and embeds its static files as its
 * `npm run assets` does; returns the project's directory.
 */
function scaffoldTemplate(pkg: PackageJson): string {
  const dir = join(work, 'workers-template');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const scaffolder = [pkgDir, repo].map((d) => join(d, 'create-pagetree', 'index.js')).find((f) => existsSync(f))!;
  // Quiet, so that the tables stay whole; execFileSync's error carries their output when one fails.
  execFileSync(process.execPath, [scaffolder, dir, '--runtime', 'workers', '--no-install'], { stdio: 'pipe' });
  const embed = pkg.bin['pagetree-embed'];
  if (!embed) throw new Error('bench/bundle: package.json has no bin "pagetree-embed" to embed the static files');
  const htmx = require.resolve('htmx.org/dist/htmx.min.js', { paths: [pkgDir, repo] });
  const args = [join(pkgDir, embed), 'static', 'src/static-files.ts', '--file', `htmx.min.js=${htmx}`];
  execFileSync(process.execPath, args, { stdio: 'pipe', cwd: dir });
  return dir;
}

/** Imports a bundle (Node has what nodejs_compat gives a worker) and returns its fetch handler. */
async function load(b: Bundle): Promise<Worker> {
  const mod = (await import(pathToFileURL(join(work, 'out', `${b.name}.mjs`)).href)) as { default?: Worker };
  if (typeof mod.default?.fetch !== 'function') fail(`${b.name}: the bundle's default export has no fetch`);
  return mod.default;
}

async function answer(worker: Worker, headers: Record<string, string> = {}): Promise<[number, string]> {
  const res = await worker.fetch(new Request('http://localhost/', { headers }));
  return [res.status, await res.text()];
}

/** The check before measuring: each bundle runs and answers as its source says. */
async function check(bundles: readonly Bundle[]): Promise<void> {
  const partial = { 'hx-request': 'true', 'hx-target': 'home-items' };
  const list = '<li>Milk</li><li>Bread</li><li>Eggs</li>';
  let firstPage: string | undefined;
  for (const b of bundles.filter((x) => x.name !== 'template')) {
    const worker = await load(b);
    const [status, page] = await answer(worker);
    if (status !== 200 || !page.includes(`<ul id="home-items">${list}</ul>`)) {
      fail(`${b.label}: GET / answered ${status} ${page.slice(0, 300)}`);
    }
    if (page !== (firstPage ??= page)) {
      fail(`the pages differ:\n${bundles[0]!.label}: ${firstPage}\n${b.label}: ${page}`);
    }
    const [partialStatus, partialBody] = await answer(worker, partial);
    if (partialStatus !== 200 || partialBody !== list) {
      fail(`${b.label}: the partial answered ${partialStatus} ${partialBody.slice(0, 300)}`);
    }
  }
  const template = bundles.find((b) => b.name === 'template')!;
  // The template reads its secret from the environment (nodejs_compat's process.env), as `wrangler secret` sets it.
  process.env.PAGETREE_SECRET ??= 'bench-bundle-secret-of-at-least-32-characters';
  const [status, body] = await answer(await load(template));
  if (status !== 200 || !body.includes('<h1>Guestbook</h1>')) {
    fail(`${template.label}: GET / answered ${status} ${body.slice(0, 300)}`);
  }
}

/** The package.json above a module's file (hono exports no './package.json'). */
function packageOf(file: string): { name: string; version: string } {
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    const path = join(dir, 'package.json');
    if (!existsSync(path)) continue;
    const pkg = JSON.parse(readFileSync(path, 'utf8')) as { name?: string; version: string };
    if (pkg.name) return { name: pkg.name, version: pkg.version };
  }
  throw new Error(`bench/bundle: no package.json above ${file}`);
}

/** 114688 → "114,688 (112.0 KiB)". */
function size(bytes: number): string {
  return `${formatInt(bytes)} (${(bytes / 1024).toFixed(1)} KiB)`;
}

/** Where an input comes from: a package of node_modules, pagetree's dist/, the embedded files, or the app. */
function originOf(input: string): string {
  const dep = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
  if (dep) return dep[1]!;
  if (resolve(pkgDir, input).startsWith(join(pkgDir, 'dist') + sep)) return 'pagetree (dist/)';
  if (input.endsWith('static-files.ts')) return 'embedded files (static/, htmx)';
  return 'the app';
}

async function main(): Promise<void> {
  const pkg = readPackage();
  const hono = packageOf(require.resolve('hono'));
  const jsx = { compilerOptions: { jsx: 'react-jsx', jsxImportSource: 'pagetree' } };
  const templateDir = scaffoldTemplate(pkg);
  const templateTsconfig = JSON.parse(readFileSync(join(templateDir, 'tsconfig.json'), 'utf8')) as object;
  const bundles = [
    await bundle('pagetree', 'pagetree: one page + partial (mux.fetch)', join(__dirname, 'pagetree-app.tsx'), jsx),
    await bundle('hono', 'Hono: the same (app.fetch, hono/jsx)', join(__dirname, 'hono-app.tsx'), jsx),
    await bundle('hono-html', 'Hono: the same without JSX (hono/html)', join(__dirname, 'hono-html-app.ts'), jsx),
    await bundle(
      'template',
      'create-pagetree --runtime workers',
      join(templateDir, 'src', 'worker.ts'),
      templateTsconfig,
    ),
  ] as const;
  await check(bundles);

  const where = relative(repo, pkgDir) || 'this checkout';
  const minified = KEEP_NAMES ? 'minified as wrangler deploy --minify (names kept)' : 'minified, names not kept';
  console.log(
    `bench/bundle: ${environment()}, esbuild ${esbuildVersion}, pagetree ${pkg.version} (${where}, dist/ through ` +
      `"exports"), hono ${hono.version}; ${minified}, gzip level 6\n`,
  );
  const honoGzip = gzipSync(bundles[1].code).length;
  printTable(
    ['worker', 'minified', 'gzip', 'gzip vs Hono'],
    bundles.map((b) => {
      const gzip = gzipSync(b.code).length;
      return [b.label, size(b.code.length), size(gzip), formatRatio(gzip / honoGzip)];
    }),
  );

  console.log(`\nthe pagetree worker: its ${TOP} heaviest inputs, minified bytes in the output\n`);
  const [pagetree] = bundles;
  const ranked = [...pagetree.inputs].sort((a, b) => b[1] - a[1]);
  const share = (n: number) => `${((n / pagetree.code.length) * 100).toFixed(1)}%`;
  const rest = ranked.slice(TOP).reduce((sum, [, n]) => sum + n, 0);
  printTable(
    ['input', 'bytes', 'share'],
    [
      ...ranked.slice(0, TOP).map(([input, n]) => [input, formatInt(n), share(n)]),
      [`the other ${ranked.length - Math.min(TOP, ranked.length)} inputs`, formatInt(rest), share(rest)],
    ],
  );

  console.log('\nby origin, minified bytes in each output\n');
  const origins = [...new Set(bundles.flatMap((b) => [...b.inputs.keys()].map(originOf)))].sort();
  const byOrigin = (b: Bundle, origin: string) =>
    [...b.inputs].filter(([input]) => originOf(input) === origin).reduce((sum, [, n]) => sum + n, 0);
  const glue = (b: Bundle) => b.code.length - [...b.inputs.values()].reduce((sum, n) => sum + n, 0);
  printTable(
    ['origin', 'pagetree', 'Hono', 'Hono, html', 'template'],
    [
      ...origins.map((o) => [o, ...bundles.map((b) => formatInt(byOrigin(b, o)))]),
      ["esbuild's glue (imports, exports, __name)", ...bundles.map((b) => formatInt(glue(b)))],
    ],
  );
}

runMain(main);
