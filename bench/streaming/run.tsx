// Streamed full pages (issue 29, item 1): time to first byte and to last byte of a page with one 500 ms section,
// streamed (`stream = true`, the section in a <Suspense>) and rendered whole (the same page without `stream`), over
// node:http on loopback through `serve`, with and without compression (br, as a browser asks: the streamed one
// through a brotli context flushed per chunk, the whole one through brotliCompressSync). Each request is timed
// from the request's start to the first and the last byte of the body; the contenders take turns, RUNS each.
//
// Before timing, the streamed body must carry the whole page's section (the same bytes) and its shell must arrive
// before the section is ready.
//
//   npm run bench:streaming            RUNS=40 SECTION_MS=200 npm run bench:streaming

import { once } from 'node:events';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync } from 'node:zlib';
import { mount, route, ServeMux, Suspense } from '../../core/index.ts';
import { serve, shutdown } from '../../core/node/index.ts';
import { environment, runMain, setting } from '../lib/main.ts';
import { fail, formatInt, median, printTable } from '../lib/report.ts';

const RUNS = setting('RUNS', 25, 5, 200);
const SECTION_MS = setting('SECTION_MS', 500, 1, 5000);

// A layout of the example's size (~8 KB of shell: head, nav, a 40-row table) and one slow section.
function Layout({ children }: { children: JSX.Element }) {
  const rows = Array.from({ length: 40 }, (_, i) => (
    <tr>
      <td safe>{String(i)}</td>
      <td safe>Task number {String(i)} with a title of some length</td>
      <td>
        <button hx-post={`/tasks/${i}/done`} hx-target="closest tr" hx-swap="outerHTML">
          Done
        </button>
      </td>
    </tr>
  ));
  return (
    <>
      {'<!doctype html>'}
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <title>Tasks</title>
          <link rel="stylesheet" href="/static/app.css" />
          <script src="/static/htmx.js" defer></script>
        </head>
        <body>
          <nav>
            <a href="/">Home</a> <a href="/tasks">Tasks</a> <a href="/admin/">Admin</a>
          </nav>
          <main>
            <table>{rows}</table>
            {children}
          </main>
        </body>
      </html>
    </>
  );
}

async function Recommendations() {
  await new Promise((r) => setTimeout(r, SECTION_MS));
  return (
    <ul id="recommendations">
      {Array.from({ length: 10 }, (_, i) => (
        <li safe>Recommended item {String(i)}</li>
      ))}
    </ul>
  );
}

class WholePage {
  page() {
    return (
      <Layout>
        <Suspense fallback={<p>Loading recommendations…</p>}>
          <Recommendations />
        </Suspense>
      </Layout>
    );
  }
}

// The same page, streamed: the one difference between the two contenders.
class StreamedPage extends WholePage {
  stream = true;
}

class App {
  streamed = route('/streamed', StreamedPage);
  whole = route('/whole', WholePage);
}

interface Timing {
  firstMs: number;
  lastMs: number;
  bytes: number;
  body: Buffer;
}

function timed(port: number, path: string, encoding: string): Promise<Timing> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    let firstMs = -1;
    const chunks: Buffer[] = [];
    const req = request(
      { host: '127.0.0.1', port, path, headers: { 'accept-encoding': encoding, connection: 'close' } },
      (res) => {
        res.on('data', (c: Buffer) => {
          if (firstMs < 0) firstMs = performance.now() - t0;
          chunks.push(c);
        });
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          const plain = res.headers['content-encoding'] === 'br' ? brotliDecompressSync(body) : body;
          resolve({ firstMs, lastMs: performance.now() - t0, bytes: body.byteLength, body: plain });
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

async function main(): Promise<void> {
  const mux = new ServeMux();
  mount(mux, App, '/', 'App');
  const server = serve(mux, { port: 0, hostname: '127.0.0.1', handleSignals: false, onListen: () => {} });
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  try {
    const contenders = [
      ['whole page', '/whole', 'identity'],
      ['streamed', '/streamed', 'identity'],
      ['whole page, br', '/whole', 'br'],
      ['streamed, br (flushed per chunk)', '/streamed', 'br'],
    ] as const;
    // Checks: the same section in both; the streamed shell before the section.
    const whole = (await timed(port, '/whole', 'identity')).body.toString();
    const section = /<ul id="recommendations">.*?<\/ul>/.exec(whole)?.[0] ?? fail('no section in the whole page');
    for (const [name, path, enc] of contenders) {
      const t = await timed(port, path, enc);
      if (!t.body.toString().includes(section)) fail(`${name}: the section differs`);
      if (path === '/streamed' && t.firstMs > SECTION_MS / 2) fail(`${name}: first byte after ${t.firstMs} ms`);
    }
    const results = new Map<string, Timing[]>(contenders.map(([name]) => [name, []]));
    for (let run = 0; run < RUNS; run++) {
      for (const [name, path, enc] of contenders) results.get(name)!.push(await timed(port, path, enc));
    }
    console.log(`\nbench/streaming: ${environment()}; a page with one ${SECTION_MS} ms section, medians of ${RUNS}`);
    console.log('runs over node:http on loopback (serve, one connection per request)\n');
    printTable(
      ['answer', 'time to first byte', 'time to last byte', 'bytes on the wire'],
      contenders.map(([name]) => {
        const ts = results.get(name)!;
        return [
          name,
          `${median(ts.map((t) => t.firstMs)).toFixed(1)} ms`,
          `${median(ts.map((t) => t.lastMs)).toFixed(1)} ms`,
          formatInt(median(ts.map((t) => t.bytes))),
        ];
      }),
    );
  } finally {
    await shutdown(server, 1000);
  }
}

runMain(main);
