// Server instructions per request on Bun and Deno, counted by valgrind (callgrind): bench/runtimes's servers (the
// e2e page and its partial, servers.ts) counted as bench/e2e:instructions counts the Node ones (lib/instructions.ts:
// WARM requests uncounted, then N and 2N counted, and the difference divided by N), each server in a fresh process.
// Under wrk the CPU time of these servers moved by ±4–17% from round to round on this VM; a count moves by 0–5%
// (the GC's timing), so each server is counted REPS times, and the tables give the median and the range.
// N is 3,000 on Bun and 20,000 on Deno: a window must hold many of the runtime's GC cycles. With a request context
// that kept the request alive, Deno ran a mark-compact every ~15,000 requests, and a window of 3,000 held one or none:
// one server's counts moved between 205,000 and 231,000; with 20,000 they repeat within 0.1%.
//
//   npm run bench:runtimes:instructions          (needs valgrind; ~90 min)
//   KINDS=Bun.serve,pagetree\ on\ Bun REPS=1 npm run bench:runtimes:instructions
//   BASE=/tmp/base KINDS=pagetree@base\ on\ Bun,pagetree\ on\ Bun npm run bench:runtimes:instructions
//   KEEP=/tmp/cg npm run bench:runtimes:instructions    keeps each count of a 2N load, for callgrind_annotate
//   VARIANT=partial npm run bench:runtimes:instructions   the partial alone (or full)
//
// Two settings make the counts mean something on these runtimes:
// - `--smc-check=all-non-file`: JavaScriptCore patches its JIT code in place, and valgrind, told nothing, ran stale
//   translations of it (a full page counted at half its partial's instructions). Deno's servers run with it too.
// - Bun's servers run with JavaScriptCore's concurrent GC and JIT off (BUN_JSC_useConcurrentGC=0,
//   BUN_JSC_useConcurrentJIT=0): valgrind runs one thread at a time, and a thread that spins waiting for another
//   spun for its whole time slice (one server's count moved by 2× between runs). The same work is then done, and
//   counted, on the main thread.

import { loadVariants, listPath } from '../e2e/page.tsx';
import { instructionsPerRequest, needValgrind } from '../lib/instructions.ts';
import { environment, setting } from '../lib/main.ts';
import { fail, formatInt, formatRatio, median, printTable } from '../lib/report.ts';
import { runServers } from '../lib/servers.ts';
import { chosenServers, servers, start, type Kind } from './servers.ts';

process.env.BUN_JSC_useConcurrentGC ??= '0'; // the servers inherit both (Deno ignores them)
process.env.BUN_JSC_useConcurrentJIT ??= '0';

// N=… sets both runtimes' windows.
const nOf = (kind: Kind) => setting('N', servers[kind][0] === 'deno' ? 20_000 : 3_000, 1_000, 1_000_000);
const WARM = setting('WARM', 20_000, 1_000, 1_000_000);
const REPS = setting('REPS', 2, 1, 10);
const kinds = chosenServers([
  'Bun.serve',
  'Bun.serve+als',
  'hono on Bun',
  'elysia',
  'pagetree on Bun',
  'Deno.serve',
  'Deno.serve+als',
  'hono on Deno',
  'pagetree on Deno',
]);

runServers('bench/runtimes/instructions', 4 * 60 * 60_000, async () => {
  needValgrind();
  const windows = `${formatInt(nOf('Bun.serve'))} (Bun) or ${formatInt(nOf('Deno.serve'))} (Deno)`;
  console.log(
    `bench/runtimes/instructions: ${environment()}; ${windows} counted requests after ${formatInt(WARM)}, ` +
      `${REPS} fresh server(s) each`,
  );
  const counts = new Map<string, number[]>(); // `${kind} ${variant}` → one count per rep
  const only = process.env.VARIANT; // VARIANT=partial counts the partial alone
  const variants = loadVariants().filter((v) => !only || v.name.startsWith(only));
  if (variants.length === 0) fail(`VARIANT=${only}: none of full, partial`);
  for (let rep = 0; rep < REPS; rep++) {
    for (const v of variants) {
      for (const kind of kinds) {
        const perReq = await instructionsPerRequest((wrap) => start(kind, false, wrap), {
          path: listPath,
          headers: v.headers ?? {},
          n: nOf(kind),
          warm: WARM,
          label: `${kind}-${v.name}`,
          valgrindArgs: ['--smc-check=all-non-file'],
        });
        console.log(`  ${v.name} ${kind}: ${formatInt(perReq)} instructions/request`);
        const key = `${kind} ${v.name}`;
        counts.set(key, [...(counts.get(key) ?? []), perReq]);
      }
    }
  }
  const of = (kind: Kind, variant: string) => counts.get(`${kind} ${variant}`);
  for (const v of variants) {
    console.log(`\n${v.name}: GET ${listPath}, server instructions per request (callgrind; median of ${REPS})`);
    const rows = kinds.map((kind) => {
      const c = of(kind, v.name)!;
      return [kind, formatInt(median(c)), `${formatInt(Math.min(...c))}–${formatInt(Math.max(...c))}`];
    });
    printTable(['server', 'instructions/req', 'range'], rows);
  }
  // pagetree against every other server counted on its runtime; >1: pagetree runs fewer instructions per request.
  const rows: string[][] = [];
  for (const subject of ['pagetree on Bun', 'pagetree on Deno'] as const) {
    if (!kinds.includes(subject)) continue;
    for (const peer of kinds) {
      if (peer === subject || servers[peer][0] !== servers[subject][0]) continue;
      const ratio = (variant: string) => formatRatio(median(of(peer, variant)!) / median(of(subject, variant)!));
      rows.push([subject, peer, ...variants.map((v) => ratio(v.name))]);
    }
  }
  if (rows.length > 0) {
    console.log(
      '\npagetree vs each server on its runtime: that server’s instructions per request over pagetree’s (>1: pagetree runs fewer)',
    );
    printTable(['server', 'vs', ...variants.map((v) => v.name)], rows);
  }
});
