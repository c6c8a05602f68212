// The `jsxImportSource` entry of pagetree ("jsxImportSource": "pagetree"):
// @kitajs/html's runtime with attribute values that round-trip (`&` and `"`
// escaped, attributes.ts), plus typings for htmx 2 and htmx 4 attributes.
// Children are kitajs's: escaped only when the element is marked `safe`.

import './htmx.ts';

import { contentsToString, contentToString, isVoidElement, type Children } from '@kitajs/html';
import { attributesToString } from './attributes.ts';

export { Fragment } from '@kitajs/html/jsx-runtime';
export type { HtmxAttributes, HtmxExtensionAttributes, HtmxInheritedAttributes } from './htmx.ts';

type Attributes = { children?: Children; safe?: boolean; [name: string]: unknown };
type Component = (props: Attributes) => JSX.Element;

/**
 * Renders an element with one child or none; what the JSX compiler calls.
 * @example jsx('input', { value: 'a&b' }) // → '<input value="a&amp;b"/>'
 */
export function jsx(name: string | Component, attrs: Attributes): JSX.Element {
  if (typeof name === 'function') return name(attrs);
  const children = attrs.children;
  return element(tagName(name, attrs), attrs, children === undefined ? null : contentToString(children, attrs.safe));
}

/**
 * Renders an element with several children, as `jsx` does.
 * @example jsxs('p', { title: '"q"', children: ['a', 'b'] }) // → '<p title="&#34;q&#34;">ab</p>'
 */
export function jsxs(name: string | Component, attrs: Attributes & { children: Children[] }): JSX.Element {
  if (typeof name === 'function') return name(attrs);
  const children = attrs.children;
  return element(tagName(name, attrs), attrs, children.length === 0 ? null : contentsToString(children, attrs.safe));
}

// kitajs's `<tag of="custom-element">`.
function tagName(name: string, attrs: Attributes): string {
  return name === 'tag' ? (attrs.of as string) : name;
}

function element(name: string, attrs: Attributes, contents: JSX.Element | null): JSX.Element {
  const open = '<' + name + attributesToString(attrs);
  if (contents === null) return isVoidElement(name) ? open + '/>' : open + '></' + name + '>';
  if (typeof contents === 'string') return open + '>' + contents + '</' + name + '>';
  return contents.then((c) => open + '>' + c + '</' + name + '>');
}
