// Server instructions per request, counted by valgrind (callgrind), for the e2e page and its partial: on Node 20 a
// count that repeats within ~1% from run to run whatever else the machine does, where CPU time per request moves by
// ±5% (on Node 24, whose JIT tiers up differently under valgrind, by up to ~5%).
//
//   npm run bench:e2e:instructions           (needs valgrind: apt-get install valgrind; ~12 min)
//   N=20000 WARM=30000 KINDS=node:http,pagetree npm run bench:e2e:instructions
//   BASE=/tmp/base KINDS=pagetree@base,pagetree npm run bench:e2e:instructions   (another checkout: main.ts's baseRoot)
//   KEEP=/tmp/cg npm run bench:e2e:instructions    keeps each server's count of the 2N load, for callgrind_annotate
//
// Each server (server.tsx) is counted by bench/lib/instructions.ts: WARM requests uncounted, then N and 2N counted,
// and the difference divided by N.

import { instructionsPerRequest, needValgrind } from '../lib/instructions.ts';
import { chosenKinds, environment, setting, withBase } from '../lib/main.ts';
import { formatInt, formatRatio, printTable } from '../lib/report.ts';
import { runServers, startServerOrBase } from '../lib/servers.ts';
import { listPath, partialHeaders } from './page.tsx';
import { kinds as serverKinds } from './server.tsx';

const kinds = withBase(serverKinds, 'pagetree');

const N = setting('N', 10_000, 1_000, 1_000_000);
const WARM = setting('WARM', 30_000, 1_000, 1_000_000);
const chosen = chosenKinds(kinds, ['node:http', 'node:http+als', 'pagetree']);
const variants = [
  { name: 'full', headers: {} as Record<string, string> },
  { name: 'partial', headers: { ...partialHeaders } },
];

runServers('bench/e2e/instructions', 60 * 60_000, async () => {
  needValgrind();
  console.log(`bench/e2e/instructions: ${environment()}; ${formatInt(N)} counted requests after ${formatInt(WARM)}`);
  for (const v of variants) {
    const rows: string[][] = [];
    let base = 0;
    for (const kind of chosen) {
      const perReq = await instructionsPerRequest(
        (wrap) => startServerOrBase('bench/e2e/server.tsx', kind, { pin: false, wrap }),
        { path: listPath, headers: v.headers, n: N, warm: WARM, label: `${kind}-${v.name}` },
      );
      base ||= perReq;
      console.log(`  ${v.name} ${kind}: ${formatInt(perReq)} instructions/request`);
      rows.push([kind, formatInt(perReq), formatRatio(perReq / base), formatRatio(base / perReq)]);
    }
    console.log(`\n${v.name}: GET ${listPath}, server instructions per request (callgrind)`);
    printTable(['server', 'instructions/req', `vs ${chosen[0]}`, 'req per instruction, vs it'], rows);
    console.log('');
  }
});
