// Route tags: `route('[METHOD] /path [Title]', Target)` on a class field, and the form mount compiles them to.
//
//   route('/todos Todos', TodosPage)        => { method: "",    path: "/todos",       title: "Todos" }
//   route('POST /todos/{id}/toggle', Toggle)=> { method: "POST", path: "/todos/{id}/toggle", title: "" }
//   route('/{$} Home', HomePage)            => { method: "",    path: "/{$}",         title: "Home" }
//
// Only the tag is read at mount; fields that are not routes are ignored. A route's full path (its parents' paths
// joined with its own) is parsed once, by the mux's own parser, into the Pattern every reader shares: the mux
// registers it, urlFor fills its builder, the lint plugin reads the URL of one without wildcards:
//
//   "/admin/users/{userId}" => [lit admin, lit users, wild userId]
//                           => builder parts ["/admin/users/", ""], slots [userId]
//   "/admin/{$}"            => [lit admin, dollar]  => builder parts ["/admin/"]: the concrete URL "/admin/"
//
// Runtime-free (it and pattern.ts import nothing else), so the lint plugin reads the same grammar.

import { parsePattern, type Pattern } from '../mux/pattern.ts';

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

/**
 * Parses the patterns a route registers, once: one per method ("" stands for every method), all sharing the
 * parse of the first, since only the method differs. Throws the mux's PatternError for a malformed path.
 * @example routePatterns(['GET', 'POST'], '/tasks/{id}', 'App.tasks').map((p) => p.str) // → ["GET /tasks/{id}", "POST /tasks/{id}"]
 */
export function routePatterns(methods: readonly string[], fullPath: string, loc: string): Pattern[] {
  if (methods.length === 0) return [];
  const withMethod = (m: string) => (m ? `${m} ${fullPath}` : fullPath);
  const first = parsePattern(withMethod(methods[0]!), loc);
  return methods.map((m, i) => (i === 0 ? first : { ...first, str: withMethod(m), method: m }));
}

/** A wildcard of a URL builder: `{name}` takes one segment, `{name...}` the rest of the path. */
export interface UrlSlot {
  readonly name: string;
  readonly multi: boolean;
}

/** A pattern's path as urlFor fills it: literal text with a slot between each two parts. */
export interface UrlBuilder {
  /** Literal text as written in the tags; `parts.length === slots.length + 1`. */
  readonly parts: readonly string[];
  readonly slots: readonly UrlSlot[];
  /** The slots' names. */
  readonly names: readonly string[];
  /** The path as written, for messages: "/admin/users/{userId}". */
  readonly pattern: string;
}

/**
 * The URL builder of a parsed pattern: literals as written, `{$}` and a trailing slash as "/", wildcards as slots.
 * @example urlBuilder(parsePattern('/admin/users/{userId}')).parts // → ["/admin/users/", ""]
 */
export function urlBuilder(p: Pattern): UrlBuilder {
  const parts: string[] = [];
  const slots: UrlSlot[] = [];
  let text = '';
  p.segments.forEach((seg, i) => {
    const raw = p.rawSegments[i]!;
    text += '/';
    if (seg.wild && seg.s !== '') {
      parts.push(text);
      text = '';
      slots.push({ name: seg.s, multi: seg.multi });
    } else if (!seg.dollar) text += raw; // a literal as written ("%61" stays), or "" for a trailing slash
  });
  parts.push(text);
  const pattern = p.rawSegments.map((raw) => '/' + raw).join('');
  return { parts, slots, names: slots.map((x) => x.name), pattern };
}
