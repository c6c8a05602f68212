// Attribute values that round-trip. @kitajs/html escapes only `"` in them, so
// `value="&lt;b&gt;"` reached the browser as `<b>` and an edit form changed
// what the user had typed. This serializer writes attributes as kitajs's
// `attributesToString` does (className, class lists, style objects, booleans,
// dates, the raw `attrs`), but escapes `&` as `&amp;` as well as `"` as `&#34;`:
//
//   <input value={'&lt;b&gt;'} />  → <input value="&amp;lt;b&amp;gt;"/>   (the browser reads "&lt;b&gt;")
//   <a href={'/?a=1&b=2'} />       → <a href="/?a=1&amp;b=2"></a>          (the browser reads "/?a=1&b=2")
//
// `<`, `>` and `'` need nothing inside a double-quoted value: the parser ends it
// only at `"` and reads a character reference only at `&`. Written here rather
// than around kitajs because kitajs has no hook for it, and wrapping kitajs's
// jsx in a pass that escapes `&` first (kitajs then escapes `"`, so each comes
// out once) costs 1.2-1.3× the time of the whole 20-item page even when there
// is nothing to escape; this single pass is as fast as kitajs's (0.94-1.06×
// on that page, 1.05-1.07× on a form full of `&` and `"`: npm run bench:attrs,
// which times both). Children stay kitajs's (index.ts).

import { styleToString } from '@kitajs/html';

/**
 * The attributes of an intrinsic element as HTML, each value escaped (`&`, `"`).
 * @example attributesToString({ value: 'a&"b"' }) // → ' value="a&amp;&#34;b&#34;"'
 */
export function attributesToString(attrs: Record<string, unknown>): string {
  let result = '';
  for (const key in attrs) {
    // children are content, safe and of are kitajs's own.
    if (key === 'children' || key === 'safe' || key === 'of') continue;
    const value = attrs[key];
    if (value === null || value === undefined) continue;
    // A string: the fast path. `attrs` is kitajs's escape hatch, attribute text written as it is;
    // className is React's name for class, left out when class is given too.
    if (typeof value !== 'string') result += otherAttribute(attrs, key, value);
    else if (key === 'attrs') result += ' ' + value;
    else if (key !== 'className') result += ' ' + key + '="' + escapeAttribute(value) + '"';
    else if (attrs.class === undefined) result += ' class="' + escapeAttribute(value) + '"';
  }
  return result;
}

// Anything but a string, as kitajs writes it: a class list, a style object, more `attrs`, a boolean
// (bare or left out), a number, a date, or anything else by its toString(), escaped.
function otherAttribute(attrs: Record<string, unknown>, key: string, value: unknown): string {
  switch (key) {
    case 'className':
      if (attrs.class !== undefined) return '';
      key = 'class'; // and no class list: kitajs writes a className array as its toString()
      break;
    case 'class':
      if (Array.isArray(value)) return classList(value as unknown[]);
      break;
    case 'style':
      return ' style="' + styleToString(escapeStyle(value) as never) + '"';
    case 'attrs':
      return attributesToString(value as Record<string, unknown>);
  }
  switch (typeof value) {
    case 'boolean':
      return value ? ' ' + key : '';
    case 'number':
    case 'bigint':
      return ' ' + key + '="' + String(value) + '"'; // nothing to escape
    case 'object':
      if (value instanceof Date) return ' ' + key + '="' + value.toISOString() + '"';
  }
  // Objects, functions and symbols: kitajs writes a function's source with its `"` unescaped.
  return ' ' + key + '="' + escapeAttribute(String(value)) + '"';
}

// kitajs's class list: the non-empty strings, trimmed, space-separated; nothing if there are none.
function classList(items: unknown[]): string {
  let list = '';
  for (const item of items) {
    if (typeof item === 'string' && item.length > 0) list += (list ? ' ' : '') + item.trim();
  }
  return list === '' ? '' : ' class="' + escapeAttribute(list) + '"';
}

// kitajs's styleToString escapes `"` in string values and writes other values by their toString();
// a copy with `&` escaped in strings, and objects or functions as escaped strings, goes to it.
function escapeStyle(style: unknown): unknown {
  if (typeof style !== 'object') return style; // kitajs writes no declarations for it
  let copy: Record<string, unknown> | undefined;
  for (const name of Object.keys(style!)) {
    const v = (style as Record<string, unknown>)[name];
    const escape =
      typeof v === 'string'
        ? v.indexOf('&') >= 0
        : typeof v === 'object'
          ? v !== null
          : typeof v === 'function' || typeof v === 'symbol';
    if (escape) (copy ??= { ...style })[name] = escapeAttribute(String(v));
  }
  return copy ?? style;
}

/**
 * Escapes `&` and `"`, what a double-quoted attribute value needs to read back as written.
 * @example escapeAttribute('Tom & "Jerry"') // → 'Tom &amp; &#34;Jerry&#34;'
 */
export function escapeAttribute(value: string): string {
  // indexOf is native: the common case (nothing to escape) is two scans, and a long URL with one
  // `&` near its end is not walked a character at a time in JavaScript (1.7x faster than that).
  let amp = value.indexOf('&');
  let quote = value.indexOf('"');
  if (amp < 0 && quote < 0) return value;
  let out = '';
  let start = 0;
  while (amp >= 0 || quote >= 0) {
    if (quote < 0 || (amp >= 0 && amp < quote)) {
      out += value.slice(start, amp) + '&amp;';
      start = amp + 1;
      amp = value.indexOf('&', start);
    } else {
      out += value.slice(start, quote) + '&#34;';
      start = quote + 1;
      quote = value.indexOf('"', start);
    }
  }
  return out + value.slice(start);
}
