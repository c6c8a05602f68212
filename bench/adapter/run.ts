// HTTP throughput on node:http for GET /hello/{name} answering ~2 KB of HTML: raw node:http, pagetree (a
// LiteResponse, a real Response) and Hono on @hono/node-server, each a child process (server.ts). The servers must
// first send the same status, content-type and body bytes; lib/server-bench.ts then times them in interleaved rounds,
// ratios to raw node:http.
//
//   npm run bench:adapter        (ROUNDS=3 npm run bench:adapter for a quick look)

import { fail, printTable } from '../lib/report.ts';
import { runBench } from '../lib/server-bench.ts';
import { framing, send, type Server } from '../lib/servers.ts';
import { contentType, helloPage, helloPath } from './page.ts';
import { kinds, type Kind } from './server.ts';

/** Fails unless every server answers the page with the same status, content-type and bytes. */
async function check(servers: readonly Server<Kind>[]): Promise<void> {
  const want = Buffer.from(helloPage('world'));
  const rows: string[][] = [];
  for (const s of servers) {
    const a = await send(s.port, { path: helloPath });
    if (a.status !== 200) fail(`${s.kind}: status ${a.status}`);
    if (a.headers['content-type'] !== contentType) fail(`${s.kind}: content-type ${a.headers['content-type']}`);
    if (!a.body.equals(want)) fail(`${s.kind}: the body differs from the expected ${want.length} bytes`);
    rows.push([s.kind, String(a.status), String(a.headers['content-type']), `${a.body.length} B`, framing(a)]);
  }
  console.log(`check: every server answers GET ${helloPath} with the same status, content-type and body.`);
  printTable(['server', 'status', 'content-type', 'body', 'framing'], rows);
}

runBench({
  name: 'bench/adapter',
  serverScript: 'bench/adapter/server.ts',
  kinds,
  cases: [{ name: `page (${Buffer.byteLength(helloPage('world'))} B of HTML)`, path: helloPath }],
  check,
  rounds: 12,
  warmupSeconds: 3,
});
