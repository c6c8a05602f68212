// The server of bench/fanout: the example app (pages-example) on a fresh SQLite file, served by `serve`.
// Started by run.ts; its dashboard's live counts (GET /admin/events) are what the clients watch.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '../../core/node/index.ts';
import { createApp } from '../../pages-example/app.tsx';
import { benchAdmin } from '../lib/admin.ts';
import { listening, serveParent } from '../lib/child.ts';

serveParent('bench/fanout/server.ts');

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
