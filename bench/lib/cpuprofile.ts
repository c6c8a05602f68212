// Sums a `node --cpu-prof` profile: self time by function and by file, and
// the inclusive time of chosen functions, to read next to a benchmark's table.
//
//   tsx bench/lib/cpuprofile.ts <file.cpuprofile> [top=25] [--under=core/]

import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { printTable } from './report.ts';

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

function main(): void {
  const [file, n = '25', ...rest] = process.argv.slice(2);
  if (!file) throw new Error('usage: tsx bench/lib/cpuprofile.ts <file.cpuprofile> [top] [--under=core/]');
  const under = rest.find((a) => a.startsWith('--under='))?.slice('--under='.length) ?? 'core/';
  const { total, idle, selfByFn, selfByFile, inclusive } = summarize(JSON.parse(readFileSync(file, 'utf8')) as Profile);
  const count = Number(n);
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

if (require.main === module) main();
