// Which part of a page a request asks for.
//
// htmx marks its requests with `HX-Request: true` and names the element it
// will swap in `HX-Target`: htmx 2 sends the bare id ("todo-list"), htmx 4
// sends "tag#id" ("ul#todo-list", or a bare "body" when the element has no id,
// and then it also sends `HX-Request-Type`). A partial request gets the one
// component that renders that element; everything else gets the full page:
//
//   HX-Request  HX-Target          other                         → renders
//   (none)                                                       → page
//   true        todos-todo-list                                  → todoList (exact id)
//   true        ul#todo-list       HX-Request-Type: partial      → todoList (kebab name)
//   true        main-todo-list                                   → todoList (suffix)
//   true        body               HX-Request-Type: partial      → page (a tag, no id)
//   true        todos-todo-list    HX-History-Restore-Request    → page
//   true        todos-todo-list    HX-Request-Type: full         → page
//   true        (none)             HX-Boosted: true              → page

import { kebab } from './names.ts';
import type { Component, PageNode } from './page-node.ts';

/** The part of the page a request asks for; `props(req, target)` receives it. */
export interface RenderTarget {
  /** The element id the request targets, or null. */
  readonly id: string | null;
  /** Whether this is an htmx partial request (errors then answer with a fragment). */
  readonly partial: boolean;
  /** The selected component's method name, or null for the full page. */
  readonly component: string | null;
  /**
   * Whether `fn` is what the request asks for: the selected page method
   * (`target.is(this.todoList)`), or a standalone component function whose
   * kebab-cased name is the target id.
   */
  is(fn: unknown): boolean;
}

class Target implements RenderTarget {
  readonly id: string | null;
  readonly partial: boolean;
  readonly selected: Component | null;
  readonly node: PageNode;

  constructor(id: string | null, partial: boolean, selected: Component | null, node: PageNode) {
    this.id = id;
    this.partial = partial;
    this.selected = selected;
    this.node = node;
  }

  get component(): string | null {
    return this.selected ? this.selected.name : null;
  }

  is(fn: unknown): boolean {
    if (typeof fn !== 'function') return false;
    if (this.selected && this.selected.fn === fn) return true;
    if (this.node.componentOf(fn)) return false; // another method of this page
    return this.partial && this.id !== null && kebab(fn.name) === this.id;
  }
}

/** The component a target selected, or null for the full page. */
export function selectedComponent(target: RenderTarget): Component | null {
  return target instanceof Target ? target.selected : null;
}

/** The full-page target of a node (no htmx, or nothing matched). */
function fullTarget(node: PageNode, partial = false, id: string | null = null): RenderTarget {
  return new Target(id, partial, null, node);
}

/**
 * Chooses the render target of a request for a page node.
 * @example selectTarget(node, req).component // → "todoList" for HX-Target "todo-list"
 */
export function selectTarget(node: PageNode, headers: Headers): RenderTarget {
  if (headers.get('hx-request') !== 'true') return fullTarget(node);
  if (headers.get('hx-history-restore-request') === 'true' || headers.get('hx-request-type') === 'full') {
    return fullTarget(node);
  }
  const id = targetId(headers.get('hx-target'), headers.has('hx-request-type'));
  const selected = id === null ? null : matchComponent(node.components, id);
  // A boosted request that names no component of this page is a navigation.
  if (!selected && headers.get('hx-boosted') === 'true') return fullTarget(node, false, id);
  return new Target(id, true, selected, node);
}

// The id in HX-Target: after the first "#" (htmx 4's "tag#id"); a bare value
// is an id from htmx 2 but a tag name from htmx 4 (which sends HX-Request-Type).
function targetId(header: string | null, htmx4: boolean): string | null {
  if (!header) return null;
  const hash = header.indexOf('#');
  if (hash >= 0) return header.slice(hash + 1) || null;
  return htmx4 ? null : header;
}

/**
 * The component for a target id: its exact generated id, else its kebab name,
 * else the longest kebab name that ends the id at a hyphen (ties: declaration order).
 * @example matchComponent(components, 'main-todo-list') // → the todoList component
 */
export function matchComponent(components: readonly Component[], id: string): Component | null {
  let best: Component | null = null;
  for (const c of components) if (c.id === id) return c;
  for (const c of components) if (c.kebab === id) return c;
  for (const c of components) {
    if (id.endsWith('-' + c.kebab) && (!best || c.kebab.length > best.kebab.length)) best = c;
  }
  return best;
}
