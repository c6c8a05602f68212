// urlFor: in-app URLs from page types, never from string literals.
//
//   urlFor(UserPage, { userId: 7 })                  → "/admin/users/7"
//   urlFor(Admin)                                    → "/admin/"   (a group: its /{$} index)
//   urlFor([Components, EntryPage], { id: 'x' })     → the EntryPage below Components
//   urlFor([ListPage, '?page={page}&q={q}'], p)      → "/list?page=2&q=a%26b"
//   urlFor('Admin.user', { userId: 7 })              → by field path
//   urlFor('/admin/users/{userId}', { userId: 7 })   → by mounted pattern
//
// Each registered page node carries a builder from the moment it is built (`node.url`): its pattern's segments,
// parsed once at mount (route.ts), as literal text and wildcard slots, so a call is a lookup and a join:
//
//   "/admin/users/{userId}" => parts ["/admin/users/", ""], slots [userId]  → "/admin/users/" + "7" + ""
//
// Suffix templates ('?page={page}') are not route patterns (they hold a query): they compile here, once each.

import { UrlForError } from '../errors.ts';
import type { PageNode } from './page-node.ts';
import type { UrlBuilder } from './route.ts';

/** Values for the placeholders of a URL. */
export type UrlParams = Record<string, string | number>;

// A `{name}` placeholder of a suffix template.
const placeholderRe = /\{([^{}]*)\}/g;

/** What error messages name the call after: the target urlFor was given, or a ready-made name. */
export type Api = unknown;

function callName(api: Api): string {
  return api instanceof CallName ? api.name : `urlFor(${describeTarget(api)})`;
}

/** A ready-made call name for messages, e.g. "id([Admin, Dashboard, 'x'])". */
export class CallName {
  readonly name: string;

  constructor(name: string) {
    this.name = name;
  }
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
  cache: UrlCache,
  target: unknown, // a page class or object, a chain, a field path or a pattern
  params: UrlParams | undefined,
  current?: CurrentRoute,
): string {
  // No closures on this path: under tsx each one costs a defineProperty call
  // (esbuild's keepNames), which was 70% of a urlFor call (bench/urlfor).
  let template = '';
  let b: UrlBuilder | undefined;
  if (Array.isArray(target)) {
    const last = target.length - 1;
    const hasTemplate = last > 0 && typeof target[last] === 'string';
    if (hasTemplate) template = target[last] as string;
    // Chains are new arrays each call: cache by their steps, one Map level per step.
    let level = cache.byChain;
    for (let i = 0; i < (hasTemplate ? last : target.length); i++) {
      let next = level.get(target[i]) as ChainCache | undefined;
      if (!next) level.set(target[i], (next = new Map()));
      level = next;
    }
    b = level.get(chainEnd) as UrlBuilder | undefined;
    if (!b) {
      const steps = hasTemplate ? target.slice(0, last) : target;
      b = builderOf(findNode(tree, steps, target), target);
      level.set(chainEnd, b);
    }
  } else {
    // A class, page object, field path or pattern always names the same page: resolve it once.
    b = cache.byTarget.get(target);
    if (!b) {
      const node =
        typeof target === 'string'
          ? target.startsWith('/')
            ? resolvePattern(tree, target, target)
            : resolveFieldPath(tree, target, target)
          : findNode(tree, [target], target);
      b = builderOf(node, target);
      cache.byTarget.set(target, b);
    }
  }
  let url = tree.urlPrefix + b.parts[0]!;
  for (let i = 0; i < b.slots.length; i++) {
    const slot = b.slots[i]!;
    const v = paramValue(params, slot.name, current, target, b, template);
    url += encodePathValue(v, slot.multi, target, slot.name) + b.parts[i + 1]!;
  }
  if (template) url += fillTemplate(cache, template, params, current, target, b);
  if (params) {
    for (const key in params) {
      if (b.names.includes(key) || (template && templateHas(cache.templates.get(template)!, key))) continue;
      const known = template ? [...b.names, ...cache.templates.get(template)!.slots.map((x) => x.name)] : b.names;
      throw new UrlForError(
        `${callName(target)}: unknown param "${key}" for "${b.pattern}${template}"` +
          (known.length ? ` (its params: ${known.join(', ')})` : ' (it takes no params)'),
      );
    }
  }
  return url;
}

/** The route of the current request, whose path values fill params that are not given. */
export interface CurrentRoute {
  node: PageNode;
  req: { pathValue(name: string): string };
}

function paramValue(
  params: UrlParams | undefined,
  name: string,
  current: CurrentRoute | undefined,
  target: unknown,
  b: UrlBuilder,
  template: string,
): string {
  const v = params?.[name];
  if (v !== undefined) return typeof v === 'string' ? v : String(v);
  if (current && current.node.url?.names.includes(name)) return current.req.pathValue(name);
  throw new UrlForError(`${callName(target)}: missing param "${name}" for "${b.pattern}${template}"`);
}

/** A tree's builders by the targets that name one page. */
export interface UrlCache {
  byTarget: Map<unknown, UrlBuilder>;
  byChain: ChainCache;
  templates: Map<string, CompiledTemplate>;
}

type ChainCache = Map<unknown, ChainCache | UrlBuilder>;
const chainEnd = Symbol('end of chain');

/** An empty cache for a tree. */
export function urlCache(): UrlCache {
  return { byTarget: new Map(), byChain: new Map(), templates: new Map() };
}

// A path value as one segment ("a b/c" → "a%20b%2Fc"), or for {rest...} each segment.
function encodePathValue(v: string, multi: boolean, api: Api, name: string): string {
  if (!multi) {
    if (v === '' || v === '.' || v === '..') throw notASegment(api, name, v);
    return encodeComponent(v, api, name);
  }
  // {rest...}: each segment encoded, the slashes kept. An empty segment inside
  // ("a//b") would be cleaned away by a redirect and "." or ".." resolved by
  // the browser, so neither can be sent; an empty value or a trailing slash can.
  const segs = v.split('/');
  for (let i = 0; i < segs.length; i++) {
    const seg = segs[i]!;
    if (seg === '.' || seg === '..' || (seg === '' && i < segs.length - 1)) throw notASegment(api, name, v);
    segs[i] = encodeComponent(seg, api, name);
  }
  return segs.join('/');
}

function notASegment(api: Api, name: string, v: string): UrlForError {
  return new UrlForError(
    `${callName(api)}: param "${name}" is ${JSON.stringify(v)}, which cannot be a path ` +
      `(an empty, "." or ".." segment would be cleaned away or resolved)`,
  );
}

// encodeURIComponent, with its URIError (a lone surrogate) named for the caller.
function encodeComponent(v: string, api: Api, name: string): string {
  try {
    return encodeURIComponent(v);
  } catch {
    throw new UrlForError(`${callName(api)}: param "${name}" is not well-formed Unicode (a lone surrogate)`);
  }
}

// A template compiled once: text parts, and placeholders that are path
// segments (before "?" or "#") or query/fragment components (after).
interface CompiledTemplate {
  parts: string[];
  slots: { name: string; component: boolean }[];
}

function compileTemplate(template: string): CompiledTemplate {
  const cut = template.search(/[?#]/);
  const parts: string[] = [];
  const slots: CompiledTemplate['slots'] = [];
  let last = 0;
  for (const m of template.matchAll(placeholderRe)) {
    parts.push(template.slice(last, m.index));
    slots.push({ name: m[1]!, component: cut >= 0 && m.index > cut });
    last = m.index + m[0].length;
  }
  parts.push(template.slice(last));
  return { parts, slots };
}

function templateHas(t: CompiledTemplate, name: string): boolean {
  for (const slot of t.slots) if (slot.name === name) return true;
  return false;
}

function fillTemplate(
  cache: UrlCache,
  template: string,
  params: UrlParams | undefined,
  current: CurrentRoute | undefined,
  target: unknown,
  b: UrlBuilder,
): string {
  let t = cache.templates.get(template);
  if (!t) cache.templates.set(template, (t = compileTemplate(template)));
  let out = t.parts[0]!;
  for (let i = 0; i < t.slots.length; i++) {
    const { name, component } = t.slots[i]!;
    const v = paramValue(params, name, current, target, b, template);
    out += (component ? encodeComponent(v, target, name) : encodePathValue(v, false, target, name)) + t.parts[i + 1]!;
  }
  return out;
}

/**
 * The node a chain of page classes (or objects) names: each step descends to
 * the unique node of that class below the previous one.
 */
export function findNode(tree: UrlTree, steps: readonly unknown[], api: Api): PageNode {
  let scope: readonly PageNode[] = tree.nodes;
  let node: PageNode | undefined;
  for (const step of steps) {
    const found = scope.filter((n) => n.page === step || n.pageClass === step);
    if (found.length === 0) {
      throw new UrlForError(
        node
          ? `${callName(api)}: ${describeTarget(step)} is not mounted below ${node.fieldPath}`
          : `${callName(api)}: ${describeTarget(step)} is not mounted in this tree (mounted pages: ${tree.nodes
              .filter((n) => n.registered)
              .map((n) => n.pageClass.name)
              .join(', ')})`,
      );
    }
    if (found.length > 1) {
      throw new UrlForError(
        `${callName(api)}: ${describeTarget(step)} is mounted at ${found.length} places: ` +
          found.map((n) => `${n.fieldPath} (${n.fullRoute()})`).join(', ') +
          `; disambiguate with a chain from a page above it, e.g. urlFor([${describeTarget(found[0]!.parent?.page ?? step)}, ${describeTarget(step)}])` +
          `, or a field path, e.g. urlFor(${JSON.stringify(found[0]!.fieldPath.split('.').slice(1).join('.'))})`,
      );
    }
    node = found[0]!;
    scope = descendants(node);
  }
  if (!node) throw new UrlForError(`${callName(api)}: an empty chain names no page`);
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
function resolveFieldPath(tree: UrlTree, ref: string, api: Api): PageNode {
  const [anchor, ...rest] = ref.split('.');
  const root = tree.root;
  let found = [root, ...root.children].filter((n) => n.name === anchor);
  if (found.length === 0) found = tree.nodes.filter((n) => n.name === anchor || n.pageClass.name === anchor);
  if (found.length !== 1) {
    const names = [root.name, ...root.children.map((c) => c.name)].join(', ');
    throw new UrlForError(
      found.length === 0
        ? `${callName(api)}: no route named "${anchor}" (the root and its children: ${names})`
        : `${callName(api)}: "${anchor}" is ambiguous: ${found.map((n) => n.fieldPath).join(', ')}; start from a root child`,
    );
  }
  let node = found[0]!;
  for (const field of rest) {
    const child = node.children.find((c) => c.name === field);
    if (!child) {
      throw new UrlForError(
        `${callName(api)}: ${node.fieldPath} has no route "${field}" (its routes: ${node.children.map((c) => c.name).join(', ') || 'none'})`,
      );
    }
    node = child;
  }
  return node;
}

function resolvePattern(tree: UrlTree, pattern: string, api: Api): PageNode {
  const node = tree.nodes.find((n) => n.registered && n.fullRoute() === pattern);
  if (!node) {
    throw new UrlForError(
      `${callName(api)}: no mounted route has the pattern "${pattern}" (mounted: ${tree.nodes
        .filter((n) => n.registered)
        .map((n) => n.fullRoute())
        .join(', ')})`,
    );
  }
  return node;
}

// The builder of a page; a page group stands for its /{$} index child (GET or all methods preferred).
function builderOf(node: PageNode, api: Api): UrlBuilder {
  if (node.url) return node.url;
  const indexes = node.children.filter((c) => c.route === '/{$}' && c.registered);
  const best = indexes.find((c) => c.method === '' || c.method === 'GET') ?? indexes[0];
  if (!best?.url) {
    throw new UrlForError(
      `${callName(api)}: ${node.fieldPath} is a page group with no index page; add a route('/{$} Title', IndexPage) to it, or link to one of its pages`,
    );
  }
  return best.url;
}

function describeTarget(t: unknown): string {
  if (Array.isArray(t)) return `[${t.map(describeTarget).join(', ')}]`;
  if (typeof t === 'function') return t.name || 'anonymous class';
  if (typeof t === 'string') return JSON.stringify(t);
  if (typeof t === 'object' && t !== null) return t.constructor.name;
  return String(t);
}
