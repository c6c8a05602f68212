// The `node --cpu-prof` target of the e2e benchmark: one server alone, loaded
// as in a round (full page, then partial), profiled, and summed up.
//
//   tsx bench/e2e/profile.ts [pagetree|node:http|fastify|hono] [seconds per variant = 10]
//
// The profile lands in bench/e2e/.profile/<server>/ (the main thread's is
// `CPU.<date>.<time>.<pid>.0.*`); the tables that follow give self time by
// file and function, and the inclusive time of core/ functions.

import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadRound } from '../lib/load.ts';
import { formatInt } from '../lib/report.ts';
import { canPin, pinSelf, startDeadline, startServer, stopAll } from '../lib/servers.ts';
import { listPath, partialHeaders } from './page.tsx';
import { kinds, type Kind } from './server.tsx';

const kind = (process.argv[2] ?? 'pagetree') as Kind;
const seconds = Number(process.argv[3] ?? 10);
const dir = resolve(__dirname, '.profile');

async function main(): Promise<void> {
  if (!kinds.includes(kind)) throw new Error(`unknown server ${kind}; one of ${kinds.join(', ')}`);
  startDeadline((seconds * 2 + 60) * 1000, 'bench/e2e/profile');
  process.env.BENCH_CPU_PROF = dir;
  const pin = canPin();
  if (pin) pinSelf();
  const s = await startServer('bench/e2e/server.tsx', kind, { pin });
  for (const [name, headers] of [
    ['full', {}],
    ['partial', partialHeaders],
  ] as const) {
    const r = await loadRound(s, { path: listPath, headers, seconds, connections: 32 });
    console.log(`${kind} ${name}: ${formatInt(r.rps)} req/s, ${r.cpuPerReq.toFixed(1)} µs CPU/req (profiling on)`);
  }
  const exited = new Promise((r) => s.child.once('exit', r));
  stopAll();
  await exited;
  const out = join(dir, `e2e-${kind.replace(/[^A-Za-z0-9]+/g, '-')}`);
  const mainThread = readdirSync(out)
    .filter((f) => /\.\d+\.0\.\d+\.cpuprofile$/.test(f))
    .sort()
    .at(-1);
  if (!mainThread) throw new Error(`no main-thread profile in ${out}`);
  spawnSync(
    process.execPath,
    ['--import', 'tsx', resolve(__dirname, '../lib/cpuprofile.ts'), join(out, mainThread), '30'],
    {
      stdio: 'inherit',
    },
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
  stopAll();
});
