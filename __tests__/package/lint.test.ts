// docs/lint.md's setup, followed literally in a fresh project with the packed tarball: the overrides block merged
// into package.json, its install line, its eslint.config.mts, and its two commands. The plugin loads from the
// published build (ES modules) and reports; the XSS scanner runs with TypeScript 6 and reports.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { attempt, packTarball, repoRoot, run, tempDir } from '../support/package.ts';

jest.setTimeout(600_000);

const doc = readFileSync(join(repoRoot, 'docs/lint.md'), 'utf8');
const setup = doc.slice(doc.indexOf('## Setup'), doc.indexOf('\n## ', doc.indexOf('## Setup') + 1));
const blocks = [...setup.matchAll(/^```(\w+)([^\n]*)\n([\s\S]*?)^```$/gm)].map((m) => ({
  lang: m[1]!,
  title: /title="([^"]+)"/.exec(m[2]!)?.[1] ?? null,
  body: m[3]!,
}));
const titled = (title: string) => blocks.find((b) => b.title === title)!.body;
const [install, commands] = blocks.filter((b) => b.lang === 'sh' && !b.title).map((b) => b.body.trim());

const app = `import { mount, route, ServeMux } from 'pagetree';

class AboutPage {
  page(props: { name: string }) {
    return <p>{props.name}</p>;
  }
}

class HomePage {
  page() {
    return <a href="/about" hx-gett="/about">About</a>;
  }
}

class App {
  home = route('/{$} Home', HomePage);
  about = route('/about About', AboutPage);
}

mount(new ServeMux(), App, '/', 'Home');
`;

let project: string;
let eslint: { status: number; output: string };
let xss: { status: number; output: string };

beforeAll(() => {
  const tarball = packTarball();
  project = tempDir('lint');
  run('npm', ['init', '-y'], project);
  run('npm', ['pkg', 'set', 'type=module'], project);
  const pkg = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'));
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ ...pkg, ...JSON.parse(titled('package.json (merged)')) }),
  );
  run('npm', ['install', '--no-audit', tarball], project);
  run('bash', ['-c', install!], project);
  writeFileSync(join(project, 'eslint.config.mts'), titled('eslint.config.mts'));
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'nodenext',
        strict: true,
        jsx: 'react-jsx',
        jsxImportSource: 'pagetree',
        noEmit: true,
        types: [],
        skipLibCheck: true,
      },
      include: ['src'],
    }),
  );
  run('mkdir', ['src'], project);
  writeFileSync(join(project, 'src/app.tsx'), app);
  const [eslintCommand, xssCommand] = commands!.split('\n') as [string, string];
  eslint = attempt('bash', ['-c', eslintCommand], project);
  xss = attempt('bash', ['-c', `${xssCommand} --simplified`], project);
});

test('the project lints with TypeScript 6', () => {
  expect(JSON.parse(readFileSync(join(project, 'node_modules/typescript/package.json'), 'utf8')).version).toMatch(
    /^6\.0\./,
  );
});

test('the plugin from the package reports a hand-written URL and an unknown htmx attribute', () => {
  expect(eslint.status).toBe(1);
  expect(eslint.output).toMatch(/11:\d+ +error +href="\/about" is an in-app path written by hand.* pagetree\/url-attr/);
  expect(eslint.output).toMatch(/pagetree\/htmx-attr/);
});

test('the XSS scanner runs and reports the unescaped child', () => {
  expect(xss.output).toMatch(/^src\/app\.tsx\(5,\d+\): error TS0 K601: Usage of xss-prone content without `safe`/m);
  expect(xss.output).not.toMatch(/src\/app\.tsx\(11,/);
  expect(xss.status).toBe(1);
});
