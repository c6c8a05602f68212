// collect: the first of mount's two walks. It reads the page tree from the route fields into drafts: each page
// class constructed once (with `deps`), its route fields read in declaration order, its tag parsed, its full path
// composed (path.posix.join), its page read (page-node.ts's readPage) and its patterns parsed once (route.ts).
//
//   class App   { index = route('/{$} Home', Home); admin = route('/admin', Admin) }
//   class Admin { user = route('/users/{userId}', UserPage) }
//
//   preorder   [App, App.index, App.admin, App.admin.user]   the tree's order; a subtree is a slice of it
//   postorder  [App.index, App.admin.user, App.admin, App]   children first: the order routes register in
//
// A draft holds everything its PageNode will, but the links between nodes and, until the whole tree is read,
// the element ids. mount.ts checks the drafts, gives the ids and builds the nodes whole.

import { MountError, PatternError } from '../errors.ts';
import type { Pattern } from '../mux/pattern.ts';
import { isSocketPage, readPage, type PageNodeInit } from './page-node.ts';
import { composePath, isRoute, parseTag, routePatterns } from './route.ts';

/** A route while mount reads the tree: everything its node will hold, filled in as mount learns it. */
export interface Draft extends PageNodeInit {
  readonly parent: Draft | null;
  /** The nearest route (itself or an ancestor) whose page defines error(). */
  errorPage: Draft | null;
  readonly registered: boolean;
  children: Draft[];
  patterns: Pattern[];
  ids: string[];
  /** Its subtree in the pre-order list: `preorder.slice(index, end)`. */
  readonly index: number;
  end: number;
}

/** The drafts of a tree, in the two orders mount reads them in. */
export interface Drafts {
  /** Root first, each route before its children: the tree's order. */
  readonly preorder: Draft[];
  /** Children before their parent: the order routes register and init() runs in. */
  readonly postorder: Draft[];
}

/**
 * Reads a tree of pages from its root: the first walk of mount.
 * @example collect(App, 'App', 'App', { method: '', path: '/', title: '' }, deps).preorder.map((d) => d.fieldPath) // → ["App", "App.index", …]
 */
export function collect(
  root: unknown,
  rootName: string,
  rootFieldPath: string,
  tag: { method: string; path: string; title: string },
  deps: unknown,
): Drafts {
  const drafts: Drafts = { preorder: [], postorder: [] };
  const visit = (
    target: unknown,
    name: string,
    fieldPath: string,
    tag: { method: string; path: string; title: string },
    parent: Draft | null,
    ancestors: unknown[],
  ): Draft => {
    if (ancestors.includes(target)) {
      throw new MountError(
        fieldPath,
        `routes back to ${describe(target)}, an ancestor: a page tree cannot contain itself`,
      );
    }
    const page = construct(target, fieldPath, deps);
    const fields = Object.entries(page).filter(([, v]) => isRoute(v));
    // A route without a method takes its parent's: 'GET /admin' makes the admin section GET-only.
    const method = tag.method || (parent ? parent.method : '');
    const shape = readPage(page, method, fields.length > 0);
    // Every field spelled out, no `...shape`: a spread followed by more fields built each draft property by
    // property (mount took 2.3× as long; bench:mount).
    const draft: Draft = {
      kind: shape.kind,
      components: shape.components,
      verbs: shape.verbs,
      methods: shape.methods,
      fragment: shape.fragment,
      name,
      title: tag.title,
      method,
      route: tag.path,
      page,
      fieldPath,
      fullPath: composePath(parent ? parent.fullPath : '', tag.path),
      parent,
      errorPage: parent?.errorPage ?? null,
      registered: shape.kind === 'page' || shape.kind === 'handler',
      children: [],
      patterns: [],
      ids: [],
      index: drafts.preorder.length,
      end: 0,
    };
    if (typeof (page as { error?: unknown }).error === 'function') draft.errorPage = draft;
    checkVerbs(draft, tag.method);
    checkSocket(draft);
    checkFragment(draft);
    drafts.preorder.push(draft);
    for (const [field, value] of fields) {
      const childPath = `${fieldPath}.${field}`;
      const route = value as { tag: string; target: unknown };
      const childTag = parseTag(route.tag);
      checkPath(childPath, route.tag, childTag.path);
      draft.children.push(visit(route.target, field, childPath, childTag, draft, [...ancestors, target]));
    }
    draft.end = drafts.preorder.length;
    // Parsed after the children's, so that a malformed pattern is reported in the order routes register.
    try {
      draft.patterns = routePatterns(shape.methods, draft.fullPath, fieldPath);
    } catch (err) {
      throw patternMountError(fieldPath, err);
    }
    drafts.postorder.push(draft);
    return draft;
  };
  visit(root, rootName, rootFieldPath, tag, null, []);
  return drafts;
}

// Constructs a page class once, with `deps`; an object is the page as given.
function construct(target: unknown, fieldPath: string, deps: unknown): object {
  if (typeof target === 'function' && target.prototype) {
    try {
      return new (target as new (deps: unknown) => object)(deps);
    } catch (err) {
      throw new MountError(fieldPath, `constructing ${target.name} failed: ${String(err)}`, { cause: err });
    }
  }
  if (typeof target === 'object' && target !== null) return target;
  throw new MountError(
    fieldPath,
    `route target ${String(target)} is not a page class or object; pass a class, e.g. route('/x', XPage)`,
  );
}

// Verb methods register their own methods, so a method in the tag (or inherited from a parent's) contradicts them.
function checkVerbs(draft: Draft, ownMethod: string): void {
  if (draft.verbs.length === 0) return;
  const verbs = draft.verbs.map((v) => `${v}()`).join(', ');
  if (draft.kind === 'handler') {
    throw new MountError(
      draft.fieldPath,
      `defines serveHTTP() and ${verbs}: serveHTTP answers every method itself; remove one of them`,
    );
  }
  if (draft.method) {
    const where = ownMethod ? 'its route tag' : `the route tag of a parent (${draft.parent!.fieldPath})`;
    throw new MountError(
      draft.fieldPath,
      `defines ${verbs} but ${where} says ${draft.method}: verb methods register their own methods ` +
        `(props and page answer GET); remove "${draft.method}" from the tag`,
    );
  }
}

// A WebSocket opens with a GET request (RFC 6455 §4.1): a socket route under another method could never open.
function checkSocket(draft: Draft): void {
  if (!isSocketPage(draft.page) || draft.method === '' || draft.method === 'GET') return;
  throw new MountError(
    draft.fieldPath,
    `defines message(), a socket route, but its route says ${draft.method}: a WebSocket opens with GET; ` +
      `write the tag as 'GET /path' or without a method`,
  );
}

// A `fragment` field must name a component of its own page: what else would render the page's answer with its props?
function checkFragment(draft: Draft): void {
  if (draft.fragment !== null || !Object.hasOwn(draft.page, 'fragment')) return;
  const value = (draft.page as { fragment?: unknown }).fragment;
  const got = typeof value === 'function' ? 'fragment is not' : `fragment is ${typeof value}, not`;
  throw new MountError(
    draft.fieldPath,
    `${got} a component of this page; give one of its own components, e.g. fragment = this.row`,
  );
}

/**
 * Refuses an error() that no route reaches: a section without routes, one whose routes all have nearer error
 * pages, or a partial named `error` from before error() meant the error page. Children first, so the deepest such
 * section is the one named.
 * @example checkErrorPages(collect(App, …)) // throws "mount: App.empty: error() can never answer: …"
 */
export function checkErrorPages({ preorder, postorder }: Drafts): void {
  for (const draft of postorder) {
    if (draft.errorPage !== draft) continue;
    const routes = preorder.slice(draft.index, draft.end).filter((d) => d.registered);
    if (routes.some((d) => d.errorPage === draft)) continue;
    const nearer = new Set(routes.map((d) => d.errorPage!.fieldPath));
    const why =
      routes.length === 0
        ? 'there is no route at or below it; remove it, or add routes below it'
        : `every route below it has its own error() (${[...nearer].join(', ')}); remove it, or remove theirs`;
    throw new MountError(
      draft.fieldPath,
      `error() can never answer: ${why} (error(err, req, target) is the error page of the routes at and below ` +
        `it, not a partial: rename a partial called "error")`,
    );
  }
}

/**
 * Refuses a tag whose path does not start with "/".
 * @example checkPath('App.bad', 'Users', 'Users') // throws "mount: App.bad: invalid route tag \"Users\": …"
 */
export function checkPath(fieldPath: string, tag: string, path: string): void {
  if (!path.startsWith('/')) {
    throw new MountError(
      fieldPath,
      `invalid route tag ${JSON.stringify(tag)}: the path must start with "/"; write it as '[METHOD] /path [Title]'`,
    );
  }
}

// A pattern that does not parse, told as a mount error of the route whose tag made it.
function patternMountError(fieldPath: string, err: unknown): unknown {
  if (err instanceof PatternError && err.reason.startsWith('duplicate wildcard name')) {
    return new MountError(
      fieldPath,
      `the composed pattern ${JSON.stringify(err.pattern)} has the ${err.reason}: a wildcard of this route repeats ` +
        `one of its parents'; rename one of them`,
      { cause: err },
    );
  }
  if (err instanceof PatternError) {
    return new MountError(
      fieldPath,
      `invalid route tag for pattern ${JSON.stringify(err.pattern)}: ${err.message}; fix the tag '[METHOD] /path [Title]'`,
      { cause: err },
    );
  }
  return err;
}

function describe(target: unknown): string {
  if (typeof target === 'function') return target.name || 'an anonymous class';
  if (typeof target === 'object' && target !== null) return target.constructor.name;
  return String(target);
}
