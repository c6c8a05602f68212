// Compressed dynamic answers (issue 29.2): what br, gzip (and zstd where node has it) cost the server and save on the
// wire, for the example's full page and an htmx partial, against the answer as it is.
//
//   npm run bench:compress                      (20 tasks, 5 rounds of 2 s per answer and coding)
//   TASKS=100 ROUNDS=3 npm run bench:compress
//
// The server (server.ts, a child) is the example app with TASKS tasks, served by `serve` with mount's default
// compression; the client asks with one Accept-Encoding per contender ("identity" for the answer as it is). Before
// timing, every compressed answer must decode to exactly the bytes of the identity answer. Server CPU per request
// comes over IPC (process.cpuUsage); the ratio is the median of the per-round ratios to identity.
//
// Then event streams, in this process: EVENTS events sent through one gzip or brotli context kept per stream and
// flushed after each event (Z_SYNC_FLUSH, BROTLI_OPERATION_FLUSH), against the events as they are: bytes and CPU per
// event, and the memory one open compressed stream holds.

import * as zlib from 'node:zlib';
import { environment, setting } from '../lib/main.ts';
import { fail, formatInt, formatRatio, formatSpread, median, medianRatio, printTable } from '../lib/report.ts';
import { interleave } from '../lib/rounds.ts';
import { pinLoad, runServers, send, startServer, type Server } from '../lib/servers.ts';
import { loadRound } from '../lib/load.ts';

const ROUNDS = setting('ROUNDS', 5, 1, 50);
const ROUND_SECONDS = setting('ROUND_SECONDS', 2, 1, 60);
const WARMUP_SECONDS = setting('WARMUP_SECONDS', 2, 0, 60);
const TASKS = setting('TASKS', 20, 0, 10_000);
const EVENTS = setting('EVENTS', 2000, 10, 100_000);
const CONNECTIONS = 16;

const answers = [
  { name: 'full page `/`', path: '/', headers: {} },
  {
    name: 'partial (htmx 4, `#tasks-task-list`)',
    path: '/',
    headers: {
      'hx-request': 'true',
      'hx-request-type': 'partial',
      'hx-target': 'section#tasks-task-list',
      'hx-current-url': 'http://127.0.0.1/',
    },
  },
] as const;

type Coding = 'identity' | 'gzip' | 'br' | 'zstd';

function decode(coding: string | undefined, body: Buffer): Buffer {
  if (coding === undefined) return body;
  if (coding === 'gzip') return zlib.gunzipSync(body);
  if (coding === 'br') return zlib.brotliDecompressSync(body);
  const zstd = (zlib as { zstdDecompressSync?: (b: Buffer) => Buffer }).zstdDecompressSync;
  if (coding === 'zstd' && zstd) return zstd(body);
  return fail(`cannot decode Content-Encoding ${coding}`);
}

runServers('bench/compress', 15 * 60_000, async () => {
  const heading = environment();
  const pin = pinLoad();
  const server = await startServer('bench/compress/server.ts', String(TASKS), { pin });
  const codings: Coding[] = ['identity', 'gzip', 'br', ...(server.info.zstd === 'true' ? (['zstd'] as const) : [])];
  const rows: string[][] = [];
  for (const answer of answers) rows.push(...(await overHttp(server, answer, codings)));
  console.log(
    `bench/compress: ${heading}; the example with ${TASKS} tasks, ${CONNECTIONS} connections, ` +
      `median of ${ROUNDS} rounds of ${ROUND_SECONDS} s`,
  );
  printTable(['answer', 'coding', 'body bytes', 'of identity', 'server CPU/req', 'CPU vs identity', 'req/s'], rows);
  await eventStreams();
});

// One answer in every coding: checked, then timed in interleaved rounds.
async function overHttp(server: Server, answer: (typeof answers)[number], codings: Coding[]): Promise<string[][]> {
  const sizes = new Map<Coding, number>();
  let identity: Buffer | undefined;
  for (const coding of codings) {
    const got = await send(server.port, {
      path: answer.path,
      headers: { ...answer.headers, 'accept-encoding': coding },
    });
    const encoding = got.headers['content-encoding'] as string | undefined;
    if (got.status !== 200 || encoding !== (coding === 'identity' ? undefined : coding)) {
      fail(`CHECK FAILED, nothing was timed: ${answer.name} with ${coding}: ${got.status}, ${String(encoding)}`);
    }
    const body = decode(encoding, got.body);
    identity ??= body;
    if (!body.equals(identity))
      fail(`CHECK FAILED, nothing was timed: ${answer.name} with ${coding} decodes otherwise`);
    sizes.set(coding, got.body.byteLength);
  }
  const load = (coding: Coding, seconds: number) =>
    loadRound(server, {
      path: answer.path,
      headers: { ...answer.headers, 'accept-encoding': coding },
      seconds,
      connections: CONNECTIONS,
    });
  if (WARMUP_SECONDS > 0) for (const coding of codings) await load(coding, WARMUP_SECONDS);
  const rounds = await interleave(codings, ROUNDS, (coding) => load(coding, ROUND_SECONDS));
  const cpu = rounds.map((r) => r.map((x) => x.cpuPerReq));
  const base = sizes.get('identity')!;
  return codings.map((coding, i) => [
    i === 0 ? answer.name : '',
    coding,
    formatInt(sizes.get(coding)!),
    `${((sizes.get(coding)! / base) * 100).toFixed(0)}%`,
    `${median(cpu[i]!).toFixed(1)} µs ${formatSpread(cpu[i]!)}`,
    i === 0 ? '1' : formatRatio(medianRatio(cpu[i]!, cpu[0]!)),
    formatInt(median(rounds[i]!.map((r) => r.rps))),
  ]);
}

// An event of the example's dashboard (its counts) and a live task list of TASKS tasks, as eventStream frames them.
function events(): { name: string; frame: (i: number) => string }[] {
  const counts = (i: number) =>
    `data: <b class="open">${i}</b> open · <b class="done">${i >> 1}</b> done · <b class="total">${i + (i >> 1)}</b> tasks\n\n`;
  const list = (i: number) =>
    Array.from(
      { length: TASKS },
      (_, t) =>
        `data: <li class="task"><form method="post" action="/tasks/${t + 1}/toggle" hx-post="/tasks/${t + 1}/toggle">` +
        `<button>${(t + i) % 3 ? '☐' : '☑'}</button> <span>Task ${t + 1}</span></form></li>\n`,
    ).join('') + '\n';
  return [
    { name: 'dashboard counts', frame: counts },
    { name: `task list (${TASKS} tasks)`, frame: list },
  ];
}

type Flusher = { name: string; make: () => zlib.Gzip | zlib.BrotliCompress; flush: number };

const flushers: Flusher[] = [
  { name: 'gzip 6, Z_SYNC_FLUSH', make: () => zlib.createGzip({ level: 6 }), flush: zlib.constants.Z_SYNC_FLUSH },
  {
    name: 'br 5, BROTLI_OPERATION_FLUSH',
    make: () => zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } }),
    flush: zlib.constants.BROTLI_OPERATION_FLUSH,
  },
];

// Each event written to one compressor and flushed, as a compressing adapter would have to (the client must get
// every event at once): bytes out and CPU per event.
async function perEvent(f: Flusher, frame: (i: number) => string): Promise<{ bytes: number; cpu: number }> {
  const z = f.make();
  let out = 0;
  z.on('data', (c: Buffer) => (out += c.byteLength));
  const t0 = process.cpuUsage();
  for (let i = 0; i < EVENTS; i++) {
    z.write(frame(i));
    await new Promise<void>((resolve) => z.flush(f.flush, () => resolve()));
  }
  const t = process.cpuUsage(t0);
  z.close();
  return { bytes: out / EVENTS, cpu: (t.user + t.system) / EVENTS };
}

// What 500 open compressed streams hold, each after one event: RSS, per stream.
async function memoryPerStream(f: Flusher, frame: string): Promise<number> {
  const n = 500;
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const before = process.memoryUsage().rss;
  const open = Array.from({ length: n }, () => f.make());
  await Promise.all(
    open.map((z) => {
      z.resume();
      z.write(frame);
      return new Promise<void>((resolve) => z.flush(f.flush, () => resolve()));
    }),
  );
  gc?.();
  const per = (process.memoryUsage().rss - before) / n;
  for (const z of open) z.close();
  return per;
}

async function eventStreams(): Promise<void> {
  const rows: string[][] = [];
  for (const { name, frame } of events()) {
    const identity = Array.from({ length: EVENTS }, (_, i) => Buffer.byteLength(frame(i))).reduce((a, b) => a + b, 0);
    rows.push([name, 'as it is', (identity / EVENTS).toFixed(0), '100%', '–', '–']);
    for (const f of flushers) {
      const runs: { bytes: number; cpu: number }[] = [];
      for (let r = 0; r < ROUNDS; r++) runs.push(await perEvent(f, frame));
      const bytes = median(runs.map((r) => r.bytes));
      const mem = await memoryPerStream(f, frame(0));
      rows.push([
        '',
        f.name,
        bytes.toFixed(0),
        `${((bytes / (identity / EVENTS)) * 100).toFixed(0)}%`,
        `${median(runs.map((r) => r.cpu)).toFixed(1)} µs`,
        `${formatInt(mem / 1024)} KiB`,
      ]);
    }
  }
  console.log(
    `\nevent streams, in process: ${formatInt(EVENTS)} events through one context per stream, median of ${ROUNDS}`,
  );
  printTable(['event', 'coding', 'bytes/event', 'of as-is', 'CPU/event/stream', 'RSS per open stream'], rows);
}
