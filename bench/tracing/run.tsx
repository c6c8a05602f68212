// What tracing costs per request (issue 29, item 3): the e2e benchmark's page and its htmx partial
// (bench/e2e/page.tsx, a 20-item list) through the page pipeline in process, as the node adapter calls it
// (mux.serveHTTP, the answer's string taken from the LiteResponse), with
//
//   base           another commit's core (BASE=HEAD: `git archive` into build/tracing-base/), when BASE is set
//   no subscriber  this tree, nobody subscribed to the channels
//   access log     mount's accessLog, to a function that keeps the entry
//   empty subscribers  a function that does nothing on every event of the three channels
//   OpenTelemetry  docs/observability.md's recipe subscribed (BasicTracerProvider, SimpleSpanProcessor, an exporter
//                  that drops the spans): three spans per request
//
// The first table never subscribes; the second subscribes the recipe around each of its runs (the channels are
// the process's, so a subscription would reach every contender), and times it against "no subscriber".
//
//   npm run bench:tracing              BASE=HEAD npm run bench:tracing

import { execFileSync } from 'node:child_process';
import { tracingChannel } from 'node:diagnostics_channel';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { BasicTracerProvider, SimpleSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { Tracer } from '@opentelemetry/api';
import * as current from '../../core/index.ts';
import { requestFacts } from '../../core/kernel/adapter.ts';
import { liteData } from '../../core/kernel/answer.ts';
import { environment, runMain, setting } from '../lib/main.ts';
import { repeat, timeOps } from '../lib/micro.ts';
import { fail, formatInt, formatSpread, median, medianRatio, printTable } from '../lib/report.ts';
import { ListView, ItemList, LIST_ID, fullPage, listPath, loadList, partialPage, type List } from '../e2e/page.tsx';

const TIMING = { rounds: setting('ROUNDS', 15), roundMs: 100, warmupMs: 300 };
const root = resolve(__dirname, '../..');

type Core = Pick<typeof current, 'ServeMux' | 'mount' | 'route' | 'id'> & { liteData: typeof liteData };

// bench/e2e/app.tsx's page, made with the core given (its id() must read the same request context as its mount).
function muxOf(core: Core, options: current.MountOptions = {}): current.ServeMux {
  class ListPage {
    props(req: current.PageRequest): List {
      return loadList(req.pathValue('listId'));
    }
    page(list: List) {
      return (
        <ListView list={list} containerId={core.id(this.items)}>
          {this.items(list)}
        </ListView>
      );
    }
    items(list: List) {
      return <ItemList list={list} />;
    }
  }
  class App {
    list = core.route('GET /lists/{listId}', ListPage);
  }
  const mux = new core.ServeMux();
  core.mount(mux, App, '/', '', options);
  return mux;
}

// A request as the node adapter hands one over, without a URL to parse (bench/urlfor does the same).
function requestOf(headers: Record<string, string>): Request {
  const req = Object.create(Request.prototype) as Request;
  Object.defineProperty(req, 'method', { value: 'GET' });
  Object.defineProperty(req, 'url', { value: `http://localhost${listPath}` });
  Object.defineProperty(req, 'headers', { value: new Headers(headers) });
  return Object.assign(req, {
    [requestFacts]: { target: { host: 'localhost', path: listPath, query: '' }, client: '' },
  });
}

// Another commit's core/, extracted beside this tree so that it finds the same node_modules.
async function baseCore(ref: string): Promise<Core> {
  const dir = join(root, 'build/tracing-base');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  execFileSync('sh', ['-c', `git archive ${ref} core | tar -x -C ${dir}`], { cwd: root });
  const core = (await import(join(dir, 'core/index.ts'))) as typeof current;
  const response = (await import(join(dir, 'core/kernel/answer.ts'))) as { liteData: typeof liteData };
  return { ...core, liteData: response.liteData };
}

// docs/observability.md's recipe, as the doc prints it.
async function recipe(): Promise<(tracer: Tracer) => () => void> {
  const doc = readFileSync(join(root, 'docs/observability.md'), 'utf8');
  const block = /```ts title="src\/tracing\.ts"\n([\s\S]*?)\n```/.exec(doc)?.[1];
  if (!block) fail('docs/observability.md has no src/tracing.ts block');
  const file = join(root, 'build/tracing-recipe.ts');
  mkdirSync(join(root, 'build'), { recursive: true });
  writeFileSync(file, block);
  return ((await import(file)) as { tracePagetree: (tracer: Tracer) => () => void }).tracePagetree;
}

const variants: { name: string; headers: Record<string, string>; want: string }[] = [
  { name: 'page', headers: {}, want: fullPage(loadList('groceries')) },
  {
    name: `partial (HX-Target: ${LIST_ID})`,
    headers: { 'hx-request': 'true', 'hx-target': LIST_ID },
    want: partialPage(loadList('groceries')),
  },
];

// A function that does nothing on each of the 5 events of the 3 channels: what publishing itself costs.
function emptySubscribers(): () => void {
  const nothing = () => {};
  const subscribers = { start: nothing, end: nothing, asyncStart: nothing, asyncEnd: nothing, error: nothing };
  const channels = ['request', 'props', 'render'].map((step) => tracingChannel(`pagetree:${step}`));
  channels.forEach((c) => c.subscribe(subscribers));
  return () => channels.forEach((c) => c.unsubscribe(subscribers));
}

interface Contender {
  name: string;
  core: Core;
  mux: current.ServeMux;
  around?: () => () => void;
}

function body(c: Contender, req: Request): unknown {
  const res = c.mux.serveHTTP(req);
  if (res instanceof Promise) fail(`${c.name}: the page answered with a promise`);
  return c.core.liteData(res)!.body;
}

async function table(title: string, contenders: Contender[]): Promise<void> {
  for (const v of variants) {
    for (const c of contenders) {
      const stop = c.around?.();
      const got = body(c, requestOf(v.headers));
      stop?.();
      if (got !== v.want) fail(`${c.name}, ${v.name}: the body differs from bench/e2e's`);
    }
  }
  const rows: string[][] = [];
  for (const v of variants) {
    const req = requestOf(v.headers);
    const ops = await timeOps(
      contenders.map((c) => {
        const run = repeat(() => body(c, req));
        return {
          run: (reps: number) => {
            const stop = c.around?.();
            const out = run(reps);
            stop?.();
            return out;
          },
        };
      }),
      TIMING,
    );
    contenders.forEach((c, i) =>
      rows.push([
        `${v.name}: ${c.name}`,
        formatInt(median(ops[i]!)),
        (1e6 / median(ops[i]!)).toFixed(2),
        formatSpread(ops[i]!),
        (1 / medianRatio(ops[i]!, ops[0]!)).toFixed(3) + '×',
      ]),
    );
  }
  console.log(`\n${title}`);
  printTable(['request: pipeline', 'req/s', 'µs/req', 'spread', `CPU/req vs ${contenders[0]!.name}`], rows);
}

async function main() {
  const here: Core = { ...current, liteData };
  const ref = process.env.BASE;
  const first: Contender[] = [];
  if (ref) {
    const base = await baseCore(ref);
    first.push({ name: `base (${ref})`, core: base, mux: muxOf(base) });
  }
  first.push({ name: 'no subscriber', core: here, mux: muxOf(here) });
  let entry: unknown;
  first.push({ name: 'access log', core: here, mux: muxOf(here, { accessLog: (e) => (entry = e) }) });
  console.log(`bench/tracing: ${environment()}; ${TIMING.rounds} interleaved rounds of ${TIMING.roundMs} ms, medians`);
  await table('Nobody subscribes (the access log is the mount option, no channel):', first);
  if (entry === undefined) fail('the access log wrote nothing');

  const tracePagetree = await recipe();
  let spans = 0;
  const exporter: SpanExporter = {
    export: (batch, done) => {
      spans += batch.length;
      done({ code: 0 });
    },
    shutdown: async () => {},
  };
  const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer('bench');
  const second: Contender[] = [
    { name: 'no subscriber', core: here, mux: muxOf(here) },
    { name: 'empty subscribers', core: here, mux: muxOf(here), around: emptySubscribers },
    { name: 'OpenTelemetry', core: here, mux: muxOf(here), around: () => tracePagetree(tracer) },
  ];
  await table(
    'Subscribed: functions that do nothing on every event, then the OpenTelemetry recipe (3 spans per request, exported to nowhere):',
    second,
  );
  if (spans === 0) fail('the recipe made no spans');
}

runMain(main);
