// Runs a scenario in a child process with Node's defaults, for the one question jest cannot answer: does anything go
// unhandled? Inside jest's sandbox a test's process.on('unhandledRejection' | 'uncaughtException') never fires
// (jest 30 keeps those events for itself), so a test that listens for them cannot fail. A child process run as a
// user's app runs ends on the first rejection nobody handles (--unhandled-rejections=throw), printing it, with
// exit code 1.
//
//   inChild('/…/scenario.ts', 'run')  →  node --import tsx -e "require('/…/scenario.ts').run()"
//                                     →  { code: 0, signal: null, stdout: <what run() resolved with>, stderr: '' }

import { spawn } from 'node:child_process';
import { join } from 'node:path';

/** How a child process ended and what it printed. */
export interface ChildRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the exported function `fn` of `module` (a path) in a child process (`node --import tsx`), prints what it
 * resolves with, and resolves once the process has exited on its own: the scenario must close what it opened. A
 * child still running after `timeoutMs` is killed (signal SIGKILL).
 * @example await inChild(join(__dirname, 'scenario.ts'), 'run') // → { code: 0, signal: null, stdout: 'ok\n', stderr: '' }
 */
export function inChild(module: string, fn: string, timeoutMs = 20_000): Promise<ChildRun> {
  const run = `require(${JSON.stringify(module)})[${JSON.stringify(fn)}]()`;
  const entry = `Promise.resolve(${run}).then((out) => process.stdout.write(String(out)))`;
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', entry], {
    cwd: join(__dirname, '..', '..'),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}
