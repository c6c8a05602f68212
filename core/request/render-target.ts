// Which part of a page a request asks for.
//
// htmx marks its requests with `HX-Request: true` and names the element it
// will swap in `HX-Target` (read once into HtmxDetails: htmx-details.ts). A
// partial request gets the one component that renders that element;
// everything else gets the full page, and then `partial` is false:
//
//   HX-Request  HX-Target          other                         → renders    partial
//   (none)                                                       → page       false
//   true        todos-todo-list                                  → todoList   true (exact id)
//   true        ul#todo-list       HX-Request-Type: partial      → todoList   true (kebab name)
//   true        main-todo-list                                   → todoList   true (suffix)
//   true        body               HX-Request-Type: partial      → page       false (a tag, no id)
//   true        (none)                                           → page       false (htmx 2 following HX-Location)
//   true        todos-todo-list    HX-History-Restore-Request    → page       false
//   true        todos-todo-list    HX-Request-Type: full         → page       false
//   true        (none)             HX-Boosted: true              → page       false
//
// A page that declares `fragment = this.row` answers with it where the table says page but htmx swaps into an
// element (no id: htmx 4's bare tag but "body", htmx 2's missing HX-Target; or an id of no component):
//
//   true        tr                 HX-Request-Type: partial      → row        true (the fragment)
//   true        (none)                                           → row        true (htmx 2: no id, or HX-Location)
//   true        contact-3                                        → row        true (an id of no component)

import { kebab } from '../tree/names.ts';
import type { ComponentInfo, PageNode } from '../tree/page-node.ts';
import type { HtmxDetails } from './htmx-details.ts';

/** The part of the page a request asks for; `props(req, target)` receives it. */
export interface RenderTarget {
  /** The element id the request targets, or null. */
  readonly id: string | null;
  /**
   * Whether a component other than `page()` renders the answer: true exactly when the pipeline renders a
   * partial. Not the question an error answer asks: htmx swaps into elements that are no component (`main`,
   * `closest tr`), with `partial` false; whether the answer must be a fragment is `htmxDetails().swapsIntoElement`.
   */
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
  readonly selected: ComponentInfo | null;
  readonly node: PageNode;
  // An htmx request that names an element: a standalone component may render it.
  readonly #asked: boolean;

  constructor(node: PageNode, id: string | null = null, selected: ComponentInfo | null = null, asked = false) {
    this.id = id;
    this.selected = selected;
    this.partial = selected !== null && selected.name !== 'page';
    this.node = node;
    this.#asked = asked;
  }

  get component(): string | null {
    return this.selected ? this.selected.name : null;
  }

  is(fn: unknown): boolean {
    if (typeof fn !== 'function') return false;
    if (this.selected && this.selected.fn === fn) return true;
    if (this.node.componentOf(fn)) return false; // another method of this page
    return this.#asked && this.id !== null && kebab(fn.name) === this.id;
  }
}

/** The component a target selected, or null for the full page. */
export function selectedComponent(target: RenderTarget): ComponentInfo | null {
  return target instanceof Target ? target.selected : null;
}

/**
 * Chooses the render target of a request for a page node from its htmx details.
 * @example selectTarget(node, readHtmx(req.headers)).component // → "todoList" for HX-Target "todo-list"
 */
export function selectTarget(node: PageNode, hx: HtmxDetails): RenderTarget {
  if (!hx.isHtmx || hx.historyRestore || hx.requestType === 'full') return new Target(node);
  const id = hx.target;
  const selected = id === null ? null : matchComponent(node.components, id);
  // A boosted request that names no component of this page is a navigation.
  if (!selected && hx.boosted) return new Target(node, id);
  // htmx swaps into an element that names no component (`closest tr`, `this`, an id of its own): the page's
  // fragment, when it declares one, instead of a whole page inside that element.
  return new Target(node, id, selected ?? node.fragment, true);
}

/**
 * The component for a target id: its exact generated id, else its kebab name,
 * else the longest kebab name that ends the id at a hyphen (ties: declaration order).
 * @example matchComponent(components, 'main-todo-list') // → the todoList component
 */
export function matchComponent(components: readonly ComponentInfo[], id: string): ComponentInfo | null {
  let best: ComponentInfo | null = null;
  for (const c of components) if (c.id === id) return c;
  for (const c of components) if (c.kebab === id) return c;
  for (const c of components) {
    if (id.endsWith('-' + c.kebab) && (!best || c.kebab.length > best.kebab.length)) best = c;
  }
  return best;
}
