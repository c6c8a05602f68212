// Which files are pagetree's: core/** and jsx-runtime/** of this checkout, named relative to it.
//
//   pagetreeFile('file:///work/main/core/kernel/fetch.ts') // → 'core/kernel/fetch.ts'
//   pagetreeFile('node:internal/http/server')             // → undefined

import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** This checkout's root. */
export const repoRoot = resolve(__dirname, '..', '..');

/**
 * A stack frame's or a script's location as a path relative to the checkout when it is one of pagetree's files
 * (core/**, jsx-runtime/**); undefined for anything else (node's internals, the app, node_modules).
 * @example pagetreeFile('/work/main/core/pipeline/dispatch.ts') // → 'core/pipeline/dispatch.ts'
 */
export function pagetreeFile(location: string): string | undefined {
  const path = location.startsWith('file://') ? fileURLToPath(location) : location;
  if (!path.startsWith('/')) return undefined;
  const rel = relative(repoRoot, path);
  return /^(core|jsx-runtime)\//.test(rel) ? rel : undefined;
}
