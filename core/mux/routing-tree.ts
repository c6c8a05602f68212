// The decision tree that matches requests to patterns, ported from Go's
// net/http/routing_tree.go.
//
// The root branches on the host, the next level on the method, and the
// levels below on consecutive path segments. "GET /a/{x}/c" and "GET /a/b/z":
//
//   root ─ "" (any host) ─ "GET" ─ "a" ─┬─ "b" ─ "z"        [GET /a/b/z]
//                                       └─ {x} ─ "c"        [GET /a/{x}/c]
//
// "More specific wins" can mean backtracking: "/a/b/c" first tries the literal
// "b" branch, fails at "z", and comes back to try the wildcard {x}.

import { lastSegment, pathUnescape, type Pattern, type Segment } from './pattern.ts';

export class RoutingNode<THandler> {
  // A leaf holds one pattern and its handler.
  pattern: Pattern | null = null;
  handler: THandler | null = null;
  // Literal children by key; a {$} is the key "/".
  #children: Map<string, RoutingNode<THandler>> | null = null;
  // The child for a single wildcard, or for "no host" / "no method" above the path.
  #emptyChild: RoutingNode<THandler> | null = null;
  // The child for a multi wildcard. Go keys it "*" among the literals, which
  // makes a literal "*" segment collide with it; a field of its own does not.
  #multiChild: RoutingNode<THandler> | null = null;
  // The child for {$}, which only the trailing slash of a path reaches. Go keys
  // it "/" among the literals, where a %2F segment would reach it too.
  #dollarChild: RoutingNode<THandler> | null = null;
  // On a method node: the leaves of all-literal patterns by their exact path.
  // The depth-first search tries literals first at every level, so when such a
  // leaf matches it is what the search would find; one Map lookup instead of a
  // walk makes static routes about 3x faster (bench/router).
  #static: Map<string, RoutingNode<THandler>> | null = null;

  // On the root: every pattern's path under its host, whatever its method (a
  // leaf may stand for several patterns, and knows their methods in #methods).
  // One search of it that collects every matching leaf answers "which methods
  // would match?": a 404 or a 405 costs 2 searches (the path and the path with
  // a slash) instead of 2 per registered method (bench/router).
  #paths: RoutingNode<THandler> | null = null;
  // On a leaf of #paths: the methods of the patterns it stands for ("" for none).
  #methods: Set<string> | null = null;

  /** Adds a pattern below this root: host, then method, then the path. */
  addPattern(p: Pattern, handler: THandler): void {
    const n = this.#child(p.host).#child(p.method);
    n.#addSegments(p.segments, 0, p, handler);
    (this.#paths ??= new RoutingNode()).#child(p.host).#addPath(p.segments, 0, p);
    const key = staticKey(p);
    if (key !== null) {
      let leaf: RoutingNode<THandler> = n;
      for (const seg of p.segments) leaf = seg.dollar ? leaf.#dollarChild! : leaf.#children!.get(seg.s)!;
      (n.#static ??= new Map()).set(key, leaf);
    }
  }

  #addSegments(segs: readonly Segment[], i: number, p: Pattern, handler: THandler): void {
    if (i === segs.length) {
      this.#set(p, handler);
      return;
    }
    const seg = segs[i]!;
    if (seg.multi) {
      this.#multiChild ??= new RoutingNode();
      this.#multiChild.#set(p, handler);
    } else if (seg.wild) {
      this.#child('').#addSegments(segs, i + 1, p, handler);
    } else if (seg.dollar) {
      (this.#dollarChild ??= new RoutingNode()).#addSegments(segs, i + 1, p, handler);
    } else {
      this.#literalChild(seg.s).#addSegments(segs, i + 1, p, handler);
    }
  }

  #addPath(segs: readonly Segment[], i: number, p: Pattern): void {
    if (i === segs.length) {
      (this.#methods ??= new Set()).add(p.method);
      return;
    }
    const seg = segs[i]!;
    if (seg.multi) {
      this.#multiChild ??= new RoutingNode();
      (this.#multiChild.#methods ??= new Set()).add(p.method);
    } else if (seg.dollar) {
      (this.#dollarChild ??= new RoutingNode()).#addPath(segs, i + 1, p);
    } else if (seg.wild) {
      this.#child('').#addPath(segs, i + 1, p);
    } else {
      this.#literalChild(seg.s).#addPath(segs, i + 1, p);
    }
  }

  #set(p: Pattern, handler: THandler): void {
    if (this.pattern) throw new Error(`routing tree: ${p.str} lands on the leaf of ${this.pattern.str}`);
    this.pattern = p;
    this.handler = handler;
  }

  // The child for a host, a method or a single wildcard: "" is "any host", "any method" or the wildcard.
  #child(key: string): RoutingNode<THandler> {
    if (key === '') return (this.#emptyChild ??= new RoutingNode());
    return this.#literalChild(key);
  }

  // The child for a literal path segment. Go keys an empty literal ("//foo")
  // "" too, which puts it on the wildcard's node: "//foo" and "/{x}/foo" then
  // panic at registration, and a lone "/{x}/foo" matches "//foo" without a
  // value for x (Go issue 81222). Among the literals it is a segment like any other.
  #literalChild(key: string): RoutingNode<THandler> {
    this.#children ??= new Map();
    let c = this.#children.get(key);
    if (!c) this.#children.set(key, (c = new RoutingNode()));
    return c;
  }

  /**
   * The leaf matching host, method and path (escaped, starting with "/"),
   * pushing the wildcard values in pattern order onto `matches`.
   */
  match(host: string, method: string, path: SplitPath, matches: string[]): RoutingNode<THandler> | null {
    if (host !== '') {
      // A pattern with this host wins; if none matches, fall back to patterns without a host.
      const h = this.#children?.get(host);
      const l = h ? h.#matchMethodAndPath(method, path, matches) : null;
      if (l) return l;
    }
    return this.#emptyChild ? this.#emptyChild.#matchMethodAndPath(method, path, matches) : null;
  }

  #matchMethodAndPath(method: string, path: SplitPath, matches: string[]): RoutingNode<THandler> | null {
    const exact = this.#children?.get(method);
    let l = exact ? exact.#matchFromMethod(path, matches) : null;
    if (l) return l;
    if (method === 'HEAD') {
      const get = this.#children?.get('GET');
      l = get ? get.#matchFromMethod(path, matches) : null;
      if (l) return l;
    }
    return this.#emptyChild ? this.#emptyChild.#matchFromMethod(path, matches) : null;
  }

  #matchFromMethod(path: SplitPath, matches: string[]): RoutingNode<THandler> | null {
    // A path with escapes may still match a literal once unescaped: search the tree.
    if (this.#static && !path.escaped) {
      const leaf = this.#static.get(path.path);
      if (leaf) return leaf;
    }
    return this.#matchPath(path, 0, matches);
  }

  // Matches the path from segment i on.
  #matchPath(sp: SplitPath, i: number, matches: string[]): RoutingNode<THandler> | null {
    if (i === sp.segs.length) return this.pattern ? this : null;
    if (i === sp.trailingAt) {
      // The trailing slash: only {$} takes it here (a single wildcard never does).
      const l = this.#dollarChild ? this.#dollarChild.#matchPath(sp, i + 1, matches) : null;
      if (l) return l;
    } else {
      const seg = sp.segs[i]!;
      // Literals first: by construction they are more specific than wildcards here.
      const lit = this.#children?.get(seg);
      if (lit) {
        const l = lit.#matchPath(sp, i + 1, matches);
        if (l) return l;
      }
      // Then a single wildcard.
      if (this.#emptyChild) {
        matches.push(seg);
        const l = this.#emptyChild.#matchPath(sp, i + 1, matches);
        if (l) return l;
        matches.pop();
      }
    }
    // Last, the (at most one) multi wildcard takes the rest of the path.
    const multi = this.#multiChild;
    if (multi) {
      // A trailing slash in a pattern is a nameless multi: it records no value.
      if (lastSegment(multi.pattern!).s !== '') matches.push(pathUnescape(sp.path.slice(sp.starts[i]! + 1)));
      return multi;
    }
    return null;
  }

  /**
   * Adds to `methods` each method for which host and path would match (on the root), as Go's matchingMethods:
   * patterns without a method are left out, since they would have matched; GET brings HEAD.
   */
  matchingMethods(host: string, path: SplitPath, methods: Set<string>): void {
    const paths = this.#paths;
    if (!paths) return;
    const h = host !== '' ? paths.#children?.get(host) : undefined;
    if (h) h.#collectMethods(path, 0, methods);
    if (paths.#emptyChild) paths.#emptyChild.#collectMethods(path, 0, methods);
    methods.delete('');
    if (methods.has('GET')) methods.add('HEAD');
  }

  // The methods of every leaf that matches the path from segment i on: #matchPath's steps, every branch taken.
  // A method's own tree matches a path exactly when one of its patterns does, so this is the union of what a
  // search per method would find.
  #collectMethods(sp: SplitPath, i: number, methods: Set<string>): void {
    if (i === sp.segs.length) {
      if (this.#methods) for (const m of this.#methods) methods.add(m);
      return;
    }
    if (i === sp.trailingAt) {
      if (this.#dollarChild) this.#dollarChild.#collectMethods(sp, i + 1, methods);
    } else {
      const lit = this.#children?.get(sp.segs[i]!);
      if (lit) lit.#collectMethods(sp, i + 1, methods);
      if (this.#emptyChild) this.#emptyChild.#collectMethods(sp, i + 1, methods);
    }
    const multi = this.#multiChild;
    if (multi) for (const m of multi.#methods!) methods.add(m);
  }
}

/**
 * A request path cut into its unescaped segments once, for the several
 * searches one request may need (match, trailing-slash retry, 405 methods).
 * "/a/b%2Fc/" => segs ["a", "b/c", "/"], trailingAt 2 (the trailing slash);
 * "/a/%2F"    => segs ["a", "/"],        trailingAt -1 (an escaped slash is a segment).
 */
export class SplitPath {
  readonly path: string;
  readonly escaped: boolean;
  /** The index of the trailing slash in `segs`, or -1. */
  trailingAt = -1;
  #segs: string[] | undefined;
  #starts: number[] = [];

  constructor(path: string) {
    this.path = path;
    this.escaped = path.includes('%');
  }

  get segs(): string[] {
    return (this.#segs ??= this.#split());
  }

  /** Where segment i starts: the index of the "/" before it. */
  get starts(): number[] {
    if (!this.#segs) this.#segs = this.#split();
    return this.#starts;
  }

  #split(): string[] {
    const path = this.path;
    const segs: string[] = [];
    let start = 0;
    while (start < path.length) {
      this.#starts.push(start);
      if (start === path.length - 1) {
        this.trailingAt = segs.length;
        segs.push('/'); // the trailing slash, matched by {$}
        break;
      }
      const i = path.indexOf('/', start + 1);
      const next = i < 0 ? path.length : i;
      const seg = path.slice(start + 1, next);
      segs.push(this.escaped ? pathUnescape(seg) : seg);
      start = next;
    }
    return segs;
  }
}

// The exact path an all-literal pattern matches ("/a/{$}" → "/a/"), or null.
function staticKey(p: Pattern): string | null {
  let key = '';
  for (const seg of p.segments) {
    if (seg.wild) return null;
    if (seg.dollar) {
      key += '/';
    } else {
      // An unescaped %2F is found only by the search.
      if (seg.s.includes('/')) return null;
      key += '/' + seg.s;
    }
  }
  return key;
}
