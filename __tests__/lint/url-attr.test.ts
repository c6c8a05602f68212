// url-attr: each case is one JSX expression, linted as a .tsx file of the fixture app.

import { urlAttr } from '../../lint/rules/url-attr.ts';
import { asEslintRule, fixture, ruleTester } from './rule-tester.ts';

const filename = fixture('app/subject-view.tsx');
const header =
  "import { staticUrl, urlFor } from 'pagetree';\n" +
  "import { ListPage, UserPage, UsersPage } from './pages';\n" +
  'declare const base: string, id: string, c: boolean, props: { url: string };\n';

const valid: [name: string, jsx: string][] = [
  ['urlFor()', '<a href={urlFor(UsersPage)}>x</a>'],
  ['urlFor() with a chain and a query template', "<div hx-get={urlFor([ListPage, '?page={page}'], { page: 2 })} />"],
  ['a const initialised from urlFor()', '(() => { const u = urlFor(UsersPage); return <a href={u}>x</a>; })()'],
  ['staticUrl()', "<img src={staticUrl('logo.png')} />"],
  ['https:', '<a href="https://example.com/admin">x</a>'],
  ['http:', '<a href="http://example.com/">x</a>'],
  ['mailto:', '<a href="mailto:a@example.com">x</a>'],
  ['tel:', '<a href="tel:+331234">x</a>'],
  ['an anchor', '<a href="#top">x</a>'],
  ['a protocol-relative CDN URL', '<script src="//cdn.example.com/htmx.js" />'],
  ['the empty string', '<form action="" />'],
  ['a relative path', '<a href="edit">x</a>'],
  ['a parent-relative path', '<a href="../list">x</a>'],
  ['a query only', '<a href="?page=2">x</a>'],
  ['hx-push-url="true"', '<div hx-get={urlFor(UsersPage)} hx-push-url="true" />'],
  ['hx-push-url="false"', '<div hx-push-url="false" />'],
  ['hx-replace-url={false}', '<div hx-replace-url={false} />'],
  ['an external template', '<a href={`https://${base}/admin`}>x</a>'],
  ['a query after urlFor()', '<a href={`${urlFor(ListPage)}?page=${id}`}>x</a>'],
  ['a path inside a query value', "<a href={base + '?next=/admin'}>x</a>"],
  ['a value we cannot see', '<a href={props.url}>x</a>'],
  [
    'a const external origin before a path',
    "(() => { const origin = 'https://example.com'; return <a href={`${origin}/admin`}>x</a>; })()",
  ],
  ['a conditional of non-paths', "<a href={c ? 'https://example.com' : '#b'}>x</a>"],
  [
    'a variable that is reassigned',
    "(() => { let u = '/a'; u = urlFor(UserPage, { userId: 1 }); return <a href={u}>x</a>; })()",
  ],
  ['not a URL attribute', '<div data-path="/admin" hx-target="#list" />'],
  ['a name attribute', '<input name="/admin" />'],
  ['an attribute without a value', '<a href>x</a>'],
];

const message = (attribute: string, value: string) =>
  `${attribute}=${value} is an in-app path written by hand; build it with urlFor(Page) ` +
  "(or staticUrl('file') for a static asset) so a moved route is caught at compile time";

const invalid: [name: string, jsx: string, attribute: string, value: string][] = [
  ['href', '<a href="/admin/users">x</a>', 'href', '"/admin/users"'],
  ['any case', '<a HREF="/admin">x</a>', 'HREF', '"/admin"'],
  ['action', '<form action="/login" />', 'action', '"/login"'],
  ['formaction', '<button formaction="/save">x</button>', 'formaction', '"/save"'],
  ['formAction', '<button formAction="/save">x</button>', 'formAction', '"/save"'],
  ['src', '<img src="/static/logo.png" />', 'src', '"/static/logo.png"'],
  ['hx-get', '<div hx-get="/tasks" />', 'hx-get', '"/tasks"'],
  ['hx-post', '<form hx-post="/tasks" />', 'hx-post', '"/tasks"'],
  ['hx-put', '<form hx-put="/tasks/1" />', 'hx-put', '"/tasks/1"'],
  ['hx-patch', '<form hx-patch="/tasks/1" />', 'hx-patch', '"/tasks/1"'],
  ['hx-delete', '<button hx-delete="/tasks/1">x</button>', 'hx-delete', '"/tasks/1"'],
  ['hx-push-url', '<div hx-push-url="/tasks" />', 'hx-push-url', '"/tasks"'],
  ['hx-replace-url', '<div hx-replace-url="/tasks" />', 'hx-replace-url', '"/tasks"'],
  ['hx-action (htmx 4)', '<form hx-action="/tasks" />', 'hx-action', '"/tasks"'],
  ['data-hx-get', '<div data-hx-get="/tasks" />', 'data-hx-get', '"/tasks"'],
  ['the root', '<a href="/">x</a>', 'href', '"/"'],
  ['a literal in braces', "<a href={'/admin'}>x</a>", 'href', "{'/admin'}"],
  ['a template that starts with a path', '<a href={`/users/${id}`}>x</a>', 'href', '{`/users/${id}`}'],
  ['a concatenation that starts with a path', "<a href={'/users/' + id}>x</a>", 'href', "{'/users/' + id}"],
  ['a path glued to a value', "<a href={base + '/users'}>x</a>", 'href', "{base + '/users'}"],
  ['a path glued to a value in a template', '<a href={`${base}/users`}>x</a>', 'href', '{`${base}/users`}'],
  [
    'a path glued to urlFor(): use a chain template',
    '<a href={`${urlFor(UserPage, { userId: 1 })}/edit`}>x</a>',
    'href',
    '{`${urlFor(UserPage, { userId: 1 })}/edit`}',
  ],
  ['a const path', "(() => { const home = '/home'; return <a href={home}>x</a>; })()", 'href', '{home}'],
  [
    'one branch of a conditional',
    "<a href={c ? '/a' : urlFor(UsersPage)}>x</a>",
    'href',
    "{c ? '/a' : urlFor(UsersPage)}",
  ],
  ['a fallback', "<a href={props.url ?? '/fallback'}>x</a>", 'href', "{props.url ?? '/fallback'}"],
  ['through a type assertion', "<a href={'/a' as string}>x</a>", 'href', "{'/a' as string}"],
];

ruleTester().run('url-attr', asEslintRule(urlAttr), {
  valid: valid.map(([name, jsx]) => ({ name, code: `${header}export const v = ${jsx};`, filename })),
  invalid: invalid.map(([name, jsx, attribute, value]) => ({
    name,
    code: `${header}export const v = ${jsx};`,
    filename,
    errors: [{ message: message(attribute, value) }],
  })),
});
