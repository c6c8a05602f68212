// bench/bundle (issue 42, item 5) runs: it bundles its workers from a built pagetree, checks that each answers, and
// prints their sizes and the heaviest inputs of pagetree's. The sizes are the benchmark's to report, not a test's
// to assert. The package is built into a directory of its own (tsc, as `npm run build` does, without declarations),
// so the test leaves the shared dist/ alone.

import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { attempt, repoRoot } from './support/package.ts';

let pkg: string;

beforeAll(() => {
  mkdirSync(join(repoRoot, 'build'), { recursive: true });
  // Inside the repository, so that dist/'s imports (@kitajs/html, …) resolve to its node_modules.
  pkg = mkdtempSync(join(repoRoot, 'build', 'bench-bundle-'));
  copyFileSync(join(repoRoot, 'package.json'), join(pkg, 'package.json'));
  const tsc = require.resolve('typescript/bin/tsc');
  const noDeclarations = ['--declaration', 'false', '--declarationMap', 'false', '--sourceMap', 'false'];
  // tsc writes its output even when a type is wrong; the type check is `npm run typecheck`'s, not this test's.
  attempt(
    process.execPath,
    [tsc, '-p', 'tsconfig.build.json', '--outDir', join(pkg, 'dist'), ...noDeclarations],
    repoRoot,
  );
  // What scripts/build.mjs writes beside the output.
  writeFileSync(join(pkg, 'dist', 'package.json'), '{ "type": "module", "sideEffects": false }\n');
}, 180_000);

afterAll(() => rmSync(pkg, { recursive: true, force: true }));

test('bench-bundle-prints-the-workers-and-the-heaviest-inputs', () => {
  const out = execFileSync(process.execPath, ['--import', 'tsx', 'bench/bundle/run.ts'], {
    cwd: repoRoot,
    env: { ...process.env, PAGETREE_PACKAGE: pkg, TOP: '5' },
    encoding: 'utf8',
  });
  const rows = out.split('\n').filter((line) => line.startsWith('| '));
  const row = (label: string) => rows.find((r) => r.startsWith(`| ${label}`));
  for (const label of [
    'pagetree: one page + partial (mux.fetch)',
    'Hono: the same (app.fetch, hono/jsx)',
    'Hono: the same without JSX (hono/html)',
    'create-pagetree --runtime workers',
  ]) {
    expect(row(label)).toMatch(/\| +[\d,]+ \([\d.]+ KiB\) \| +[\d,]+ \([\d.]+ KiB\) \| +[\d.]+× \|$/);
  }
  // The heaviest inputs come from the built package, reached through its "exports" (not core/'s sources).
  expect(rows.filter((r) => /^\| [^ ]*dist\/core\/\S+\.js +\| +[\d,]+ \| +[\d.]+% \|$/.test(r)).length).toBeGreaterThan(
    0,
  );
  expect(rows.some((r) => r.includes('core/') && r.includes('.ts '))).toBe(false);
  expect(row('the other ')).toBeDefined();
  expect(row('pagetree (dist/)')).toBeDefined();
}, 120_000);
