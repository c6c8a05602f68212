// Server instructions per request, counted by valgrind (callgrind): what bench/e2e/instructions.ts counts for the
// Node servers and bench/runtimes/instructions.ts for the Bun and Deno ones. A count repeats where CPU time on a
// shared VM moves by ±5–20%.
//
// The server runs under `valgrind --tool=callgrind --instr-atstart=no`: WARM requests bring it to its steady state
// uncounted (the JIT done), then counting is switched on for N requests and again for 2N (callgrind_control -i
// on/off, a dump each), and the difference is divided by N: it leaves out what a load costs whatever its length
// (connecting, a full GC). Every thread of the process is counted (the GC's and the compiler's too), so it holds
// what CPU time holds, except waiting on memory.

import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { fail } from './report.ts';
import { HOST, stopAll, withTimeout, type Server } from './servers.ts';

/** What to count: the requests of a load, and how many. */
export interface CountOptions {
  path: string;
  headers: Record<string, string>;
  /** Counted requests: N, then 2N. */
  n: number;
  /** Uncounted requests first. */
  warm: number;
  /** Names the callgrind file of the 2N load kept under $KEEP (for callgrind_annotate). */
  label: string;
  /** More of valgrind's options, such as `--smc-check=all-non-file` for a JIT that patches its code in place. */
  valgrindArgs?: string[];
}

/** Fails unless valgrind runs here. */
export function needValgrind(): void {
  if (spawnSync('valgrind', ['--version']).status !== 0) fail('valgrind is not installed (apt-get install valgrind)');
}

// `amount` GETs on 8 keep-alive connections; every answer must be a 200.
async function load(s: Server, o: CountOptions, amount: number): Promise<number> {
  const options = { url: `http://${HOST}:${s.port}${o.path}`, headers: o.headers, amount, connections: 8, timeout: 60 };
  const r = await withTimeout(autocannon(options as autocannon.Options), 600_000, `autocannon on ${s.kind}`);
  if (r.non2xx || r.errors || r.timeouts)
    fail(`${s.kind}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts`);
  return r.requests.total;
}

/**
 * The instructions per request of one fresh server, which `start` runs under the command it is given (the valgrind
 * prefix), stopped after.
 * @example await instructionsPerRequest((wrap) => startServer('bench/e2e/server.tsx', 'pagetree', { pin: false, wrap }), { path: '/lists/groceries', headers: {}, n: 10_000, warm: 30_000, label: 'pagetree-full' })
 */
export async function instructionsPerRequest(
  start: (wrap: string[]) => Promise<Server>,
  o: CountOptions,
): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'pagetree-callgrind-'));
  try {
    const out = join(dir, 'out');
    const s = await start([
      'valgrind',
      '--tool=callgrind',
      '--instr-atstart=no',
      ...(o.valgrindArgs ?? []),
      `--callgrind-out-file=${out}`,
      `--log-file=${dir}/log`,
    ]);
    await load(s, o, o.warm);
    const pid = String(s.child.pid);
    const counted = async (amount: number): Promise<[requests: number, instructions: number]> => {
      execFileSync('callgrind_control', ['-i', 'on', pid], { stdio: 'ignore' });
      const requests = await load(s, o, amount);
      execFileSync('callgrind_control', ['-i', 'off', pid], { stdio: 'ignore' });
      const before = new Set(readdirSync(dir));
      execFileSync('callgrind_control', ['-d', pid], { stdio: 'ignore' }); // writes out.<n> and zeroes the counts
      const file = readdirSync(dir).find((f) => !before.has(f) && f.startsWith('out.'));
      const total = file ? Number(/^totals: (\d+)/m.exec(readFileSync(join(dir, file), 'utf8'))?.[1] ?? 0) : 0;
      if (total === 0) fail(`${s.kind}: callgrind counted nothing (in ${dir}: ${readdirSync(dir).join(', ')})`);
      const keep = process.env.KEEP;
      if (keep && amount === 2 * o.n) {
        mkdirSync(keep, { recursive: true });
        copyFileSync(join(dir, file!), join(keep, `${o.label.replace(/[^\w.@+-]/g, '_')}.callgrind`));
      }
      return [requests, total];
    };
    const [r1, i1] = await counted(o.n);
    const [r2, i2] = await counted(2 * o.n);
    await stopAll();
    return (i2 - i1) / (r2 - r1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
