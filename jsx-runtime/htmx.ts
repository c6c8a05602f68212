// Typings of htmx 2 and htmx 4 attributes for JSX, merged into @kitajs/html's
// element attributes: autocompletion, documentation and value types.
//
// TypeScript never reports an unknown JSX attribute whose name has a hyphen
// (`hx-gett`), whatever the typings say: the `pagetree/htmx-attr` lint rule
// catches those, from the list in htmx-names.ts.

/** `true`, `false`, `"true"` or `"false"`. */
type BoolStr = boolean | 'true' | 'false';
type AnyStr = string & {};
type HxSwap =
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
  | AnyStr;

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
  'hx-swap'?: HxSwap;
  'hx-swap-oob'?: 'true' | HxSwap;
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
  // htmx 2 `hx-on:click`, `hx-on::after-request`; htmx 4 `hx-on:htmx:after:request`.
  [event: `hx-on:${string}`]: string | undefined;
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
