// Installing the packed tarball as a user does (issue 25.5): no install script to approve or warn about, the build
// and the changelog inside.

import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packTarball, run, tempDir } from '../support/package.ts';

jest.setTimeout(120_000);

test('npm install of the tarball prints no warning and runs no script of pagetree', () => {
  const tarball = packTarball();
  const project = tempDir('install');
  run('npm', ['init', '-y'], project);
  const install = spawnSync('npm', ['install', '--no-audit', '--no-fund', tarball], { cwd: project, encoding: 'utf8' });
  expect(install.status).toBe(0);
  expect(install.stderr).not.toMatch(/warn/i);
  const installed = join(project, 'node_modules/pagetree');
  const pkg = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const runOnInstall = ['preinstall', 'install', 'postinstall', 'prepare'].filter((s) => s in pkg.scripts);
  expect(runOnInstall).toEqual([]);
  // The build, the changelog, and the example the docs link to (docs/live.md → ../pages-example/admin.tsx).
  const shipped = ['dist/core/index.js', 'CHANGELOG.md', 'pages-example/admin.tsx', 'static/app.css'];
  expect(shipped.filter((f) => !existsSync(join(installed, f)))).toEqual([]);
});
