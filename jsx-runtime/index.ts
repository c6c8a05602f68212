// The `jsxImportSource` entry of pagetree ("jsxImportSource": "pagetree"):
// @kitajs/html's runtime, plus typings for htmx 2 and htmx 4 attributes.

import './htmx';

export { Fragment, jsx, jsxs } from '@kitajs/html/jsx-runtime';
export type { HtmxAttributes, HtmxInheritedAttributes } from './htmx';
