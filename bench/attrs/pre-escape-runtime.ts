// The design pagetree's runtime did not take, for bench/attrs to time: kitajs's
// own jsx/jsxs behind a pass that escapes `&` in the attribute values first
// (strings, class lists, style objects' strings); kitajs then escapes `"`, so
// each comes out once (`&amp;`, `&#34;`). It writes the same bytes as
// pagetree's runtime; run.ts checks that before timing.

import { Fragment, jsx as kitaJsx, jsxs as kitaJsxs } from '@kitajs/html/jsx-runtime';

export { Fragment };

type Attributes = Record<string, unknown>;
type Tag = Parameters<typeof kitaJsx>[0];

const amp = (s: string): string => (s.indexOf('&') < 0 ? s : s.replace(/&/g, '&amp;'));

// A copy with `&` escaped, made only when some value has one.
function preEscape(attrs: Attributes): Attributes {
  let copy: Attributes | undefined;
  for (const key in attrs) {
    if (key === 'children' || key === 'attrs') continue;
    const v = attrs[key];
    let escaped = v;
    if (typeof v === 'string') escaped = amp(v);
    else if (key === 'class' && Array.isArray(v)) {
      if (v.some((c) => typeof c === 'string' && c.indexOf('&') >= 0))
        escaped = v.map((c: unknown) => (typeof c === 'string' ? amp(c) : c));
    } else if (key === 'style' && typeof v === 'object' && v !== null) {
      const style = v as Attributes;
      if (Object.keys(style).some((k) => typeof style[k] === 'string' && (style[k] as string).indexOf('&') >= 0)) {
        escaped = Object.fromEntries(Object.entries(style).map(([k, s]) => [k, typeof s === 'string' ? amp(s) : s]));
      }
    }
    if (escaped !== v) (copy ??= { ...attrs })[key] = escaped;
  }
  return copy ?? attrs;
}

/** kitajs's jsx, attribute values pre-escaped. */
export function jsx(name: Tag, attrs: Attributes): JSX.Element {
  return kitaJsx(name, (typeof name === 'function' ? attrs : preEscape(attrs)) as never);
}

/** kitajs's jsxs, attribute values pre-escaped. */
export function jsxs(name: Tag, attrs: Attributes): JSX.Element {
  return kitaJsxs(name, (typeof name === 'function' ? attrs : preEscape(attrs)) as never);
}
