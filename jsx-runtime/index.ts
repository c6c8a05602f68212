// The `jsxImportSource` entry of pagetree ("jsxImportSource": "pagetree"):
// @kitajs/html's runtime with attribute values that round-trip (`&` and `"`
// escaped, attributes.ts), plus typings for htmx 2 and htmx 4 attributes.
// Children are kitajs's: escaped only when the element is marked `safe`.
//
// Every promise is observed where it is created (STYLE.md, Faults): an async component's and a pending element's
// promise get a handler at once. The compiled code makes children before their parent, as arguments:
//
//   <div><AsyncRejects /><ThrowsSync /></div>  →  jsxs('div', { children: [jsx(AsyncRejects), jsx(ThrowsSync)] })
//
// so when a child throws, the parent is never called, and the promise of a sibling made before it is dropped; its
// rejection, with no handler, would end the process after the error page went out. Observed, it still rejects for
// whoever joins it (the parent, the page's render) and goes the one error road.

import './global-attributes.ts';
import './htmx.ts';

import { escapeHtml, isVoidElement, type Children } from '@kitajs/html';
import { attributesToString } from './attributes.ts';

export type { GlobalAttributes, GlobalEventAttributes } from './global-attributes.ts';
export type {
  HtmxAttributes,
  HtmxExtensionAttributes,
  HtmxInheritedAttributes,
  HtmxSwapStyle,
  HtmxSwapStyles,
  HxSwap,
} from './htmx.ts';

type Attributes = { children?: Children; safe?: boolean; [name: string]: unknown };
type Component = (props: Attributes) => JSX.Element;

/**
 * Renders an element with one child or none; what the JSX compiler calls.
 * @example jsx('input', { value: 'a&b' }) // → '<input value="a&amp;b"/>'
 */
export function jsx(name: string | Component, attrs: Attributes): JSX.Element {
  if (typeof name === 'function') return component(name, attrs);
  const children = attrs.children;
  return element(tagName(name, attrs), attrs, children === undefined ? null : joined(children, attrs.safe));
}

/**
 * Renders an element with several children, as `jsx` does.
 * @example jsxs('p', { title: '"q"', children: ['a', 'b'] }) // → '<p title="&#34;q&#34;">ab</p>'
 */
export function jsxs(name: string | Component, attrs: Attributes & { children: Children[] }): JSX.Element {
  if (typeof name === 'function') return component(name, attrs);
  const children = attrs.children;
  return element(tagName(name, attrs), attrs, children.length === 0 ? null : joinAll(children, attrs.safe, children));
}

/**
 * Renders its children, as kitajs's Fragment does (`<>…</>`), and observes them as `jsxs` does.
 * @example jsx(Fragment, { children: ['a', 'b'] }) // → 'ab'
 */
export function Fragment(props: { children?: Children }): JSX.Element {
  const children = [props.children];
  return joinAll(children, undefined, children);
}

// A component's HTML; an async one's promise observed (the top of the file).
function component(fn: Component, attrs: Attributes): JSX.Element {
  const out = fn(attrs);
  if (typeof out !== 'string' && out instanceof Promise) out.catch(ignore);
  return out;
}

// The children as HTML: kitajs's contentToString and contentsToString (the same output, the same escaping: a `safe`
// element's text escaped once, whole), written here so that a child they would refuse (an object) first observes the
// promises beside it (the top of the file). Wrapping kitajs's join in a try instead cost the e2e page ~8,000
// instructions (~4%, bench/e2e/loop): a try around every element's join.
function joined(children: Children, safe: boolean | undefined): JSX.Element {
  switch (typeof children) {
    case 'string':
      return safe ? escapeHtml(children) : children;
    case 'number':
    case 'bigint':
      return children.toString();
    case 'boolean':
      return '';
  }
  if (!children) return '';
  if (Array.isArray(children)) return joinAll(children, safe, children);
  if (typeof (children as Promise<Children>).then === 'function') {
    return (children as Promise<Children>).then((resolved) => joined(resolved, safe));
  }
  return refuse(children);
}

// An array of children, nested arrays flattened in place of themselves; `root` is the outermost array, whose
// promises are observed when a child is refused.
function joinAll(contents: readonly Children[], safe: boolean | undefined, root: Children): JSX.Element {
  let result = '';
  for (let i = 0; i < contents.length; i++) {
    const child = contents[i];
    switch (typeof child) {
      case 'string':
      case 'number':
      case 'bigint':
        result += child;
        continue;
      case 'boolean':
        continue;
    }
    if (!child) continue;
    let pending: Promise<Children>;
    if (Array.isArray(child)) {
      const inner = joinAll(child, false, root);
      if (typeof inner === 'string') {
        result += inner;
        continue;
      }
      pending = inner;
    } else if (typeof (child as Promise<Children>).then === 'function') {
      pending = child as Promise<Children>;
    } else {
      return refuse(root);
    }
    // As kitajs: the rest waits for this one and every promise after it (Promise.all observes them all).
    const done = result;
    // (As unknown[]: the children's recursive type is too deep for Promise.all's, as kitajs notes too.)
    const rest: unknown[] = [pending, ...contents.slice(i + 1)];
    return Promise.all(rest).then((resolved) =>
      joinAll([done, ...(resolved as Children[])], safe, resolved as Children),
    );
  }
  return safe === true ? escapeHtml(result) : result;
}

// kitajs's error for a child it cannot render, after the promises beside it are observed.
function refuse(root: Children): never {
  observeAll(root);
  throw new Error('Objects are not valid as a KitaJSX child');
}

function observeAll(children: Children): void {
  if (Array.isArray(children)) for (const c of children) observeAll(c);
  else if (children instanceof Promise) children.catch(ignore);
}

function ignore(): void {}

// kitajs's `<tag of="custom-element">`.
function tagName(name: string, attrs: Attributes): string {
  return name === 'tag' ? (attrs.of as string) : name;
}

function element(name: string, attrs: Attributes, contents: JSX.Element | null): JSX.Element {
  if (contents !== null && typeof contents !== 'string') return pendingElement(name, attrs, contents);
  const open = '<' + name + attributesToString(attrs);
  if (contents === null) return isVoidElement(name) ? open + '/>' : open + '></' + name + '>';
  return open + '>' + contents + '</' + name + '>';
}

// An element whose contents are pending: its promise observed (the top of the file), and the contents' too when an
// attribute throws before the element holds them.
function pendingElement(name: string, attrs: Attributes, contents: Promise<string>): Promise<string> {
  let open: string;
  try {
    open = '<' + name + attributesToString(attrs);
  } catch (err) {
    contents.catch(ignore);
    throw err;
  }
  const out = contents.then((c) => open + '>' + c + '</' + name + '>');
  out.catch(ignore);
  return out;
}
