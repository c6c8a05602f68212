#!/usr/bin/env node
// @ts-check
// npm create pagetree@latest <dir> [-- --runtime node|bun|deno|workers --htmx 4|2 --cjs --pagetree <spec>]
//
// Writes a new pagetree app into <dir>: typed routes (the Register block, so urlFor is checked), a layout, a page
// with a validated form (422, flash) and a region updated beside it, a test, lint and the XSS scanner, fingerprinted
// static files, a .env with a secret of its own, .env.example and a README with its commands. It asks nothing: the
// flags are the choices.
// Plain JavaScript, so that it runs as published, with no build and no dependency.

import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const own = JSON.parse(readFileSync(join(here, 'package.json'), 'utf8'));

const usage = `usage: npm create pagetree@latest <dir> [-- options]

  --runtime <name>   node (default), bun, deno or workers (Cloudflare Workers)
  --htmx <version>   4 (default) or 2
  --cjs              a CommonJS project instead of ES modules (node only)
  --pagetree <spec>  the pagetree dependency written into package.json (default ^${own.version})
  --no-install       do not install the dependencies (by default the package manager that runs this does)`;

/**
 * @param {string} message
 * @returns {never}
 */
function fail(message) {
  console.error(`create-pagetree: ${message}\n\n${usage}`);
  process.exit(2);
}

function parse() {
  try {
    return parseArgs({
      allowPositionals: true,
      allowNegative: true,
      options: {
        runtime: { type: 'string', default: 'node' },
        htmx: { type: 'string', default: '4' },
        cjs: { type: 'boolean', default: false },
        pagetree: { type: 'string', default: `^${own.version}` },
        install: { type: 'boolean', default: true },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (err) {
    return fail(/** @type {Error} */ (err).message);
  }
}

const parsed = parse();
if (parsed.values.help) {
  console.log(usage);
  process.exit(0);
}
const options = { dir: parsed.positionals[0], ...parsed.values };
if (!options.dir || parsed.positionals.length > 1) fail('name one directory for the new app, e.g. my-app');
if (!['node', 'bun', 'deno', 'workers'].includes(options.runtime)) {
  fail(`--runtime ${options.runtime}: use node, bun, deno or workers`);
}
if (!['2', '4'].includes(options.htmx)) fail(`--htmx ${options.htmx}: use 4 or 2`);
if (options.cjs && options.runtime !== 'node') fail('--cjs is for --runtime node (the others run ES modules)');

const target = resolve(options.dir);
if (existsSync(target) && readdirSync(target).length > 0) fail(`${options.dir} exists and is not empty`);
const name = basename(target)
  .toLowerCase()
  .replace(/[^a-z0-9._-]+/g, '-')
  .replace(/^[._-]+/, '');
if (!name) fail(`${options.dir}: a package name needs a letter or digit`);

// Versions the template is tested with (the package test installs them).
const versions = {
  typescript: '~6.0.3',
  tsx: '^4.23.15',
  '@types/node': '^20.19.43',
  eslint: '^10.15.0',
  'typescript-eslint': '^8.73.0',
  '@kitajs/ts-html-plugin': '4.1.4',
  '@types/bun': '^1.3.0',
  wrangler: '^4.164.0',
  zod: '^4.6.7',
  htmx: options.htmx === '2' ? '^2.0.11' : '^4.0.1',
};

/** The scripts: dev (reload on change), start (as in production), test (types, lint, XSS, tests). */
function scripts() {
  // tsc, ESLint and the XSS scan each build a TypeScript program of their own, and cannot share one (the README
  // says so). tsc keeps what it checked between runs (--incremental); ESLint's --cache would not do: it does not see
  // that a change in one file can break the links of another (route-literal reads the tree through the types).
  // test/xss-check.mjs fails when the scanner did not scan, which its own exit code does not say.
  const check =
    'tsc --incremental --tsBuildInfoFile node_modules/.cache/tsc.tsbuildinfo && eslint . && node test/xss-check.mjs';
  const nodeTest = 'node --import tsx --test test/app.test.ts';
  switch (options.runtime) {
    case 'bun':
      // bun --watch alone restarts only on the modules the entry imports: pagetree-dev adds static/ and .env.
      return {
        dev: 'pagetree-dev --runtime bun src/main.ts --dev',
        start: 'bun src/main.ts',
        test: `${check} && bun test`,
      };
    case 'deno': {
      const run = 'deno run --allow-net --allow-read --allow-env --env-file';
      return {
        dev: `${run} --watch=static/,.env src/main.ts --dev`,
        start: `${run} src/main.ts`,
        test: `${check} && deno test --no-check --allow-read --allow-env`,
      };
    }
    case 'workers': {
      const assets =
        'pagetree-embed static src/static-files.ts --file htmx.min.js=node_modules/htmx.org/dist/htmx.min.js';
      return {
        assets,
        dev: 'npm run assets && wrangler dev --var PAGETREE_DEV:1',
        start: 'npm run assets && wrangler dev',
        deploy: 'npm run assets && wrangler deploy',
        test: `npm run assets && ${check} && ${nodeTest}`,
      };
    }
    default:
      return {
        dev: 'pagetree-dev src/main.ts --dev',
        build: 'tsc -p tsconfig.build.json',
        start: 'npm run build && node dist/main.js',
        test: `${check} && ${nodeTest}`,
      };
  }
}

function packageJson() {
  const dev = /** @type {Record<string, string>} */ ({
    typescript: versions.typescript,
    eslint: versions.eslint,
    'typescript-eslint': versions['typescript-eslint'],
    '@kitajs/ts-html-plugin': versions['@kitajs/ts-html-plugin'],
  });
  if (options.runtime === 'bun') dev['@types/bun'] = versions['@types/bun'];
  else dev['@types/node'] = versions['@types/node'];
  if (options.runtime === 'node' || options.runtime === 'workers') dev.tsx = versions.tsx;
  if (options.runtime === 'workers') dev.wrangler = versions.wrangler;
  return {
    name,
    version: '0.1.0',
    private: true,
    ...(options.cjs ? {} : { type: 'module' }),
    engines: { node: options.runtime === 'workers' ? '>=22.12' : '>=20.19' },
    scripts: scripts(),
    dependencies: { 'htmx.org': versions.htmx, pagetree: options.pagetree, zod: versions.zod },
    devDependencies: Object.fromEntries(Object.entries(dev).sort(([a], [b]) => (a < b ? -1 : 1))),
    // tsx's esbuild runs without its install script (which only checks its binary): npm 11 asks about it.
    allowScripts: { esbuild: false },
    // The XSS scanner declares TypeScript ^5.9 as its peer and works with 6: let it use the project's.
    overrides: { '@kitajs/ts-html-plugin': { typescript: '$typescript' } },
  };
}

function tsconfig() {
  return {
    compilerOptions: {
      target: 'es2023',
      lib: ['es2023', 'dom', 'dom.iterable'],
      module: 'nodenext',
      moduleResolution: 'nodenext',
      strict: true,
      noEmit: true,
      jsx: 'react-jsx',
      jsxImportSource: 'pagetree',
      // Imports name the files as they are (./app.tsx), which Bun, Deno and tsx run as they are; the build
      // rewrites them to .js.
      allowImportingTsExtensions: true,
      rewriteRelativeImportExtensions: true,
      isolatedModules: true,
      rootDir: '.',
      types: [options.runtime === 'bun' ? 'bun' : 'node'],
      // The declaration files of the dependencies (pagetree, zod, @types/node: ~300) are not checked again: npm
      // test's tsc takes a third of the time (13.1 → 4.4 CPU seconds), and pagetree checks its own where it is built.
      skipLibCheck: true,
      plugins: [{ name: '@kitajs/ts-html-plugin' }],
    },
    include: ['src', 'test'],
  };
}

const eslintConfig = `// ESLint: typescript-eslint's recommended rules, and pagetree's (no hand-written in-app URL: use urlFor).
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';
import pagetree from 'pagetree/eslint-plugin';

export default defineConfig(
  { ignores: ['dist/', 'src/static-files.ts'] },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  { files: ['**/*.{ts,tsx}'], extends: [tseslint.configs.recommended] },
  {
    files: ['src/**/*.{ts,tsx}'],
    extends: [pagetree.configs.recommended],
    // route-literal reads the route tree through the type checker: typed linting.
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
  },
);
`;

/** How a deployed app gets its secret: not from this machine's .env. */
function deploySecret() {
  if (options.runtime === 'workers') {
    return 'A deploy sets its own: `npx wrangler secret put PAGETREE_SECRET` (32+ random characters).';
  }
  return [
    'A deploy sets its own `PAGETREE_SECRET` in the environment of the server (32+ random characters, e.g. from',
    '`openssl rand -base64 32`; the environment wins over a `.env` file), the same on every instance.',
  ].join('\n');
}

function readme() {
  const runtime = { node: 'Node', bun: 'Bun', deno: 'Deno', workers: 'Cloudflare Workers' }[options.runtime];
  const commands = Object.entries(scripts()).map(([script, command]) => `| \`npm run ${script}\` | \`${command}\` |`);
  return `# ${name}

A [pagetree](https://www.npmjs.com/package/pagetree) app on ${runtime}, with htmx ${options.htmx}.${
    options.runtime === 'workers' ? ' wrangler needs Node 22.12 or newer.' : ''
  }

\`\`\`sh
npm install
npm run dev    # serves it on http://localhost:${options.runtime === 'workers' ? 8787 : 3000}, and reloads the open tab on a change
npm test       # types, lint (hand-written in-app URLs), XSS scan, tests
npm start      # as in production
\`\`\`

| script | runs |
| --- | --- |
${commands.join('\n')}

\`.env\` is read at each start${options.runtime === 'workers' ? ' (by wrangler dev)' : ''}, and is not committed (\`.gitignore\` leaves it out;
\`.env.example\` is its committed template). \`npm create pagetree\` wrote a random \`PAGETREE_SECRET\` into it, which
signs the flash cookie, so \`npm run dev\` and \`npm start\` work at once.
${deploySecret()}
Without one, \`npm start\` stops (\`the secret is undefined\`); \`npm run dev\` makes one per start, with a warning.

- \`src/app.tsx\`: the routes (\`route('/{$} Guestbook', HomePage)\`) and \`createApp\`
- \`src/pages/home.tsx\`: the page, its form (validated by a zod schema: 422 with the errors) and its list
- \`src/layout.tsx\`: the document around every page
- \`src/assets.ts\` and \`static/\`: the static files, with fingerprinted names
- \`test/app.test.ts\`: the app answering requests without a server (\`mux.fetch\`, \`htmxRequest\`)
- \`test/xss-check.mjs\`: the XSS scan of \`npm test\`. \`test/xss-known-bad.tsx\` is unescaped on purpose: the scanner
  exits 0 even when it crashed, so the scan fails unless it reports that file (and nothing else)

\`npm test\` takes about 15 s on an idle 2-core machine, most of it before the tests: \`tsc\`, ESLint and the XSS scan each
load TypeScript and build a program of the project and the ~300 declaration files it uses (pagetree, zod, Node's
types); they are three tools and cannot share one. ESLint is the slowest step: typed linting (pagetree's
\`route-literal\` rule reads the route tree through the type checker), without ESLint's \`--cache\`, which would not
see that a change in one file can break a link in another. \`tsc\` does not check the dependencies' declarations
(\`skipLibCheck\`) and keeps what it checked in \`node_modules/.cache/\`, so a second run checks only what changed. The
XSS scan goes by the type of each JSX child: \`node_modules/pagetree/docs/lint.md\` ("What the scanner reads") says
what it reports and what to write.

pagetree's docs are in \`node_modules/pagetree/docs/\` (start with \`getting-started.md\`).
`;
}

/** @param {string} path @param {unknown} value */
const writeJson = (path, value) => writeFileSync(join(target, path), JSON.stringify(value, null, 2) + '\n');

cpSync(join(here, 'template/common'), target, { recursive: true });
cpSync(join(here, 'template', options.runtime), target, { recursive: true });
renameSync(join(target, 'gitignore'), join(target, '.gitignore')); // npm leaves .gitignore out of packages
// .env: the example's lines with a secret of this project's own (Django's startproject writes a SECRET_KEY, Laravel's
// key:generate an APP_KEY), so that npm start serves at once; .gitignore keeps it out of git, and .env.example, which
// is committed, has none. 32 random bytes: 43 base64url characters.
const secret = randomBytes(32).toString('base64url');
const env = readFileSync(join(target, '.env.example'), 'utf8').replace(
  /^# PAGETREE_SECRET=$/m,
  `PAGETREE_SECRET=${secret}`,
);
writeFileSync(join(target, '.env'), env);
writeJson('package.json', packageJson());
writeJson('tsconfig.json', tsconfig());
if (options.runtime === 'node') {
  writeJson('tsconfig.build.json', {
    extends: './tsconfig.json',
    compilerOptions: { noEmit: false, rootDir: 'src', outDir: 'dist' },
    include: ['src'],
  });
}
writeFileSync(join(target, 'eslint.config.mjs'), eslintConfig);
writeFileSync(join(target, 'README.md'), readme());
for (const file of ['src/layout.tsx', 'test/app.test.ts', 'wrangler.toml']) {
  const path = join(target, file);
  if (!existsSync(path)) continue;
  const text = readFileSync(path, 'utf8').replaceAll('__NAME__', name).replaceAll('__HTMX__', options.htmx);
  writeFileSync(path, text);
}

// The package manager that runs this (npm create, pnpm create, yarn create, bun create) installs.
const manager = /^(npm|pnpm|yarn|bun)\//.exec(process.env.npm_config_user_agent ?? '')?.[1] ?? 'npm';
const where = relative(process.cwd(), target) || '.';
console.log(
  `Created ${name} in ${where} (${options.runtime}, htmx ${options.htmx}${options.cjs ? ', CommonJS' : ''}).`,
);
if (options.install) {
  console.log(`Installing the dependencies (${manager} install)…`);
  const installed = spawnSync(manager, ['install'], {
    cwd: target,
    stdio: 'inherit',
    shell: process.platform === 'win32', // npm.cmd
  });
  if (installed.status !== 0) {
    console.error(`create-pagetree: ${manager} install failed; run it in ${where} when the problem is fixed.`);
    process.exit(1);
  }
}
console.log(`
Next:
  cd ${where}${options.install ? '' : `\n  ${manager} install`}
  ${manager} run dev      # serves it, and reloads the open tab on a change
  ${manager} test         # types, lint, XSS scan, tests
`);
