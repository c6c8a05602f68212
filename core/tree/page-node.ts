// The page tree: one PageNode per route field, built at mount.
//
//   class App   { index = route('/{$} Home', Home); admin = route('/admin', Admin) }
//   class Admin { user = route('/users/{userId} User', UserPage) }
//
//   App (group, "/")
//   ├─ index  Home      "/{$}"                 App.index
//   └─ admin  Admin     "/admin"   (group)     App.admin
//      └─ user UserPage "/admin/users/{userId}" App.admin.user
//
// A node's kind follows from its page object: `serveHTTP()` makes a handler;
// `page()`, `props()`, verb methods or other methods make a page; only route
// fields make a group (its children register, it does not); nothing at all is
// empty. A page with verb methods registers one pattern per method:
//
//   class TaskPage { props() {…} page() {…} post() {…} delete() {…} }  at /tasks/{id}
//   → "GET /tasks/{id}" (props, page), "POST /tasks/{id}" (post), "DELETE /tasks/{id}" (delete)
//
// `error()` is no component and changes no kind: it is the error page of the node's routes and of every route
// below without a nearer one. Each node knows its nearest at construction (parents are built first):
//
//   App.admin (group, error())  → errorPage App.admin
//   └─ App.admin.user           → errorPage App.admin
//
// A node is whole when built: mount reads every page (readPage), parses its patterns and gives its components
// their ids (collect.ts, element-ids.ts) before it builds any node, so nothing is set on a node afterwards.

import { isComponentName, kebab as kebabName, socketMethods, verbMethods } from './names.ts';
import type { Pattern } from '../mux/pattern.ts';
import type { Handler, HandlerFunc } from '../kernel/request.ts';
import { urlBuilder, type UrlBuilder } from './route.ts';

/** A method of a page that renders: `page` or a partial. */
export interface ComponentInfo {
  /** Method name, e.g. "todoList". */
  readonly name: string;
  /** The function `this.todoList` evaluates to on the page. */
  readonly fn: (...args: never[]) => unknown;
  /** kebab(name), e.g. "todo-list". */
  readonly kebab: string;
  /** The generated element id, e.g. "todos-todo-list". */
  readonly id: string;
}

/** A verb method of a page: answers POST, PUT, PATCH or DELETE beside props' GET. */
export type VerbMethod = (typeof verbMethods)[number];

/** How a node answers: render `page()`/partials, call `serveHTTP`, or only hold children. */
export type NodeKind = 'page' | 'handler' | 'group' | 'empty';

/**
 * A middleware wraps the handler of one route; it is built once per route
 * at mount and receives the node it serves.
 * @example const timing: Middleware = (next) => async (req) => { const res = await next(req); res.headers.set('x-t', '1'); return res; }
 */
export type Middleware = (next: HandlerFunc, node: PageNode) => Handler;

/** What a page object is, read once at mount before its node is built. */
export interface PageShape {
  readonly kind: NodeKind;
  /** Its rendering methods, `page` first; ids are given when the whole tree is known. */
  readonly components: readonly Omit<ComponentInfo, 'id'>[];
  readonly verbs: readonly VerbMethod[];
  /** The method of each pattern it registers ("" for every method); none for groups and empty nodes. */
  readonly methods: readonly string[];
  /**
   * The name of the component its `fragment` field names (`fragment = this.row`), or null without one (or when the
   * field names no component of the page: collect.ts refuses that at mount).
   */
  readonly fragment: string | null;
}

/**
 * Reads a page object: its kind, components, verb methods and the methods it registers.
 * @example readPage(new TaskPage(), '', false).methods // → ["GET", "POST", "DELETE"]
 */
export function readPage(page: object, method: string, hasChildren: boolean): PageShape {
  const components = findComponents(page);
  const p = page as Record<string, unknown>;
  const verbs = verbMethods.filter((v) => typeof p[v] === 'function');
  const renders = components.length > 0 || typeof p.props === 'function';
  // A socket route (live/socket.ts): opened by a GET upgrade request, so it registers GET as props does.
  const socket = isSocketPage(page);
  let kind: NodeKind;
  if (typeof p.serveHTTP === 'function') kind = 'handler';
  else if (renders || verbs.length > 0 || socket) kind = 'page';
  else kind = hasChildren ? 'group' : 'empty';
  let methods: string[] = [];
  if (kind === 'page' && verbs.length > 0)
    methods = [...(renders || socket ? ['GET'] : []), ...verbs.map((v) => v.toUpperCase())];
  else if (kind === 'page' && socket) methods = ['GET'];
  else if (kind === 'page' || kind === 'handler') methods = [method];
  const named = Object.hasOwn(page, 'fragment') ? p.fragment : undefined;
  const fragment = components.find((c) => c.fn === named)?.name ?? null;
  return { kind, components, verbs, methods, fragment };
}

/** A route as mount knows it once the whole tree is read: everything its node holds but the links between nodes. */
export interface PageNodeInit extends PageShape {
  readonly name: string;
  readonly title: string;
  readonly method: string;
  readonly route: string;
  readonly page: object;
  readonly fieldPath: string;
  /** The composed path from the root, e.g. "/admin/users/{userId}". */
  readonly fullPath: string;
  /** Its patterns, parsed once (route.ts's routePatterns), one per entry of `methods`. */
  readonly patterns: readonly Pattern[];
  /** The element ids of its components, in their order. */
  readonly ids: readonly string[];
  readonly children: readonly PageNodeInit[];
}

/** One route of the tree: a page, a handler, or a group of routes. Whole when built: nothing is set later. */
export class PageNode {
  readonly children: readonly PageNode[];
  readonly kind: NodeKind;
  readonly components: readonly ComponentInfo[];
  /** The pattern it registers (`METHOD /full/path`), or "" for groups and empty nodes; the first of `patterns`. */
  readonly pattern: string;
  /**
   * Every pattern it registers: one, or with verb methods one per method (`GET /tasks` for props/page,
   * `POST /tasks` for post(), …), so other methods get a 405 with `Allow`.
   */
  readonly patterns: readonly string[];
  /** `patterns` as parsed once at mount: what the mux registers, and what `url` is built from. */
  readonly compiled: readonly Pattern[];
  /** The verb methods the page defines (`post`, `put`, `patch`, `delete`), in that order. */
  readonly verbs: readonly VerbMethod[];
  /** Whether it registers a pattern: pages and handlers do, groups and empty nodes do not. */
  readonly registered: boolean;
  /** Its pattern's path as urlFor fills it (literal text and the wildcards' slots); null when not registered. */
  readonly url: UrlBuilder | null;
  /**
   * The node whose `error()` answers this route's failures: itself or its nearest ancestor that defines one;
   * null when the mount's error handler does.
   */
  readonly errorPage: PageNode | null;
  /**
   * The component its `fragment` field names (`fragment = this.row`): what an htmx request that swaps into an
   * element naming none of its components gets (render-target.ts), instead of the whole page; null without one.
   */
  readonly fragment: ComponentInfo | null;
  readonly #fullPath: string;

  /** Field name; the root's class name. */
  readonly name: string;
  readonly title: string;
  /** Upper-case method of the tag (or, without one, the parent's), or "". */
  readonly method: string;
  /** The path of the tag, as written. */
  readonly route: string;
  readonly parent: PageNode | null;
  /** The page object: the constructed class or the instance given. */
  readonly page: object;
  /** Dotted path from the root, e.g. "App.admin.user". */
  readonly fieldPath: string;

  /** `buildChildren` builds the children with this node as their parent; it runs last, when the rest is set. */
  constructor(init: PageNodeInit, parent: PageNode | null, buildChildren: (node: PageNode) => PageNode[]) {
    const { page } = init;
    this.name = init.name;
    this.title = init.title;
    this.method = init.method;
    this.route = init.route;
    this.parent = parent;
    this.page = page;
    this.fieldPath = init.fieldPath;
    this.#fullPath = init.fullPath;
    this.kind = init.kind;
    this.verbs = init.verbs;
    this.components = init.components.map((c, i) => ({ name: c.name, fn: c.fn, kebab: c.kebab, id: init.ids[i]! }));
    this.fragment = this.components.find((c) => c.name === init.fragment) ?? null;
    this.registered = this.kind === 'page' || this.kind === 'handler';
    this.compiled = init.patterns;
    this.patterns = init.patterns.map((p) => p.str);
    this.pattern = this.patterns[0] ?? '';
    this.url = init.patterns[0] ? urlBuilder(init.patterns[0]) : null;
    this.errorPage = typeof (page as { error?: unknown }).error === 'function' ? this : (parent?.errorPage ?? null);
    this.children = buildChildren(this); // a child reads its parent's errorPage
  }

  /**
   * The full path: the tag paths from the root joined as path.posix.join does.
   * @example tree.root.children[1].children[0].fullRoute() // → "/admin/users/{userId}"
   */
  fullRoute(): string {
    return this.#fullPath;
  }

  /** The page class (the constructor of the page object). */
  get pageClass(): abstract new (...args: never[]) => object {
    return this.page.constructor as abstract new (...args: never[]) => object;
  }

  /** The component whose function is `fn` (`this.todoList`), if the page has one. */
  componentOf(fn: unknown): ComponentInfo | undefined {
    // A loop, not find() and its closure: id(this.x) asks this on every render that names a region.
    for (const c of this.components) if (c.fn === fn) return c;
    return undefined;
  }
}

/**
 * Whether a page is a socket route: it defines `message()` (and maybe `open()`, `close()`), which then are no
 * components, and an upgrade request to it opens a WebSocket (pipeline/dispatch.ts).
 * @example isSocketPage(new ChatSocket()) // → true
 */
export function isSocketPage(page: object): boolean {
  return typeof (page as { message?: unknown }).message === 'function';
}

// The rendering methods of a page, in declaration order: own function fields
// first (instances given as object literals), then the prototype chain.
function findComponents(page: object): Omit<ComponentInfo, 'id'>[] {
  const found: Omit<ComponentInfo, 'id'>[] = [];
  const seen = new Set<string>();
  // A `fragment` field names one of the page's components (PageNode.fragment); it is none itself.
  if (Object.hasOwn(page, 'fragment')) seen.add('fragment');
  if (isSocketPage(page)) for (const name of socketMethods) seen.add(name);
  const add = (name: string, value: unknown) => {
    if (seen.has(name)) return;
    seen.add(name);
    if (typeof value !== 'function' || !isComponentName(name)) {
      return;
    }
    // `this.x` is what users pass to id() and target.is(): read it off the page.
    const fn = (page as Record<string, unknown>)[name] as ComponentInfo['fn'];
    found.push({ name, fn, kebab: kebabName(name) });
  };
  for (const name of Object.keys(page)) add(name, (page as Record<string, unknown>)[name]);
  for (
    let proto = Object.getPrototypeOf(page);
    proto && proto !== Object.prototype;
    proto = Object.getPrototypeOf(proto)
  ) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      const d = Object.getOwnPropertyDescriptor(proto, name)!;
      add(name, 'value' in d ? d.value : undefined);
    }
  }
  // `page` leads: it is the full render and the default.
  found.sort((a, b) => Number(b.name === 'page') - Number(a.name === 'page'));
  return found;
}
