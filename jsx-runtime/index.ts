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

import { contentsToString, contentToString, isVoidElement, type Children } from '@kitajs/html';
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
  return element(tagName(name, attrs), attrs, children === undefined ? null : joined(children, false, attrs.safe));
}

/**
 * Renders an element with several children, as `jsx` does.
 * @example jsxs('p', { title: '"q"', children: ['a', 'b'] }) // → '<p title="&#34;q&#34;">ab</p>'
 */
export function jsxs(name: string | Component, attrs: Attributes & { children: Children[] }): JSX.Element {
  if (typeof name === 'function') return component(name, attrs);
  const children = attrs.children;
  return element(tagName(name, attrs), attrs, children.length === 0 ? null : joined(children, true, attrs.safe));
}

/**
 * Renders its children, as kitajs's Fragment does (`<>…</>`), and observes them as `jsxs` does.
 * @example jsx(Fragment, { children: ['a', 'b'] }) // → 'ab'
 */
export function Fragment(props: { children?: Children }): JSX.Element {
  return joined([props.children], true, undefined);
}

// A component's HTML; an async one's promise observed (the top of the file).
function component(fn: Component, attrs: Attributes): JSX.Element {
  const out = fn(attrs);
  if (out instanceof Promise) out.catch(ignore);
  return out;
}

// kitajs's join of the children (`many`: an array of them). It throws on a child it refuses (an object) before it
// reaches the children after it: a promise the page made itself (`{load()}`) would be dropped, so each is observed.
function joined(children: Children, many: boolean, safe: boolean | undefined): JSX.Element {
  try {
    return many ? contentsToString(children as Children[], safe) : contentToString(children, safe);
  } catch (err) {
    observeAll(children);
    throw err;
  }
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
