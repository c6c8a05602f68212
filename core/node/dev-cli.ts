#!/usr/bin/env node
// pagetree-dev <entry> [app arguments]: the dev loop. Runs the entry with `tsx watch`, which restarts it when a file
// it imports changes, or a file under static/ (when there is one: the page then links the file's new fingerprint);
// and restarts it as well when `.env` changes, which tsx does not see (its watcher ignores dotfiles). For that it
// presses Return for you: tsx reruns the entry on a line on its standard input (its documented manual rerun).
// tsx is the project's own dev dependency, resolved from the working directory.

import { spawn } from 'node:child_process';
import { existsSync, watch } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const [entry, ...args] = process.argv.slice(2);
if (!entry || entry.startsWith('-')) {
  console.error('usage: pagetree-dev <entry> [app arguments]   e.g. pagetree-dev src/main.ts --dev');
  process.exit(2);
}

let tsx: string;
try {
  tsx = createRequire(join(process.cwd(), 'package.json')).resolve('tsx/cli');
} catch {
  console.error('pagetree-dev: tsx is not installed here; npm install --save-dev tsx');
  process.exit(2);
}

const include = existsSync('static') ? ['--include', 'static'] : [];
const child = spawn(process.execPath, [tsx, 'watch', '--clear-screen=false', ...include, entry, ...args], {
  stdio: ['pipe', 'inherit', 'inherit'],
});
if (process.stdin.isTTY) process.stdin.pipe(child.stdin);

// A directory watch: editors save by writing a new file and renaming it over the old one, which a watch on the
// file itself would stop seeing. Saves come in bursts of events: one restart per burst.
let pending: NodeJS.Timeout | undefined;
const envWatcher = watch('.', (_event, name) => {
  if (name !== '.env') return;
  clearTimeout(pending);
  pending = setTimeout(() => child.stdin.write('\n'), 100);
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => {
  envWatcher.close();
  process.exit(code ?? (signal ? 1 : 0));
});
