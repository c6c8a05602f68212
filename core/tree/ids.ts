// Element ids, computed for the whole tree before any node is built: shortening and the duplicate check need
// every id of the tree, and a node is built with its ids.
//
//   kebab(field path below the root) + "-" + kebab(method):
//     App.todos        todoList   → "todos-todo-list"
//     App (root page)  header     → "app-header"
//   longer than maxIdLength (64): "<last field>-<method>", plus "-" and four hex of a hash of the field path when
//   that short form is not unique in the tree:
//     App.admin.reports.quarterlySummariesByRegion  chartLegendEntryList
//       "admin-reports-quarterly-summaries-by-region-chart-legend-entry-list" (67 characters)
//       → "quarterly-summaries-by-region-chart-legend-entry-list"
//
// 64, not 40: ids of real trees reach 42 ("update-other-content-events-contacts-table", issue 45.16), and an id
// that changes under the author's CSS and tests surprises more than a long one. Past it, mount in dev says so.

import { MountError } from '../errors.ts';
import type { Logger } from '../kernel/logger.ts';
import { kebab, shortHash } from './names.ts';

/**
 * mount's `maxIdLength` when its options do not give one (lint/element-ids.ts has the same number).
 * @example defaultMaxIdLength // → 64
 */
export const defaultMaxIdLength = 64;

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
 * Routes come root first, in the tree's order; a duplicate id is a MountError naming both components. When
 * `maxIdLength` is not given (the default applies) and a logger is (mount in dev), each shortened id is a warning:
 * an author who wrote the long id in CSS or a test learns why it matches nothing.
 * @example elementIds([app, todos], 64) // → [["app-header"], ["todos-page", "todos-todo-list"]]
 */
export function elementIds(
  routes: readonly IdRoute[],
  maxIdLength?: number,
  devLogger?: Pick<Logger, 'warn'>,
): string[][] {
  const warn = maxIdLength === undefined ? devLogger : undefined;
  maxIdLength ??= defaultMaxIdLength;
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
      if (warn && id !== long[i]![j]) {
        warn.warn(
          `pagetree: the element id of ${where}, "${long[i]![j]}", is longer than ${maxIdLength} characters and was ` +
            `shortened to "${id}": write the short id in CSS and tests (idTarget() gives it), or pass mount's ` +
            `maxIdLength to choose the limit`,
        );
      }
      return id;
    });
  });
}

function fieldsBelowRoot(route: IdRoute): string[] {
  const names: string[] = [];
  for (let r: IdRoute | null = route; r && r.parent; r = r.parent) names.unshift(r.name);
  return names;
}
