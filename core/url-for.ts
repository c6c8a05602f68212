// urlFor: in-app URLs from page types, never from string literals.
//
//   urlFor(UserPage, { userId: 7 })                  → "/admin/users/7"
//   urlFor(Admin)                                    → "/admin/"   (a group: its /{$} index)
//   urlFor([Components, EntryPage], { id: 'x' })     → the EntryPage below Components
//   urlFor([ListPage, '?page={page}&q={q}'], p)      → "/list?page=2&q=a%26b"
//   urlFor('Admin.user', { userId: 7 })              → by field path
//   urlFor('/admin/users/{userId}', { userId: 7 })   → by mounted pattern
//
// Each page gets a compiled builder at first use: its full path split into
// literal text and wildcard slots, so a call is a lookup and a join.

import { UrlForError } from './errors';
import type { PageNode } from './page-node';

/** Values for the placeholders of a URL. */
export type UrlParams = Record<string, string | number>;

/** What urlFor accepts at runtime: a page class or object, a chain, a field path or a pattern. */
export type UrlTargetValue = unknown;

interface Slot {
  name: string;
  multi: boolean;
}

/** A compiled path: literal parts with slots between them. */
interface Builder {
  parts: string[]; // parts.length === slots.length + 1
  slots: Slot[];
  pattern: string; // for messages
}

const placeholderRe = /\{([^{}]*)\}/g;

/**
 * Compiles a full path into a builder: `{$}` is dropped (its slash stays),
 * `{name}` and `{name...}` become slots.
 * @example compilePath('/admin/users/{userId}').slots // → [{ name: "userId", multi: false }]
 */
export function compilePath(fullPath: string): Builder {
  const parts: string[] = [];
  const slots: Slot[] = [];
  let text = '';
  let last = 0;
  for (const m of fullPath.matchAll(placeholderRe)) {
    text += fullPath.slice(last, m.index);
    last = m.index + m[0].length;
    const inner = m[1]!;
    if (inner === '$') continue; // adds nothing: the slash before it stays
    parts.push(text);
    text = '';
    const multi = inner.endsWith('...');
    slots.push({ name: multi ? inner.slice(0, -3) : inner, multi });
  }
  parts.push(text + fullPath.slice(last));
  return { parts, slots, pattern: fullPath };
}

/** Everything urlFor needs to know of a mounted tree. */
export interface UrlTree {
  readonly root: PageNode;
  readonly nodes: readonly PageNode[];
  readonly urlPrefix: string;
}

/**
 * Resolves a target to a page node of the tree and builds its URL.
 * `current` (inside a request) supplies missing path values of the matched route.
 */
export function buildUrl(
  tree: UrlTree,
  builders: Map<PageNode, Builder>,
  target: UrlTargetValue,
  params: UrlParams | undefined,
  current?: { node: PageNode; pathValue(name: string): string },
): string {
  const api = `urlFor(${describeTarget(target)})`;
  let template = '';
  let node: PageNode;
  if (Array.isArray(target)) {
    const steps = [...target];
    if (typeof steps[steps.length - 1] === 'string' && steps.length > 1) template = steps.pop() as string;
    node = findNode(tree, steps, api);
  } else if (typeof target === 'string') {
    node = target.startsWith('/') ? resolvePattern(tree, target, api) : resolveFieldPath(tree, target, api);
  } else {
    node = findNode(tree, [target], api);
  }
  node = indexOf(node, api);
  let b = builders.get(node);
  if (!b) builders.set(node, (b = compilePath(node.fullRoute())));

  const used = new Set<string>();
  const value = (name: string): string => {
    used.add(name);
    const v = params?.[name];
    if (v !== undefined) return String(v);
    if (current && current.node.pattern !== '' && hasWildcard(current.node, name)) return current.pathValue(name);
    throw new UrlForError(`${api}: missing param "${name}" for "${b!.pattern}${template}"`);
  };
  let url = tree.urlPrefix + b.parts[0]!;
  for (let i = 0; i < b.slots.length; i++) {
    const slot = b.slots[i]!;
    url += encodePathValue(value(slot.name), slot.multi, api, slot.name) + b.parts[i + 1]!;
  }
  if (template) url += fillTemplate(template, value, api);
  if (params) {
    for (const key of Object.keys(params)) {
      if (!used.has(key)) {
        const known = [...b.slots.map((s) => s.name), ...templateNames(template)];
        throw new UrlForError(
          `${api}: unknown param "${key}" for "${b.pattern}${template}"` +
            (known.length ? ` (its params: ${known.join(', ')})` : ' (it takes no params)'),
        );
      }
    }
  }
  return url;
}

function hasWildcard(node: PageNode, name: string): boolean {
  return node.fullRoute().includes(`{${name}}`) || node.fullRoute().includes(`{${name}...}`);
}

// A path value as one segment ("a b/c" → "a%20b%2Fc"), or for {rest...} each segment.
function encodePathValue(v: string, multi: boolean, api: string, name: string): string {
  if (multi) return v.split('/').map(encodeURIComponent).join('/');
  if (v === '' || v === '.' || v === '..') {
    throw new UrlForError(`${api}: param "${name}" is ${JSON.stringify(v)}, which cannot be a path segment`);
  }
  return encodeURIComponent(v);
}

// Placeholders in the path part of a template are path segments; after "?" or "#", components.
function fillTemplate(template: string, value: (name: string) => string, api: string): string {
  const cut = template.search(/[?#]/);
  const pathPart = cut < 0 ? template : template.slice(0, cut);
  const rest = cut < 0 ? '' : template.slice(cut);
  return (
    pathPart.replace(placeholderRe, (_, name: string) => encodePathValue(value(name), false, api, name)) +
    rest.replace(placeholderRe, (_, name: string) => encodeURIComponent(value(name)))
  );
}

function templateNames(template: string): string[] {
  return [...template.matchAll(placeholderRe)].map((m) => m[1]!);
}

/**
 * The node a chain of page classes (or objects) names: each step descends to
 * the unique node of that class below the previous one.
 */
export function findNode(tree: UrlTree, steps: readonly unknown[], api: string): PageNode {
  let scope: readonly PageNode[] = tree.nodes;
  let node: PageNode | undefined;
  for (const step of steps) {
    const found = scope.filter((n) => n.page === step || n.pageClass === step);
    if (found.length === 0) {
      throw new UrlForError(
        node
          ? `${api}: ${describeTarget(step)} is not mounted below ${node.fieldPath}`
          : `${api}: ${describeTarget(step)} is not mounted in this tree (mounted pages: ${tree.nodes
              .filter((n) => n.pattern !== '')
              .map((n) => n.pageClass.name)
              .join(', ')})`,
      );
    }
    if (found.length > 1) {
      throw new UrlForError(
        `${api}: ${describeTarget(step)} is mounted at ${found.length} places: ` +
          found.map((n) => `${n.fieldPath} (${n.fullRoute()})`).join(', ') +
          `; disambiguate with a chain from a page above it, e.g. urlFor([${describeTarget(found[0]!.parent?.page ?? step)}, ${describeTarget(step)}])` +
          `, or a field path, e.g. urlFor(${JSON.stringify(found[0]!.fieldPath.split('.').slice(1).join('.'))})`,
      );
    }
    node = found[0]!;
    scope = descendants(node);
  }
  if (!node) throw new UrlForError(`${api}: an empty chain names no page`);
  return node;
}

function descendants(node: PageNode): PageNode[] {
  const out: PageNode[] = [];
  const walk = (n: PageNode) => {
    for (const c of n.children) {
      out.push(c);
      walk(c);
    }
  };
  walk(node);
  return out;
}

// "Admin.user": the anchor is the root or a root child by field name, else a
// unique node anywhere by field or class name; then child fields.
function resolveFieldPath(tree: UrlTree, ref: string, api: string): PageNode {
  const [anchor, ...rest] = ref.split('.');
  const root = tree.root;
  let found = [root, ...root.children].filter((n) => n.name === anchor);
  if (found.length === 0) found = tree.nodes.filter((n) => n.name === anchor || n.pageClass.name === anchor);
  if (found.length !== 1) {
    const names = [root.name, ...root.children.map((c) => c.name)].join(', ');
    throw new UrlForError(
      found.length === 0
        ? `${api}: no route named "${anchor}" (the root and its children: ${names})`
        : `${api}: "${anchor}" is ambiguous: ${found.map((n) => n.fieldPath).join(', ')}; start from a root child`,
    );
  }
  let node = found[0]!;
  for (const field of rest) {
    const child = node.children.find((c) => c.name === field);
    if (!child) {
      throw new UrlForError(
        `${api}: ${node.fieldPath} has no route "${field}" (its routes: ${node.children.map((c) => c.name).join(', ') || 'none'})`,
      );
    }
    node = child;
  }
  return node;
}

function resolvePattern(tree: UrlTree, pattern: string, api: string): PageNode {
  const node = tree.nodes.find((n) => n.pattern !== '' && n.fullRoute() === pattern);
  if (!node) {
    throw new UrlForError(
      `${api}: no mounted route has the pattern "${pattern}" (mounted: ${tree.nodes
        .filter((n) => n.pattern !== '')
        .map((n) => n.fullRoute())
        .join(', ')})`,
    );
  }
  return node;
}

// A page group stands for its /{$} index child (GET or all methods preferred).
function indexOf(node: PageNode, api: string): PageNode {
  if (node.pattern !== '') return node;
  const indexes = node.children.filter((c) => c.route === '/{$}' && c.pattern !== '');
  const best = indexes.find((c) => c.method === '' || c.method === 'GET') ?? indexes[0];
  if (!best) {
    throw new UrlForError(
      `${api}: ${node.fieldPath} is a page group with no index page; add a route('/{$} Title', IndexPage) to it, or link to one of its pages`,
    );
  }
  return best;
}

function describeTarget(t: unknown): string {
  if (Array.isArray(t)) return `[${t.map(describeTarget).join(', ')}]`;
  if (typeof t === 'function') return t.name || 'anonymous class';
  if (typeof t === 'string') return JSON.stringify(t);
  if (typeof t === 'object' && t !== null) return t.constructor.name;
  return String(t);
}
