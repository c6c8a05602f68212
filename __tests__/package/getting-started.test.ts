// docs/getting-started.md's section "By hand", followed literally with the packed tarball: its shell blocks run in
// order (with `npm install pagetree` installing the tarball), each file block is written to the path in its title,
// and the compiled app is checked over HTTP on Node 20, 22, 24 and 26. Once as the page says (ES modules, TypeScript 7,
// npm's latest), once as CommonJS (the page's one-line difference), and compiled with TypeScript 6 as well.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { nodeBinary, packTarball, repoRoot, run, serveProcess, tempDir, toolPackage } from '../support/package.ts';

jest.setTimeout(600_000);

const doc = readFileSync(join(repoRoot, 'docs/getting-started.md'), 'utf8');
// The by-hand section (the section before it, npm create pagetree, is create.test.ts's) and its dev loop.
const byHand = doc.slice(doc.indexOf('\n## By hand\n'), doc.indexOf('\n## Next\n'));
const [mainPart, devPart] = byHand.split('\n## The dev loop\n') as [string, string];

interface Block {
  lang: string;
  title: string | null;
  body: string;
}

function blocks(markdown: string): Block[] {
  return [...markdown.matchAll(/^```(\w+)([^\n]*)\n([\s\S]*?)^```$/gm)].map((m) => ({
    lang: m[1]!,
    title: /title="([^"]+)"/.exec(m[2]!)?.[1] ?? null,
    body: m[3]!,
  }));
}

/** The page as one shell script (files as here-documents), up to the command that starts the server. */
function script(tarball: string, commonjs: boolean): string {
  const lines = ['set -euo pipefail'];
  for (const b of blocks(mainPart)) {
    if (b.title) lines.push(`cat > ${b.title} <<'PAGETREE_EOF'`, b.body.replace(/\n$/, ''), 'PAGETREE_EOF');
    else if (b.lang === 'sh') {
      for (const line of b.body.split('\n').filter(Boolean)) {
        if (line.startsWith('node ')) continue; // the server: started by the test
        if (commonjs && line === 'npm pkg set type=module') continue;
        lines.push(line.replace(/^npm install pagetree\b/, `npm install ${tarball}`));
      }
    }
  }
  return lines.join('\n') + '\n';
}

function serverCommand(): string[] {
  const sh = blocks(mainPart).filter((b) => b.lang === 'sh' && !b.title);
  const line = sh.flatMap((b) => b.body.split('\n')).find((l) => l.startsWith('node '));
  if (!line) throw new Error('docs/getting-started.md no longer starts the app with `node …`');
  return line.split(' ').slice(1);
}

const nodes = [20, 22, 24, 26];
let tarball: string;

beforeAll(() => {
  tarball = packTarball();
});

async function checkApp(url: string, project: string): Promise<void> {
  const home = await fetch(url + '/');
  const html = await home.text();
  expect(home.status).toBe(200);
  expect(home.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(html).toMatch(/^<!doctype html><html lang="en">/);
  expect(html).toContain('<p id="hello-greeting"><strong>Hello, world!</strong></p>');
  expect(html).toContain('<a href="/about">About</a>');

  // htmx 2 names the target by id, htmx 4 as tag#id; both get the partial alone, its text escaped.
  for (const target of ['hello-greeting', 'p#hello-greeting']) {
    const partial = await fetch(url + '/?name=' + encodeURIComponent('<b>Ann</b>'), {
      headers: { 'HX-Request': 'true', 'HX-Target': target },
    });
    expect(partial.status).toBe(200);
    expect(await partial.text()).toBe('<strong>Hello, &lt;b>Ann&lt;/b>!</strong>');
  }

  const about = await fetch(url + '/about');
  expect(about.status).toBe(200);
  expect(await about.text()).toContain('<a href="/">Back</a>');

  // The stylesheet by the fingerprinted URL the page links, and htmx from the installed package.
  const css = /<link rel="stylesheet" href="(\/static\/style\.[0-9a-f]{8}\.css)"/.exec(html)?.[1];
  expect(css).toBeDefined();
  const style = await fetch(url + css!);
  expect(style.status).toBe(200);
  expect(style.headers.get('content-type')).toBe('text/css; charset=utf-8');
  expect(style.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  expect(await style.text()).toBe(readFileSync(join(project, 'public/style.css'), 'utf8'));
  const htmx = await fetch(url + '/static/htmx.min.js');
  expect(htmx.status).toBe(200);
  expect(htmx.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  expect(await htmx.text()).toBe(readFileSync(join(project, 'node_modules/htmx.org/dist/htmx.min.js'), 'utf8'));
}

describe.each([
  ['ES modules', false],
  ['CommonJS', true],
])('getting started as %s', (_name, commonjs) => {
  let project: string;

  beforeAll(() => {
    const dir = tempDir(commonjs ? 'cjs' : 'esm');
    writeFileSync(join(dir, 'setup.sh'), script(tarball, commonjs));
    run('bash', ['setup.sh'], dir);
    project = join(dir, 'hello');
  });

  test('the project is what the page says', () => {
    const pkg = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as { type?: string };
    expect(pkg.type).toBe(commonjs ? 'commonjs' : 'module'); // npm init's default, or the page's line
    expect(JSON.parse(readFileSync(join(project, 'node_modules/typescript/package.json'), 'utf8')).version).toMatch(
      /^7\./,
    );
    // tsc emitted the module format of the project.
    const main = readFileSync(join(project, 'dist/main.js'), 'utf8');
    expect(main).toMatch(commonjs ? /require\("pagetree"\)/ : /from 'pagetree'/);
  });

  test.each(nodes)('serves a page, a partial and static files on Node %i', async (major) => {
    const app = await serveProcess(nodeBinary(major), serverCommand(), project, { PORT: '0' });
    try {
      expect(app.output()).toMatch(/^pagetree: listening on http:\/\/127\.0\.0\.1:\d+\n$/);
      await checkApp(app.url, project);
      expect(app.output()).not.toMatch(/warn|error/i);
    } finally {
      await app.stop();
    }
  });

  test("pagetree's declarations are clean even without skipLibCheck, for TypeScript 7 and 6", () => {
    run(
      process.execPath,
      [join(project, 'node_modules/typescript/bin/tsc'), '--noEmit', '--skipLibCheck', 'false'],
      project,
    );
    const tsc6 = join(toolPackage('typescript', '6'), 'bin/tsc');
    run(process.execPath, [tsc6, '--noEmit', '--skipLibCheck', 'false'], project);
  });

  test('TypeScript 6 compiles the same project, and its output serves', async () => {
    const tsc6 = join(toolPackage('typescript', '6'), 'bin/tsc');
    run(process.execPath, [tsc6, '-p', '.', '--outDir', 'dist-ts6'], project);
    const app = await serveProcess(nodeBinary(20), ['dist-ts6/main.js'], project, { PORT: '0' });
    try {
      await checkApp(app.url, project);
    } finally {
      await app.stop();
    }
  });
});

test('the dev loop of the page serves the sources with pagetree-dev', async () => {
  const dir = tempDir('dev');
  writeFileSync(join(dir, 'setup.sh'), script(tarball, false));
  run('bash', ['setup.sh'], dir);
  const project = join(dir, 'hello');
  const [install, start] = blocks(devPart)[0]!.body.split('\n') as [string, string];
  run('bash', ['-c', install], project);
  const app = await serveProcess('bash', ['-c', `exec ${start}`], project, { PORT: '0' });
  try {
    await checkApp(app.url, project);
  } finally {
    await app.stop();
  }
});
