// Attribute values that round-trip. @kitajs/html escapes only `"` in them, so
// `value="&lt;b&gt;"` reached the browser as `<b>` and an edit form changed
// what the user had typed. This serializer writes attributes as kitajs's
// `attributesToString` does (className, class lists, style objects, booleans,
// dates, the raw `attrs`), but escapes `&` as `&amp;` as well as `"` as `&#34;`:
//
//   <input value={'&lt;b&gt;'} />  → <input value="&amp;lt;b&amp;gt;"/>   (the browser reads "&lt;b&gt;")
//   <a href={'/?a=1&b=2'} />       → <a href="/?a=1&amp;b=2"></a>          (the browser reads "/?a=1&b=2")
//
// `<`, `>` and `'` need nothing inside a double-quoted value. Written here
// rather than around kitajs because kitajs has no hook for it: escaping `&` in
// a pass of its own before kitajs's cost 1.14-1.17× the time of rendering a
// 20-item page; this single pass is not measurably slower than kitajs's
// (1.00×, npm run bench:attrs). Children stay kitajs's (index.ts).

import { styleToString } from '@kitajs/html';

/**
 * The attributes of an intrinsic element as HTML, each value escaped (`&`, `"`).
 * @example attributesToString({ value: 'a&"b"' }) // → ' value="a&amp;&#34;b&#34;"'
 */
export function attributesToString(attrs: Record<string, unknown>): string {
  let result = '';
  for (let key in attrs) {
    // children are content, safe and of are kitajs's own.
    if (key === 'children' || key === 'safe' || key === 'of') continue;
    const value = attrs[key];
    if (value === null || value === undefined) continue;
    if (key === 'className') {
      if (attrs.class !== undefined) continue; // React's className, unless class is given too
      key = 'class';
    } else if (key === 'attrs') {
      // kitajs's escape hatch: attribute text written as it is, or more attributes.
      result += typeof value === 'string' ? ' ' + value : attributesToString(value as Record<string, unknown>);
      continue;
    }
    switch (typeof value) {
      case 'string':
        result += ' ' + key + '="' + escapeAttribute(value) + '"';
        break;
      case 'boolean':
        if (value) result += ' ' + key;
        break;
      case 'object':
        result += objectAttribute(key, value);
        break;
      default:
        result += ' ' + key + '="' + String(value) + '"'; // numbers and bigints: nothing to escape
    }
  }
  return result;
}

// A style object, a date, a class list, or anything else by its toString().
function objectAttribute(key: string, value: object): string {
  if (key === 'style') return ' style="' + styleToString(escapeStyle(value) as never) + '"';
  if (value instanceof Date) return ' ' + key + '="' + value.toISOString() + '"';
  if (key === 'class' && Array.isArray(value)) {
    let list = '';
    for (const item of value as unknown[]) {
      if (typeof item === 'string' && item.length > 0) list += (list ? ' ' : '') + item.trim();
    }
    return list === '' ? '' : ' class="' + escapeAttribute(list) + '"';
  }
  return ' ' + key + '="' + escapeAttribute(String(value)) + '"';
}

// kitajs's styleToString escapes `"` in the values; `&` is escaped here first.
function escapeStyle(style: object): object {
  let copy: Record<string, unknown> | undefined;
  for (const [name, v] of Object.entries(style)) {
    if (typeof v === 'string' && v.indexOf('&') >= 0) (copy ??= { ...style })[name] = v.replace(/&/g, '&amp;');
  }
  return copy ?? style;
}

/**
 * Escapes `&` and `"`, what a double-quoted attribute value needs to read back as written.
 * @example escapeAttribute('Tom & "Jerry"') // → 'Tom &amp; &#34;Jerry&#34;'
 */
export function escapeAttribute(value: string): string {
  // Two native scans are cheaper than one loop in JavaScript for the common case: nothing to escape.
  if (value.indexOf('&') < 0 && value.indexOf('"') < 0) return value;
  let out = '';
  let start = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 38) out += value.slice(start, i) + '&amp;';
    else if (c === 34) out += value.slice(start, i) + '&#34;';
    else continue;
    start = i + 1;
  }
  return out + value.slice(start);
}
