// The decision tree that matches requests to patterns, ported from Go's
// net/http/routing_tree.go.
//
// The root branches on the host ("" for patterns without one), the levels
// below on consecutive path segments. A node holds the routes of the patterns
// that end there, one per method. "GET /a/{x}/c", "POST /a/{x}/c", "GET /a/b/z":
//
//   root ─ "" (any host) ─ "a" ─┬─ "b" ─ "z"    [GET /a/b/z]
//                               └─ {x} ─ "c"    [GET /a/{x}/c, POST /a/{x}/c]
//
// "More specific wins" can mean backtracking: "/a/b/c" first tries the literal
// "b" branch, fails at "z", and comes back to try the wildcard {x}.
//
// Go branches on the method below the host, which makes one tree per method:
// a 404 or 405 then searches each of them for "which methods would match?".
// Here the methods share one tree, and each node knows the methods of the
// patterns below it (a bit each in `mask`), so a search for GET skips the
// branches that only hold POST patterns, as Go's GET tree lacks them. A miss
// finds the methods of a 405 in one walk of that tree (the path and the path
// with a slash together) instead of 2 walks per method's tree (bench/router).

import { type Pattern } from './pattern.ts';
import { LiteralIndex } from './literal-index.ts';
import { SplitPath } from './split-path.ts';

export { SplitPath };

/** A registered pattern and its handler, as the tree's searches return it. */
export class Route<THandler> {
  readonly handler: THandler;
  /** The parsed pattern; null for one of the mux's own answers (404, 405, redirects). */
  readonly pattern: Pattern | null;
  /** The pattern string Go reports (r.Pattern): the registered one, or what the mux's own answer reports. */
  readonly str: string;
  /** The pattern's method. */
  readonly method: string;
  /** The method's bit in the tree (see RoutingNode.#bits); 0 for the mux's own answers. */
  bit = 0;
  /** Whether the pattern ends in a multi wildcard or a trailing slash: only then can a match be inexact. */
  readonly multi: boolean;
  constructor(handler: THandler, pattern: Pattern | null, str = pattern?.str ?? '') {
    this.handler = handler;
    this.pattern = pattern;
    this.str = str;
    this.method = pattern?.method ?? '';
    this.multi = pattern !== null && pattern.segments[pattern.segments.length - 1]!.multi;
  }
}

// Every field is set in the constructor, in one order, so all nodes share one
// shape and the searches' property loads stay monomorphic.
class PathNode<THandler> {
  /** The bits (methodBit) of the methods of the patterns in this subtree. */
  mask = 0;
  /** The routes of the patterns that end here, one per method ("" for none). */
  routes: Route<THandler>[] | null = null;
  /** The literal children by unescaped segment; an empty literal ("//foo") is the key "". */
  literals: LiteralIndex<PathNode<THandler>> | null = null;
  /** The child for a single wildcard. */
  wild: PathNode<THandler> | null = null;
  /**
   * The child for a multi wildcard (a leaf). Go keys it "*" among the literals, which makes a literal "*"
   * segment collide with it; a field of its own does not.
   */
  multi: PathNode<THandler> | null = null;
  /** The child for {$}, which only a trailing slash reaches (Go keys it "/", where a %2F segment reaches it too). */
  dollar: PathNode<THandler> | null = null;
  /** The Allow header of a 405 that only this node's routes would match: "GET, HEAD, POST" (see allowList). */
  allow = '';
}

export class RoutingNode<THandler> {
  // The root of the paths of the patterns without a host, and of each host's. There is no Map of the
  // all-literal paths beside them: since literals are compared in place, such a Map sped static routes up by
  // ~20% but slowed the GitHub table (1/5 static) by ~10%, every other request paying a lookup (bench/router).
  #any: PathNode<THandler> | null = null;
  #hosts: Map<string, PathNode<THandler>> | null = null;
  // A bit for each method ("" included), for PathNode.mask and Route.bit. Methods past the 30th share the
  // bit `shared`: a branch is then searched that may hold only another method's patterns, and a route's
  // method string is compared, not just its bit.
  #bits = new Map<string, number>();
  #getBit = 0;
  #anyBit = 0;
  #lastMethod = '';
  #lastBit = 0;

  /** Whether some pattern has a host: if none does, the request's host need not be looked at. */
  get hasHosts(): boolean {
    return this.#hosts !== null;
  }

  /** Adds a pattern and its handler. */
  addPattern(p: Pattern, handler: THandler): void {
    let root: PathNode<THandler>;
    if (p.host === '') root = this.#any ??= new PathNode();
    else {
      this.#hosts ??= new Map();
      root = this.#hosts.get(p.host) ?? new PathNode();
      this.#hosts.set(p.host, root);
    }
    let bit = this.#bits.get(p.method);
    if (bit === undefined) this.#bits.set(p.method, (bit = this.#bits.size < 30 ? 1 << this.#bits.size : shared));
    if (p.method === this.#lastMethod) this.#lastBit = bit;
    if (p.method === 'GET') this.#getBit = bit;
    if (p.method === '') this.#anyBit = bit;
    let n = root;
    n.mask |= bit;
    for (const seg of p.segments) {
      if (seg.multi) n = n.multi ??= new PathNode();
      else if (seg.wild) n = n.wild ??= new PathNode();
      else if (seg.dollar) n = n.dollar ??= new PathNode();
      else {
        n.literals ??= new LiteralIndex();
        let c = n.literals.get(seg.s);
        if (c === undefined) n.literals.add(seg.s, (c = new PathNode()));
        n = c;
      }
      n.mask |= bit;
    }
    const routes = (n.routes ??= []);
    const same = routes.find((r) => r.method === p.method);
    if (same) throw new Error(`routing tree: ${p.str} lands on the leaf of ${same.str}`);
    const route = new Route(handler, p);
    route.bit = bit;
    routes.push(route);
    n.allow = allowList([n]);
  }

  /**
   * The route matching host, method and path (escaped, starting with "/"); with `matches`, pushes the
   * wildcard values onto it in pattern order.
   */
  match(host: string, method: string, path: SplitPath, matches?: string[]): Route<THandler> | null {
    // The last method's bit is kept: nearly every request has the method of the one before (GET), and the
    // Map lookup was ~5% of a hit (--cpu-prof).
    if (method !== this.#lastMethod) {
      this.#lastMethod = method;
      this.#lastBit = this.#bits.get(method) ?? 0;
    }
    const bit = this.#lastBit;
    let r: Route<THandler> | null = null;
    // A pattern with this host wins; if none matches, fall back to patterns without a host.
    if (host !== '' && this.#hosts !== null) {
      const t = this.#hosts.get(host);
      if (t !== undefined) r = this.#matchMethodAndPath(t, method, bit, path);
    }
    if (r === null && this.#any !== null) r = this.#matchMethodAndPath(this.#any, method, bit, path);
    if (r !== null && matches !== undefined) matches.push(...path.values(r.pattern!));
    return r;
  }

  // Go's matchMethodAndPath: the request's method, then GET for HEAD, then patterns without a method. A
  // method with no pattern in this tree costs one test of the root's mask.
  #matchMethodAndPath(root: PathNode<THandler>, method: string, bit: number, path: SplitPath): Route<THandler> | null {
    if ((root.mask & bit) !== 0) {
      const r = matchPath(root, path, 0, bit, method);
      if (r !== null) return r;
    }
    if (method === 'HEAD' && (root.mask & this.#getBit) !== 0) {
      const r = matchPath(root, path, 0, this.#getBit, 'GET');
      if (r !== null) return r;
    }
    return (root.mask & this.#anyBit) !== 0 ? matchPath(root, path, 0, this.#anyBit, '') : null;
  }

  /**
   * Adds to `methods` each method for which host and path would match, as Go's matchingMethods: patterns
   * without a method are left out, since they would have matched; GET brings HEAD. With withSlash(true),
   * for the path with and without the slash: Go asks about both, and one walk answers both (their walks are
   * the same until the end of the path).
   */
  matchingMethods(host: string, path: SplitPath, methods: Set<string>): void {
    for (const m of this.allowedMethods(host, path)?.split(', ') ?? []) if (m !== '') methods.add(m);
  }

  /**
   * matchingMethods as the Allow header of a 405 ("GET, HEAD"): "" when only patterns without a method
   * match, null when no pattern does.
   */
  allowedMethods(host: string, path: SplitPath): string | null {
    const leaves: PathNode<THandler>[] = [];
    if (host !== '' && this.#hosts !== null) {
      const t = this.#hosts.get(host);
      if (t !== undefined) collectLeaves(t, path, 0, leaves);
    }
    if (this.#any !== null) collectLeaves(this.#any, path, 0, leaves);
    // Usually one node matches ("POST /emojis" → "/emojis"), whose list is made at registration: building
    // and sorting a Set was a quarter of a miss's time (bench/router, --cpu-prof).
    if (leaves.length === 0) return null;
    return leaves.length === 1 ? leaves[0]!.allow : allowList(leaves);
  }
}

// The methods of the routes of some nodes as an Allow header: sorted, without "", HEAD with GET.
function allowList<THandler>(nodes: readonly PathNode<THandler>[]): string {
  const methods = new Set<string>();
  for (const n of nodes) for (const r of n.routes!) if (r.method !== '') methods.add(r.method);
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort().join(', ');
}

// The route for a method among a node's routes, or null.
// Bits are compared, not method strings: a request's method and a pattern's are rarely the same string object,
// and comparing their characters was ~10% of a search (--cpu-prof).
function routeFor<THandler>(routes: readonly Route<THandler>[], bit: number, method: string): Route<THandler> | null {
  for (let i = 0; i < routes.length; i++) {
    const r = routes[i]!;
    if (r.bit === bit && (bit !== shared || r.method === method)) return r;
  }
  return null;
}

const shared = 1 << 30;

// The first route for `method` (whose bit is `bit`) that matches the path from segment i on, in Go's order:
// a literal, then a single wildcard, then the multi wildcard. By construction (conflicting patterns are
// refused) the first found is the most specific.
function matchPath<THandler>(
  n: PathNode<THandler>,
  sp: SplitPath,
  i: number,
  bit: number,
  method: string,
): Route<THandler> | null {
  if (i === sp.end) return n.routes !== null ? routeFor(n.routes, bit, method) : null;
  if (i === sp.trail) {
    // The trailing slash: only {$} takes it here (a single wildcard never does).
    const d = n.dollar;
    if (d !== null && (d.mask & bit) !== 0) {
      const r = matchPath(d, sp, i + 1, bit, method);
      if (r !== null) return r;
    }
  } else {
    const c = n.literals !== null ? sp.literal(n.literals, i) : undefined;
    if (c !== undefined && (c.mask & bit) !== 0) {
      const r = matchPath(c, sp, i + 1, bit, method);
      if (r !== null) return r;
    }
    const w = n.wild;
    if (w !== null && (w.mask & bit) !== 0) {
      const r = matchPath(w, sp, i + 1, bit, method);
      if (r !== null) return r;
    }
  }
  // Last, the (at most one) multi wildcard takes the rest of the path.
  const m = n.multi;
  return m !== null && (m.mask & bit) !== 0 ? routeFor(m.routes!, bit, method) : null;
}

// Pushes every node with routes that match the path from segment i on: matchPath's steps, every branch
// taken. A method's patterns match a path exactly when matchPath would find one of them, so their methods
// are the union of what a search per method would find.
function collectLeaves<THandler>(n: PathNode<THandler>, sp: SplitPath, i: number, leaves: PathNode<THandler>[]): void {
  if (i === sp.end) {
    if (n.routes !== null) leaves.push(n);
    return;
  }
  if (i === sp.trail) {
    // The slash of withSlash(true): the path without it ends here.
    if (sp.slashed && n.routes !== null) leaves.push(n);
    if (n.dollar !== null) collectLeaves(n.dollar, sp, i + 1, leaves);
  } else {
    const c = n.literals !== null ? sp.literal(n.literals, i) : undefined;
    if (c !== undefined) collectLeaves(c, sp, i + 1, leaves);
    if (n.wild !== null) collectLeaves(n.wild, sp, i + 1, leaves);
  }
  if (n.multi !== null) leaves.push(n.multi);
}
