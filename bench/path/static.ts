// The static counts of bench/path, read from the sources with the TypeScript parser (comments and strings are not
// code, so they are not counted, except in the textual column that says so):
//
//   catch sites        functions (declarations, methods, arrows, function expressions, accessors, constructors)
//                      with a `try { … } catch` of their own: a try inside a nested function counts for that
//                      function, not for the one around it; try … finally without catch is not a catch site.
//   .catch( calls      calls of a method named `catch` (a promise's rejection handled), beside them
//   sync/async text    textual occurrences of `isThenable(` and of `instanceof Promise`, comments and the
//                      definition `function isThenable(` included: what the issue's count was
//   sync/async code    the same in code only: calls of `isThenable(…)` and `… instanceof Promise` expressions
//
// over core/pipeline/**, core/request/** and core/app/** (the page's request path), then over all of core/.
//
//   staticCounts() → prints the tables

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { printTable } from '../lib/report.ts';
import { repoRoot } from './files.ts';

/** The folders of core the counts are made over. */
export const countedFolders = ['core/pipeline', 'core/request', 'core/app'];

/** What one file holds. */
interface FileCounts {
  file: string;
  /** The functions with a try … catch of their own, by name. */
  catchFunctions: string[];
  /** The lines those functions start on (1-based), in the same order. */
  catchLines: number[];
  catchCalls: number;
  textual: number;
  inCode: number;
}

/**
 * Prints the counts over `countedFolders` (by file, and in total) and the totals over all of core/.
 * @example staticCounts() // → the tables, on stdout
 */
export function staticCounts(verbose = false): void {
  const counted = countedFolders.flatMap((folder) => sourceFiles(join(repoRoot, folder))).map(countFile);
  const core = sourceFiles(join(repoRoot, 'core')).map(countFile);
  console.log(`\nstatic: ${countedFolders.map((f) => `${f}/**`).join(', ')} (${counted.length} files)\n`);
  const shown = counted.filter((c) => c.catchFunctions.length + c.catchCalls + c.textual + c.inCode > 0);
  printTable(
    ['file', 'functions with try…catch', '.catch( calls', 'isThenable( + instanceof Promise, text', 'in code'],
    [
      ...shown.map((c) => [
        c.file,
        String(c.catchFunctions.length),
        String(c.catchCalls),
        String(c.textual),
        String(c.inCode),
      ]),
      totalRow(`all ${counted.length} files`, counted),
      totalRow(`all of core/ (${core.length} files)`, core),
    ],
  );
  if (verbose) {
    console.log('\nthe functions with a try…catch of their own\n');
    for (const c of counted) for (const fn of c.catchFunctions) console.log(`  ${c.file}:${fn}`);
  }
}

function totalRow(label: string, files: readonly FileCounts[]): string[] {
  const sum = (f: (c: FileCounts) => number) => files.reduce((n, c) => n + f(c), 0);
  const withCatch = files.filter((c) => c.catchFunctions.length > 0).length;
  return [
    label,
    `${sum((c) => c.catchFunctions.length)} in ${withCatch} files`,
    String(sum((c) => c.catchCalls)),
    `${sum((c) => c.textual)} in ${files.filter((c) => c.textual > 0).length} files`,
    `${sum((c) => c.inCode)} in ${files.filter((c) => c.inCode > 0).length} files`,
  ];
}

/** The .ts and .tsx files under `dir`, sorted. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.tsx?$/.test(name) && !name.endsWith('.d.ts'))
    .map((name) => join(dir, name))
    .sort();
}

/**
 * The functions of a file (relative to the checkout) with a try … catch of their own: the lines they start on.
 * @example catchLines('core/kernel/fetch.ts') // → [25]
 */
export function catchLines(file: string): number[] {
  return countFile(join(repoRoot, file)).catchLines;
}

function countFile(path: string): FileCounts {
  const text = readFileSync(path, 'utf8');
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const catchFunctions = new Set<ts.SignatureDeclaration>();
  let catchCalls = 0;
  let inCode = 0;
  const visit = (node: ts.Node): void => {
    if (ts.isTryStatement(node) && node.catchClause) {
      const fn = enclosingFunction(node);
      if (fn) catchFunctions.add(fn);
    } else if (ts.isCallExpression(node)) {
      const callee = node.expression;
      if (ts.isPropertyAccessExpression(callee) && callee.name.text === 'catch') catchCalls++;
      if (ts.isIdentifier(callee) && callee.text === 'isThenable') inCode++;
    } else if (
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind === ts.SyntaxKind.InstanceOfKeyword &&
      ts.isIdentifier(node.right) &&
      node.right.text === 'Promise'
    ) {
      inCode++;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  const lineOf = (fn: ts.Node) => source.getLineAndCharacterOfPosition(fn.getStart(source)).line + 1;
  return {
    file: relative(repoRoot, path),
    catchFunctions: [...catchFunctions].map((fn) => functionName(fn, source)),
    catchLines: [...catchFunctions].map(lineOf),
    catchCalls,
    textual: occurrences(text, 'isThenable(') + occurrences(text, 'instanceof Promise'),
    inCode,
  };
}

function occurrences(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

/** The innermost function around `node`; undefined at a module's top level. */
function enclosingFunction(node: ts.Node): ts.SignatureDeclaration | undefined {
  for (let n = node.parent; n; n = n.parent) if (ts.isFunctionLike(n)) return n;
  return undefined;
}

/** `name`, `Class.method`, the variable an arrow is assigned to, or `<anonymous> (line N)`. */
function functionName(fn: ts.SignatureDeclaration, source: ts.SourceFile): string {
  const own = fn.name && (ts.isIdentifier(fn.name) || ts.isPrivateIdentifier(fn.name)) ? fn.name.text : undefined;
  const holder = fn.parent;
  if (own && ts.isClassLike(holder)) return `${holder.name?.text ?? '(class)'}.${own}`;
  if (own) return own;
  if (ts.isConstructorDeclaration(fn) && ts.isClassLike(holder)) return `${holder.name?.text ?? '(class)'}.constructor`;
  if (ts.isVariableDeclaration(holder) && ts.isIdentifier(holder.name)) return holder.name.text;
  const line = source.getLineAndCharacterOfPosition(fn.getStart(source)).line + 1;
  return `<anonymous> (line ${line})`;
}
