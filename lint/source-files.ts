// Which files are not the app's own source: tests and generated code.
//
//   __tests__/mount.test.tsx        → test (folder and name)
//   src/users.spec.ts               → test
//   src/api.generated.ts            → generated (name)
//   src/schema.ts  "// @generated"  → generated (leading comment)
//
// Paths are judged relative to the project's directory (its tsconfig's), so a
// project that lives below someone else's `__tests__` folder (our lint fixtures)
// is still an app in its own right.

import { relative, sep } from 'node:path';

const testName = /\.(test|spec)\.[cm]?[jt]sx?$/;
const generatedName = /\.(generated|gen)\.[cm]?[jt]sx?$/;
// Only comments before the first statement: "do not edit" in the middle of a file is prose.
const leadingComments = /^(?:\s|\/\/[^\n]*|\/\*[\s\S]*?\*\/)*/;
const generatedMarker = /@generated|\bdo not edit\b|\bauto-?generated\b/i;

/**
 * Whether a file is a test file (`__tests__/`, `*.test.*`, `*.spec.*`).
 * @example isTestFile('/app/__tests__/a.ts', '/app') // → true
 */
export function isTestFile(fileName: string, projectDir: string): boolean {
  const parts = relative(projectDir, fileName).split(sep);
  return parts.includes('__tests__') || testName.test(parts[parts.length - 1] ?? '');
}

/**
 * Whether a file is generated: by its name, a `generated`/`__generated__` folder, or a leading
 * `@generated` / "DO NOT EDIT" comment.
 * @example isGeneratedFile('/app/api.gen.ts', '/app', '') // → true
 */
export function isGeneratedFile(fileName: string, projectDir: string, text: string): boolean {
  const parts = relative(projectDir, fileName).split(sep);
  if (parts.includes('generated') || parts.includes('__generated__')) return true;
  if (generatedName.test(parts[parts.length - 1] ?? '')) return true;
  return generatedMarker.test(leadingComments.exec(text)?.[0] ?? '');
}

/**
 * Whether the rules leave a file alone: a test or a generated file.
 * @example isIgnoredFile('/app/pages/users.ts', '/app', 'export {}') // → false
 */
export function isIgnoredFile(fileName: string, projectDir: string, text: string): boolean {
  return isTestFile(fileName, projectDir) || isGeneratedFile(fileName, projectDir, text);
}
