// The htmx attribute names pagetree knows (htmx 2 and htmx 4), as data: the
// `pagetree/htmx-attr` lint rule reports any other `hx-*` attribute, since
// TypeScript does not (a test keeps this list and the typings in htmx.ts equal).

/** Every plain htmx attribute name of htmx 2 and htmx 4. */
export const htmxAttributeNames = [
  'hx-get',
  'hx-post',
  'hx-put',
  'hx-patch',
  'hx-delete',
  'hx-action',
  'hx-method',
  'hx-target',
  'hx-swap',
  'hx-swap-oob',
  'hx-trigger',
  'hx-select',
  'hx-select-oob',
  'hx-boost',
  'hx-push-url',
  'hx-replace-url',
  'hx-confirm',
  'hx-indicator',
  'hx-include',
  'hx-vals',
  'hx-headers',
  'hx-sync',
  'hx-encoding',
  'hx-validate',
  'hx-preserve',
  'hx-history-elt',
  'hx-ext',
  'hx-disable',
  'hx-disabled-elt',
  'hx-disinherit',
  'hx-inherit',
  'hx-history',
  'hx-params',
  'hx-prompt',
  'hx-request',
  'hx-config',
  'hx-ignore',
  'hx-on',
] as const;

/** The attributes of htmx 4's own extensions (htmx.org/dist/ext): hx-sse and hx-ws. */
export const htmxExtensionAttributeNames = ['hx-sse:connect', 'hx-sse:close', 'hx-ws:connect', 'hx-ws:send'] as const;

/**
 * Name prefixes of the attribute families: `hx-on:click`, `hx-on::after-request`, `hx-status:404`, and htmx 2's
 * dashed `hx-on-click`, `hx-on--after-request` (the spelling JSX can write: a JSX name has at most one colon).
 */
export const htmxAttributePrefixes = ['hx-on:', 'hx-on-', 'hx-status:'] as const;

/** Suffixes htmx 4 accepts after a plain name: `hx-target:inherited`, `hx-vals:append`. */
export const htmxAttributeSuffixes = [':inherited', ':append', ':inherited:append'] as const;
