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

// @ts-expect-error hx-method takes an HTTP method
export const badMethod = <button hx-action="/x" hx-method="fetch" />;
// @ts-expect-error hx-boost is a boolean or "true"/"false"
export const badBoost = <a hx-boost={3} />;

// The lint rule's list of names and the typings agree.
import type { HtmxAttributes } from '../../jsx-runtime/index.ts';
import type { htmxAttributeNames } from '../../jsx-runtime/htmx-names.ts';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type PlainNames = { [K in keyof HtmxAttributes]-?: K extends `${string}:${string}` ? never : K }[keyof HtmxAttributes];
export const sameNames: Equal<PlainNames, (typeof htmxAttributeNames)[number]> = true;
