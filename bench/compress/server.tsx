// One server of bench/compress, run as a child process by run.ts, each with its users' default compression:
//
//   node --import tsx bench/compress/server.tsx <kind>
//
//   pagetree        the page class mounted with mount's default `compress`, served by `serve`
//   pagetree@base   the same from $BASE's checkout (its core/, this page): the tree before a change
//   fastify         Fastify 5 + @fastify/compress with its defaults (zstd first where node has it, br quality 4)
//   hono            Hono 4 + `compress()` on @hono/node-server (gzip through CompressionStream)
//
// Each answers GET /tasks with page.tsx's page, or its list alone for an htmx request that targets the list, with a
// fresh token in each. It listens on 127.0.0.1 (a free port) and talks to the parent over IPC (bench/lib/child.ts);
// it tells the parent whether this node has zstd.

import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import * as zlib from 'node:zlib';
import type * as Core from '../../core/index.ts';
import type * as Node from '../../core/node/index.ts';
import { baseRoot } from '../lib/main.ts';
import { listening, serveParent } from '../lib/child.ts';
import {
  LIST_ID,
  TaskList,
  TasksView,
  contentType,
  fullPage,
  htmxVary,
  loadTasks,
  partialPage,
  path,
  wantsPartial,
  type Tasks,
} from './page.tsx';

/** The servers, by the name run.ts passes. */
export const kinds = ['pagetree', 'pagetree@base', 'fastify', 'hono'] as const;
export type Kind = (typeof kinds)[number];

const HOST = '127.0.0.1';
const info = { zstd: String('zstdCompressSync' in zlib) };

// pagetree: the page class on a ServeMux, mount's default compression, served by core/node. With `root`, pagetree
// is taken from another checkout (BASE): the same page, that tree's pipeline and compression.
async function pagetree(root: string | undefined): Promise<void> {
  const core = (root ? await import(join(root, 'core/index.ts')) : await import('../../core/index.ts')) as typeof Core;
  const node = (
    root ? await import(join(root, 'core/node/index.ts')) : await import('../../core/node/index.ts')
  ) as typeof Node;
  class TaskPage {
    props(): Tasks {
      return loadTasks();
    }
    page(t: Tasks) {
      return (
        <TasksView {...t} containerId={core.id(this.taskList)}>
          {this.taskList(t)}
        </TasksView>
      );
    }
    taskList(t: Tasks) {
      return <TaskList {...t} />;
    }
  }
  class App {
    tasks = core.route(`GET ${path}`, TaskPage);
  }
  const mux = new core.ServeMux();
  const generated = core.mount(mux, App, '/', '').id(TaskPage.prototype.taskList);
  if (generated !== LIST_ID) {
    throw new Error(
      `bench/compress: pagetree's id for TaskPage.taskList is ${generated}; set LIST_ID in page.tsx to it`,
    );
  }
  const server = node.serve(mux, {
    port: 0,
    hostname: HOST,
    handleSignals: false,
    onListen: () => listening((server.address() as AddressInfo).port, info),
  });
}

// Fastify 5, no logger, @fastify/compress registered with its defaults; the route sends the htmx Vary, to which the
// plugin adds accept-encoding.
async function fastify(): Promise<void> {
  const { default: Fastify } = await import('fastify');
  const { default: compress } = await import('@fastify/compress');
  const app = Fastify({ logger: false });
  await app.register(compress);
  app.get(path, (req, reply) => {
    const t = loadTasks();
    const html = wantsPartial(req.headers['hx-request'] as string | undefined, req.headers['hx-target'] as string)
      ? partialPage(t)
      : fullPage(t);
    return reply.type(contentType).header('vary', htmxVary).send(html);
  });
  await app.listen({ port: 0, host: HOST });
  listening((app.server.address() as AddressInfo).port, info);
}

// Hono 4 on @hono/node-server, `compress()` with its defaults.
async function hono(): Promise<void> {
  const { Hono } = await import('hono');
  const { compress } = await import('hono/compress');
  const { serve } = await import('@hono/node-server');
  const app = new Hono();
  app.use(compress());
  app.get(path, (c) => {
    const t = loadTasks();
    const html = wantsPartial(c.req.header('hx-request'), c.req.header('hx-target')) ? partialPage(t) : fullPage(t);
    return c.body(html, 200, { 'content-type': contentType, vary: htmxVary });
  });
  serve({ fetch: app.fetch, port: 0, hostname: HOST }, (a) => listening(a.port, info));
}

function main(): void {
  const kind = process.argv[2] as Kind;
  serveParent('bench/compress/server.tsx');
  const started = (p: Promise<void>) =>
    p.catch((err: unknown) => {
      console.error(err);
      process.exit(1);
    });
  switch (kind) {
    case 'pagetree':
      return void started(pagetree(undefined));
    case 'pagetree@base': {
      const root = baseRoot();
      if (root === undefined) throw new Error('pagetree@base: set BASE to another checkout (bench/lib/main.ts)');
      return void started(pagetree(root));
    }
    case 'fastify':
      return void started(fastify());
    case 'hono':
      return void started(hono());
    default:
      throw new Error(`bench/compress/server.tsx: unknown server ${JSON.stringify(kind)}; one of ${kinds.join(', ')}`);
  }
}

if (require.main === module) main();
