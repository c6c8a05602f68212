// What a user feels in the editor: how long tsserver takes to answer after an edit, in the file of the 1,000-route
// app (apps.ts, the urlfor program: every call through `Register`), beside Hono RPC's app of the same routes.
//
//   npx tsx bench/types/editor.ts            ROUTES=1000, ROUNDS=5 by default
//   DIST=/tmp/base/dist npx tsx bench/types/editor.ts    against another build's declarations (an A/B)
//
// For each app, a tsserver of the root's TypeScript opens the file and reports its diagnostics (the first check);
// then each round edits the last call's params (`id19: 19` → `id19: 20`, as a user types) and times
//   completion    `completionInfo` at the first param of that call (the names urlFor / $url accept)
//   diagnostics   `geterr` to the file's `semanticDiag` event (every call of the file checked again)
// Each request is checked before it is timed: the completions hold the call's own param names, the diagnostics
// are empty.

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { environment, runMain, setting } from '../lib/main.ts';
import { fail, median, printTable } from '../lib/report.ts';
import { appSource, emitDeclarations, shapeOf } from './apps.ts';

const ROUTES = setting('ROUTES', 1000, 20, 5000);
const RUNS = setting('ROUNDS', 5);
// Inside run.ts's folder for generated programs (ignored by git); run one of the two at a time.
const dir = join(__dirname, '.generated', 'editor');

interface Message {
  type: 'response' | 'event';
  request_seq?: number;
  command?: string;
  event?: string;
  success?: boolean;
  message?: string;
  body?: unknown;
}

// A tsserver over its own protocol: requests as JSON lines on stdin, messages framed with Content-Length on stdout.
class TsServer {
  readonly #proc: ChildProcessWithoutNullStreams;
  #seq = 0;
  #buffer = Buffer.alloc(0);
  readonly #waiting: { test: (m: Message) => boolean; resolve: (m: Message) => void }[] = [];

  constructor(cwd: string) {
    const tsserver = require.resolve('typescript/lib/tsserver.js');
    this.#proc = spawn(process.execPath, [tsserver, '--disableAutomaticTypingAcquisition'], { cwd });
    this.#proc.stdout.on('data', (chunk: Buffer) => this.#read(chunk));
    this.#proc.stderr.resume();
  }

  #read(chunk: Buffer): void {
    this.#buffer = Buffer.concat([this.#buffer, chunk]);
    for (;;) {
      const head = this.#buffer.indexOf('\r\n\r\n');
      if (head < 0) return;
      const length = Number(/Content-Length: (\d+)/.exec(this.#buffer.subarray(0, head).toString())?.[1]);
      if (this.#buffer.length < head + 4 + length) return;
      const body = this.#buffer.subarray(head + 4, head + 4 + length).toString();
      this.#buffer = this.#buffer.subarray(head + 4 + length);
      const msg = JSON.parse(body) as Message;
      const i = this.#waiting.findIndex((w) => w.test(msg));
      if (i >= 0) this.#waiting.splice(i, 1)[0]!.resolve(msg);
    }
  }

  #next(test: (m: Message) => boolean): Promise<Message> {
    return new Promise((resolve) => this.#waiting.push({ test, resolve }));
  }

  /** Sends a request; resolves with its response (a failed one throws). */
  async request(command: string, args: object): Promise<Message> {
    const seq = ++this.#seq;
    const answer = this.#next((m) => m.type === 'response' && m.request_seq === seq);
    this.#proc.stdin.write(JSON.stringify({ seq, type: 'request', command, arguments: args }) + '\n');
    const msg = await answer;
    if (!msg.success) throw new Error(`tsserver ${command}: ${msg.message}`);
    return msg;
  }

  /** Sends a request that has no response (open, change, geterr). */
  send(command: string, args: object): void {
    this.#proc.stdin.write(JSON.stringify({ seq: ++this.#seq, type: 'request', command, arguments: args }) + '\n');
  }

  event(name: string): Promise<Message> {
    return this.#next((m) => m.type === 'event' && m.event === name);
  }

  close(): void {
    this.#proc.kill();
  }
}

interface Figures {
  first: number;
  completion: number[];
  diagnostics: number[];
}

async function diagnostics(server: TsServer, file: string): Promise<number> {
  const start = performance.now();
  const done = server.event('semanticDiag');
  server.send('geterr', { files: [file], delay: 0 });
  const diag = (await done).body as { diagnostics: { text: string }[] };
  const ms = performance.now() - start;
  if (diag.diagnostics.length > 0) fail(`${file}: ${diag.diagnostics.map((d) => d.text).join('; ')}`);
  return ms;
}

async function measure(file: string, source: string, lastCall: string, expectedName: string): Promise<Figures> {
  writeFileSync(file, source);
  const server = new TsServer(dir);
  try {
    server.send('open', { file });
    const first = await diagnostics(server, file);
    const lines = source.split('\n');
    const line = lines.findIndex((l) => l === lastCall) + 1;
    if (line === 0) fail(`${file}: no line ${lastCall}`);
    const figures: Figures = { first, completion: [], diagnostics: [] };
    let text = lastCall;
    for (let round = 0; round < RUNS; round++) {
      // The edit: the last param's value, as a user types it (19 → 20 → 21 …; Hono's in quotes).
      const next = text.replace(/(\d+)('? \} \}?\);)$/, (_, n: string, rest: string) => `${Number(n) + 1}${rest}`);
      server.send('change', {
        file,
        line,
        offset: 1,
        endLine: line,
        endOffset: text.length + 1,
        insertString: next,
      });
      text = next;
      // Completions at the first param name of the params object (the others are written: not offered).
      const offset = text.lastIndexOf('{ ') + 3;
      const start = performance.now();
      const completion = await server.request('completionInfo', { file, line, offset });
      figures.completion.push(performance.now() - start);
      const names = (completion.body as { entries: { name: string }[] }).entries.map((e) => e.name);
      if (!names.includes(expectedName)) fail(`${file}: no completion "${expectedName}" (got ${names.slice(0, 10)})`);
      figures.diagnostics.push(await diagnostics(server, file));
    }
    return figures;
  } finally {
    server.close();
  }
}

runMain(
  async () => {
    const shape = shapeOf(ROUTES, false);
    const g = shape.groups - 1;
    const p = shape.pages - 1;
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    // DIST=<dir> checks against declarations built elsewhere (another checkout's `dist/`, for an A/B).
    if (process.env.DIST) cpSync(process.env.DIST, join(dir, 'dist'), { recursive: true });
    else emitDeclarations(dir);
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          skipLibCheck: true,
          noEmit: true,
          module: 'nodenext',
          target: 'es2022',
          types: ['node'],
        },
        files: ['urlfor.ts', 'hono.ts'],
      }),
    );
    const apps = [
      {
        name: `pagetree urlFor`,
        file: join(dir, 'urlfor.ts'),
        source: appSource('urlfor', shape),
        lastCall: `urlFor(Page${g}x${p}, { group${g}: 'g', id${p}: ${p} });`,
        expected: `group${g}`,
      },
      {
        name: 'Hono RPC $url',
        file: join(dir, 'hono.ts'),
        source: appSource('hono', shape),
        lastCall: `client.group${g}[':group${g}'].item${p}[':id${p}'].$url({ param: { group${g}: 'g', id${p}: '${p}' } });`,
        expected: `group${g}`,
      },
    ];
    const rows: string[][] = [];
    for (const app of apps) {
      const f = await measure(app.file, app.source, app.lastCall, app.expected);
      const ms = (x: number) => `${Math.round(x)} ms`;
      rows.push([app.name, ms(f.first), ms(median(f.completion)), ms(median(f.diagnostics))]);
      console.error(`  ${rows[rows.length - 1]!.join('  ')}`);
    }
    console.log(`bench/types editor: ${environment()}; ${ROUTES} routes, tsserver of the root's TypeScript`);
    printTable(
      ['app', 'first diagnostics', `completion after an edit (median of ${RUNS})`, `diagnostics after an edit`],
      rows,
    );
  },
  () => rmSync(dir, { recursive: true, force: true }),
);
