// htmx-attr: an `hx-*` attribute htmx does not know is a typo.
//
//   <div hx-gett="/x">                → reported: did you mean "hx-get"?
//   <div hx-get=… hx-target:inherited=…> → fine (htmx 2 and htmx 4 names, :inherited forms)
//   {...{ 'hx-on::after-request': … }} → fine (hx-on:* and hx-status:* families)
//   <button hx-on--after-request=…>   → fine (htmx 2's dashed hx-on-*, which JSX can write)
//   <p hx-sse:connect={url}>          → fine (htmx 4's extensions: hx-sse:connect/close, hx-ws:connect/send)
//   <p hx-sse:conect={url}>           → reported: did you mean "hx-sse:connect"?
//
// TypeScript does not check JSX attribute names with a hyphen, so without this
// rule a misspelled htmx attribute compiles and silently does nothing.

import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import {
  htmxAttributeNames,
  htmxAttributePrefixes,
  htmxAttributeSuffixes,
  htmxExtensionAttributeNames,
} from '../../jsx-runtime/htmx-names.ts';
import { createRule } from '../create-rule.ts';
import { closestName } from '../edit-distance.ts';

const known = new Set<string>([...htmxAttributeNames, ...htmxExtensionAttributeNames]);

/** Whether `name` (lower case, `data-` removed) is an htmx attribute of htmx 2 or htmx 4. */
export function isHtmxAttribute(name: string): boolean {
  if (known.has(name)) return true;
  if (htmxAttributePrefixes.some((p) => name.startsWith(p) && name.length > p.length)) return true;
  return htmxAttributeSuffixes.some((s) => name.endsWith(s) && known.has(name.slice(0, -s.length)));
}

// The known name closest to a typo (edit distance ≤ 3), for the message: an extension's `hx-sse:conect` is held
// against the extensions' names whole, anything else by the part before a `:inherited`-style suffix.
function closest(name: string): string | undefined {
  const extension = /^hx-(sse|ws)[:-]/.test(name);
  const candidates: readonly string[] = extension ? htmxExtensionAttributeNames : htmxAttributeNames;
  return closestName(extension ? name : name.split(':')[0]!, candidates, 3);
}

function attributeName(attr: TSESTree.JSXAttribute): string {
  return attr.name.type === AST_NODE_TYPES.JSXNamespacedName
    ? `${attr.name.namespace.name}:${attr.name.name.name}`
    : attr.name.name;
}

/**
 * Reports `hx-*` (and `data-hx-*`) JSX attributes that are not htmx 2 or htmx 4 attributes.
 * @example <div hx-gett="/x"> // → unknown htmx attribute "hx-gett"; did you mean "hx-get"?
 */
export const htmxAttr = createRule({
  name: 'htmx-attr',
  meta: {
    type: 'problem',
    docs: { description: 'Report hx-* attributes that htmx 2 and htmx 4 do not have (TypeScript cannot)' },
    schema: [],
    messages: {
      unknown: 'unknown htmx attribute "{{name}}"{{hint}}; see the htmx 2 and htmx 4 attribute references',
    },
  },
  create(context) {
    return {
      JSXAttribute(node) {
        const raw = attributeName(node).toLowerCase();
        const name = raw.startsWith('data-hx-') ? raw.slice(5) : raw;
        if (!name.startsWith('hx-') || isHtmxAttribute(name)) return;
        const suggestion = closest(name);
        context.report({
          node: node.name,
          messageId: 'unknown',
          data: { name: attributeName(node), hint: suggestion ? `; did you mean "${suggestion}"?` : '' },
        });
      },
    };
  },
  defaultOptions: [],
});
