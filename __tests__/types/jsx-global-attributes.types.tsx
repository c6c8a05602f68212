// Compile-time checks that every element takes the global attributes of the HTML standard (issue 45.16:
// `<h3 autofocus>` was refused, since @kitajs/html types autofocus on form controls only).

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

// The HTML standard's global attributes (§ 3.2.6), plus `class`, `id` and `slot` (DOM) and `part`/`exportparts`
// (CSS Shadow Parts); `role` and `aria-*` are ARIA's (aria-* has a hyphen, which JSX never checks).
type GlobalAttribute =
  | 'accesskey'
  | 'autocapitalize'
  | 'autocorrect'
  | 'autofocus'
  | 'class'
  | 'contenteditable'
  | 'dir'
  | 'draggable'
  | 'enterkeyhint'
  | 'exportparts'
  | 'hidden'
  | 'id'
  | 'inert'
  | 'inputmode'
  | 'is'
  | 'itemid'
  | 'itemprop'
  | 'itemref'
  | 'itemscope'
  | 'itemtype'
  | 'lang'
  | 'nonce'
  | 'part'
  | 'popover'
  | 'role'
  | 'slot'
  | 'spellcheck'
  | 'style'
  | 'tabindex'
  | 'title'
  | 'translate'
  | 'writingsuggestions';

// The event handler content attributes every HTML element takes (§ 8.1.8.2, GlobalEventHandlers).
type GlobalEventHandler =
  | 'onabort'
  | 'onauxclick'
  | 'onbeforeinput'
  | 'onbeforematch'
  | 'onbeforetoggle'
  | 'onblur'
  | 'oncancel'
  | 'oncanplay'
  | 'oncanplaythrough'
  | 'onchange'
  | 'onclick'
  | 'onclose'
  | 'oncommand'
  | 'oncontextlost'
  | 'oncontextmenu'
  | 'oncontextrestored'
  | 'oncopy'
  | 'oncuechange'
  | 'oncut'
  | 'ondblclick'
  | 'ondrag'
  | 'ondragend'
  | 'ondragenter'
  | 'ondragleave'
  | 'ondragover'
  | 'ondragstart'
  | 'ondrop'
  | 'ondurationchange'
  | 'onemptied'
  | 'onended'
  | 'onerror'
  | 'onfocus'
  | 'onformdata'
  | 'oninput'
  | 'oninvalid'
  | 'onkeydown'
  | 'onkeypress'
  | 'onkeyup'
  | 'onload'
  | 'onloadeddata'
  | 'onloadedmetadata'
  | 'onloadstart'
  | 'onmousedown'
  | 'onmouseenter'
  | 'onmouseleave'
  | 'onmousemove'
  | 'onmouseout'
  | 'onmouseover'
  | 'onmouseup'
  | 'onpaste'
  | 'onpause'
  | 'onplay'
  | 'onplaying'
  | 'onprogress'
  | 'onratechange'
  | 'onreset'
  | 'onresize'
  | 'onscroll'
  | 'onscrollend'
  | 'onsecuritypolicyviolation'
  | 'onseeked'
  | 'onseeking'
  | 'onselect'
  | 'onslotchange'
  | 'onstalled'
  | 'onsubmit'
  | 'onsuspend'
  | 'ontimeupdate'
  | 'ontoggle'
  | 'onvolumechange'
  | 'onwaiting'
  | 'onwheel';

// For each element, the global attributes it does not take: none, for every element.
type Missing = {
  [Tag in keyof JSX.IntrinsicElements]: Exclude<GlobalAttribute | GlobalEventHandler, keyof JSX.IntrinsicElements[Tag]>;
};
export const noneMissing: Equal<Missing[keyof Missing], never> = true;

export const ok = [
  <h3 autofocus tabindex={-1}>
    Saved
  </h3>,
  <section inert popover="manual" enterkeyhint="done" nonce="abc" is="x-panel" />,
  <div itemscope itemtype="https://schema.org/Book" itemprop="book" itemid="urn:isbn:1" itemref="a b" />,
  <p onpointerdown="f()" onanimationend="g()" ontransitionend="h()" onwheel="i()" onbeforetoggle="j()" />,
  <li exportparts="label" part="row" />,
];

// @ts-expect-error autofocus is a boolean attribute
export const badAutofocus = <h3 autofocus="yes" />;
// @ts-expect-error itemscope is a boolean attribute
export const badItemscope = <div itemscope={1} />;
