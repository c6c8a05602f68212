#!/usr/bin/env node
// pagetree-dev [--watch <dir>]... <entry> [app arguments]: the dev loop. Runs the entry with `tsx watch`, which
// restarts it when a file it imports changes, or a file under a --watch folder (default: static/, when there is
// one: the page then links the file's new fingerprint); and restarts it as well when `.env` changes, which tsx does
// not see (its watcher ignores dotfiles). For that it presses Return for you: tsx reruns the entry on a line on its
// standard input (its documented manual rerun). tsx is the project's own dev dependency, resolved from the working
// directory.

import { spawn } from 'node:child_process';
import { existsSync, watch } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const usage =
  'usage: pagetree-dev [--watch <dir>]... <entry> [app arguments]   e.g. pagetree-dev src/main.ts --dev\n' +
  '  --watch <dir>  restart on a change below <dir> as well (default: static, if it exists)';
const args = process.argv.slice(2);
const folders: string[] = [];
while (args[0] === '--watch') {
  if (!args[1]) break;
  folders.push(args[1]);
  args.splice(0, 2);
}
const [entry, ...appArgs] = args;
if (!entry || entry.startsWith('-')) {
  console.error(usage);
  process.exit(2);
}
if (folders.length === 0 && existsSync('static')) folders.push('static');

let tsx: string;
try {
  tsx = createRequire(join(process.cwd(), 'package.json')).resolve('tsx/cli');
} catch {
  console.error('pagetree-dev: tsx is not installed here; npm install --save-dev tsx');
  process.exit(2);
}

const include = folders.flatMap((dir) => ['--include', dir]);
const child = spawn(process.execPath, [tsx, 'watch', '--clear-screen=false', ...include, entry, ...appArgs], {
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
