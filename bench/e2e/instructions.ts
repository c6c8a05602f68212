// Server instructions per request, counted by valgrind (callgrind), for the e2e page and its partial: on Node 20 a
// count that repeats within ~1% from run to run whatever else the machine does, where CPU time per request moves by
// ±5% (on Node 24, whose JIT tiers up differently under valgrind, by up to ~5%).
//
//   npm run bench:e2e:instructions           (needs valgrind: apt-get install valgrind; ~12 min)
//   N=20000 WARM=30000 KINDS=node:http,pagetree npm run bench:e2e:instructions
//   BASE=/tmp/base KINDS=pagetree@base,pagetree npm run bench:e2e:instructions   (another checkout: main.ts's baseRoot)
//   KEEP=/tmp/cg npm run bench:e2e:instructions    keeps each server's count of the 2N load, for callgrind_annotate
//
// Each server (server.tsx) runs under `valgrind --tool=callgrind --instr-atstart=no`: WARM requests bring it to its
// steady state uncounted (the JIT done), then counting is switched on for N requests and again for 2N
// (callgrind_control -i on/off, a dump each), and the difference divided by N. It counts every thread of the process (the GC's and the compiler's too), so
// it holds what CPU time holds, except waiting on memory.

import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { chosenKinds, environment, setting, withBase } from '../lib/main.ts';
import { fail, formatInt, formatRatio, printTable } from '../lib/report.ts';
import { HOST, runServers, startServerOrBase, stopAll, withTimeout, type Server } from '../lib/servers.ts';
import { listPath, partialHeaders } from './page.tsx';
import { kinds as serverKinds } from './server.tsx';

const kinds = withBase(serverKinds, 'pagetree');
type Kind = (typeof kinds)[number];

const N = setting('N', 10_000, 1_000, 1_000_000);
const WARM = setting('WARM', 30_000, 1_000, 1_000_000);
const chosen = chosenKinds(kinds, ['node:http', 'node:http+als', 'pagetree']);
const variants = [
  { name: 'full', headers: {} as Record<string, string> },
  { name: 'partial', headers: { ...partialHeaders } },
];

// `amount` GETs on 8 keep-alive connections; every answer must be a 200.
async function load(s: Server, headers: Record<string, string>, amount: number): Promise<number> {
  const options = { url: `http://${HOST}:${s.port}${listPath}`, headers, amount, connections: 8, timeout: 60 };
  const r = await withTimeout(autocannon(options as autocannon.Options), 600_000, `autocannon on ${s.kind}`);
  if (r.non2xx || r.errors || r.timeouts)
    fail(`${s.kind}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts`);
  return r.requests.total;
}

// The instructions per request of one fresh server: two counted loads, of N and of 2N requests, each on new
// connections; their difference leaves out what a load costs whatever its length (connecting, a full GC).
async function count(kind: Kind, variant: string, headers: Record<string, string>): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'pagetree-callgrind-'));
  try {
    const out = join(dir, 'out');
    const wrap = [
      'valgrind',
      '--tool=callgrind',
      '--instr-atstart=no',
      `--callgrind-out-file=${out}`,
      `--log-file=${dir}/log`,
    ];
    const s = await startServerOrBase('bench/e2e/server.tsx', kind, { pin: false, wrap });
    await load(s, headers, WARM);
    const pid = String(s.child.pid);
    const counted = async (amount: number): Promise<[requests: number, instructions: number]> => {
      execFileSync('callgrind_control', ['-i', 'on', pid], { stdio: 'ignore' });
      const requests = await load(s, headers, amount);
      execFileSync('callgrind_control', ['-i', 'off', pid], { stdio: 'ignore' });
      const before = new Set(readdirSync(dir));
      execFileSync('callgrind_control', ['-d', pid], { stdio: 'ignore' }); // writes out.<n> and zeroes the counts
      const file = readdirSync(dir).find((f) => !before.has(f) && f.startsWith('out.'));
      const total = file ? Number(/^totals: (\d+)/m.exec(readFileSync(join(dir, file), 'utf8'))?.[1] ?? 0) : 0;
      if (total === 0) fail(`${kind}: callgrind counted nothing (in ${dir}: ${readdirSync(dir).join(', ')})`);
      const keep = process.env.KEEP;
      if (keep && amount === 2 * N) {
        mkdirSync(keep, { recursive: true });
        copyFileSync(join(dir, file!), join(keep, `${kind.replace(/[^\w.@+-]/g, '_')}-${variant}.callgrind`));
      }
      return [requests, total];
    };
    const [r1, i1] = await counted(N);
    const [r2, i2] = await counted(2 * N);
    await stopAll();
    return (i2 - i1) / (r2 - r1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

runServers('bench/e2e/instructions', 60 * 60_000, async () => {
  if (spawnSync('valgrind', ['--version']).status !== 0) fail('valgrind is not installed (apt-get install valgrind)');
  console.log(`bench/e2e/instructions: ${environment()}; ${formatInt(N)} counted requests after ${formatInt(WARM)}`);
  for (const v of variants) {
    const rows: string[][] = [];
    let base = 0;
    for (const kind of chosen) {
      const perReq = await count(kind, v.name, v.headers);
      base ||= perReq;
      console.log(`  ${v.name} ${kind}: ${formatInt(perReq)} instructions/request`);
      rows.push([kind, formatInt(perReq), formatRatio(perReq / base), formatRatio(base / perReq)]);
    }
    console.log(`\n${v.name}: GET ${listPath}, server instructions per request (callgrind)`);
    printTable(['server', 'instructions/req', `vs ${chosen[0]}`, 'req per instruction, vs it'], rows);
    console.log('');
  }
});
