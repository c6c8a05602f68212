// The soak benchmark's server, run as a child process by run.ts (with --expose-gc):
//
//   node --expose-gc --import tsx bench/soak/server.ts example
//
// The example app as pages-example/main.ts serves it, on an in-memory
// database, bound to 127.0.0.1 (a free port). It tells the parent the port and
// the element ids the htmx requests target, then answers the parent's CPU and
// memory questions over IPC (bench/lib/child.ts).

import type { AddressInfo } from 'node:net';
import { serve } from 'pagetree/node';
import { UserPage } from '../../pages-example/admin.tsx';
import { createApp } from '../../pages-example/app.tsx';
import { TasksPage } from '../../pages-example/tasks.tsx';
import { benchAdmin } from '../lib/admin.ts';
import { listening, serveParent } from '../lib/child.ts';

serveParent('bench/soak/server.ts');
const { mux, tree } = createApp({ databasePath: ':memory:', admin: benchAdmin });
const server = serve(mux, {
  port: 0,
  hostname: '127.0.0.1',
  onListen: () =>
    listening((server.address() as AddressInfo).port, {
      taskList: tree.id(TasksPage.prototype.taskList),
      addForm: tree.id(TasksPage.prototype.addForm),
      activityList: tree.id(UserPage.prototype.activityList),
    }),
});
