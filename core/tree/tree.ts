// The handle `mount` returns: the mounted page tree, its routes, and the
// id/urlFor helpers for use outside a request (boot-time checks, tests).
//
//   nodes  [App, App.index, App.admin, App.admin.user]   root first, each before its children
//   order  [App.index, App.admin.user, App.admin, App]   children first: how routes registered
//
// Its nodes come built (mount.ts), their element ids given (element-ids.ts): the handle only indexes them.

import { UrlForError } from '../errors.ts';
import { kebab } from './names.ts';
import type { ComponentInfo, PageNode } from './page-node.ts';
import { buildUrl, CallName, findNode, urlCache, type CurrentRoute, type UrlParams } from './url-for.ts';
import type { UrlParamsArg, PageRef } from './url-types.ts';

// A tree's staticFiles routes are found by a registered symbol their class carries (static/static.ts), not by
// `instanceof`: importing the class would put the static files' code and its MIME table (~45 KB minified) into
// every app's bundle, files served or not (issue 42).
const staticFilesBrand = Symbol.for('pagetree.staticFiles');

/** What tree.staticUrl needs of a staticFiles route's page. */
interface StaticFilesPage {
  fingerprint(path: string): string;
}

function isStaticFiles(page: object): page is StaticFilesPage {
  return (page as Record<symbol, unknown>)[staticFilesBrand] === true;
}

/** One registered route, as `tree.routes()` lists it. */
export interface RouteInfo {
  /** The pattern registered with the mux, e.g. "GET /admin/users/{userId}". */
  pattern: string;
  title: string;
  /** Field name of the route. */
  name: string;
  /** e.g. "App.admin.user". */
  fieldPath: string;
  pageClass: abstract new (...args: never[]) => object;
  node: PageNode;
}

/**
 * A typed key for what a feature keeps per mounted tree, set by mount from its options (the secrets, the flash
 * cookie's name, the session options) and read per request through the request's tree: the tree holds it, nothing
 * beside it does, and the tree's folder needs to know none of the features.
 * @example const flashCookie = new TreeSetting<string>('flashCookie'); tree.setting(flashCookie) // → "app-flash"
 */
export class TreeSetting<T> {
  /** Phantom: the value's type. */
  declare readonly __value?: T;
  readonly name: string;
  constructor(name: string) {
    this.name = name;
  }
}

// What mount keeps on a tree for the features that read it per request (auth/cookies.ts, auth/session.ts): declared
// here, with the tree, so that mount sets them without importing those features, and an app that uses none of them
// bundles none of their code (issue 42).

/** The secrets of a tree (`mount(..., { secret })`), newest first: the first signs and encrypts, each verifies. */
export const secretsSetting = new TreeSetting<readonly string[]>('secret');

/** The flash cookie's name of a tree that names its own (`mount(..., { flashCookie })`). */
export const flashCookieSetting = new TreeSetting<string>('flashCookie');

/**
 * The session options of a tree that gives them (`mount(..., { session })`), checked by mount: auth/session.ts's
 * `SessionOptions`, which this folder does not import (it sits below auth/).
 */
export const sessionSetting = new TreeSetting<object>('session');

/** A mounted page tree. */
export class Tree<TRoot = unknown> {
  /** Phantom: the root class's type, for typed helpers. */
  declare readonly __root?: TRoot;
  readonly nodes: readonly PageNode[];
  readonly #byFn = new Map<unknown, { node: PageNode; component: ComponentInfo }[]>();
  readonly #urls = urlCache();
  readonly #staticUrls = new Map<string, string>();

  readonly root: PageNode;
  /** Prepended to every URL urlFor builds (an app behind a proxy at a sub-path). */
  readonly urlPrefix: string;

  readonly #order: readonly PageNode[];
  readonly #settings = new Map<TreeSetting<unknown>, unknown>();
  readonly #current: ((tree: Tree) => CurrentRoute | undefined) | undefined;

  /**
   * `nodes` root first, each before its children; `order` children first, as they registered. `current` finds the
   * route of the request being answered, if it is one of this tree's (mount gives the request context's).
   */
  constructor(
    nodes: readonly PageNode[],
    order: readonly PageNode[],
    urlPrefix = '',
    current?: (tree: Tree) => CurrentRoute | undefined,
  ) {
    this.root = nodes[0]!;
    this.#current = current;
    this.nodes = nodes;
    this.#order = order;
    this.urlPrefix = urlPrefix;
    for (const node of nodes) {
      for (const component of node.components) {
        const list = this.#byFn.get(component.fn) ?? [];
        list.push({ node, component });
        this.#byFn.set(component.fn, list);
      }
    }
  }

  /**
   * Every registered pattern, in registration order (children before their parent; a page with verb methods
   * lists one per method).
   * @example tree.routes().map((r) => r.pattern) // → ["/{$}", "/todos", "/admin/users/{userId}"]
   */
  routes(): RouteInfo[] {
    return this.#order.flatMap((n) =>
      n.patterns.map((pattern) => ({
        pattern,
        title: n.title,
        name: n.name,
        fieldPath: n.fieldPath,
        pageClass: n.pageClass,
        node: n,
      })),
    );
  }

  /**
   * The element id of a page method; strings pass through. Inside a render,
   * `current` (the page being rendered) decides between mounts of the same class.
   * @example tree.id(todosPage.todoList) // → "todos-todo-list"
   */
  id(x: unknown, current?: PageNode): string {
    if (typeof x === 'string') return x;
    if (Array.isArray(x)) return this.#chainId(x);
    if (typeof x !== 'function') throw new TypeError(`id(): expected a page method or a string, got ${typeof x}`);
    const own = current?.componentOf(x);
    if (own) return own.id;
    const mounts = this.#byFn.get(x);
    if (!mounts) return kebab(x.name); // a standalone component function
    if (mounts.length > 1) {
      const where = mounts.map((m) => `${m.node.fieldPath} (${m.component.id})`).join(', ');
      throw new Error(
        `id(${x.name}): the method is mounted at ${mounts.length} places: ${where}; ` +
          `call it while rendering one of them, or pass the id string`,
      );
    }
    return mounts[0]!.component.id;
  }

  /**
   * `#` + the element id, for `hx-target`; strings pass through.
   * @example tree.idTarget(todosPage.todoList) // → "#todos-todo-list"
   */
  idTarget(x: unknown, current?: PageNode): string {
    return typeof x === 'string' ? x : '#' + this.id(x, current);
  }

  // idTarget([Admin, Dashboard, 'header']): the component named last, on the page the chain names.
  #chainId(chain: unknown[]): string {
    const method = chain[chain.length - 1];
    const api = `id([${chain.map((c) => (typeof c === 'function' ? c.name : JSON.stringify(c))).join(', ')}])`;
    if (typeof method !== 'string' || chain.length < 2) {
      throw new UrlForError(
        `${api}: a chain names pages, then the method as a string, e.g. id([Admin, Dashboard, 'header'])`,
      );
    }
    const node = findNode(this, chain.slice(0, -1), new CallName(api));
    const c = node.components.find((x) => x.name === method);
    if (!c) {
      throw new UrlForError(
        `${api}: ${node.fieldPath} has no component "${method}" (its components: ${node.components.map((x) => x.name).join(', ')})`,
      );
    }
    return c.id;
  }

  /**
   * The URL of a page of this tree; the params argument is checked against
   * the route tags at compile time. Inside a request of this tree, missing
   * params take the current route's path values.
   * @example tree.urlFor(UserPage, { userId: 7 }) // → "/admin/users/7"
   */
  urlFor<const T extends PageRef<TRoot>, TArgs extends unknown[] = never>(
    target: T,
    ...params: UrlParamsArg<TRoot, T, TArgs>
  ): string {
    const current = this.#current?.(this as Tree);
    return buildUrl(this, this.#urls, target, (params as unknown[])[0] as UrlParams | undefined, current);
  }

  /**
   * The URL of a static file, with its content hash in the name so that it
   * can be cached forever; a file that does not exist is an error.
   * @example tree.staticUrl('app.css') // → "/static/app.3f2a9c1d.css"
   */
  staticUrl(path: string): string {
    let url = this.#staticUrls.get(path);
    if (url === undefined) {
      const mounts = this.nodes.filter((n) => isStaticFiles(n.page) && n.registered);
      if (mounts.length !== 1) {
        throw new UrlForError(
          `staticUrl(${JSON.stringify(path)}): the tree has ${mounts.length} staticFiles routes` +
            (mounts.length ? ` (${mounts.map((n) => n.fieldPath).join(', ')}); use urlFor([…, '…'])` : '; mount one'),
        );
      }
      const files = mounts[0]!.page as StaticFilesPage;
      // Files are loaded once, at mount: a file's URL never changes afterwards.
      url = buildUrl(this, this.#urls, files, { path: files.fingerprint(path) });
      this.#staticUrls.set(path, url);
    }
    return url;
  }

  /**
   * Builds each URL once, at start-up, and throws one error listing every
   * call that does not resolve; returns the URLs.
   * @example tree.validate([[UserPage, { userId: 1 }], [Admin]]) // → ["/admin/users/1", "/admin/"]
   */
  validate(calls: readonly (readonly [unknown, UrlParams?])[]): string[] {
    const failures: string[] = [];
    const urls = calls.map(([target, params]) => {
      try {
        return buildUrl(this, this.#urls, target, params);
      } catch (err) {
        failures.push(err instanceof Error ? err.message : String(err));
        return '';
      }
    });
    if (failures.length > 0) {
      throw new UrlForError(
        `tree.validate: ${failures.length} of ${calls.length} URLs do not resolve:\n- ${failures.join('\n- ')}`,
      );
    }
    return urls;
  }

  /** A feature's setting of this tree, or undefined when the mount gave none. */
  setting<T>(key: TreeSetting<T>): T | undefined {
    return this.#settings.get(key) as T | undefined;
  }

  /** Sets a feature's setting: mount does, from its options, before the tree answers its first request. */
  configure<T>(key: TreeSetting<T>, value: T): void {
    this.#settings.set(key, value);
  }

  /** Whether `fn` is a component somewhere in this tree. */
  hasComponent(fn: unknown): boolean {
    return this.#byFn.has(fn);
  }
}
