// docs/lint.md's rule for constant lookups (`{labels[s]}`, issue 45.13), held against the real XSS scanner: its
// block titled src/status-labels.tsx marks each component the scanner reports with the code it reports (`// K601`),
// and @kitajs/ts-html-plugin's xss-scan, run on that block alone with this repository's tsconfig, reports exactly
// those components with those codes and nothing else.

import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, tempDir } from '../support/package.ts';

const cli = require.resolve('@kitajs/ts-html-plugin/dist/cli.js');

/** The lines of a doc's code block, found by its `title="…"`. */
function titledBlock(doc: string, title: string): string[] {
  const markdown = readFileSync(join(repoRoot, doc), 'utf8');
  const fence = '```tsx title="' + title + '"\n';
  const start = markdown.indexOf(fence);
  if (start < 0) throw new Error(`${doc} has no block ${fence.trim()}`);
  const body = markdown.slice(start + fence.length);
  return body.slice(0, body.indexOf('\n```')).split('\n');
}

test('docs/lint.md: each component of the constant-lookup example gets the finding it names, and no other any', () => {
  const lines = titledBlock('docs/lint.md', 'src/status-labels.tsx');
  const file = join(tempDir('xss-rules'), 'status-labels.tsx');
  writeFileSync(file, lines.join('\n') + '\n');

  // The file first: yargs would read `--simplified <file>` as the flag's value and scan the whole project.
  const args = [cli, file, '--project', join(repoRoot, 'tsconfig.json'), '--simplified'];
  const scan = spawnSync(process.execPath, args, { cwd: repoRoot, encoding: 'utf8' });
  const output = `${scan.stdout}${scan.stderr}`;
  // Each line belongs to the declaration above it (prettier breaks a component over lines, and the scanner reports
  // a K604 at its `safe`, a K601 at the child): "Bare: K601".
  let owner = '';
  const owners = lines.map((text) => (owner = /^(?:export )?(?:const|type) (\w+)/.exec(text)?.[1] ?? owner));
  // --simplified: "path(line,col): error TS0 K601: message", one line per finding.
  const found = [...output.matchAll(/\((\d+),\d+\): (?:error|warning) TS0 (K\d+):/g)].map(
    (m) => `${owners[Number(m[1]) - 1]}: ${m[2]}`,
  );
  const named = lines.flatMap((text, i) => [...text.matchAll(/\/\/ (K\d+)\b/g)].map((m) => `${owners[i]}: ${m[1]}`));

  expect(named).toEqual(['Bare: K601', 'Unused: K604', 'Mixed: K604']);
  expect([found, output]).toEqual([named, expect.anything()]);
});
