// The lint's element ids (lint/element-ids.ts) are mount's (core/tree/ids.ts): the lint plugin may not load mount's
// module, so the rule is written twice, and these tests hold the two equal (issue 45.16).

import ts from 'typescript';
import { kebab } from '../../core/tree/names.ts';
import { defaultMaxIdLength as mountDefault, elementIds, type IdRoute } from '../../core/tree/ids.ts';
import { defaultMaxIdLength, elementIdsOf, type IdSource } from '../../lint/element-ids.ts';
import { routeTreeOf } from '../../lint/route-tree.ts';
import { fixture } from './rule-tester.ts';

// mount's input for the same routes: each route's parent is the route whose field path is its own minus one field.
function idRoutes(sources: readonly IdSource[]): IdRoute[] {
  const byPath = new Map<string, IdRoute>();
  return sources.map((s) => {
    const fields = s.fieldPath.split('.');
    const route: IdRoute = {
      name: fields[fields.length - 1]!,
      fieldPath: s.fieldPath,
      parent: byPath.get(fields.slice(0, -1).join('.')) ?? null,
      components: s.components.map((name) => ({ name, kebab: kebab(name) })),
    };
    byPath.set(s.fieldPath, route);
    return route;
  });
}

function mountIds(sources: readonly IdSource[], max: number): string[][] | string {
  try {
    return elementIds(idRoutes(sources), max);
  } catch (err) {
    return (err as Error).message;
  }
}

const trees: { name: string; max: number; routes: IdSource[] }[] = [
  { name: 'a root page', max: 40, routes: [{ fieldPath: 'App', components: ['page', 'header'] }] },
  {
    name: 'nested pages',
    max: 40,
    routes: [
      { fieldPath: 'App', components: [] },
      { fieldPath: 'App.todos', components: ['page', 'todoList'] },
      { fieldPath: 'App.admin', components: [] },
      { fieldPath: 'App.admin.users', components: ['userList', 'HTMLParser', 'userID', 'a_b'] },
    ],
  },
  {
    name: 'a long id, shortened to a unique form',
    max: 40,
    routes: [
      { fieldPath: 'App', components: [] },
      { fieldPath: 'App.update', components: [] },
      { fieldPath: 'App.update.otherContent', components: [] },
      { fieldPath: 'App.update.otherContent.events', components: ['contactsTable'] },
    ],
  },
  {
    name: 'two long ids with the same short form get hashes',
    max: 20,
    routes: [
      { fieldPath: 'App', components: [] },
      { fieldPath: 'App.left', components: [] },
      { fieldPath: 'App.left.reports', components: ['quarterlySummary'] },
      { fieldPath: 'App.right', components: [] },
      { fieldPath: 'App.right.reports', components: ['quarterlySummary'] },
    ],
  },
  {
    name: 'a short form that is some other id',
    max: 20,
    routes: [
      { fieldPath: 'App', components: [] },
      { fieldPath: 'App.list', components: ['items'] },
      { fieldPath: 'App.archive', components: [] },
      { fieldPath: 'App.archive.old', components: [] },
      { fieldPath: 'App.archive.old.list', components: ['items'] },
    ],
  },
  {
    name: 'two components with one id (mount refuses)',
    max: 40,
    routes: [
      { fieldPath: 'App', components: [] },
      { fieldPath: 'App.userList', components: ['page'] },
      { fieldPath: 'App.user', components: ['listPage'] },
    ],
  },
];

test("the lint's default maxIdLength is mount's", () => {
  expect(defaultMaxIdLength).toBe(mountDefault);
});

test.each(trees)('element ids as mount gives them: $name', ({ routes, max }) => {
  const lint = elementIdsOf(routes, max);
  const mount = mountIds(routes, max);
  if (typeof mount === 'string') expect([mount, lint]).toEqual([mount, undefined]);
  else expect(lint?.map((r) => r.map((e) => e.id))).toEqual(mount);
});

test('the fixture app: the ids the lint reads from source are the ids mount gives', () => {
  // Mounting the fixture warns of its empty route (App.admin.archive), which is there for route-literal's tests.
  jest.spyOn(console, 'warn').mockImplementation(() => {});
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- after the spy: an import would mount first
  const { tree } = require('./fixtures/app/main.ts') as typeof import('./fixtures/app/main.ts');
  const parsed = ts.getParsedCommandLineOfConfigFile(
    fixture('app/tsconfig.json'),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
  )!;
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
  const lint = [...routeTreeOf(program).ids!.values()].map((c) => `${c.route.fieldPath}.${c.method} ${c.id}`);
  const mounted = tree.nodes.flatMap((n) => n.components.map((c) => `${n.fieldPath}.${c.name} ${c.id}`));
  expect(lint.sort()).toEqual(mounted.sort());
  // The fixture's maxIdLength (40) shortens this one (UsersPage's): the lint must read the option.
  expect(lint).toContain('App.admin.users.recentActivityTimelineEntries users-recent-activity-timeline-entries');
});
