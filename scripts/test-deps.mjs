// The first step of `npm test`: the programs the suite needs from the system, checked before a 15-minute run that
// would fail halfway without them. Chromium for the browser tests (__tests__/e2e, driven by playwright-core), and
// PostgreSQL and Redis for the engines' tests and the example on several instances (__tests__/support/services.ts
// starts throwaway servers of its own from their binaries). All present: nothing else runs (no apt-get, no network).
// Missing: installed from Debian's packages when this runs as root with apt-get (a fresh container, CI); otherwise
// named, with the command that installs them, and `npm test` stops here with status 1.
//
//   all present       → exit 0, silent
//   root + apt-get    → "test-deps: installing chromium, redis-server (apt-get)…", then exit 0
//   otherwise         → "test-deps: npm test needs …; install them with: sudo apt-get install …", exit 1

import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';

// Where the tests look for each program (CHROMIUM_PATH as __tests__/support/chromium.ts reads it), and the Debian
// package that provides it.
const programs = [
  {
    name: 'Chromium',
    pkg: 'chromium',
    present: () => existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'),
    where: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium (or CHROMIUM_PATH)',
  },
  {
    name: 'PostgreSQL',
    pkg: 'postgresql',
    // Debian keeps each major's server in /usr/lib/postgresql/<major>/bin.
    present: () =>
      listDir('/usr/lib/postgresql').some((major) => existsSync(`/usr/lib/postgresql/${major}/bin/pg_ctl`)),
    where: '/usr/lib/postgresql/<major>/bin/pg_ctl',
  },
  {
    name: 'Redis',
    pkg: 'redis-server',
    present: () => existsSync('/usr/bin/redis-server') || onPath('redis-server'),
    where: 'redis-server on the PATH',
  },
];

function listDir(dir) {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function onPath(command) {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => dir !== '' && existsSync(join(dir, command)));
}

const missing = programs.filter((p) => !p.present());
if (missing.length === 0) process.exit(0);

const packages = missing.map((p) => p.pkg);
const root = typeof process.getuid === 'function' && process.getuid() === 0;
if (root && onPath('apt-get')) {
  console.log(`test-deps: installing ${packages.join(', ')} from Debian (apt-get), which the tests need…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  try {
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...packages], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env,
    });
  } catch (err) {
    console.error(`test-deps: apt-get install ${packages.join(' ')} failed (${err.message}); npm test stops here.`);
    process.exit(1);
  }
  const still = programs.filter((p) => !p.present());
  if (still.length === 0) process.exit(0);
  missing.splice(0, missing.length, ...still);
}

const list = missing.map((p) => `${p.name} (Debian's ${p.pkg}: ${p.where})`).join(', ');
console.error(
  `test-deps: npm test needs ${list}, and stops here before running without them.\n` +
    `Install them with: sudo apt-get install --no-install-recommends ${missing.map((p) => p.pkg).join(' ')}\n` +
    `(npm test installs them itself when it runs as root on a system with apt-get, as in CI.)`,
);
process.exit(1);
