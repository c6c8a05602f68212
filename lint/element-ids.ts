// The element ids mount gives the components of a tree (core/tree/ids.ts), for the routes the lint rebuilt from
// source. ids.ts cannot be imported here: it throws mount's MountError, and the lint plugin loads no runtime
// (__tests__/layers.test.ts), so its rule is written again from the same pieces (names.ts's kebab and shortHash),
// and __tests__/lint/element-ids.test.ts holds the two against the fixture app's mounted tree.
//
//   kebab(field path below the root) + "-" + kebab(method):
//     App.todos        todoList   → "todos-todo-list"
//     App (root page)  header     → "app-header"
//   longer than maxIdLength (mount's option, 64 unless given): "<last field>-<method>", plus "-" and four hex of a
//   hash of the field path when that short form is not unique in the tree:
//     App.admin.reports.quarterlySummariesByRegion  chartLegendEntryList
//       "admin-reports-quarterly-summaries-by-region-chart-legend-entry-list" (67 characters)
//       → "quarterly-summaries-by-region-chart-legend-entry-list"

import { kebab, shortHash } from '../core/tree/names.ts';

/** mount's `maxIdLength` when its options do not give one (core/tree/ids.ts's; a test holds the two equal). */
export const defaultMaxIdLength = 64;

/** A route as the ids see it: its field path from the root ("App.admin.users") and its component methods. */
export interface IdSource {
  readonly fieldPath: string;
  readonly components: readonly string[];
}

/** A component's element id, and the id before shortening (the same when it was short enough). */
export interface ElementId {
  readonly method: string;
  readonly id: string;
  readonly fullId: string;
}

/**
 * The element ids of one mounted tree's components, per route (parallel to `routes`), or undefined when two
 * components would get the same id (mount throws: the app does not start, and this tree has no ids to check).
 * @example elementIdsOf([{ fieldPath: 'App.todos', components: ['todoList'] }], 64) // → [[{ method: "todoList", id: "todos-todo-list", fullId: "todos-todo-list" }]]
 */
export function elementIdsOf(routes: readonly IdSource[], maxIdLength: number): ElementId[][] | undefined {
  const full = routes.map((r) => {
    const fields = r.fieldPath.split('.');
    // The root's field path is its class name; below it, the root is left out.
    const prefix = fields.length === 1 ? kebab(fields[0]!) : fields.slice(1).map(kebab).join('-');
    return r.components.map((m) => `${prefix}-${kebab(m)}`);
  });
  const candidates = full.map((ids, i) => {
    const last = kebab(routes[i]!.fieldPath.split('.').pop()!);
    return ids.map((id, j) => (id.length > maxIdLength ? `${last}-${kebab(routes[i]!.components[j]!)}` : id));
  });
  const count = new Map<string, number>();
  for (const ids of candidates) for (const id of ids) count.set(id, (count.get(id) ?? 0) + 1);
  const seen = new Set<string>();
  const out: ElementId[][] = [];
  for (const [i, ids] of candidates.entries()) {
    const route: ElementId[] = [];
    for (const [j, candidate] of ids.entries()) {
      const fullId = full[i]![j]!;
      const id =
        candidate !== fullId && count.get(candidate)! > 1
          ? `${candidate}-${shortHash(routes[i]!.fieldPath)}`
          : candidate;
      if (seen.has(id)) return undefined;
      seen.add(id);
      route.push({ method: routes[i]!.components[j]!, id, fullId });
    }
    out.push(route);
  }
  return out;
}
