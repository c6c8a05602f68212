// Soak: a minute of mixed load on the example app, served by core/node.
//
//   npm run bench:soak
//
// The app (`createApp({ databasePath: ':memory:' })`) runs in a child process
// started with --expose-gc (bench/soak/server.ts), on 127.0.0.1, pinned to core
// 0 when `taskset` exists; autocannon runs here, pinned to core 1, with 16
// connections each sending bench/soak/mix.ts's requests in order, again and
// again. First each request is sent once and its answer checked. Then a
// warm-up, the server's memory after a forced GC, SOAK_SECONDS of load (the
// memory sampled every 5 s), and the memory after a forced GC again. The
// tables: every request's statuses (anything but the wanted status is
// counted, and so is a wrong body), and the memory before and after.

import type { MemoryReport } from '../lib/child.ts';
import { runLoad } from '../lib/load.ts';
import { environment, setting } from '../lib/main.ts';
import { fail, formatInt, printTable } from '../lib/report.ts';
import { pinLoad, runServers, send, serverMemory, startServer, type Server } from '../lib/servers.ts';
import { adminCookie } from '../lib/admin.ts';
import { buildMix, newTallies, pathOf, record, toRequests, type PassContext, type Step, type Tally } from './mix.ts';

const SOAK_SECONDS = setting('SOAK_SECONDS', 60, 1, 600);
const WARMUP_SECONDS = setting('WARMUP_SECONDS', 10, 1, 120);
const CONNECTIONS = 16;
const SAMPLE_MS = 5_000;
/** RSS after the soak must be within this share of RSS before it to count as "equal". */
const RSS_TOLERANCE = 0.1;

/** Sends each step once, in order, and fails on the first wrong answer. */
async function check(s: Server, steps: readonly Step[]): Promise<void> {
  const ctx: PassContext = {};
  const tallies = newTallies(steps);
  for (const [i, step] of steps.entries()) {
    const path = pathOf(step, ctx);
    const body = step.body?.(ctx);
    const a = await send(s.port, { method: step.method, path, headers: step.headers, body });
    const headers = a.headers as Record<string, string | string[]>;
    if (!record(step, tallies[i]!, a.status, a.body.toString('latin1'), headers, ctx)) {
      fail(`${step.method} ${path}: status ${a.status} (want ${step.want}), body ${JSON.stringify(a.body.toString())}`);
    }
  }
  console.log(`check: each of the ${steps.length} requests of the mix answers as it should, once in order.`);
}

/** Runs the mix for `seconds`; the answers are recorded in `tallies`. */
function soak(s: Server, steps: readonly Step[], tallies: Tally[], seconds: number) {
  return runLoad(s, { requests: toRequests(steps, tallies), seconds, connections: CONNECTIONS, timeout: 10 });
}

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;
const pct = (a: number, b: number) => `${a >= b ? '+' : ''}${(((a - b) / b) * 100).toFixed(1)}%`;

runServers('bench/soak', (WARMUP_SECONDS + SOAK_SECONDS + 120) * 1000, async () => {
  console.log(`bench/soak: ${environment()}`);
  const pin = pinLoad();
  const s = await startServer('bench/soak/server.ts', 'example', { pin, nodeArgs: ['--expose-gc'] });

  const home = (await send(s.port, { path: '/' })).body.toString();
  const cssUrl = /href="(\/static\/app\.[0-9a-f]{8}\.css)"/.exec(home)?.[1];
  if (!cssUrl) fail('the home page links no fingerprinted app.css');
  const steps = buildMix({
    taskList: s.info.taskList!,
    addForm: s.info.addForm!,
    activityList: s.info.activityList!,
    cssUrl,
    admin: await adminCookie(`http://127.0.0.1:${s.port}`),
  });
  await check(s, steps);

  console.log(
    `autocannon: ${CONNECTIONS} connections, each sending the ${steps.length} requests in order; ` +
      `warm-up ${WARMUP_SECONDS} s, then ${SOAK_SECONDS} s.`,
  );
  const { result: warm } = await soak(s, steps, newTallies(steps), WARMUP_SECONDS);
  if (warm.errors > 0 || warm.timeouts > 0) fail(`warm-up: ${warm.errors} errors, ${warm.timeouts} timeouts`);
  const before = await serverMemory(s, true);
  if (!before.collected) fail('the server has no global gc(); start it with --expose-gc');

  const tallies = newTallies(steps);
  const samples: MemoryReport[] = [];
  let soaking = true;
  const sampling = (async () => {
    while (soaking) {
      await new Promise((r) => setTimeout(r, SAMPLE_MS));
      if (soaking) samples.push(await serverMemory(s, false));
    }
  })();
  const { result: r, serverCpu: cpu } = await soak(s, steps, tallies, SOAK_SECONDS);
  soaking = false;
  await sampling;
  const after = await serverMemory(s, true);
  const left = (await send(s.port, { path: '/?q=soak', headers: steps[1]!.headers })).body.toString();
  const tasksLeft = (left.match(/<li[ >]/g) ?? []).length;

  // Per request: what came back.
  let unexpected = 0;
  let intended404 = 0;
  const rows = steps.map((step, i) => {
    const t = tallies[i]!;
    const good = (t.statuses.get(step.want) ?? 0) - t.wrong;
    unexpected += t.count - good;
    if (step.want === 404) intended404 += good;
    const statuses = [...t.statuses].map(([code, n]) => `${code}×${formatInt(n)}`).join(', ');
    return [
      step.name,
      `${step.method} ${step.want}`,
      formatInt(t.count),
      statuses,
      formatInt(t.wrong),
      formatInt(t.count - good),
    ];
  });
  const total = tallies.reduce((n, t) => n + t.count, 0);
  const non23 = [...tallies.flatMap((t) => [...t.statuses])].reduce((n, [c, k]) => (c >= 400 ? n + k : n), 0);
  console.log(`\n${SOAK_SECONDS} s of mixed load: every answer, by request`);
  printTable(['request', 'want', 'answers', 'statuses', 'wrong body', 'unexpected'], rows);

  console.log('\ntotals');
  printTable(
    ['measure', 'value'],
    [
      ['requests answered', formatInt(total)],
      ['req/s', formatInt(r.requests.total / r.duration)],
      ['latency p50 / p99', `${r.latency.p50} ms / ${r.latency.p99} ms`],
      ['server CPU per request', `${(cpu / Math.max(total, 1)).toFixed(1)} µs`],
      ['non-2xx/3xx answers', formatInt(non23)],
      ['  of which intended 404s', formatInt(intended404)],
      ['unexpected answers (status or body)', formatInt(unexpected)],
      ['errors / timeouts', `${r.errors} / ${r.timeouts}`],
      [
        'soak tasks left in the database',
        `${tasksLeft} (≤ ${2 * CONNECTIONS}: passes cut off by the end of the warm-up and the soak)`,
      ],
    ],
  );

  const peak = samples.reduce((m, x) => Math.max(m, x.rss), 0);
  console.log(`\nserver memory (process.memoryUsage()), after a forced GC unless noted`);
  printTable(
    ['when', 'rss', 'heap used', 'heap total', 'external'],
    [
      ['after the warm-up', mb(before.rss), mb(before.heapUsed), mb(before.heapTotal), mb(before.external)],
      [
        `during the soak (${samples.length} samples, no GC)`,
        `≤ ${mb(peak)}`,
        `≤ ${mb(samples.reduce((m, x) => Math.max(m, x.heapUsed), 0))}`,
        `≤ ${mb(samples.reduce((m, x) => Math.max(m, x.heapTotal), 0))}`,
        `≤ ${mb(samples.reduce((m, x) => Math.max(m, x.external), 0))}`,
      ],
      [`after ${SOAK_SECONDS} s`, mb(after.rss), mb(after.heapUsed), mb(after.heapTotal), mb(after.external)],
      [
        'change',
        pct(after.rss, before.rss),
        pct(after.heapUsed, before.heapUsed),
        pct(after.heapTotal, before.heapTotal),
        pct(after.external, before.external),
      ],
    ],
  );
  const equal = Math.abs(after.rss - before.rss) <= RSS_TOLERANCE * before.rss;
  console.log(
    `\nRSS after the soak ${equal ? 'is' : 'is NOT'} equal to RSS before it within ${RSS_TOLERANCE * 100}% ` +
      `(${pct(after.rss, before.rss)}).`,
  );
  if (unexpected > 0 || r.errors > 0 || r.timeouts > 0) {
    console.error(`bench/soak: ${unexpected} unexpected answers, ${r.errors} errors, ${r.timeouts} timeouts`);
    process.exitCode = 1;
  }
});
