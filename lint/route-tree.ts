// The page tree, rebuilt from source without running the app.
//
//   mount(mux, App, '/', 'Home')             → root App at "/"
//   class App   { admin = route('/admin', Admin) }
//   class Admin { users = route('/users Users', UsersPage) }
//
//   App.admin        Admin      "/admin"         group: not registered
//   App.admin.users  UsersPage  "/admin/users"   page:  registered, components page, userList
//                                                       → ids "admin-users-page", "admin-users-user-list"
//
// Every `mount()` call of the program with a constant route is a root; its
// route fields are followed through classes in any file (the type checker
// resolves imports), full paths compose with mount's own `composePath`, and
// parse with mount's own parser into the builder urlFor fills (concreteUrl), and
// each mount's components get the element ids mount gives them (element-ids.ts).
// Reading the TypeScript AST (not ESTree) is what lets one pass see every file.

import { dirname, resolve } from 'node:path';
import ts from 'typescript';
import { componentNames, isComponentName, verbMethods } from '../core/tree/names.ts';
import { parsePattern } from '../core/mux/pattern.ts';
import { composePath, parseTag, urlBuilder } from '../core/tree/route.ts';
import { defaultMaxIdLength, elementIdsOf } from './element-ids.ts';
import { isIgnoredFile } from './source-files.ts';

/** One route of a mounted tree. */
export interface MountedRoute {
  /** Dotted field path as mount builds it, root class first: "App.admin.users". */
  fieldPath: string;
  /** The page class name, or "" when the target is not a class we can see (an object, a call). */
  className: string;
  /** Upper-case method (inherited from the parent when the tag has none), or "". */
  method: string;
  /** The full path: "/admin/users/{userId}". */
  fullPath: string;
  /** Whether mount registers it on the mux: a page or handler (groups and empty nodes are not). */
  registered: boolean;
  /** Its components' method names (`page`, partials), which get element ids. */
  components: readonly string[];
}

/** A component's element id, as mount gives it, and where it comes from. */
export interface ComponentId {
  route: MountedRoute;
  method: string;
  id: string;
  /** The id before mount shortened it (longer than `maxIdLength`); the same as `id` when it was not. */
  fullId: string;
}

/** What the rules need of a program's mounted trees. */
export interface RouteTree {
  routes: readonly MountedRoute[];
  /** Registered routes by the one URL they serve, for concrete patterns only. */
  byUrl: ReadonlyMap<string, readonly MountedRoute[]>;
  /** How many routes each class has across all mounts, to tell whether `urlFor(Class)` is unambiguous. */
  classCount: ReadonlyMap<string, number>;
  /**
   * The element ids of every mount's components, by id; undefined when some mount's ids cannot be known (two
   * components would share one, which mount refuses, or its `maxIdLength` is not a constant).
   */
  ids: ReadonlyMap<string, ComponentId> | undefined;
}

const cache = new WeakMap<ts.Program, RouteTree>();

/**
 * The mounted routes of a program, built once per program.
 * @example routeTreeOf(program).byUrl.get('/admin/users')?.[0]?.fieldPath // → "App.admin.users"
 */
export function routeTreeOf(program: ts.Program): RouteTree {
  let tree = cache.get(program);
  if (!tree) cache.set(program, (tree = buildTree(program)));
  return tree;
}

/**
 * The one URL a full path serves: none when it has a wildcard (`{$}` keeps its slash) or does not parse. The path
 * is parsed as mount parses it (the mux's parsePattern) and read through urlFor's own builder.
 * @example concreteUrl('/admin/{$}') // → "/admin/"
 */
export function concreteUrl(fullPath: string): string | undefined {
  let url;
  try {
    url = urlBuilder(parsePattern(fullPath));
  } catch {
    return undefined; // mount throws: no URL
  }
  return url.slots.length === 0 ? url.parts[0] : undefined;
}

/**
 * The directory a program's paths are judged from (test files, generated files): its tsconfig's.
 * @example projectDir(program) // → "/work/app"
 */
export function projectDir(program: ts.Program): string {
  const config = program.getCompilerOptions().configFilePath;
  return typeof config === 'string' ? dirname(resolve(config)) : program.getCurrentDirectory();
}

function buildTree(program: ts.Program): RouteTree {
  const checker = program.getTypeChecker();
  const dir = projectDir(program);
  const routes: MountedRoute[] = [];
  let ids: Map<string, ComponentId> | undefined = new Map();
  for (const sf of program.getSourceFiles()) {
    // Mounts in tests and generated code are not the app's; `mount` must be named somewhere in a file that calls it.
    if (sf.isDeclarationFile || program.isSourceFileFromExternalLibrary(sf) || !sf.text.includes('mount')) continue;
    if (isIgnoredFile(sf.fileName, dir, sf.text)) continue;
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && calleeName(node.expression, checker) === 'mount') {
        const mounted = mountedRoutes(node, checker);
        routes.push(...mounted);
        ids = ids && addIds(ids, mounted, maxIdLengthOf(node.arguments[4], checker));
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  const byUrl = new Map<string, MountedRoute[]>();
  const classCount = new Map<string, number>();
  for (const r of routes) {
    if (r.className) classCount.set(r.className, (classCount.get(r.className) ?? 0) + 1);
    const url = r.registered ? concreteUrl(r.fullPath) : undefined;
    if (url === undefined || url === '/' || url === '') continue;
    byUrl.set(url, [...(byUrl.get(url) ?? []), r]);
  }
  return { routes, byUrl, classCount, ids };
}

// One mount's ids added to the program's, or undefined when they cannot be known. Two mounts may give the same id
// (the same class mounted by two apps): an id is known if any tree has it.
function addIds(
  ids: Map<string, ComponentId>,
  mounted: readonly MountedRoute[],
  maxIdLength: number | undefined,
): Map<string, ComponentId> | undefined {
  const perRoute = maxIdLength === undefined ? undefined : elementIdsOf(mounted, maxIdLength);
  if (!perRoute) return undefined;
  perRoute.forEach((list, i) => {
    for (const e of list) if (!ids.has(e.id)) ids.set(e.id, { route: mounted[i]!, ...e });
  });
  return ids;
}

// mount's `maxIdLength` option: the default when the options do not have it, undefined when it is not a constant.
function maxIdLengthOf(options: ts.Expression | undefined, checker: ts.TypeChecker): number | undefined {
  if (!options) return defaultMaxIdLength;
  // An object literal's type widens `maxIdLength: 60` to number: read the property's own value.
  const literal = skipWrappers(options);
  if (ts.isObjectLiteralExpression(literal) && !literal.properties.some(ts.isSpreadAssignment)) {
    const own = literal.properties.find((p) => p.name && ts.isIdentifier(p.name) && p.name.text === 'maxIdLength');
    if (!own) return defaultMaxIdLength;
    const type = ts.isPropertyAssignment(own) ? checker.getTypeAtLocation(own.initializer) : undefined;
    return type?.isNumberLiteral() ? type.value : undefined;
  }
  const property = checker.getTypeAtLocation(options).getProperty('maxIdLength');
  if (!property) return defaultMaxIdLength;
  const type = checker.getTypeOfSymbolAtLocation(property, options);
  return type.isNumberLiteral() ? type.value : undefined;
}

// mount(mux, Root, route = '/', title, options): the root's name is its class name.
function mountedRoutes(call: ts.CallExpression, checker: ts.TypeChecker): MountedRoute[] {
  const [, rootArg, routeArg] = call.arguments;
  if (!rootArg) return [];
  const tagText = routeArg ? constantString(routeArg, checker) : '/';
  const root = resolveTarget(rootArg, checker);
  if (tagText === undefined || !root.className) return [];
  const tag = parseTag(tagText);
  const path = tag.path || '/';
  if (!path.startsWith('/')) return []; // mount throws: no tree
  const out: MountedRoute[] = [];
  walk(root, root.className, tag.method, composePath('', path), [], checker, out);
  return out;
}

interface Target {
  className: string;
  /** The class or object literal whose members are the page's; undefined when we cannot see it. */
  decl: ts.ClassLikeDeclaration | ts.ObjectLiteralExpression | undefined;
}

function walk(
  target: Target,
  fieldPath: string,
  method: string,
  fullPath: string,
  ancestors: readonly ts.Node[],
  checker: ts.TypeChecker,
  out: MountedRoute[],
): void {
  // A tree that contains itself fails at mount; stop rather than loop.
  if (target.decl && ancestors.includes(target.decl)) return;
  const members = target.decl ? membersOf(target.decl, checker, 0) : undefined;
  const route: MountedRoute = {
    fieldPath,
    className: target.className,
    method,
    fullPath,
    // A target we cannot see into (an untyped factory's result) is taken as a handler: mount registers those.
    registered: members ? isServing(members.methods) : true,
    components: members ? componentNames(members.methods) : [],
  };
  out.push(route);
  if (!members || !target.decl) return;
  for (const [field, call] of members.routes) {
    const tagText = call.arguments[0] && constantString(call.arguments[0], checker);
    const targetArg = call.arguments[1];
    if (tagText === undefined || !targetArg) continue;
    const tag = parseTag(tagText);
    if (!tag.path.startsWith('/')) continue;
    walk(
      resolveTarget(targetArg, checker),
      `${fieldPath}.${field}`,
      tag.method || method, // a child without a method takes its parent's
      composePath(fullPath, tag.path),
      [...ancestors, target.decl],
      checker,
      out,
    );
  }
}

function isServing(methods: ReadonlySet<string>): boolean {
  for (const m of methods) {
    // A page with only a verb method (post()) registers that method's pattern, as mount does.
    if (m === 'serveHTTP' || m === 'props' || (verbMethods as readonly string[]).includes(m)) return true;
    if (isComponentName(m)) return true;
  }
  return false;
}

interface Members {
  /** Route fields in declaration order (base class first, as Object.entries sees them). */
  routes: Map<string, ts.CallExpression>;
  methods: Set<string>;
}

function membersOf(
  decl: ts.ClassLikeDeclaration | ts.ObjectLiteralExpression,
  checker: ts.TypeChecker,
  depth: number,
): Members {
  const members: Members = { routes: new Map(), methods: new Set() };
  if (!ts.isObjectLiteralExpression(decl) && depth < 10) {
    const base = decl.heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword)?.types[0];
    const baseDecl = base && resolveTarget(base.expression, checker).decl;
    if (baseDecl) {
      const inherited = membersOf(baseDecl, checker, depth + 1);
      inherited.routes.forEach((v, k) => members.routes.set(k, v));
      inherited.methods.forEach((m) => members.methods.add(m));
    }
  }
  const list = ts.isObjectLiteralExpression(decl) ? decl.properties : decl.members;
  for (const m of list) {
    // Static members and #private ones are not fields of the page object.
    if (ts.canHaveModifiers(m) && ts.getModifiers(m)?.some((x) => x.kind === ts.SyntaxKind.StaticKeyword)) continue;
    const name = m.name && (ts.isIdentifier(m.name) || ts.isStringLiteral(m.name)) ? m.name.text : undefined;
    if (name === undefined) continue;
    if (ts.isMethodDeclaration(m)) {
      members.methods.add(name);
      continue;
    }
    const init = ts.isPropertyDeclaration(m) || ts.isPropertyAssignment(m) ? m.initializer : undefined;
    if (!init) continue;
    const value = skipWrappers(init);
    if (ts.isCallExpression(value) && calleeName(value.expression, checker) === 'route') {
      members.routes.set(name, value);
    } else if (ts.isArrowFunction(value) || ts.isFunctionExpression(value)) {
      members.methods.add(name);
    }
  }
  return members;
}

// What a route target or mount root names: a class (by reference or `new X()`), an object literal,
// or the class or object literal type of any other value (`staticFiles('static')` → StaticFiles).
function resolveTarget(expr: ts.Expression, checker: ts.TypeChecker): Target {
  const e = skipWrappers(expr);
  if (ts.isNewExpression(e)) return resolveTarget(e.expression, checker);
  if (ts.isClassExpression(e)) return { className: e.name?.text ?? '', decl: e };
  // An object literal has no class for urlFor to name: it is reached by field path.
  if (ts.isObjectLiteralExpression(e)) return { className: '', decl: e };
  let symbol = ts.isIdentifier(e) || ts.isPropertyAccessExpression(e) ? checker.getSymbolAtLocation(e) : undefined;
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  // A value's type leads to the same class whether the value is the class (typeof X) or an instance (X).
  const typeSymbol = checker.getTypeAtLocation(e).getSymbol();
  for (const d of [...(symbol?.declarations ?? []), ...(typeSymbol?.declarations ?? [])]) {
    if (ts.isClassDeclaration(d) || ts.isClassExpression(d)) {
      return { className: d.name?.text ?? '', decl: d };
    }
    if (ts.isObjectLiteralExpression(d)) return { className: '', decl: d };
    // const X = class { … }: the class takes the variable's name, as JavaScript names it.
    if (ts.isVariableDeclaration(d) && d.initializer && ts.isClassExpression(skipWrappers(d.initializer))) {
      const cls = skipWrappers(d.initializer) as ts.ClassExpression;
      return { className: cls.name?.text ?? d.name.getText(), decl: cls };
    }
  }
  return { className: '', decl: undefined };
}

/**
 * An expression without the wrappers that do not change its value: parentheses, `as`, `satisfies`, `!`.
 * @example skipWrappers(node) // `(App as typeof App)` → the `App` identifier
 */
export function skipWrappers(expr: ts.Expression): ts.Expression {
  let e = expr;
  while (
    ts.isParenthesizedExpression(e) ||
    ts.isAsExpression(e) ||
    ts.isSatisfiesExpression(e) ||
    ts.isNonNullExpression(e) ||
    ts.isTypeAssertionExpression(e)
  ) {
    e = e.expression;
  }
  return e;
}

/**
 * The name a call's callee refers to: an import keeps its exported name (`import { mount as m }` → "mount"),
 * and `pagetree.mount` gives "mount". Unresolved imports still count, so a broken import does not hide a tree.
 * @example calleeName(call.expression, checker) // `m(mux, App)` with `import { mount as m }` → "mount"
 */
export function calleeName(callee: ts.Expression, checker: ts.TypeChecker): string | undefined {
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  if (!ts.isIdentifier(callee)) return undefined;
  const decl = checker.getSymbolAtLocation(callee)?.declarations?.[0];
  if (decl && ts.isImportSpecifier(decl)) return (decl.propertyName ?? decl.name).text;
  return callee.text;
}

function constantString(expr: ts.Expression, checker: ts.TypeChecker): string | undefined {
  const e = skipWrappers(expr);
  if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return e.text;
  // A const initialised from a literal has a literal type: the checker gives us its value.
  const type = checker.getTypeAtLocation(e);
  return type.isStringLiteral() ? type.value : undefined;
}
