// The element ids an app's source writes by hand, read from every file of its TypeScript program once: beside the
// components' ids (route-tree.ts), these are the ids htmx-target accepts.
//
//   <main id="main">                      → "main"              a JSX id attribute, on an element or a component
//   <Field id={'title'} />                → "title"
//   renderComponent(Field, { id: 'q' })   → "q"                 an object property named id
//   id={open ? 'a' : 'b'}                 → "a", "b"            any value whose type is string literals
//   id={`row-${t.id}`}                    → /^row-.*$/          a template: any text in its holes
//   id('flash'), id(SearchResults)        → "flash", "search-results"   pagetree's id() of a string or a function
//   '<div id="toast"></div>'              → "toast"             an id attribute inside a string of HTML
//
// What it cannot see is any other value (`id={props.name}` whose literal came through another prop, a template of
// holes only), ids made in a browser script, and ids of files outside the program. Only the app's own files are
// read: those below its tsconfig's directory, not in node_modules, not tests or generated files.

import { isAbsolute, relative, sep } from 'node:path';
import ts from 'typescript';
import { kebab } from '../core/tree/names.ts';
import { calleeName, projectDir, skipWrappers } from './route-tree.ts';
import { isIgnoredFile } from './source-files.ts';

/** The ids an app writes: exact ones, and the shapes of those made from templates. */
export interface WrittenIds {
  exact: ReadonlySet<string>;
  patterns: readonly RegExp[];
}

const cache = new WeakMap<ts.Program, WrittenIds>();
// `id="x"` or `id='x'` in a string of HTML; `\0` marks a template's hole.
const htmlId = /(?:^|[\s"'])id\s*=\s*(["'])([^"'<>]*?)\1/g;

/**
 * The ids written in a program's own source files, read once per program.
 * @example writtenIdsOf(program).exact.has('main') // → true when a layout writes <main id="main">
 */
export function writtenIdsOf(program: ts.Program): WrittenIds {
  let ids = cache.get(program);
  if (!ids) cache.set(program, (ids = readIds(program)));
  return ids;
}

/**
 * Whether an app writes this id, exactly or through a template's shape.
 * @example isWritten(writtenIdsOf(program), 'row-7') // → true when some file writes id={`row-${n}`}
 */
export function isWritten(ids: WrittenIds, id: string): boolean {
  return ids.exact.has(id) || ids.patterns.some((p) => p.test(id));
}

function readIds(program: ts.Program): WrittenIds {
  const checker = program.getTypeChecker();
  const dir = projectDir(program);
  const exact = new Set<string>();
  const shapes = new Set<string>();
  const addText = (text: string) => {
    if (!text.includes('\0')) exact.add(text);
    // A template of holes only (`${props.id}`) says no more than any other value it cannot see: left out.
    else if (text.replaceAll('\0', '') !== '') shapes.add('^' + text.split('\0').map(escapeRegExp).join('[^]*') + '$');
  };
  // A value given as an id: a literal, a template (its holes any text), either branch, or string literal types.
  const addValue = (expr: ts.Expression) => {
    const e = skipWrappers(expr);
    if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) addText(e.text);
    else if (ts.isTemplateExpression(e)) addText(templateText(e));
    else if (ts.isConditionalExpression(e)) [e.whenTrue, e.whenFalse].forEach(addValue);
    else for (const t of literalTypes(checker.getTypeAtLocation(e))) exact.add(t);
  };
  for (const sf of program.getSourceFiles()) {
    if (sf.isDeclarationFile || program.isSourceFileFromExternalLibrary(sf)) continue;
    // The app's own files: a package's ids (pagetree's, resolved to its sources in a monorepo) are not its pages'.
    const path = relative(dir, sf.fileName);
    if (path.startsWith('..') || isAbsolute(path) || path.split(sep).includes('node_modules')) continue;
    if (isIgnoredFile(sf.fileName, dir, sf.text)) continue;
    const visit = (node: ts.Node): void => {
      if (ts.isJsxAttribute(node) && ts.isIdentifier(node.name) && node.name.text === 'id' && node.initializer) {
        const init = node.initializer;
        if (ts.isStringLiteral(init)) addText(init.text);
        else if (ts.isJsxExpression(init) && init.expression) addValue(init.expression);
      } else if (ts.isPropertyAssignment(node) && propertyName(node.name) === 'id') {
        addValue(node.initializer);
      } else if (ts.isCallExpression(node) && node.arguments.length === 1 && isIdCall(node, checker)) {
        addIdArgument(node.arguments[0]!, checker, addValue, exact);
      } else if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && node.text.includes('id')) {
        for (const m of node.text.matchAll(htmlId)) addText(m[2]!);
      } else if (ts.isTemplateExpression(node)) {
        for (const m of templateText(node).matchAll(htmlId)) addText(m[2]!);
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return { exact, patterns: [...shapes].map((s) => new RegExp(s)) };
}

// pagetree's id(), or a tree's (`tree.id(…)`).
function isIdCall(call: ts.CallExpression, checker: ts.TypeChecker): boolean {
  return calleeName(call.expression, checker) === 'id';
}

// id('flash') is "flash"; id(SearchResults), a standalone component, is its kebab-cased name. A page method or a
// chain (`this.list`, `[Admin, 'list']`) is a component of the tree: its id is route-tree's.
function addIdArgument(
  arg: ts.Expression,
  checker: ts.TypeChecker,
  addValue: (e: ts.Expression) => void,
  exact: Set<string>,
): void {
  const e = skipWrappers(arg);
  if (ts.isIdentifier(e)) {
    const type = checker.getTypeAtLocation(e);
    if (type.getCallSignatures().length > 0) exact.add(kebab(e.text));
    else addValue(e);
  } else if (!ts.isPropertyAccessExpression(e) && !ts.isArrayLiteralExpression(e)) {
    addValue(e);
  }
}

// A template's text with `\0` for each hole: `row-${id}` → "row-\0".
function templateText(t: ts.TemplateExpression): string {
  return t.head.text + t.templateSpans.map((s) => '\0' + s.literal.text).join('');
}

function literalTypes(type: ts.Type): string[] {
  const types = type.isUnion() ? type.types : [type];
  return types.every((t) => t.isStringLiteral()) ? types.map((t) => (t as ts.StringLiteralType).value) : [];
}

function propertyName(name: ts.PropertyName): string | undefined {
  return ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : undefined;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
