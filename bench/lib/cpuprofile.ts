// CPU profiles for the profile scripts: `profileLoop` profiles a function in this process (the V8 profiler over
// node:inspector, what `node --cpu-prof` runs), and `printProfile` sums any profile up, a server's too
// (servers.ts's profileDir): self time by file and by function, and the inclusive time of the functions under a
// folder, as shares of the busy time.
//
//   tsx bench/router/hits-profile.ts              → bench/.profile/router-hits.cpuprofile, then its tables
//   tsx bench/lib/cpuprofile.ts <file.cpuprofile> [top=25] [--under=core/]

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join, relative, resolve } from 'node:path';
import { formatInt, printTable } from './report.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const ROOT = resolve(__dirname, '../..');

function where(url: string): string {
  if (url === '') return '(native)';
  const path = url.startsWith('file://') ? new URL(url).pathname : url;
  const rel = relative(ROOT, path);
  return rel.startsWith('..') ? path : rel;
}

function label(n: ProfileNode): string {
  const f = n.callFrame;
  return `${f.functionName || '(anonymous)'} ${where(f.url)}${f.url ? `:${f.lineNumber + 1}` : ''}`;
}

/** Busy and idle time, self and inclusive time per function label, and self time per file, in µs. */
export function summarize(p: Profile) {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<number, number>();
  let total = 0;
  let idle = 0;
  p.samples.forEach((id, i) => {
    const dt = p.timeDeltas[i] ?? 0;
    // Idle time is the process waiting for I/O: left out, so shares are of the time it worked.
    if (byId.get(id)!.callFrame.functionName === '(idle)') {
      idle += dt;
      return;
    }
    self.set(id, (self.get(id) ?? 0) + dt);
    total += dt;
  });
  const selfByFn = new Map<string, number>();
  const selfByFile = new Map<string, number>();
  const inclusive = new Map<string, number>();
  for (const [id, t] of self) {
    const n = byId.get(id)!;
    selfByFn.set(label(n), (selfByFn.get(label(n)) ?? 0) + t);
    const file = where(n.callFrame.url);
    selfByFile.set(file, (selfByFile.get(file) ?? 0) + t);
    // Inclusive: once per distinct function on the sample's stack (recursion counts once).
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const l = label(byId.get(cur)!);
      if (!seen.has(l)) inclusive.set(l, (inclusive.get(l) ?? 0) + t);
      seen.add(l);
    }
  }
  return { total, idle, selfByFn, selfByFile, inclusive };
}

function top(m: Map<string, number>, total: number, n: number, filter: (k: string) => boolean): string[][] {
  return [...m]
    .filter(([k]) => filter(k))
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, t]) => [k, `${(t / 1000).toFixed(0)} ms`, `${((t / total) * 100).toFixed(1)}%`]);
}

/**
 * Prints a profile's busy and idle time and three tables of the `count` largest: self time by file, by function,
 * and the inclusive time of the functions in files under `under`.
 * @example printProfile('bench/.profile/router-hits.cpuprofile', 30)
 */
export function printProfile(file: string, count = 25, under = 'core/'): void {
  const { total, idle, selfByFn, selfByFile, inclusive } = summarize(JSON.parse(readFileSync(file, 'utf8')) as Profile);
  console.log(`${file}: ${(total / 1000).toFixed(0)} ms busy (shares below), ${(idle / 1000).toFixed(0)} ms idle`);
  console.log('\nself time by file');
  printTable(
    ['file', 'self', 'share'],
    top(selfByFile, total, count, () => true),
  );
  console.log('\nself time by function');
  printTable(
    ['function', 'self', 'share'],
    top(selfByFn, total, count, () => true),
  );
  console.log(`\ninclusive time of functions in ${under}`);
  printTable(
    ['function', 'inclusive', 'share'],
    top(inclusive, total, count, (k) => k.includes(` ${under}`)),
  );
}

/**
 * Runs `pass` again and again for `seconds` under the CPU profiler, prints the rate (each pass returns how many
 * operations it did), writes the profile to bench/.profile/<name>.cpuprofile (build/bench/… when compiled) and
 * prints its tables.
 * @example await profileLoop('urlfor', 'urlFor', () => { for (let i = 0; i < 1000; i++) tree.urlFor(UserPage, { userId: 7 }); return 1000; })
 */
export async function profileLoop(name: string, unit: string, pass: () => number, seconds = 3): Promise<void> {
  const session = new Session();
  session.connect();
  const post = (method: string) =>
    new Promise<unknown>((res, rej) => session.post(method, (err, result) => (err ? rej(err) : res(result))));
  await post('Profiler.enable');
  await post('Profiler.start');
  let n = 0;
  const start = performance.now();
  while (performance.now() - start < seconds * 1000) n += pass();
  const elapsed = (performance.now() - start) / 1000;
  const { profile } = (await post('Profiler.stop')) as { profile: Profile };
  session.disconnect();
  const dir = join(ROOT, 'bench', '.profile');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name}.cpuprofile`);
  writeFileSync(file, JSON.stringify(profile));
  console.log(`${name}: ${formatInt(n / elapsed)} ${unit}/s with the profiler on`);
  printProfile(file);
}

if (require.main === module) {
  const [file, n = '25', ...rest] = process.argv.slice(2);
  if (!file) throw new Error('usage: tsx bench/lib/cpuprofile.ts <file.cpuprofile> [top] [--under=core/]');
  const under = rest.find((a) => a.startsWith('--under='))?.slice('--under='.length);
  printProfile(file, Number(n), under);
}
