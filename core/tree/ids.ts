// Element ids, computed for the whole tree before any node is built: shortening and the duplicate check need
// every id of the tree, and a node is built with its ids.
//
//   kebab(field path below the root) + "-" + kebab(method):
//     App.todos        todoList   → "todos-todo-list"
//     App (root page)  header     → "app-header"
//   longer than maxIdLength (40): "<last field>-<method>", plus "-" and four hex of a hash of the field path when
//   that short form is not unique in the tree:
//     App.admin.reports.quarterly.summaries  chartLegend  → "summaries-chart-legend"

import { MountError } from '../errors.ts';
import { kebab, shortHash } from './names.ts';

/** A route as the ids see it: its field path, its parent (to the root), and its components. */
export interface IdRoute {
  /** Field name; the root's class name. */
  readonly name: string;
  readonly fieldPath: string;
  readonly parent: IdRoute | null;
  readonly components: readonly { readonly name: string; readonly kebab: string }[];
}

/**
 * The element ids of every component of a tree, per route (parallel to `routes` and to each route's components).
 * Routes come root first, in the tree's order; a duplicate id is a MountError naming both components.
 * @example elementIds([app, todos], 40) // → [["app-header"], ["todos-page", "todos-todo-list"]]
 */
export function elementIds(routes: readonly IdRoute[], maxIdLength: number): string[][] {
  const long = routes.map((r) => {
    const prefix = r.parent ? fieldsBelowRoot(r).map(kebab).join('-') : kebab(r.name);
    return r.components.map((c) => `${prefix}-${c.kebab}`);
  });
  // Shorten the long ones, and count how often each candidate occurs.
  const candidates = long.map((ids, i) =>
    ids.map((id, j) => (id.length > maxIdLength ? `${kebab(routes[i]!.name)}-${routes[i]!.components[j]!.kebab}` : id)),
  );
  const count = new Map<string, number>();
  for (const ids of candidates) for (const id of ids) count.set(id, (count.get(id) ?? 0) + 1);
  const owner = new Map<string, string>();
  return candidates.map((ids, i) => {
    const r = routes[i]!;
    return ids.map((candidate, j) => {
      const id =
        candidate !== long[i]![j] && count.get(candidate)! > 1 ? `${candidate}-${shortHash(r.fieldPath)}` : candidate;
      const where = `${r.fieldPath}.${r.components[j]!.name}`;
      const other = owner.get(id);
      if (other) {
        throw new MountError(
          where,
          `element id "${id}" is also the id of ${other}; rename one of the fields or methods so their ids differ`,
        );
      }
      owner.set(id, where);
      return id;
    });
  });
}

function fieldsBelowRoot(route: IdRoute): string[] {
  const names: string[] = [];
  for (let r: IdRoute | null = route; r && r.parent; r = r.parent) names.unshift(r.name);
  return names;
}
