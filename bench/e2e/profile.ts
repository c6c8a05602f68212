// A CPU profile of one e2e server alone, loaded as in a round (the full page, then the partial), then summed up.
//
//   tsx bench/e2e/profile.ts [pagetree|node:http|fastify|hono] [seconds per variant = 10]
//
// The server runs with `node --cpu-prof` (servers.ts); its main thread's profile lands in
// bench/e2e/.profile/e2e-<server>/, and the tables that follow give self time by file and function, and the
// inclusive time of core/ functions.

import { resolve } from 'node:path';
import { printProfile } from '../lib/cpuprofile.ts';
import { loadRound } from '../lib/load.ts';
import { formatInt } from '../lib/report.ts';
import { mainThreadProfile, pinLoad, runServers, startServer, stopAll } from '../lib/servers.ts';
import { listPath, partialHeaders } from './page.tsx';
import { kinds, type Kind } from './server.tsx';

const kind = (process.argv[2] ?? 'pagetree') as Kind;
const seconds = Number(process.argv[3] ?? 10);

runServers('bench/e2e/profile', (seconds * 2 + 60) * 1000, async () => {
  if (!kinds.includes(kind)) throw new Error(`unknown server ${kind}; one of ${kinds.join(', ')}`);
  const pin = pinLoad();
  const s = await startServer('bench/e2e/server.tsx', kind, { pin, profileDir: resolve(__dirname, '.profile') });
  for (const [name, headers] of [
    ['full', {}],
    ['partial', partialHeaders],
  ] as const) {
    const r = await loadRound(s, { path: listPath, headers, seconds, connections: 32 });
    console.log(`${kind} ${name}: ${formatInt(r.rps)} req/s, ${r.cpuPerReq.toFixed(1)} µs CPU/req (profiling on)`);
  }
  await stopAll(); // the profile is written as the server exits
  printProfile(mainThreadProfile(s), 30);
});
