// The servers of bench/fanout, started by run.ts:
//
//   example   the example app (pages-example) on a fresh SQLite file, served by `serve`: its dashboard's live
//             counts (GET /admin/events) are what the clients watch, and POST / adds a task
//   bare      the floor: node:http and no framework. GET /admin/events answers the same headers and first line;
//             POST / writes one event of the same size to every open stream, framed once, one socket.write each
//             (what 5,000 sockets cost the kernel and node), then answers 303

import { mkdtempSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '../../core/node/index.ts';
import { createApp } from '../../pages-example/app.tsx';
import { benchAdmin } from '../lib/admin.ts';
import { listening, serveParent } from '../lib/child.ts';

serveParent('bench/fanout/server.ts');

const kind = process.argv[2];
if (kind === 'example') {
  const { mux } = createApp({
    databasePath: join(mkdtempSync(join(tmpdir(), 'pagetree-fanout-')), 'tasks.db'),
    admin: benchAdmin,
  });
  const server = serve(mux, {
    port: 0,
    hostname: '127.0.0.1',
    handleSignals: false,
    maxConnections: 100_000, // this benchmark opens more streams than a default server takes
    onListen: () => listening((server.address() as { port: number }).port),
  });
} else if (kind === 'bare') {
  const streams = new Set<ServerResponse>();
  let total = 0;
  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/admin/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
      res.write(': ok\n');
      streams.add(res);
      res.once('close', () => streams.delete(res));
      return;
    }
    req.resume().once('end', () => {
      total++;
      const event = `data: <b class="open">${total}</b> open · <b class="done">0</b> done · <b class="total">${total}</b> tasks\n\n`;
      const bytes = Buffer.from(event);
      const chunk = Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from('\r\n')]);
      for (const stream of streams) stream.socket!.write(chunk);
      res.writeHead(303, { location: '/', 'content-length': '0' }).end();
    });
  });
  server.listen(0, '127.0.0.1', () => listening((server.address() as { port: number }).port));
} else {
  throw new Error(`bench/fanout/server.ts: unknown server ${JSON.stringify(kind)}; give example or bare`);
}
