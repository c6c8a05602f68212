// End to end through ESLint's Node API, as `npm run lint` runs the plugin: a copy
// of the fixture app in a fresh folder, plus a small file with a hard-coded URL of
// one of its pages and one with a stale hx-target. If the plugin stops seeing mounts,
// this fails where the RuleTester tables (which only check what the rules do with a
// tree) might not.

import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import pagetree from '../../lint/index.ts';
import { fixture } from './rule-tester.ts';

const repo = resolve(__dirname, '../..');
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pagetree-lint-probe-'));
  mkdirSync(join(dir, 'src'));
  for (const file of ['main.ts', 'admin.ts', 'pages.tsx', 'hard-coded.ts', 'stale-target.tsx']) {
    copyFileSync(fixture(`app/${file}`), join(dir, 'src', file));
  }
  // The copy resolves 'pagetree' to this repository's sources, as an installed package would.
  const tsconfig = {
    compilerOptions: {
      strict: true,
      module: 'nodenext',
      moduleResolution: 'nodenext',
      jsx: 'react-jsx',
      jsxImportSource: 'pagetree',
      types: [],
      skipLibCheck: true,
      noEmit: true,
      paths: { pagetree: [join(repo, 'core/index.ts')], 'pagetree/*': [join(repo, 'jsx-runtime/*')] },
    },
    include: ['src'],
  };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('probe: route-literal and htmx-target report the fixture app through ESLint', async () => {
  const eslint = new ESLint({
    cwd: dir,
    overrideConfigFile: true,
    overrideConfig: [
      {
        files: ['**/*.{ts,tsx}'],
        languageOptions: { parser: tseslint.parser, parserOptions: { projectService: true, tsconfigRootDir: dir } },
      },
      pagetree.configs.recommended as Linter.Config,
    ],
  });
  const results = await eslint.lintFiles([
    'src/hard-coded.ts',
    'src/main.ts',
    'src/admin.ts',
    'src/pages.tsx',
    'src/stale-target.tsx',
  ]);
  const messages = results.flatMap((r) =>
    r.messages.map((m) => `${r.filePath.slice(dir.length + 1)}:${m.line} ${m.ruleId}: ${m.message}`),
  );
  expect(messages).toEqual([
    'src/hard-coded.ts:3 pagetree/route-literal: route literal "/admin/users" matches the mounted page ' +
      'App.admin.users (UsersPage); use urlFor(UsersPage) so a moved route is caught here',
    'src/stale-target.tsx:5 pagetree/htmx-target: hx-target="#admin-users-recent-activity-timeline-entries" names ' +
      'no element of the app: mount shortens ids longer than maxIdLength, and the id of ' +
      'App.admin.users.recentActivityTimelineEntries is "users-recent-activity-timeline-entries"; write ' +
      'idTarget(this.recentActivityTimelineEntries), which always gives the id mount gave',
  ]);
});
