// Compile-time checks of the htmx attribute typings (pagetree/jsx-runtime).

export const ok = [
  <div hx-get="/x" hx-target="this" hx-swap="innerHTML" hx-boost="true" />,
  <button hx-action="/x" hx-method="post" hx-ignore={true} {...{ 'hx-status:5xx': 'swap:none' }} />,
  <div hx-boost:inherited="true" hx-target:inherited="#main" />,
  // The extensions' attributes, htmx 4's and htmx 2's (issue 25.4).
  <p hx-sse:connect="/events" hx-sse:close="done" />,
  <p hx-ext="sse" sse-connect="/events" sse-swap="message" sse-close="done" />,
  <form hx-ws:connect="/chat" hx-ws:send ws-connect="/chat" ws-send />,
];

// hx-swap: a style, then modifiers, as htmx 2 (getSwapSpecification) and htmx 4 (#parseSwapSpec) read them (issue 45.16).
export const swaps = [
  <div hx-swap="outerHTML" />,
  <div hx-swap="outerHTML swap:1s" />,
  <div hx-swap="innerHTML settle:200ms scroll:top" />,
  <div hx-swap="beforeend show:#log:bottom" />,
  <div hx-swap="afterbegin show:window:top" />,
  <div hx-swap="innerHTML focus-scroll:true" />,
  <div hx-swap="innerHTML transition:true ignoreTitle:true" />,
  // htmx 4's styles, aliases and HCON modifiers.
  <div hx-swap="innerMorph" />,
  <div hx-swap="outerSync" />,
  <div hx-swap="append strip:true" />,
  <div hx-swap="outerHTML target:#main scrollTarget:#main swapEmpty:true" />,
  // Modifiers only: the style stays the default (both versions).
  <div hx-swap="swap:1s" />,
  <div hx-swap:inherited="outerHTML settle:0" />,
  // The extensions' styles: htmx 4's hx-upsert, htmx 2's idiomorph and multi-swap.
  <div hx-swap="upsert" />,
  <div hx-swap="morph:innerHTML" />,
  <div hx-swap="multi:#a,#b:outerHTML" />,
  <div hx-swap-oob="true" />,
  <div hx-swap-oob="beforeend:#contacts-table" />,
];
// @ts-expect-error a swap style is case-sensitive: htmx 2 swaps outerHtml as innerHTML, htmx 4 throws
export const badSwapCase = <div hx-swap="outerHtml" />;
// @ts-expect-error not a swap style
export const badSwapStyle = <div hx-swap="inner" />;
// @ts-expect-error not a modifier of either version
export const badSwapModifier = <div hx-swap="outerHTML swapDelay:1s" />;
// @ts-expect-error hx-swap-oob takes a swap style too
export const badSwapOob = <div hx-swap-oob="outerHtml:#x" />;

// An extension's own style, declared as HtmxSwapStyles documents (this declaration reaches the whole program).
declare module 'pagetree/jsx-runtime' {
  interface HtmxSwapStyles {
    'slide-in': true;
  }
}
export const extensionSwap = <div hx-swap="slide-in swap:200ms" />;
// @ts-expect-error a style no extension declares
export const undeclaredSwap = <div hx-swap="slide-out" />;

// One page for htmx 2 and htmx 4 (issue 45.17): both forms of an inherited attribute, both names of an event.
export const bothVersions = (
  <tbody hx-target="closest tr" hx-target:inherited="closest tr" hx-swap="outerHTML" hx-swap:inherited="outerHTML">
    <button {...{ 'hx-on::after-request': 'f()', 'hx-on::after:request': 'f()' }} hx-on--after-request="g()" />
  </tbody>
);
// @ts-expect-error an :inherited form takes the plain attribute's values
export const badInheritedSwap = <div hx-swap:inherited="outerHtml" />;

// @ts-expect-error hx-method takes an HTTP method
export const badMethod = <button hx-action="/x" hx-method="fetch" />;
// @ts-expect-error hx-boost is a boolean or "true"/"false"
export const badBoost = <a hx-boost={3} />;

// The lint rule's list of names and the typings agree.
import type { HtmxAttributes } from '../../jsx-runtime/index.ts';
import type { htmxAttributeNames } from '../../jsx-runtime/htmx-names.ts';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
// The families (`hx-on:…`, htmx 2's `hx-on-…`, `hx-status:…`) are htmx-names.ts's prefixes, not names.
type PlainNames = {
  [K in keyof HtmxAttributes]-?: K extends `${string}:${string}` | `hx-on-${string}` ? never : K;
}[keyof HtmxAttributes];
export const sameNames: Equal<PlainNames, (typeof htmxAttributeNames)[number]> = true;
