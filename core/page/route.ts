// Route tags: `route('[METHOD] /path [Title]', Target)` on a class field.
//
//   route('/todos Todos', TodosPage)        => { method: "",    path: "/todos",       title: "Todos" }
//   route('POST /todos/{id}/toggle', Toggle)=> { method: "POST", path: "/todos/{id}/toggle", title: "" }
//   route('/{$} Home', HomePage)            => { method: "",    path: "/{$}",         title: "Home" }
//
// Only the tag is read at mount; fields that are not routes are ignored.

/** HTTP methods a tag may start with. */
export const tagMethods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE'] as const;

/** A page class: constructed once at mount with the mount option `deps`. */
export type PageClass<TPage extends object = object> = abstract new (...args: never[]) => TPage;

const kRoute = Symbol.for('pagetree.route');

/** A route field: the value of `route(tag, target)`. */
export interface Route<TTag extends string = string, TTarget = unknown> {
  readonly [kRoute]: true;
  readonly tag: TTag;
  readonly target: TTarget;
}

/**
 * Declares a route field: its tag and the page (class or instance) it serves.
 * @example class App { todos = route('/todos Todos', TodosPage) }
 */
export function route<const TTag extends string, TTarget extends PageClass | object>(
  tag: TTag,
  target: TTarget,
): Route<TTag, TTarget> {
  return { [kRoute]: true, tag, target };
}

/** Whether a field value is a route declared with `route()`. */
export function isRoute(value: unknown): value is Route {
  return typeof value === 'object' && value !== null && (value as Partial<Route>)[kRoute] === true;
}

/** A parsed route tag. */
export interface ParsedTag {
  /** Upper-case method, or "" for all methods. */
  method: string;
  path: string;
  title: string;
}

/**
 * Splits a tag into method, path and title. A first word that is a known
 * method (any case) is the method; otherwise it is the path.
 * @example parseTag('get /users/{id} User page') // → { method: "GET", path: "/users/{id}", title: "User page" }
 */
export function parseTag(tag: string): ParsedTag {
  const words = tag.trim().split(/\s+/).filter(Boolean);
  let method = '';
  if (words.length > 0 && (tagMethods as readonly string[]).includes(words[0]!.toUpperCase())) {
    method = words.shift()!.toUpperCase();
  }
  const path = words.shift() ?? '';
  return { method, path, title: words.join(' ') };
}

/**
 * The full path of a child: path.posix.join of the parent's and its own, with
 * a trailing slash dropped (so "/todos/" is the exact "/todos"; `{rest...}` is the way to a subtree).
 * @example composePath('/admin', '/{$}') // → "/admin/{$}"
 */
export function composePath(parent: string, own: string): string {
  // path.posix.join's normalization, written out so that neither a worker nor the lint plugin needs node:path
  // (a property test holds the two equal): empty and "." segments go, ".." removes the one before it (above
  // the root there is nothing to remove; a relative path keeps its leading ".."s).
  const joined = `${parent || '/'}/${own}`;
  const absolute = joined.startsWith('/');
  const segments: string[] = [];
  for (const segment of joined.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment !== '..') segments.push(segment);
    else if (segments.length > 0 && segments[segments.length - 1] !== '..') segments.pop();
    else if (!absolute) segments.push(segment);
  }
  const path = (absolute ? '/' : '') + segments.join('/');
  return path || '.';
}
