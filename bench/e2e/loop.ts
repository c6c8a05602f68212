// The e2e page and its partial in one process, no sockets: each server's node:http listener called in a loop with a
// stand-in IncomingMessage and ServerResponse, so that what is timed is the server's own code per request (routing,
// the page pipeline, the render, writeHead/end's arguments) without node's HTTP parser, the socket or the load
// generator, which cost every server alike and make a round's CPU time move by ±10% on this VM.
//
//   npm run bench:e2e:loop                          node:http, node:http+als, pagetree: ns per request
//   BASE=/tmp/base npm run bench:e2e:loop           and pagetree@base: another checkout's build (main.ts's baseRoot)
//   COUNT=1 npm run bench:e2e:loop                  instructions per request instead (valgrind), the same every run
//   KINDS=pagetree@base,pagetree                    some servers only, the first the others' baseline
//
// Timed: rounds interleaved (every server in every round, the order rotated), each timing N requests after N
// uncounted; the medians of ns per request and of the per-round ratios to node:http (spreads ±5–10% on this VM).
// Counted: each server and variant in a process of its own under callgrind, with V8's --predictable (no concurrent
// compiler or GC threads, so the JIT does the same thing every run): the count of 3N requests minus that of N,
// over 2N. A count repeats exactly, where a time moves by ±5%; it is what a change of a few hundred instructions in
// pagetree's path shows up in. It measures what pagetree adds, not what a server costs: bench/e2e (a real socket,
// wrk) and bench:e2e:instructions are those.

import { AsyncLocalStorage } from 'node:async_hooks';
import { spawnSync } from 'node:child_process';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { baseRoot, chosenKinds, environment, runMain, setting } from '../lib/main.ts';
import { rawParam } from '../lib/child.ts';
import { fail, formatInt, formatRatio, formatSpread, median, medianRatio, printTable } from '../lib/report.ts';
import { rotation } from '../lib/rounds.ts';
import { LIST_ID, fullPage, listPath, loadList, partialHeaders, partialPage, wantsPartial } from './page.tsx';

type Listener = (incoming: IncomingMessage, outgoing: ServerResponse) => void;

const COUNT = process.env.COUNT === '1';
const N = setting('N', COUNT ? 10_000 : 5_000, 1_000, 1_000_000);
const ROUNDS = setting('ROUNDS', 41, 1, 200);

// What a listener may read of the IncomingMessage: its method, target, headers (parsed and raw) and socket.
function incomingOf(headers: Record<string, string>): IncomingMessage {
  const all: Record<string, string> = { host: '127.0.0.1:3000', ...headers };
  const raw = Object.entries(all).flat();
  const socket = { remoteAddress: '127.0.0.1', encrypted: false, server: {} };
  return { method: 'GET', url: listPath, headers: all, rawHeaders: raw, socket, complete: true } as never;
}

// A ServerResponse that keeps what it was given: the status, the headers' count and the body's length.
class Outgoing {
  destroyed = false;
  headersSent = false;
  shouldKeepAlive = true;
  status = 0;
  length = 0;
  readonly req: IncomingMessage;
  constructor(req: IncomingMessage) {
    this.req = req;
  }
  writeHead(status: number, reason?: unknown, headers?: Record<string, string>): this {
    this.status = status;
    this.headersSent = true;
    if (typeof reason === 'object' || headers === undefined) headers = reason as Record<string, string>;
    if (headers['content-length'] === undefined) fail(`no content-length`);
    return this;
  }
  end(body: string): this {
    this.length += body.length;
    this.headersSent = false;
    return this;
  }
}

function rawListener(als: boolean): Listener {
  const handle: Listener = (req, res) => {
    const listId = rawParam(req.method, req.url, '/lists/');
    if (listId === undefined) return void res.writeHead(404).end();
    const list = loadList(listId);
    const html = wantsPartial(req.headers['hx-request'] as string | undefined, req.headers['hx-target'] as string)
      ? partialPage(list)
      : fullPage(list);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(html) });
    res.end(html);
  };
  if (!als) return handle;
  const store = new AsyncLocalStorage<IncomingMessage>();
  return (req, res) => store.run(req, handle, req, res);
}

// pagetree's listener, from this checkout or another's build (the same modules, so the same JSX runtime).
function pagetreeListener(root: string | undefined): Listener {
  const load = createRequire(__filename);
  const from = (path: string) => load(root ? join(root, path) : `../../${path}`) as Record<string, unknown>;
  const core = from('core/index.js') as typeof import('../../core/index.ts');
  const node = from('core/node/index.js') as typeof import('../../core/node/index.ts');
  const app = from('bench/e2e/app.js') as typeof import('./app.tsx');
  const mux = new core.ServeMux();
  const tree = core.mount(mux, app.App, '/', '', { compress: false });
  if (tree.id(app.ListPage.prototype.items) !== LIST_ID) fail('pagetree: the list id is not LIST_ID');
  return node.toNodeListener(mux) as Listener;
}

const servers: [name: string, listener: Listener][] = [
  ['node:http', rawListener(false)],
  ['node:http+als', rawListener(true)],
  ['pagetree', pagetreeListener(undefined)],
];
const base = baseRoot();
if (base) servers.push(['pagetree@base', pagetreeListener(base)]);
// KINDS=pagetree@base,pagetree: some servers only (the first is the one the others are compared with).
const chosen = chosenKinds(servers.map(([name]) => name));
servers.splice(0, servers.length, ...chosen.map((k) => servers.find(([name]) => name === k)!));

const variants: [name: string, incoming: IncomingMessage, length: number][] = [
  ['full', incomingOf({}), fullPage(loadList('groceries')).length],
  ['partial', incomingOf(partialHeaders), partialPage(loadList('groceries')).length],
];

// ns per request over `n` requests; every answer must be the page's 200.
function time(listener: Listener, incoming: IncomingMessage, length: number, n: number): number {
  const out = new Outgoing(incoming);
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) listener(incoming, out as unknown as ServerResponse);
  const ns = Number(process.hrtime.bigint() - start) / n;
  if (out.status !== 200 || out.length !== length * n) fail(`an answer was not the page (status ${out.status})`);
  return ns;
}

// `--run <server> <variant> <n>`: one counted process (what COUNT=1 starts under callgrind).
function runOne(server: string, variant: string, n: number): void {
  const listener = servers.find(([name]) => name === server)?.[1];
  const v = variants.find(([name]) => name === variant);
  if (!listener || !v) fail(`--run: no server ${server} or variant ${variant}`);
  time(listener, v[1], v[2], n);
}

// The instructions callgrind counts for `n` requests of one server and variant, the process's start included.
function counted(server: string, variant: string, n: number): number {
  const valgrind = ['--tool=callgrind', '--callgrind-out-file=/dev/null'];
  const node = [process.execPath, '--predictable', __filename, '--run', server, variant, String(n)];
  const r = spawnSync('valgrind', [...valgrind, ...node], { encoding: 'utf8', env: process.env });
  const total = /Collected : (\d+)/.exec(r.stderr ?? '')?.[1];
  if (r.status !== 0 || total === undefined) fail(`${server} ${variant} under valgrind: ${r.error ?? r.stderr}`);
  return Number(total);
}

function count(): void {
  if (spawnSync('valgrind', ['--version']).status !== 0) fail('valgrind is not installed (apt-get install valgrind)');
  console.log(
    `bench/e2e/loop: ${environment()}; instructions per request: (${formatInt(3 * N)} − ${formatInt(N)}) / ${formatInt(2 * N)}, --predictable`,
  );
  for (const [variant] of variants) {
    const perRequest = servers.map(([name]) => (counted(name, variant, 3 * N) - counted(name, variant, N)) / (2 * N));
    const rows = servers.map(([name], k) => [
      name,
      formatInt(perRequest[k]!),
      formatInt(perRequest[k]! - perRequest[0]!),
      formatRatio(perRequest[0]! / perRequest[k]!),
    ]);
    console.log(`\n${variant}: instructions per request`);
    const first = servers[0]![0];
    printTable(['server', 'per request', `over ${first}`, `req per instruction, vs ${first}`], rows);
  }
}

function timed(): void {
  console.log(`bench/e2e/loop: ${environment()}; ${ROUNDS} rounds × ${formatInt(N)} requests per server and variant`);
  for (const [variant, incoming, length] of variants) {
    const rounds = servers.map(() => [] as number[]);
    for (let r = 0; r < ROUNDS; r++) {
      for (const k of rotation(servers.length, r)) {
        time(servers[k]![1], incoming, length, N); // uncounted: the JIT and the heap settle
        rounds[k]!.push(time(servers[k]![1], incoming, length, N));
      }
    }
    const rows = servers.map(([name], k) => [
      name,
      `${median(rounds[k]!).toFixed(0)} ns`,
      formatSpread(rounds[k]!),
      `${(median(rounds[k]!) - median(rounds[0]!)).toFixed(0)} ns`,
      formatRatio(medianRatio(rounds[0]!, rounds[k]!)),
    ]);
    console.log(`\n${variant}: medians of ${ROUNDS} rounds`);
    const first = servers[0]![0];
    printTable(['server', 'per request', 'spread', `over ${first}`, `req/s vs ${first}`], rows);
  }
}

runMain(() => {
  if (!__filename.endsWith('.js')) fail('run it compiled: npm run bench:e2e:loop');
  const run = process.argv.indexOf('--run');
  if (run >= 0) return runOne(process.argv[run + 1]!, process.argv[run + 2]!, Number(process.argv[run + 3]));
  return COUNT ? count() : timed();
});
