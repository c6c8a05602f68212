// The type checker beside the dev server. tsx and Bun run TypeScript by stripping its types, unchecked, so
// pagetree-dev runs the project's own `tsc --noEmit --watch` next to the server and prints what it finds as it
// finds it, a summary line after each check:
//
//   src/pages/home.tsx(12,5): error TS2322: Type 'number' is not assignable to type 'string'.
//   pagetree-dev: types: 1 error (the server runs anyway: tsx and Bun do not check types)
//   … the file saved again …
//   pagetree-dev: types: no errors
//
// tsc's status lines ("Starting compilation in watch mode...", "File change detected...") are left out. A process of
// its own, not the TypeScript API in this one: TypeScript 7 has no JavaScript API, and `tsc --watch` is the same in
// 5, 6 and 7. It runs at the lowest priority (nice 19): a restart, which needs the CPU at the same moment, comes
// first, and the check takes what is left.

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { setPriority } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';

// tsc's status lines start with the time: "9:54:36 AM - Found 1 error. Watching for file changes."
const statusLine = /^\[?\d{1,2}:\d\d:\d\d\b/;
const foundErrors = /Found (\d+) errors?\b/;

/**
 * Starts the project's `tsc --noEmit --watch` in `cwd` (its tsconfig.json) and prints its findings through `print`,
 * a line each, with a summary after every check. Returns the process, or undefined, having printed why, when there
 * is nothing to check with (no tsconfig.json, typescript not installed).
 * @example const checker = watchTypes(process.cwd(), console.log); // later: checker?.kill()
 */
export function watchTypes(cwd: string, print: (line: string) => void): ChildProcess | undefined {
  if (!existsSync(join(cwd, 'tsconfig.json'))) {
    print('pagetree-dev: no type check: there is no tsconfig.json here');
    return undefined;
  }
  const tsc = tscOf(cwd);
  if (!tsc) {
    print('pagetree-dev: no type check: typescript is not installed here; npm install --save-dev typescript');
    return undefined;
  }
  const child = spawn(process.execPath, [tsc, '--noEmit', '--watch', '--preserveWatchOutput', '--pretty', 'false'], {
    cwd,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    setPriority(child.pid!, 19);
  } catch {
    // Not allowed here (or the process is gone already): it checks at the same priority.
  }
  child.on('error', (err) => print(`pagetree-dev: the type checker did not start: ${err.message}`));
  createInterface({ input: child.stdout! }).on('line', (line) => {
    if (statusLine.test(line)) {
      const found = foundErrors.exec(line);
      if (found) print(`pagetree-dev: types: ${summary(Number(found[1]))}`);
    } else if (line.trim() !== '') {
      print(line);
    }
  });
  return child;
}

function summary(errors: number): string {
  if (errors === 0) return 'no errors';
  return `${errors} error${errors === 1 ? '' : 's'} (the server runs anyway: tsx and Bun do not check types)`;
}

// The project's own tsc (its version, its tsconfig's features), from its package.json's "bin".
function tscOf(cwd: string): string | undefined {
  try {
    const manifest = createRequire(join(cwd, 'package.json')).resolve('typescript/package.json');
    const bin = (JSON.parse(readFileSync(manifest, 'utf8')) as { bin?: { tsc?: string } }).bin?.tsc;
    return bin ? join(dirname(manifest), bin) : undefined;
  } catch {
    return undefined;
  }
}
