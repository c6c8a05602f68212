// htmx-attr: each case is one JSX element, linted as a .tsx file of the fixture app.

import { htmxAttributeNames } from '../../jsx-runtime/htmx-names.ts';
import { htmxAttr, isHtmxAttribute } from '../../lint/rules/htmx-attr.ts';
import { asEslintRule, fixture, ruleTester } from './rule-tester.ts';

const filename = fixture('app/subject-view.tsx');

const valid: [name: string, jsx: string][] = [
  ['htmx 2 verbs and targets', '<div hx-get="x" hx-target="#a" hx-swap="innerHTML" hx-trigger="click" />'],
  ['htmx 4 action and method', '<button hx-action="x" hx-method="post" hx-config="{}" hx-ignore />'],
  ['an :inherited form', '<nav hx-boost="true" hx-boost:inherited="true" />'],
  ['an hx-on event', '<form hx-on:submit="f()" />'],
  ['spread families', "<form {...{ 'hx-on::after-request': 'f()', 'hx-status:404': 'swap:none' }} />"],
  ['data-hx-* spelling', '<div data-hx-get="x" data-hx-target="#a" />'],
  ['upper case', '<div HX-GET="x" />'],
  ['not htmx', '<div data-x="1" aria-label="a" hxget="x" />'],
  // Issue 25.4: htmx 4's grammar without spreading an object past the rule.
  ['htmx 4 sse extension', '<p hx-sse:connect="/events" hx-sse:close="done" />'],
  ['htmx 4 ws extension', '<form hx-ws:connect="/chat" hx-ws:send="true" />'],
  // JSX allows one colon in a name: hx-on::after-request and hx-include:inherited:append need a spread.
  ['an :append form', "<div hx-vals:append='{\"a\":1}' {...{ 'hx-include:inherited:append': '#x' }} />"],
  ['htmx 2 extension attributes', '<p hx-ext="sse" sse-connect="/events" sse-swap="message" />'],
  // Issue 45.17: htmx 2's dashed hx-on, the spelling JSX can write without a spread (htmx 4 reads colons only).
  ['htmx 2 dashed hx-on', '<button hx-on--after-request="f()" hx-on-click="g()" hx-on-htmx-before-request="h()" />'],
];

const invalid: [name: string, jsx: string, attribute: string, hint: string][] = [
  ['a typo of hx-get', '<div hx-gett="x" />', 'hx-gett', '; did you mean "hx-get"?'],
  ['a typo of hx-target', '<div hx-taget="#a" />', 'hx-taget', '; did you mean "hx-target"?'],
  ['a typo in data-hx-*', '<div data-hx-swapp="x" />', 'data-hx-swapp', '; did you mean "hx-swap"?'],
  [
    'a wrong :inherited base',
    '<nav hx-boostt:inherited="true" />',
    'hx-boostt:inherited',
    '; did you mean "hx-boost"?',
  ],
  ['nothing close', '<div hx-frobnicate-everything="1" />', 'hx-frobnicate-everything', ''],
  ['a typo of hx-sse:connect', '<p hx-sse:conect="/e" />', 'hx-sse:conect', '; did you mean "hx-sse:connect"?'],
  ['a typo of hx-ws:send', '<form hx-ws:sned="true" />', 'hx-ws:sned', '; did you mean "hx-ws:send"?'],
  [
    'htmx 2 sse spelled htmx 4 style',
    '<p hx-sse-connect="/e" />',
    'hx-sse-connect',
    '; did you mean "hx-sse:connect"?',
  ],
];

ruleTester().run('htmx-attr', asEslintRule(htmxAttr), {
  valid: valid.map(([name, jsx]) => ({ name, code: `export const v = ${jsx};`, filename })),
  invalid: invalid.map(([name, jsx, attribute, hint]) => ({
    name,
    code: `export const v = ${jsx};`,
    filename,
    errors: [{ messageId: 'unknown', data: { name: attribute, hint } }],
  })),
});

test('every name of the list is an htmx attribute, and the families are recognised', () => {
  for (const name of htmxAttributeNames) expect(isHtmxAttribute(name)).toBe(true);
  expect(isHtmxAttribute('hx-on:click')).toBe(true);
  expect(isHtmxAttribute('hx-on:')).toBe(false);
  expect(isHtmxAttribute('hx-on--after-request')).toBe(true);
  expect(isHtmxAttribute('hx-on-')).toBe(false);
  expect(isHtmxAttribute('hx-target:inherited')).toBe(true);
  expect(isHtmxAttribute('hx-nope:inherited')).toBe(false);
});
