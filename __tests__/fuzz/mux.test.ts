// Property tests of ServeMux: hostile requests never get a 5xx from the mux,
// redirects lead somewhere that routes, and the pattern that wins is the one
// Go's documented precedence picks (checked against a brute-force reference,
// not against compare.ts).

import fc from 'fast-check';
import { ConflictError, ServeMux, type PageRequest } from '../../core/index.ts';
import { requestFacts, validUrlHost, type RequestTarget } from '../../core/kernel/adapter.ts';
import { anyChar, headerNames, methods, mixedMux, muxStatuses, pathText, wildcardNames } from './mixed-mux.ts';

// Each page answers 200 with the pattern it was registered for and its path values.
const mux = mixedMux((pattern) => (req: PageRequest) => {
  const values = wildcardNames(pattern).map((name) => req.pathValue(name));
  return new Response(JSON.stringify(values), { headers: { 'x-pattern': req.pattern } });
});

const hosts = fc.constantFrom('h.com', 'h.com:8080', 'H.COM', 'other.com', '127.0.0.1', '[::1]', 'xn--nxasmq6b.com');

// The Web form: whatever `new Request` accepts. Inputs it refuses are not the mux's concern.
function webRequest(method: string, host: string, path: string, headers: [string, string][]): Request | undefined {
  try {
    return new Request(`http://${host}/${path}`, { method, headers });
  } catch (err) {
    // Node's Request throws its own realm's TypeError, not jest's: compare by name.
    if ((err as Error).name === 'TypeError') return undefined;
    throw err;
  }
}

// The node adapter's form: the raw request-target goes to the mux unparsed (core/node/request.ts
// hands it over in its facts), so "..", "%2e" and "\" reach cleanPath as sent. Only printable
// ASCII: node's parser answers control characters, spaces and bytes above 0x7e with a 400
// before any mux sees them (adapter.test.ts sends those for real).
function rawRequest(method: string, host: string, target: string): Request {
  const q = target.indexOf('?');
  const t: RequestTarget =
    q < 0 ? { host, path: target, query: '' } : { host, path: target.slice(0, q), query: target.slice(q + 1) };
  const fields = {
    method,
    url: `http://${host}${target}`,
    headers: new Headers(),
    [requestFacts]: { target: t, client: '' },
  };
  return Object.setPrototypeOf(fields, Request.prototype) as Request;
}

const printable = fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }).filter((c) => c !== ' ');

interface Answer {
  status: number;
  location: string | null;
  allow: string | null;
}

async function answer(res: Response, method: string): Promise<Answer> {
  const body = await res.text();
  if (method === 'HEAD') expect(body).toBe('');
  return { status: res.status, location: res.headers.get('location'), allow: res.headers.get('allow') };
}

// Where a browser on http://h.com goes for a Location.
function originOf(location: string): string {
  return URL.canParse(location, 'http://h.com/') ? new URL(location, 'http://h.com/').origin : 'an invalid URL';
}

// What every answer of the mux satisfies, whichever form the request came in. The mux's own
// statuses are 307 (both redirects: pagetree never sends Go's 301), 400 (the target "*"),
// 404 and 405; the pages here all answer 200, so 5xx would be the mux's own failure.
// `badHost`: a URL whose host no URL parses, which mux.fetch answers 400 before the mux (as
// Bun and Deno hand them over; validUrlHost).
function checkAnswer(a: Answer, method: string, path: string, badHost = false): void {
  expect([200, ...muxStatuses]).toContain(a.status);
  // 400 is Go's answer to "OPTIONS *" (any method with the target "*") and to a malformed Host, and nothing else.
  expect(a.status === 400).toBe(path === '*' || badHost);
  if (a.status === 405) {
    expect(a.allow).toMatch(/^[A-Z]+(, [A-Z]+)*$/);
    // Another method would match; this one would not (else it had been routed).
    expect(a.allow!.split(', ')).not.toContain(method);
  }
  if (a.status === 307) {
    // A path on this origin: not "//host" nor "/\host", which browsers read as another host.
    expect(a.location).toMatch(/^\//);
    expect(originOf(a.location!)).toBe('http://h.com');
  }
}

describe('the mux never answers 5xx of its own', () => {
  test('Web requests: 200, 307, 404 or 405, and a redirect routes without another redirect', async () => {
    await fc.assert(
      fc.asyncProperty(
        methods,
        hosts,
        pathText(anyChar),
        fc.array(fc.tuple(headerNames, fc.string({ unit: 'binary-ascii', maxLength: 12 })), { maxLength: 3 }),
        async (method, host, path, headers) => {
          const req = webRequest(method, host, path, headers);
          fc.pre(req !== undefined);
          const a = await answer(await mux.fetch(req), req.method);
          checkAnswer(a, req.method, new URL(req.url).pathname);
          if (a.status === 307) {
            const next = new Request(new URL(a.location!, req.url), { method: req.method });
            const b = await answer(await mux.fetch(next), next.method);
            checkAnswer(b, next.method, new URL(next.url).pathname);
            expect(b.status).not.toBe(307);
          }
        },
      ),
      { numRuns: 1500 },
    );
  });

  test('raw request-targets (as node passes them): the same, and 400 only for "*"', async () => {
    const target = fc.oneof(
      { weight: 9, arbitrary: pathText(printable, true).map((p) => '/' + p) },
      fc.constant('*'),
      fc.constant('*?x'),
    );
    const rawHost = fc.oneof(hosts, fc.string({ maxLength: 8 }));
    await fc.assert(
      fc.asyncProperty(methods, rawHost, target, async (method, host, t) => {
        const a = await answer(await mux.fetch(rawRequest(method, host, t)), method);
        checkAnswer(a, method, t.split('?')[0]!, !validUrlHost(`http://${host}${t}`));
        if (a.status === 307) {
          const b = await answer(await mux.fetch(rawRequest(method, host, a.location!)), method);
          checkAnswer(b, method, a.location!.split('?')[0]!);
          expect(b.status).not.toBe(307);
        }
      }),
      { numRuns: 1500 },
    );
  });
});

// ---------------------------------------------------------------------------
// Precedence against a reference written from Go's documentation:
//
//   "If two or more patterns match a request, then the most specific pattern
//    takes precedence. A pattern P1 is more specific than P2 if P1 matches a
//    strict subset of P2's requests. [...] If neither is more specific, then the
//    patterns conflict. [...] if two patterns would otherwise conflict and one
//    has a host while the other does not, then the pattern with the host takes
//    precedence."
//
// "More specific" is computed by brute force: the set of (method, path) pairs
// each pattern matches, over every method below and every clean path of up to
// five segments over {a, b, c} (a literal the patterns never use stands for
// "any other segment"; five is one more than the longest pattern, enough to
// tell every pair of patterns here apart).
//
// Requests only use clean paths, so the mux's path-cleaning redirect never
// happens here. The trailing-slash redirect and 405 are modelled separately,
// after Go's ServeMux.findHandler (docs/routing.md): when the best match is not
// exact and the path has no trailing slash, a pattern that matches path + "/"
// exactly wins a 307; else no match is a 405 with Allow when a method-specific
// pattern matches the path (or path + "/"), else a 404. Left out on purpose: a
// segment that is exactly "%2F". It unescapes to "/", which the routing tree
// (as Go's) takes for the trailing slash: a known bug, pinned below
// (escaped-slash-segment-is-not-the-trailing-slash), that would otherwise be
// the only counterexample this property ever finds.

type Lit = 'a' | 'b' | '*'; // '*' is a single wildcard
type Terminal = 'none' | 'slash' | 'multi' | 'dollar';

interface Pat {
  method: string;
  host: string;
  lits: Lit[];
  terminal: Terminal;
  str: string;
}

interface Req {
  method: string;
  host: string;
  /** As sent (maybe escaped). */
  raw: string[];
  /** Unescaped, as patterns see them. */
  segs: string[];
  trailing: boolean;
}

function patternString(method: string, host: string, lits: Lit[], terminal: Terminal): string {
  let path = '/' + lits.map((l, i) => (l === '*' ? `{x${i}}` : l)).join('/');
  const sep = lits.length > 0 ? '/' : '';
  if (terminal === 'slash') path += sep;
  if (terminal === 'multi') path += sep + '{rest...}';
  if (terminal === 'dollar') path += sep + '{$}';
  return (method ? method + ' ' : '') + host + path;
}

const patArb: fc.Arbitrary<Pat> = fc
  .record({
    method: fc.constantFrom('', '', 'GET', 'POST', 'HEAD'),
    host: fc.constantFrom('', '', 'h.com'),
    lits: fc.array(fc.constantFrom<Lit>('a', 'b', '*'), { maxLength: 3 }),
    terminal: fc.constantFrom<Terminal>('none', 'slash', 'multi', 'dollar'),
  })
  .map(({ method, host, lits, terminal }) => {
    const t = lits.length === 0 && terminal === 'none' ? 'slash' : terminal; // "/" is the root subtree
    return { method, host, lits, terminal: t, str: patternString(method, host, lits, t) };
  });

const segmentForms: Record<string, string> = { a: 'a', b: 'b', c: 'c', '%61': 'a', 'a%2Fb': 'a/b' };

const reqArb: fc.Arbitrary<Req> = fc
  .record({
    method: fc.constantFrom('GET', 'HEAD', 'POST', 'PUT'),
    host: fc.constantFrom('h.com', 'other.com'),
    raw: fc.array(fc.constantFrom('a', 'a', 'b', 'b', ...Object.keys(segmentForms)), { maxLength: 5 }),
    trailing: fc.boolean(),
  })
  .map((r) => ({ ...r, segs: r.raw.map((s) => segmentForms[s]!), trailing: r.trailing || r.raw.length === 0 }));

function pathOf(r: { raw: string[]; trailing: boolean }): string {
  return r.raw.length === 0 ? '/' : '/' + r.raw.join('/') + (r.trailing ? '/' : '');
}

function methodMatches(p: Pat, method: string): boolean {
  return p.method === '' || p.method === method || (p.method === 'GET' && method === 'HEAD');
}

// Whether p's path matches, and whether exactly (a multi or trailing slash matched nothing).
function pathMatch(p: Pat, segs: string[], trailing: boolean): 'no' | 'exact' | 'inexact' {
  const k = p.lits.length;
  if (segs.length < k) return 'no';
  for (let i = 0; i < k; i++) if (p.lits[i] !== '*' && p.lits[i] !== segs[i]) return 'no';
  switch (p.terminal) {
    case 'none':
      return segs.length === k && !trailing ? 'exact' : 'no';
    case 'dollar':
      return segs.length === k && trailing ? 'exact' : 'no';
    case 'slash':
    case 'multi':
      if (segs.length > k) return 'inexact';
      return trailing ? 'exact' : 'no';
  }
}

const domainMethods = ['GET', 'HEAD', 'POST', 'PUT'];
const domainPaths: { segs: string[]; trailing: boolean }[] = [{ segs: [], trailing: true }];
for (let n = 1, level: string[][] = [[]]; n <= 5; n++) {
  level = level.flatMap((s) => ['a', 'b', 'c'].map((x) => [...s, x]));
  for (const segs of level) domainPaths.push({ segs, trailing: false }, { segs, trailing: true });
}

// The (method, path) pairs a pattern matches, as one flag per pair of the domain.
const matchSets = new Map<string, Uint8Array>();
function matchSet(p: Pat): Uint8Array {
  const key = patternString(p.method, '', p.lits, p.terminal);
  let set = matchSets.get(key);
  if (!set) {
    set = new Uint8Array(domainMethods.length * domainPaths.length);
    let i = 0;
    for (const m of domainMethods) {
      for (const { segs, trailing } of domainPaths) {
        set[i++] = methodMatches(p, m) && pathMatch(p, segs, trailing) !== 'no' ? 1 : 0;
      }
    }
    matchSets.set(key, set);
  }
  return set;
}

function moreSpecific(p1: Pat, p2: Pat): boolean {
  const s1 = matchSet(p1);
  const s2 = matchSet(p2);
  let strict = false;
  for (let i = 0; i < s1.length; i++) {
    if (s1[i]! > s2[i]!) return false;
    if (s2[i]! > s1[i]!) strict = true;
  }
  return strict;
}

function conflict(p1: Pat, p2: Pat): boolean {
  if (p1.host !== p2.host) return false; // the one with a host wins; different hosts never meet
  const s1 = matchSet(p1);
  const s2 = matchSet(p2);
  const common = s1.some((x, i) => x === 1 && s2[i] === 1);
  return common && !moreSpecific(p1, p2) && !moreSpecific(p2, p1);
}

// The most specific pattern matching the request, with the host rule first.
function bestMatch(pats: Pat[], method: string, host: string, segs: string[], trailing: boolean): Pat | null {
  let found = pats.filter((p) => methodMatches(p, method) && pathMatch(p, segs, trailing) !== 'no');
  const withHost = found.filter((p) => p.host === host);
  found = withHost.length > 0 ? withHost : found.filter((p) => p.host === '');
  const best = found.filter((p) => found.every((q) => q === p || moreSpecific(p, q)));
  if (found.length > 0 && best.length !== 1) {
    throw new Error(`reference: no single most specific of ${found.map((p) => p.str).join(', ')}`);
  }
  return best[0] ?? null;
}

interface Outcome {
  status: number;
  pattern: string;
  location?: string;
  allow?: string;
}

function reference(pats: Pat[], r: Req): Outcome {
  const best = bestMatch(pats, r.method, r.host, r.segs, r.trailing);
  const exact = best !== null && pathMatch(best, r.segs, r.trailing) === 'exact';
  if (!exact && !r.trailing) {
    const slashed = bestMatch(pats, r.method, r.host, r.segs, true);
    if (slashed && pathMatch(slashed, r.segs, true) === 'exact') {
      return { status: 307, pattern: slashed.str, location: pathOf({ raw: r.raw, trailing: true }) };
    }
  }
  if (best) return { status: 200, pattern: best.str };
  const methods = new Set<string>();
  for (const p of pats) {
    if (p.method === '' || (p.host !== '' && p.host !== r.host)) continue;
    if (pathMatch(p, r.segs, r.trailing) !== 'no' || (!r.trailing && pathMatch(p, r.segs, true) !== 'no')) {
      methods.add(p.method);
    }
  }
  if (methods.has('GET')) methods.add('HEAD');
  if (methods.size === 0) return { status: 404, pattern: '' };
  return { status: 405, pattern: '', allow: [...methods].sort().join(', ') };
}

describe('precedence matches a brute-force reference of Go’s rules', () => {
  const seen = { sets: 0, conflicts: 0, 200: 0, 307: 0, 404: 0, 405: 0 };

  test('conflicts, matches, trailing-slash redirects, 404 and 405', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(patArb, { minLength: 1, maxLength: 6 }),
        fc.array(reqArb, { minLength: 1, maxLength: 8 }),
        async (pats, reqs) => {
          seen.sets++;
          const m = new ServeMux();
          const accepted: Pat[] = [];
          for (const p of pats) {
            try {
              m.handleFunc(p.str, (req) => new Response(null, { headers: { 'x-pattern': req.pattern } }), 'fuzz');
            } catch (err) {
              // handle() refuses exactly the patterns that conflict with one already registered.
              if (!(err instanceof ConflictError)) throw err;
              seen.conflicts++;
              const q = accepted.find((a) => a.str === err.existing);
              expect({ conflict: [p.str, err.existing], reference: q !== undefined && conflict(p, q) }).toEqual({
                conflict: [p.str, err.existing],
                reference: true,
              });
              continue;
            }
            const missed = accepted.filter((q) => conflict(p, q)).map((q) => q.str);
            expect({ accepted: p.str, conflictsWith: missed }).toEqual({ accepted: p.str, conflictsWith: [] });
            accepted.push(p);
          }
          for (const r of reqs) {
            const path = pathOf(r);
            const want = reference(accepted, r);
            const req = new Request(`http://${r.host}${path}`, { method: r.method });
            const res = await m.fetch(req);
            const got: Outcome = { status: res.status, pattern: m.handler(req).pattern };
            if (res.status === 200) expect(res.headers.get('x-pattern')).toBe(got.pattern);
            if (res.headers.has('location')) got.location = res.headers.get('location')!;
            if (res.headers.has('allow')) got.allow = res.headers.get('allow')!;
            seen[res.status as 200 | 307 | 404 | 405]++;
            expect({ request: `${r.method} ${r.host}${path}`, ...got }).toEqual({
              request: `${r.method} ${r.host}${path}`,
              ...want,
            });
          }
        },
      ),
      { numRuns: 400 },
    );
    // The generators must keep producing every kind of outcome, or the property says little.
    expect(seen.conflicts).toBeGreaterThan(0);
    for (const status of [200, 307, 404, 405] as const) expect(seen[status]).toBeGreaterThan(0);
  });
});

// The minimal counterexamples the properties above found, pinned.
describe('regressions', () => {
  // "raw request-targets" shrinks to the target //\ (one backslash): the cleaning redirect sends
  // Location /\ and, for the pattern "h.com/{x}/", the trailing-slash redirect of /\evil.com
  // sends /\evil.com/. Browsers read \ as /, so /\evil.com/ is //evil.com/, another origin
  // (Go's redirects escape it: /%5Cevil.com/).
  test.each([
    ['h.com', '//\\'],
    ['h.com', '//\\evil.com/'],
    ['h.com', '/\\evil.com'],
  ])('redirect-location-stays-on-the-origin: %s %s', async (host, target) => {
    const res = await mux.fetch(rawRequest('GET', host, target));
    const location = res.headers.get('location')!;
    expect({ status: res.status, origin: originOf(location) }).toEqual({ status: 307, origin: 'http://h.com' });
  });

  // Found through urlFor (url-for.test.ts): urlFor(ItemPage, { id: '/' }) is "/items/%2F", a 404.
  test('escaped-slash-segment-is-not-the-trailing-slash', async () => {
    const m = new ServeMux();
    m.handleFunc('/items/{id}', (req) => new Response('item ' + req.pathValue('id')));
    m.handleFunc('/items/{$}', () => new Response('index'));
    const res = await m.fetch(new Request('http://h.com/items/%2F'));
    expect({ status: res.status, body: await res.text() }).toEqual({ status: 200, body: 'item /' });
  });
});
