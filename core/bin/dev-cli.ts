#!/usr/bin/env node
// pagetree-dev [--runtime node|bun] [--watch <dir>]... [--no-check] <entry> [app arguments]: the dev loop.
//
//   runs the entry        node: `tsx watch` (the project's own tsx)   bun: `bun --watch`
//   restarts it when      a file it imports changes (both watch their module graph), a file under a --watch folder
//                         changes (default: static/, when there is one: the page then links the file's new
//                         fingerprint), or `.env` changes (the app reads it at start)
//   checks types          the project's `tsc --noEmit --watch` beside it, findings printed as they come
//                         (type-watch.ts); --no-check leaves it out
//
// Neither runtime sees static/ or .env by itself: tsx's watcher ignores dotfiles, and `bun --watch` watches only the
// modules the entry imports, not the files it reads. Under tsx, static/ is an --include of its watcher and a changed
// .env presses Return for you (tsx reruns the entry on a line on its standard input, its documented manual rerun);
// Bun has neither, so pagetree-dev restarts `bun --watch` itself: it stops the process and starts it again.

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, watch, type FSWatcher } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { watchTypes } from './type-watch.ts';

const usage =
  'usage: pagetree-dev [--runtime node|bun] [--watch <dir>]... [--no-check] <entry> [app arguments]\n' +
  '  e.g. pagetree-dev src/main.ts --dev\n' +
  '  --runtime <name>  node (default: with tsx) or bun\n' +
  '  --watch <dir>     restart on a change below <dir> as well (default: static, if it exists)\n' +
  '  --no-check        do not run the type checker (tsc --noEmit --watch) beside the server';

const args = process.argv.slice(2);
const folders: string[] = [];
let runtime = 'node';
let check = true;
for (;;) {
  if ((args[0] === '--watch' || args[0] === '--runtime') && args[1]) {
    if (args[0] === '--watch') folders.push(args[1]);
    else runtime = args[1];
    args.splice(0, 2);
  } else if (args[0] === '--no-check') {
    check = false;
    args.shift();
  } else {
    break;
  }
}
const [entry, ...appArgs] = args;
if (!entry || entry.startsWith('-')) fail(usage);
if (runtime !== 'node' && runtime !== 'bun') fail(`pagetree-dev: --runtime ${runtime}: use node or bun\n${usage}`);
if (folders.length === 0 && existsSync('static')) folders.push('static');

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

/** The server process, and how to make it start over when something it does not watch changes. */
interface Server {
  readonly child: ChildProcess;
  /** Restart for a change the runtime's own watcher does not see. */
  rerun(): void;
}

function tsxServer(): Server {
  let tsx: string;
  try {
    tsx = createRequire(join(process.cwd(), 'package.json')).resolve('tsx/cli');
  } catch {
    fail('pagetree-dev: tsx is not installed here; npm install --save-dev tsx (or pagetree-dev --runtime bun …)');
  }
  const include = folders.flatMap((dir) => ['--include', dir]);
  const child = spawn(process.execPath, [tsx, 'watch', '--clear-screen=false', ...include, entry!, ...appArgs], {
    stdio: ['pipe', 'inherit', 'inherit'],
  });
  if (process.stdin.isTTY) process.stdin.pipe(child.stdin!);
  child.on('exit', onExit);
  return { child, rerun: () => child.stdin!.write('\n') };
}

// `bun --watch` restarts on its module graph; for the rest, stop it (its exit frees the port) and start a new one.
function bunServer(): Server {
  const bun = process.versions.bun ? process.execPath : 'bun';
  const start = () => spawn(bun, ['--watch', entry!, ...appArgs], { stdio: 'inherit' });
  let restarting = false;
  const server = {
    child: start(),
    rerun() {
      if (restarting) return;
      restarting = true;
      server.child.removeListener('exit', onExit);
      server.child.once('exit', () => {
        restarting = false;
        server.child = start();
        server.child.on('exit', onExit);
      });
      server.child.kill('SIGTERM');
    },
  };
  server.child.on('exit', onExit);
  return server;
}

const server = runtime === 'bun' ? bunServer() : tsxServer();

// Saves come in bursts of events (an editor writes a new file and renames it over the old one): one restart each.
let pending: NodeJS.Timeout | undefined;
const rerunSoon = () => {
  clearTimeout(pending);
  pending = setTimeout(() => server.rerun(), 100);
};
// A watch on the directory, not on .env itself: the rename of a save would end a watch on the file.
const watchers: FSWatcher[] = [watch('.', (_event, name) => name === '.env' && rerunSoon())];
if (runtime === 'bun') for (const dir of folders) watchers.push(watch(dir, { recursive: true }, rerunSoon));

const checker = check ? watchTypes(process.cwd(), (line) => console.log(line)) : undefined;

for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.child.kill(signal));

function onExit(code: number | null, signal: NodeJS.Signals | null): void {
  for (const watcher of watchers) watcher.close();
  checker?.kill();
  process.exit(code ?? (signal ? 1 : 0));
}
