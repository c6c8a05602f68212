// bench/path (issue 42, the first rows of its table) runs: one warm htmx partial through serve() and through
// mux.fetch, its hops and the files that run code, and the static counts of catch sites and sync/async branches.
// The numbers are the benchmark's to report, not a test's to assert: only that each row is there with numbers.

import { execFileSync } from 'node:child_process';
import { repoRoot } from './support/package.ts';

test('bench-path-prints-the-hops-files-and-static-counts', () => {
  const out = execFileSync(process.execPath, ['--import', 'tsx', 'bench/path/run.ts'], {
    cwd: repoRoot,
    env: { ...process.env, VERBOSE: '1' },
    encoding: 'utf8',
  });
  const rows = out.split('\n').filter((line) => line.startsWith('| '));
  const row = (label: string) => rows.find((r) => r.startsWith(`| ${label}`));
  for (const adapter of ['serve() (node:http)', 'mux.fetch']) {
    expect(row(adapter)).toMatch(/^\| [^|]+ \|( +\d+ \|){4} +\d+ in \d+ files \|$/);
  }
  // Each hop list starts at its adapter's entry and names file:function; the partial's own file is not a hop.
  expect(out).toMatch(/^ +1\. core\/node\/[\w-]+\.ts:\S/m);
  expect(out).toMatch(/^ +1\. core\/kernel\/fetch\.ts:\S/m);
  expect(out).not.toMatch(/^ +\d+\. bench\//m);
  // VERBOSE lists the functions that ran, with their calls.
  expect(rows.some((r) => /^\| core\/pipeline\/dispatch\.ts:\S+ +\| +\d+ \|$/.test(r))).toBe(true);
  expect(rows.some((r) => /^\| all \d+ files +\| +\d+ in \d+ files \|/.test(r))).toBe(true);
  expect(row('all of core/')).toMatch(/^\| all of core\/ \(\d+ files\) +\| +\d+ in \d+ files \|/);
}, 120_000);
