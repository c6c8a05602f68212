// The repository's own `npm test` on a fresh machine (issue 45.3): it failed halfway through a 15-minute run until
// Chromium, PostgreSQL and Redis were installed by hand (the README said .ci/run installs them). Now its first step,
// scripts/test-deps.mjs, checks them: present, it says nothing and runs no apt-get; missing, it installs them from
// Debian as root with apt-get, or names them with the command that installs them and stops at once.
// apt-get here is a stand-in on the PATH that records its calls and installs nothing.

import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(__dirname, '../..');
const script = join(root, 'scripts/test-deps.mjs');

/** A PATH whose apt-get records its arguments, one call a line, in the returned file. */
function fakeAptGet(): { path: string; calls: string } {
  const dir = mkdtempSync(join(tmpdir(), 'pagetree-apt-'));
  const calls = join(dir, 'calls');
  writeFileSync(join(dir, 'apt-get'), `#!/bin/sh\necho "$*" >> ${calls}\n`);
  chmodSync(join(dir, 'apt-get'), 0o755);
  return { path: `${dir}:${process.env.PATH}`, calls };
}

/**
 * Runs the check as root (uid 0) or as a developer's own account (uid 1000), whoever runs the suite: the check reads
 * only `process.getuid()`, which a preloaded module sets. (Switching to a real other user fails where the clone or
 * the Node binary sits in a directory only root can enter, as in CI.)
 */
function runDeps(env: Record<string, string>, uid: 0 | 1000): { status: number | null; output: string } {
  const asUid = `data:text/javascript,process.getuid=()=>${uid}`;
  const r = spawnSync(process.execPath, ['--import', asUid, script], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  if (r.error) throw r.error;
  return { status: r.status, output: r.stdout + r.stderr };
}

test('npm test runs the check first', () => {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  expect(pkg.scripts.test).toMatch(/^node scripts\/test-deps\.mjs && /);
});

test('everything present: silent, status 0, no apt-get', () => {
  const apt = fakeAptGet();
  expect(runDeps({ PATH: apt.path }, 1000)).toEqual({ status: 0, output: '' });
  expect(existsSync(apt.calls)).toBe(false);
});

const needsChromium =
  "test-deps: npm test needs Chromium (Debian's chromium: /nonexistent/chromium), and stops here before running " +
  'without them.\nInstall them with: sudo apt-get install --no-install-recommends chromium\n' +
  '(npm test installs them itself when it runs as root on a system with apt-get, as in CI.)\n';

test('missing, as root with apt-get: installs the Debian package, then checks again', () => {
  const apt = fakeAptGet();
  const r = runDeps({ PATH: apt.path, CHROMIUM_PATH: '/nonexistent/chromium' }, 0);
  expect(readFileSync(apt.calls, 'utf8')).toBe('update -qq\ninstall -y -qq --no-install-recommends chromium\n');
  // The stand-in installed nothing: the check after it names what is still missing, and stops.
  expect(r).toEqual({
    status: 1,
    output: `test-deps: installing chromium from Debian (apt-get), which the tests need…\n${needsChromium}`,
  });
});

test('missing, not root: names them and the command, stops with status 1, no apt-get', () => {
  const apt = fakeAptGet();
  const r = runDeps({ PATH: apt.path, CHROMIUM_PATH: '/nonexistent/chromium' }, 1000);
  expect([r, existsSync(apt.calls)]).toEqual([{ status: 1, output: needsChromium }, false]);
});
