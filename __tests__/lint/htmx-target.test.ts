// htmx-target over the fixture app (fixtures/app: main.ts → admin.ts → pages.tsx, and layout.tsx's hand-written
// ids). Each case is one JSX element, linted as a .tsx file of the app (issue 45.16).

import { htmxTarget } from '../../lint/rules/htmx-target.ts';
import { asEslintRule, fixture, ruleTester } from './rule-tester.ts';

const filename = fixture('app/subject-view.tsx');

const valid: { name: string; jsx: string; filename?: string }[] = [
  { name: "a component's id", jsx: '<button hx-target="#admin-users-user-list" />' },
  {
    name: 'a page mounted twice has both ids',
    jsx: '<button hx-target="#docs-list-page" hx-include="#api-list-page" />',
  },
  { name: 'a shortened id as mount gives it', jsx: '<button hx-target="#users-recent-activity-timeline-entries" />' },
  { name: 'a JSX id in another file', jsx: '<button hx-target="#main" />' },
  { name: "id('flash')", jsx: '<button hx-target="#flash" />' },
  { name: 'id() of a standalone component', jsx: '<button hx-target="#search-results" />' },
  { name: 'an id from a const', jsx: '<button hx-target="#toast" />' },
  { name: 'either branch of an id', jsx: '<button hx-target="#panel-open" hx-indicator="#panel-closed" />' },
  { name: "a component's id prop", jsx: '<button hx-target="#email" />' },
  { name: 'a template id', jsx: '<button hx-target="#row-7" />' },
  { name: 'an id in a string of HTML', jsx: '<button hx-target="#modal" />' },
  { name: 'an extended selector', jsx: '<button hx-target="closest #main" />' },
  { name: 'a list of ids', jsx: '<button hx-include="#main, #email" />' },
  { name: ':inherited and data- forms', jsx: '<div hx-target:inherited="#main" data-hx-target="#main" />' },
  { name: 'not an id selector', jsx: '<div hx-target="this" hx-include="closest form" hx-indicator=".spinner" />' },
  { name: 'a compound selector is not checked', jsx: '<div hx-target="#nope .row" />' },
  { name: 'idTarget()', jsx: "<div hx-target={idTarget('#nope')} />" },
  { name: 'a value the rule cannot see', jsx: '<div hx-target={target} />' },
  { name: 'another attribute', jsx: '<a href="#nope" hx-select="#nope" />' },
  { name: 'a test file', jsx: '<div hx-target="#nope" />', filename: fixture('app/__tests__/view.tsx') },
  { name: 'no mount in the program', jsx: '<div hx-target="#nope" />', filename: fixture('no-mount/view.tsx') },
];

const header = "import { idTarget } from 'pagetree';\ndeclare const target: string;\n";

const unknown = (attribute: string, value: string, id: string, hint = '') =>
  `${attribute}="${value}" names no element of the app: no component of the mounted tree has the id "${id}" and ` +
  `no file writes it${hint}; write idTarget(this.method) for a component, or disable this line if a script makes ` +
  'the element';

const invalid: { name: string; jsx: string; errors: string[]; before?: string }[] = [
  {
    name: "the end of a component's id",
    jsx: '<button hx-target="#user-list" />',
    errors: [unknown('hx-target', '#user-list', 'user-list', '; did you mean "#admin-users-user-list"?')],
  },
  {
    // Issue 45.16: the full form of an id over 40 characters, which mount shortened.
    name: 'an id before mount shortened it',
    jsx: '<button hx-target="#admin-users-recent-activity-timeline-entries" />',
    errors: [
      'hx-target="#admin-users-recent-activity-timeline-entries" names no element of the app: mount shortens ids ' +
        'longer than maxIdLength, and the id of App.admin.users.recentActivityTimelineEntries is ' +
        '"users-recent-activity-timeline-entries"; write idTarget(this.recentActivityTimelineEntries), which always ' +
        'gives the id mount gave',
    ],
  },
  {
    name: 'a typo of a written id',
    jsx: '<button hx-target="#mian" />',
    errors: [unknown('hx-target', '#mian', 'mian', '; did you mean "#main"?')],
  },
  {
    name: 'nothing close',
    jsx: '<button hx-target="#nothing-like-it" />',
    errors: [unknown('hx-target', '#nothing-like-it', 'nothing-like-it')],
  },
  {
    name: 'one id of a list',
    jsx: '<button hx-include="#main, #emial" />',
    errors: [unknown('hx-include', '#main, #emial', 'emial', '; did you mean "#email"?')],
  },
  {
    name: 'an extended selector',
    jsx: '<button hx-indicator="closest #spinner" />',
    errors: [unknown('hx-indicator', 'closest #spinner', 'spinner')],
  },
  {
    name: 'the data- and :inherited forms',
    jsx: '<div data-hx-target="#nope" hx-target:inherited="#nope" />',
    errors: [unknown('data-hx-target', '#nope', 'nope'), unknown('hx-target:inherited', '#nope', 'nope')],
  },
  {
    name: 'a string in braces, a template, a const',
    before: "const t = '#nope';\n",
    jsx: "<div hx-target={'#nope'} hx-disabled-elt={`#nope`} hx-disable={t} />",
    errors: [
      unknown('hx-target', '#nope', 'nope'),
      unknown('hx-disabled-elt', '#nope', 'nope'),
      unknown('hx-disable', '#nope', 'nope'),
    ],
  },
];

ruleTester().run('htmx-target', asEslintRule(htmxTarget), {
  valid: valid.map((c) => ({
    name: c.name,
    code: `${header}export const v = ${c.jsx};`,
    filename: c.filename ?? filename,
  })),
  invalid: invalid.map((c) => ({
    name: c.name,
    code: `${header}${c.before ?? ''}export const v = ${c.jsx};`,
    filename,
    errors: c.errors.map((message) => ({ message })),
  })),
});
