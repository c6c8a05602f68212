// The version moves with each release that changes behaviour, and the CHANGELOG has a section per version (issue 42.4):
// the newest section is the package's version, and the scaffolder, which writes `pagetree: ^<its own version>` into a
// new project, moves with it.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '../..');
const versionOf = (file: string) => (JSON.parse(readFileSync(join(root, file), 'utf8')) as { version: string }).version;

test("the CHANGELOG's newest section is package.json's version", () => {
  const changelog = readFileSync(join(root, 'CHANGELOG.md'), 'utf8');
  const newest = /^## \[(\d+\.\d+\.\d+)\]/m.exec(changelog)?.[1];
  expect(newest).toBe(versionOf('package.json'));
});

test('create-pagetree has the version of the pagetree it scaffolds for', () => {
  expect(versionOf('create-pagetree/package.json')).toBe(versionOf('package.json'));
});
