// bench/path (issue 42, the first rows of its table): how long the road of one warm htmx partial request is, through
// serve() (node:http, a real socket on 127.0.0.1) and through mux.fetch, and how much of core runs on it.
//
//   npm run bench:path              the tables
//   VERBOSE=1 npm run bench:path    and the functions that ran, file by file
//
// The app (app.tsx): one page with page() and a partial, mounted with mount's default options; the request asks for
// the partial as htmx 4 does (HX-Request: true, HX-Target: <its id>, HX-Request-Type: partial).
// 1. Hops: the partial takes `new Error().stack` (Error.stackTraceLimit = Infinity); a hop is a frame in pagetree's
//    files (core/**, jsx-runtime/**), from the adapter's entry (node: the 'request' listener; fetch: mux.fetch) up
//    to the partial; "files on the path" are the distinct files among them. Printed as file:function per hop.
// 2. Files that run code: V8's precise coverage (callCount, detailed), started before the app is loaded; a few
//    requests warm the path up, coverage is taken once (which resets the counts), then ONE request, then coverage is
//    taken again: the pagetree functions whose count is > 0 ran during that request.
// 3. A static count over core/pipeline, core/request and core/app (and all of core beside it): functions with a
//    `try … catch` of their own, and the sync-vs-async branch sites (see static.ts for exactly what is counted).
//
// Runs through tsx, so the stack's and the coverage's files are core/'s sources.

import { Session } from 'node:inspector/promises';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { environment, runMain } from '../lib/main.ts';
import { fail, printTable } from '../lib/report.ts';
import { coveredFunctions, type CoveredFunction } from './coverage.ts';
import { hopsOf, type Hop } from './stack.ts';
import { catchLines, staticCounts } from './static.ts';

/** Requests sent through each adapter before the one that is measured. */
const WARM = 20;
const VERBOSE = process.env.VERBOSE === '1';

interface Measured {
  hops: Hop[];
  ran: CoveredFunction[];
}

type Send = () => Promise<string>;

async function main(): Promise<void> {
  Error.stackTraceLimit = Infinity;
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
  await session.post('Debugger.enable'); // for the scripts' sources (coverage.ts)

  // Loaded after coverage starts, so that every function of the app and of core is counted from its first call.
  const { makeApp, probe } = await import('./app.tsx');
  const { serve } = await import('../../core/node/index.ts');
  const { mux, partialId } = makeApp();
  // htmx 4 names the target as tag#id (htmx-details.ts); a bare id would be a tag name to it.
  const headers = { 'hx-request': 'true', 'hx-target': `ul#${partialId}`, 'hx-request-type': 'partial' };

  const server = serve(mux, { port: 0, hostname: '127.0.0.1', handleSignals: false, onListen: () => {} });
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const port = (server.address() as AddressInfo).port;

  const viaServe: Send = () => get(port, headers);
  const viaFetch: Send = async () => {
    const res = await mux.fetch(new Request('http://127.0.0.1/', { headers }));
    return checked(res.status, await res.text());
  };

  let stack: string | undefined;
  probe.onPartial = () => {
    stack = new Error('bench/path').stack;
  };
  const measure = async (send: Send): Promise<Measured> => {
    for (let i = 0; i < WARM; i++) await send();
    await session.post('Profiler.takePreciseCoverage'); // resets the counts
    stack = undefined;
    await send();
    const { result } = await session.post('Profiler.takePreciseCoverage');
    if (stack === undefined) fail('the partial did not run');
    return { hops: hopsOf(stack), ran: await coveredFunctions(session, result) };
  };
  try {
    const node = await measure(viaServe);
    const fetch = await measure(viaFetch);
    report(node, fetch);
    staticCounts(VERBOSE);
  } finally {
    await session.post('Profiler.stopPreciseCoverage');
    session.disconnect();
    await server.shutdown({ timeout: 1000 });
  }
}

function report(node: Measured, fetch: Measured): void {
  console.log(`bench/path: ${environment()}; one warm htmx partial (GET /, HX-Request-Type: partial) after ${WARM}`);
  console.log('\nthe request path: pagetree frames from the adapter to the partial; pagetree files with code run\n');
  const row = (name: string, m: Measured) => {
    const files = new Set(m.ran.map((f) => f.file));
    const catching = catchingFunctions(m.ran);
    const catchFiles = new Set(catching.map((f) => f.file)).size;
    return [
      name,
      String(m.hops.length),
      String(new Set(m.hops.map((h) => h.file)).size),
      String(files.size),
      String(m.ran.length),
      `${catching.length} in ${catchFiles} files`,
    ];
  };
  printTable(
    ['adapter', 'hops', 'files on the path', 'files that run code', 'functions run', 'of them with try…catch'],
    [row('serve() (node:http)', node), row('mux.fetch', fetch)],
  );
  for (const [name, m] of [
    ['serve()', node],
    ['mux.fetch', fetch],
  ] as const) {
    console.log(`\nthe hops through ${name}, the adapter's entry first (file:function)\n`);
    m.hops.forEach((h, i) => console.log(`${String(i + 1).padStart(4)}. ${h.file}:${h.fn}`));
  }
  for (const [name, m] of [
    ['serve()', node],
    ['mux.fetch', fetch],
  ] as const) {
    const catching = catchingFunctions(m.ran).map((f) => `${f.file}:${f.fn}`);
    console.log(`\nthe functions with a try…catch of their own that ran through ${name}: ${catching.join(', ')}`);
  }
  for (const [name, m] of [
    ['serve()', node],
    ['mux.fetch', fetch],
  ] as const) {
    const byFile = new Map<string, number>();
    for (const f of m.ran) byFile.set(f.file, (byFile.get(f.file) ?? 0) + 1);
    console.log(`\nthe files that ran code through ${name}: functions run in each\n`);
    printTable(
      ['file', 'functions'],
      [...byFile].map(([file, n]) => [file, String(n)]),
    );
    if (VERBOSE) {
      console.log(`\nthe functions that ran through ${name} (calls)\n`);
      printTable(
        ['file:function', 'calls'],
        m.ran.map((f) => [`${f.file}:${f.fn}`, String(f.count)]),
      );
    }
  }
}

/** The functions of `ran` with a try … catch of their own (static.ts), matched by the line they start on. */
function catchingFunctions(ran: readonly CoveredFunction[]): CoveredFunction[] {
  const lines = new Map<string, number[]>();
  return ran.filter((f) => {
    let own = lines.get(f.file);
    if (!own) lines.set(f.file, (own = catchLines(f.file)));
    return own.includes(f.line);
  });
}

/** GET / on the server, as node:http sends it; the body, once checked to be the partial. */
function get(port: number, headers: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path: '/', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => {
        try {
          resolve(checked(res.statusCode ?? 0, body));
        } catch (err) {
          reject(err);
        }
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** The body of a partial answer: 200, the <li>s and no page around them. */
function checked(status: number, body: string): string {
  if (status !== 200 || !body.startsWith('<li>Milk</li>') || body.includes('<html')) {
    fail(`the partial request got ${status} ${JSON.stringify(body.slice(0, 120))}`);
  }
  return body;
}

runMain(main);
