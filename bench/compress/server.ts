// The server of bench/compress, started by run.ts: the example app (pages-example) on a fresh SQLite file with
// TASKS tasks, served by `serve` with mount's default compression. It tells the parent whether this node has zstd.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as zlib from 'node:zlib';
import { serve } from '../../core/node/index.ts';
import { createApp } from '../../pages-example/app.tsx';
import { benchAdmin } from '../lib/admin.ts';
import { listening, serveParent } from '../lib/child.ts';

serveParent('bench/compress/server.ts');

const tasks = Number(process.argv[2] ?? 20);
const { mux, store } = createApp({
  databasePath: join(mkdtempSync(join(tmpdir(), 'pagetree-compress-')), 'tasks.db'),
  admin: benchAdmin,
});
void (async () => {
  for (let i = 1; i <= tasks; i++)
    await store.addTask(`Task ${i}: ${['buy milk', 'call the plumber', 'file the taxes', 'water the plants'][i % 4]}`);
  const server = serve(mux, {
    port: 0,
    hostname: '127.0.0.1',
    handleSignals: false,
    onListen: () =>
      listening((server.address() as { port: number }).port, { zstd: String('zstdCompressSync' in zlib) }),
  });
})();
