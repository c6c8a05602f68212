// The chaos suite on Bun and Deno: chaos.test.ts's hostile traffic over raw sockets (driver.ts, the fault kinds of
// faults.ts), against the same app served by pagetree/bun's and pagetree/deno's serve in a process of the real
// runtime (runtime-server.ts; Bun 1.4.5 and Deno 2.9.6 from the npm registry, as the other runtime tests get them).
// A route passes when
//
//   - the process lives: it did not exit (runtime-server.ts prints what would have ended it, then exits with 70);
//   - no answer had a status the row forbids (a 500 but where a request fails on purpose, a flood of parts taken);
//   - its normal request, over a socket, still gets its status after the load.
//
// What chaos.test.ts checks besides (the event loop's delay, the heap after a forced GC, mux.fetch traffic in the
// server's process, the Postgres and Redis brokers) it checks on Node; here the adapters are what is new: Bun's and
// Deno's own HTTP servers in front of the same mux, their WebSockets, their body streams.
//
// The seed and the variables are chaos.test.ts's: CHAOS_SEED, CHAOS_ROUTE, CHAOS_FAULT, CHAOS_MS (default 1000
// here), and CHAOS_RUNTIME=bun or deno for one runtime.

import { join } from 'node:path';
import { repoRoot, serveProcess, toolPackage, type Served } from '../support/package.ts';
import { chosenRouteNames, routes, type ChaosRoute } from './app.tsx';
import { drive, summarize } from './driver.ts';
import type { FaultKind } from './faults.ts';
import { normal } from './normal.ts';
import { envList, runSeed } from './rng.ts';

jest.setTimeout(60_000);

const seed = runSeed();
const ms = Number(process.env.CHAOS_MS ?? 1000);
const script = join(__dirname, 'runtime-server.ts');

const runtimes = {
  bun: { version: '1.4.5', args: [script] },
  deno: {
    version: '2.9.6',
    // bench/runtimes/deno.json: JSX through pagetree/jsx-runtime (its source), packages from node_modules.
    args: [
      'run',
      '--allow-net=127.0.0.1',
      '--allow-env',
      '--allow-read',
      '--config',
      'bench/runtimes/deno.json',
      script,
    ],
  },
} as const;
type Runtime = keyof typeof runtimes;

const onlyRoutes = chosenRouteNames(process.env.CHAOS_ROUTE);
const onlyFaults = envList<FaultKind>(process.env.CHAOS_FAULT);
const onlyRuntimes = envList<Runtime>(process.env.CHAOS_RUNTIME);
for (const name of onlyRuntimes ?? []) {
  if (!(name in runtimes)) throw new Error(`CHAOS_RUNTIME=${name}: give ${Object.keys(runtimes).join(' or ')}`);
}
const faultsOf = (r: ChaosRoute) => r.faults.filter((f) => !onlyFaults || onlyFaults.includes(f));
// The Postgres and Redis brokers' rows stay with chaos.test.ts (runtime-server.ts has the memory broker only).
const nodeOnly = (r: ChaosRoute) => /^events-(postgres|redis)$/.test(r.name);
const rows = routes.filter(
  (r) => !nodeOnly(r) && (!onlyRoutes || onlyRoutes.includes(r.name)) && faultsOf(r).length > 0,
);
const chosenRuntimes = Object.keys(runtimes).filter((r) => !onlyRuntimes || onlyRuntimes.includes(r as Runtime));

// Also what keeps a file of this suite from having no test when CHAOS_ROUTE picks only those rows.
test('every row runs on Bun and Deno but the Postgres and Redis brokers', () => {
  expect(routes.filter(nodeOnly).map((r) => r.name)).toEqual(['events-postgres', 'events-redis']);
});

// (jest refuses an empty table: nothing to describe when CHAOS_ROUTE or CHAOS_FAULT chose only Node's rows.)
if (rows.length > 0) {
  describe.each(chosenRuntimes)('chaos on %s', (name) => {
    const runtime = runtimes[name as Runtime];
    let server: Served | undefined;
    let gone: AbortController;
    const warmUp: string[] = [];

    const port = () => Number(new URL(server!.url).port);
    const exited = () => server!.child.exitCode !== null || server!.child.signalCode !== null;

    beforeAll(async () => {
      const bin = join(toolPackage(name, runtime.version), '../.bin', name);
      server = await serveProcess(bin, [...runtime.args], repoRoot);
      gone = new AbortController();
      server.child.once('exit', () => gone.abort());
      console.log(`chaos on ${name}: seed ${seed}; ${rows.length} routes, ${ms} ms each`);
      for (const r of rows) {
        const got = await normal(port(), r);
        if (got.status !== r.check.status) {
          warmUp.push(`before any load, ${r.check.method} ${r.check.path}: ${got.status}`);
        }
      }
    });
    afterAll(() => server?.stop());

    test.each(rows.map((r) => [r.name, r] as const))('%s lives through hostile traffic', async (routeName, route) => {
      const problems = warmUp.splice(0);
      if (exited()) throw new Error(`the ${name} server is gone (an earlier route ended it):\n${server!.output()}`);
      const run = await drive(port(), route, { seed, ms, clients: 16, faults: faultsOf(route), signal: gone.signal });
      problems.push(...summarize(run.failures));
      // A moment for a death the last sockets caused to be seen.
      await new Promise((resolve) => setTimeout(resolve, 50));
      if (exited()) {
        problems.push(
          `the ${name} server exited (${server!.child.exitCode ?? server!.child.signalCode}):\n${server!.output().slice(-3000)}`,
          `raw sockets open or just closed then:\n    ${run.suspects().join('\n    ')}`,
        );
      } else {
        const got = await normal(port(), route);
        if (got.status !== route.check.status) {
          const said = got.body ? ` ${JSON.stringify(got.body)}` : '';
          problems.push(
            `after the load, ${route.check.method} ${route.check.path}: ${got.status}${said}, want ${route.check.status}`,
          );
        }
      }
      if (problems.length > 0) {
        throw new Error(
          `chaos on ${name}: route ${routeName} (${route.mount}), seed ${seed}; repeat with CHAOS_RUNTIME=${name} ` +
            `CHAOS_SEED=${seed} CHAOS_ROUTE=${routeName} npx jest __tests__/chaos/runtimes\n  - ${problems.join('\n  - ')}` +
            `\n  the server's output ends:\n${server!.output().slice(-1500)}`,
        );
      }
    });
  });
}
