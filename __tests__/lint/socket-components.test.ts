// The lint rebuilds a tree's components as mount does (tree/page-node.ts): a socket route's open, message and
// close are no components (no ids, no render targets), so the lint's element ids and htmx-target agree with mount.

import ts from 'typescript';
import { routeTreeOf } from '../../lint/route-tree.ts';
import { tree } from './fixtures/socket/main.ts';
import { fixture } from './rule-tester.ts';

const config = ts.getParsedCommandLineOfConfigFile(
  fixture('socket/tsconfig.json'),
  {},
  { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
)!;
const program = ts.createProgram({ rootNames: config.fileNames, options: config.options });

test('socket-page-open-message-close-are-no-components', () => {
  const rows = routeTreeOf(program).routes.map((r) => [r.fieldPath, r.registered, r.components]);
  expect(rows).toEqual([
    ['App', false, []],
    ['App.chat', true, ['count']],
    ['App.listen', true, []], // message() alone is a socket route: mount registers GET /listen
    ['App.doors', true, ['open', 'close']], // no message(): a page whose components have those names
  ]);
});

test('lint-components-of-a-socket-page-are-mounts', () => {
  const lint = routeTreeOf(program).routes.map((r) => [r.fieldPath, r.components]);
  const mounted = tree.nodes.map((n) => [n.fieldPath, n.components.map((c) => c.name)]);
  expect(lint).toEqual(mounted);
});
