// The global attributes of the HTML standard that @kitajs/html's element typings leave out, merged into every
// element: `<h3 autofocus>` was a type error, since kitajs types `autofocus` on form controls only, and
// `onpointerdown` on none. The rest of the standard's globals (accesskey, class, contenteditable, dir, draggable,
// enterkeyhint, hidden, id, inert, inputmode, lang, nonce, part, popover, role, slot, spellcheck, style, tabindex,
// title, translate, writingsuggestions) kitajs already types on HtmlTag; __tests__/types/
// jsx-global-attributes.types.tsx checks that every element takes all of them.
//
// Only names kitajs does not declare on HtmlTag are here: a second declaration of a property must have the same
// type, and the event handlers kitajs declares on some elements (FormEvents' onblur, MediaEvents' onabort, the
// dialog's onclose) have the type used here, `undefined | string`, so those elements still compile.

/** Global attributes of the HTML standard that @kitajs/html types on some elements only, or on none. */
export interface GlobalAttributes {
  /** Focus this element when the page (or the dialog or popover it is in) is shown; any element may have it. */
  autofocus?: undefined | boolean;
  /** The customized built-in element this element is: `<button is="x-confirm">`. */
  is?: undefined | string;
  /** Microdata: this element starts an item. */
  itemscope?: undefined | boolean;
  /** Microdata: the item's vocabulary URL(s). */
  itemtype?: undefined | string;
  /** Microdata: the item's global identifier. */
  itemid?: undefined | string;
  /** Microdata: the property name(s) this element gives its item. */
  itemprop?: undefined | string;
  /** Microdata: ids of further elements holding the item's properties. */
  itemref?: undefined | string;
  /** CSS Shadow Parts: the parts of a shadow tree that this host exports. */
  exportparts?: undefined | string;
}

// The event handler content attributes the standard gives every HTML element (GlobalEventHandlers), with the
// Pointer Events, CSS Animations and CSS Transitions ones; kitajs types a few on HtmlTag, the rest on some elements.
type EventHandlerName =
  | 'onabort'
  | 'onanimationcancel'
  | 'onanimationend'
  | 'onanimationiteration'
  | 'onanimationstart'
  | 'onauxclick'
  | 'onbeforeinput'
  | 'onbeforematch'
  | 'onbeforetoggle'
  | 'onblur'
  | 'oncancel'
  | 'oncanplay'
  | 'oncanplaythrough'
  | 'onchange'
  | 'onclose'
  | 'oncommand'
  | 'oncontextlost'
  | 'oncontextrestored'
  | 'oncopy'
  | 'oncuechange'
  | 'oncut'
  | 'ondurationchange'
  | 'onemptied'
  | 'onended'
  | 'onerror'
  | 'onfocus'
  | 'onformdata'
  | 'ongotpointercapture'
  | 'oninput'
  | 'oninvalid'
  | 'onload'
  | 'onloadeddata'
  | 'onloadedmetadata'
  | 'onloadstart'
  | 'onlostpointercapture'
  | 'onmouseenter'
  | 'onmouseleave'
  | 'onpaste'
  | 'onpause'
  | 'onplay'
  | 'onplaying'
  | 'onpointercancel'
  | 'onpointerdown'
  | 'onpointerenter'
  | 'onpointerleave'
  | 'onpointermove'
  | 'onpointerout'
  | 'onpointerover'
  | 'onpointerup'
  | 'onprogress'
  | 'onratechange'
  | 'onreset'
  | 'onresize'
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
  | 'ontransitioncancel'
  | 'ontransitionend'
  | 'ontransitionrun'
  | 'ontransitionstart'
  | 'onvolumechange'
  | 'onwaiting'
  | 'onwheel';

/** Event handler attributes every element takes (`onpointerdown="…"`): JavaScript source, as a string. */
export type GlobalEventAttributes = { [K in EventHandlerName]?: undefined | string };

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- @kitajs/html's element types live in the global JSX namespace
  namespace JSX {
    interface HtmlTag extends GlobalAttributes, GlobalEventAttributes {}
  }
}
