// Compressed dynamic answers (issues 29.2 and 43): what pagetree's default compression costs the server and sends
// on the wire, beside Fastify 5 + @fastify/compress and Hono 4 + compress() with their defaults, for a task page
// and its htmx partial that carry a fresh token per request (page.tsx), as browsers ask for them.
//
//   npm run bench:compress                                (10 rounds of 1 s per server, answer and client)
//   ROUNDS=3 npm run bench:compress                       a quick look
//   /path/to/node24 --expose-gc --import tsx bench/compress/run.ts      on another node: its servers run on it too
//   BASE=/tmp/base npm run bench:compress                 and pagetree@base: the same page on another checkout's core
//   KINDS=pagetree,fastify CASES=Chromium npm run bench:compress      some servers, some cases only
//
// Each server is a child process (server.tsx) pinned to core 0, autocannon (16 connections) on core 1. The clients:
// Chromium (`Accept-Encoding: gzip, deflate, br, zstd`, Firefox sends the same), Safari (`gzip, deflate, br`), and one
// that asks for no coding. Before timing, every server must answer each with status 200 and a body that decodes to
// the expected page once its tokens are masked, and two answers must carry different tokens. Then interleaved
// rounds (every case in every round, the servers rotated): server CPU per request from /proc/<pid>/stat (every
// thread; 10 ms steps), bytes per answer as autocannon read them (status line, headers, framing and body). Tables
// give the lower quartile of the rounds' CPU/req (the steadiest estimator on a shared VM) and the median, and the
// median of the per-round ratios to Fastify.
//
// Then event streams, in this process: EVENTS events sent through one gzip or brotli context kept per stream and
// flushed after each event (Z_SYNC_FLUSH, BROTLI_OPERATION_FLUSH), against the events as they are: bytes and CPU per
// event, and the memory one open compressed stream holds.

import autocannon from 'autocannon';
import * as zlib from 'node:zlib';
import { chosenKinds, environment, setting, withBase } from '../lib/main.ts';
import { fail, formatInt, formatRatio, formatSpread, median, medianRatio, printTable } from '../lib/report.ts';
import { rotation } from '../lib/rounds.ts';
import { HOST, pinLoad, procCpu, runServers, send, startServer, withTimeout, type Server } from '../lib/servers.ts';
import {
  contentType,
  fullPage,
  htmxVary,
  loadTasks,
  partialHeaders,
  partialPage,
  path,
  tokenPattern,
} from './page.tsx';
import { kinds as serverKinds, type Kind } from './server.tsx';

const ROUNDS = setting('ROUNDS', 10, 1, 50);
const ROUND_SECONDS = setting('ROUND_SECONDS', 1, 1, 60);
const WARMUP_SECONDS = setting('WARMUP_SECONDS', 2, 0, 60);
const EVENTS = setting('EVENTS', 2000, 10, 100_000);
const CONNECTIONS = 16;

const kinds = chosenKinds(
  serverKinds,
  withBase(
    serverKinds.filter((k) => k !== 'pagetree@base'),
    'pagetree',
  ),
);

const clients = [
  { name: 'Chromium', accept: 'gzip, deflate, br, zstd' },
  { name: 'Safari', accept: 'gzip, deflate, br' },
  { name: 'no coding', accept: undefined },
] as const;

const masked = '-'.repeat(24); // a token of the expected body, and what every token is masked to
const answers = [
  { name: 'full page', headers: {}, want: fullPage({ ...loadTasks(), token: masked }) },
  { name: 'partial', headers: partialHeaders, want: partialPage({ ...loadTasks(), token: masked }) },
] as const;

interface Case {
  name: string;
  answer: (typeof answers)[number];
  client: (typeof clients)[number];
  headers: Record<string, string>;
}

// CASES=Chromium (parts of the names, separated by ';') times some cases only.
const only = process.env.CASES?.split(';');
const cases: Case[] = answers
  .flatMap((answer) =>
    clients.map((client) => ({
      name: `${answer.name}, ${client.name}`,
      answer,
      client,
      headers:
        client.accept === undefined ? { ...answer.headers } : { ...answer.headers, 'accept-encoding': client.accept },
    })),
  )
  .filter((c) => only === undefined || only.some((part) => c.name.includes(part)));

interface Round {
  cpuPerReq: number;
  bytesPerAnswer: number;
  rps: number;
}

function decode(coding: string | undefined, body: Buffer): Buffer {
  if (coding === undefined) return body;
  if (coding === 'gzip') return zlib.gunzipSync(body);
  if (coding === 'br') return zlib.brotliDecompressSync(body);
  const zstd = (zlib as { zstdDecompressSync?: (b: Buffer) => Buffer }).zstdDecompressSync;
  if (coding === 'zstd' && zstd) return zstd(body);
  return fail(`cannot decode Content-Encoding ${coding}`);
}

// Every server answers every case with the expected page (tokens masked), a fresh token each time; returns, per
// case and server, the coding it chose.
async function check(servers: readonly Server<Kind>[]): Promise<Map<Case, string[]>> {
  const codings = new Map<Case, string[]>();
  for (const c of cases) {
    const row: string[] = [];
    for (const s of servers) {
      const what = `${s.kind}, ${c.name}`;
      const bodies: string[] = [];
      let coding: string | undefined;
      for (let i = 0; i < 2; i++) {
        const a = await send(s.port, { path, headers: c.headers });
        if (a.status !== 200) fail(`${what}: status ${a.status}`);
        if (a.headers['content-type'] !== contentType) fail(`${what}: content-type ${a.headers['content-type']}`);
        if (!String(a.headers.vary).toLowerCase().startsWith(htmxVary.toLowerCase())) {
          fail(`${what}: vary ${a.headers.vary}`);
        }
        coding = a.headers['content-encoding'] as string | undefined;
        bodies.push(decode(coding, a.body).toString());
      }
      for (const body of bodies) {
        if (body.replace(tokenPattern, (_, before: string) => before + masked) !== c.answer.want) {
          fail(`${what}: the body (${body.length} characters) is not the expected page once its tokens are masked`);
        }
      }
      if (bodies[0]!.match(tokenPattern)?.[0] === bodies[1]!.match(tokenPattern)?.[0]) {
        fail(`${what}: two answers carry the same token`);
      }
      row.push(coding ?? 'as it is');
    }
    codings.set(c, row);
  }
  console.log(
    `check: every server answers GET ${path} (the page, ${formatInt(Buffer.byteLength(answers[0].want))} B, and its ` +
      `list for htmx, ${formatInt(Buffer.byteLength(answers[1].want))} B) with the expected HTML once its tokens are ` +
      'masked, a fresh token in each answer.',
  );
  return codings;
}

// One timed round: the server's CPU from /proc around autocannon's run.
async function round(s: Server, c: Case, seconds: number): Promise<Round> {
  const pid = s.child.pid!;
  const cpu0 = procCpu(pid);
  const r = await withTimeout(
    autocannon({
      url: `http://${HOST}:${s.port}${path}`,
      headers: c.headers,
      connections: CONNECTIONS,
      pipelining: 1,
      duration: seconds,
    }),
    (seconds + 30) * 1000,
    `autocannon on ${s.kind}`,
  );
  const cpu = procCpu(pid) - cpu0;
  if (r.errors > 0 || r.timeouts > 0 || r.non2xx > 0) {
    fail(`${s.kind}: ${r.errors} errors, ${r.timeouts} timeouts, ${r.non2xx} non-2xx answers under load`);
  }
  const total = r.requests.total;
  if (!(total > 0)) fail(`${s.kind}: no request completed`);
  return { cpuPerReq: cpu / total, bytesPerAnswer: r.throughput.total / total, rps: total / r.duration };
}

/** The lower quartile (linear interpolation), the estimator the tables lead with. */
function lowerQuartile(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const i = (s.length - 1) * 0.25;
  const lo = Math.floor(i);
  return s[lo]! + (s[Math.ceil(i)]! - s[lo]!) * (i - lo);
}

runServers('bench/compress', 30 * 60_000, async () => {
  const heading = environment();
  const pin = pinLoad();
  const servers: Server<Kind>[] = [];
  for (const kind of kinds) servers.push(await startServer('bench/compress/server.tsx', kind, { pin }));
  const codings = await check(servers);
  console.log(
    `bench/compress: ${heading}; autocannon, ${CONNECTIONS} connections; warm-up ${WARMUP_SECONDS} s per server ` +
      `and case, then ${ROUNDS} rounds × ${ROUND_SECONDS} s per server and case, servers rotated`,
  );
  for (const c of cases) for (const s of servers) if (WARMUP_SECONDS > 0) await round(s, c, WARMUP_SECONDS);
  const results = new Map<Case, Round[][]>(cases.map((c) => [c, servers.map(() => [])]));
  for (let r = 0; r < ROUNDS; r++) {
    for (const c of cases) {
      for (const k of rotation(servers.length, r)) {
        const got = await round(servers[k]!, c, ROUND_SECONDS);
        results.get(c)![k]!.push(got);
        process.stderr.write(
          `  round ${r + 1}/${ROUNDS} ${c.name} ${servers[k]!.kind}: ${got.cpuPerReq.toFixed(1)} µs CPU/req\n`,
        );
      }
    }
  }
  const fastify = servers.findIndex((s) => s.kind === 'fastify');
  const rows: string[][] = [];
  for (const c of cases) {
    const rounds = results.get(c)!;
    servers.forEach((s, k) => {
      const cpu = rounds[k]!.map((x) => x.cpuPerReq);
      rows.push([
        k === 0 ? c.name : '',
        s.kind,
        codings.get(c)![k]!,
        formatInt(median(rounds[k]!.map((x) => x.bytesPerAnswer))),
        `${lowerQuartile(cpu).toFixed(1)} µs`,
        `${median(cpu).toFixed(1)} µs ${formatSpread(cpu)}`,
        fastify < 0
          ? '–'
          : formatRatio(
              medianRatio(
                rounds[fastify]!.map((x) => x.cpuPerReq),
                cpu,
              ),
            ),
        formatInt(median(rounds[k]!.map((x) => x.rps))),
      ]);
    });
  }
  console.log(
    '\nCPU/req: lower quartile and median of the rounds; vs Fastify: how many times cheaper than Fastify per request ' +
      '(median of the per-round ratios); bytes: per answer, headers included, as read under load',
  );
  printTable(
    ['answer, client', 'server', 'coding', 'bytes/answer', 'CPU/req q1', 'CPU/req median', 'vs Fastify', 'req/s'],
    rows,
  );
  await eventStreams();
});

// An event of the example's dashboard (its counts) and a live task list of 20 tasks, as eventStream frames them.
function events(): { name: string; frame: (i: number) => string }[] {
  const counts = (i: number) =>
    `data: <b class="open">${i}</b> open · <b class="done">${i >> 1}</b> done · <b class="total">${i + (i >> 1)}</b> tasks\n\n`;
  const list = (i: number) =>
    Array.from(
      { length: 20 },
      (_, t) =>
        `data: <li class="task"><form method="post" action="/tasks/${t + 1}/toggle" hx-post="/tasks/${t + 1}/toggle">` +
        `<button>${(t + i) % 3 ? '☐' : '☑'}</button> <span>Task ${t + 1}</span></form></li>\n`,
    ).join('') + '\n';
  return [
    { name: 'dashboard counts', frame: counts },
    { name: 'task list (20 tasks)', frame: list },
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
  const rounds = Math.min(ROUNDS, 5);
  const rows: string[][] = [];
  for (const { name, frame } of events()) {
    const identity = Array.from({ length: EVENTS }, (_, i) => Buffer.byteLength(frame(i))).reduce((a, b) => a + b, 0);
    rows.push([name, 'as it is', (identity / EVENTS).toFixed(0), '100%', '–', '–']);
    for (const f of flushers) {
      const runs: { bytes: number; cpu: number }[] = [];
      for (let r = 0; r < rounds; r++) runs.push(await perEvent(f, frame));
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
    `\nevent streams, in process: ${formatInt(EVENTS)} events through one context per stream, median of ${rounds}`,
  );
  printTable(['event', 'coding', 'bytes/event', 'of as-is', 'CPU/event/stream', 'RSS per open stream'], rows);
}
