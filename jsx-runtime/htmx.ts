// Typings of htmx 2 and htmx 4 attributes for JSX, merged into @kitajs/html's
// element attributes: autocompletion, documentation and value types.
//
// TypeScript never reports an unknown JSX attribute whose name has a hyphen
// (`hx-gett`), whatever the typings say: the `pagetree/htmx-attr` lint rule
// catches those, from the list in htmx-names.ts.

/** `true`, `false`, `"true"` or `"false"`. */
type BoolStr = boolean | 'true' | 'false';
type AnyStr = string & {};

// hx-swap as both versions read it: a style, then modifiers (`name:value`, space-separated); or modifiers alone,
// which keep the default style. htmx 2's getSwapSpecification takes the first word that is no modifier as the
// style and swaps an unknown one as innerHTML; htmx 4's #parseSwapSpec throws "Unknown swap style".
//
//   "outerHTML"                    a style
//   "outerHTML swap:1s settle:0"   a style and modifiers
//   "swap:1s"                      modifiers alone
//   "outerHtml"                    refused: styles are case-sensitive
//
// The type checks the style and the name of the first modifier. Checking every modifier would take a union of
// every sequence of them (styles × names^n members): a hover, an error message and the checker would all pay.
// These are 23 styles × 13 names + 36 = 335 members, built once per program, whatever the number of attributes.

/** The swap styles built into htmx 2 and htmx 4: htmx 4 adds the morphs, `outerSync` and four short names. */
type BuiltInSwapStyle =
  | 'innerHTML'
  | 'outerHTML'
  | 'textContent'
  | 'beforebegin'
  | 'afterbegin'
  | 'beforeend'
  | 'afterend'
  | 'delete'
  | 'none'
  | 'innerMorph'
  | 'outerMorph'
  | 'outerSync'
  | 'before'
  | 'after'
  | 'prepend'
  | 'append';

/**
 * Swap styles that htmx extensions add, by name: those of the extensions htmx 4 and htmx 2 ship. An app whose
 * extension adds another declares it, and `hx-swap` takes it:
 * @example
 * declare module 'pagetree/jsx-runtime' {
 *   interface HtmxSwapStyles { 'slide-in': true }
 * }
 * <div hx-swap="slide-in swap:200ms" /> // compiles
 */
export interface HtmxSwapStyles {
  /** htmx 4's hx-upsert: update elements by id, insert the others. */
  upsert: true;
  /** htmx 4's hx-download: save the answer as a file. */
  download: true;
  /** htmx 2's idiomorph (outerHTML) or alpine-morph extension. */
  morph: true;
  /** htmx 2's idiomorph extension. */
  'morph:innerHTML': true;
  /** htmx 2's idiomorph extension. */
  'morph:outerHTML': true;
  /** htmx 2's morphdom-swap extension. */
  morphdom: true;
}

/** A swap style: built in, an extension's, or htmx 2's multi-swap (`multi:#a,#b:outerHTML`). */
export type HtmxSwapStyle = BuiltInSwapStyle | Extract<keyof HtmxSwapStyles, string> | `multi:${string}`;

/**
 * The names of hx-swap's modifiers. Both versions: `swap`, `settle` (a time, `1s`, `200ms`), `transition`,
 * `ignoreTitle` (`true`/`false`), `scroll`, `show` (`top`/`bottom`; htmx 2 also `show:#x:top`, `show:window:top`,
 * `show:none`). htmx 2: `focus-scroll`. htmx 4: `focusScroll`, `scrollTarget`, `showTarget` (a selector), `strip`,
 * `swapEmpty`, `target`.
 */
type SwapModifierName =
  | 'swap'
  | 'settle'
  | 'transition'
  | 'ignoreTitle'
  | 'scroll'
  | 'show'
  | 'focus-scroll'
  | 'focusScroll'
  | 'scrollTarget'
  | 'showTarget'
  | 'strip'
  | 'swapEmpty'
  | 'target';

/** Modifiers: the first one's name is checked, what follows it is not. */
type SwapModifiers = `${SwapModifierName}:${string}`;

/** An `hx-swap` value: a style, a style and modifiers, or modifiers alone (`"outerHTML swap:1s"`, `"swap:1s"`). */
export type HxSwap = HtmxSwapStyle | `${HtmxSwapStyle} ${SwapModifiers}` | SwapModifiers;

/** htmx attributes of both major versions. */
export interface HtmxAttributes {
  /** GET this URL (from `urlFor`). */
  'hx-get'?: string;
  /** POST to this URL (from `urlFor`). */
  'hx-post'?: string;
  'hx-put'?: string;
  'hx-patch'?: string;
  'hx-delete'?: string;
  /** htmx 4: the URL of the request, with `hx-method`. */
  'hx-action'?: string;
  /** htmx 4: the method of the request made to `hx-action`. */
  'hx-method'?: 'get' | 'post' | 'put' | 'patch' | 'delete' | 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The element to swap into: `idTarget(this.list)`, `this`, `closest tr` … */
  'hx-target'?: 'this' | AnyStr;
  /** How to swap the answer in: `outerHTML`, `beforeend`, `innerHTML swap:1s` … (the style is case-sensitive). */
  'hx-swap'?: HxSwap;
  /** On an element of an answer: swap it in by its id (`true`), with a style, or into `style:selector`. */
  'hx-swap-oob'?: 'true' | HxSwap | `${HtmxSwapStyle}:${string}`;
  'hx-trigger'?: string;
  'hx-select'?: string;
  'hx-select-oob'?: string;
  'hx-boost'?: BoolStr;
  'hx-push-url'?: BoolStr | AnyStr;
  'hx-replace-url'?: BoolStr | AnyStr;
  'hx-confirm'?: string;
  'hx-indicator'?: string;
  'hx-include'?: string;
  'hx-vals'?: string;
  'hx-headers'?: string;
  'hx-sync'?: string;
  'hx-encoding'?: 'multipart/form-data' | AnyStr;
  'hx-validate'?: BoolStr;
  'hx-preserve'?: BoolStr;
  'hx-history-elt'?: BoolStr;
  'hx-ext'?: string;
  /** htmx 2: disables htmx processing below this element. */
  'hx-disable'?: BoolStr | AnyStr;
  'hx-disabled-elt'?: string;
  'hx-disinherit'?: string;
  'hx-inherit'?: string;
  'hx-history'?: BoolStr;
  'hx-params'?: string;
  'hx-prompt'?: string;
  'hx-request'?: string;
  /** htmx 4: request options as JSON or `key:value` pairs. */
  'hx-config'?: string;
  /** htmx 4: htmx ignores this element and its children. */
  'hx-ignore'?: BoolStr;
  'hx-on'?: string;
  // htmx 2 `hx-on:click`, `hx-on::after-request`; htmx 4 `hx-on:htmx:after:request`, `hx-on::after:request`.
  [event: `hx-on:${string}`]: string | undefined;
  // htmx 2 only: `hx-on-click`, `hx-on--after-request` (dashes for colons).
  [event: `hx-on-${string}`]: string | undefined;
  // htmx 4: per-status behaviour, `hx-status:404="swap:none"`, `hx-status:5xx=…`.
  [status: `hx-status:${string}`]: string | undefined;
}

/**
 * The attributes of the server-sent events and WebSocket extensions: htmx 4's (htmx.org/dist/ext/hx-sse.js,
 * hx-ws.js) and htmx 2's (the htmx-ext-sse and htmx-ext-ws packages, enabled with `hx-ext="sse"`).
 */
export interface HtmxExtensionAttributes {
  /** htmx 4: connect to this event-stream URL; unnamed events are swapped into the element. */
  'hx-sse:connect'?: string;
  /** htmx 4: close the stream on this event name. */
  'hx-sse:close'?: string;
  /** htmx 4: connect a WebSocket to this URL. */
  'hx-ws:connect'?: string;
  /** htmx 4: send the form's values over the element's WebSocket. */
  'hx-ws:send'?: BoolStr | AnyStr;
  /** htmx 2 (htmx-ext-sse): connect to this event-stream URL. */
  'sse-connect'?: string;
  /** htmx 2 (htmx-ext-sse): the event names to swap into the element; `message` is the unnamed ones. */
  'sse-swap'?: string;
  /** htmx 2 (htmx-ext-sse): close the stream on this event name. */
  'sse-close'?: string;
  /** htmx 2 (htmx-ext-ws): connect a WebSocket to this URL. */
  'ws-connect'?: string;
  /** htmx 2 (htmx-ext-ws): send the form's values over the WebSocket. */
  'ws-send'?: BoolStr | AnyStr;
}

/** htmx 4's inherited forms: `hx-target:inherited`, `hx-boost:inherited` … */
export type HtmxInheritedAttributes = {
  [K in keyof HtmxAttributes as K extends `${string}:${string}` ? never : `${K}:inherited`]?: HtmxAttributes[K];
};

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- @kitajs/html's element types live in the global JSX namespace
  namespace JSX {
    interface HtmlTag extends HtmxAttributes, HtmxInheritedAttributes, HtmxExtensionAttributes {}
  }
}
