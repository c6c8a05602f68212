// One server of the e2e benchmark, run as a child process by run.ts:
//
//   node --import tsx bench/e2e/server.tsx <kind>
//
// Each answers GET /lists/{listId} with bench/e2e/page.tsx's page, or its list
// alone for an htmx request that targets the list. It listens on 127.0.0.1 (a
// free port) and talks to the parent over IPC (bench/lib/child.ts).

import { AsyncLocalStorage } from 'node:async_hooks';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ServeMux, mount } from '../../core/index.ts';
import { serve } from '../../core/node/index.ts';
import { listening, rawParam, serveParent } from '../lib/child.ts';
import { App, ListPage } from './app.tsx';
import { LIST_ID, contentType, fullPage, loadList, partialPage, vary, wantsPartial } from './page.tsx';

/** The servers, by the name run.ts passes; the first is the baseline of the ratios. */
export const kinds = ['node:http', 'node:http+als', 'fastify', 'hono', 'pagetree'] as const;
export type Kind = (typeof kinds)[number];

const HOST = '127.0.0.1';

// Raw node:http: the route matched by hand, the string written with content-type and content-length. With `als`,
// each request runs inside AsyncLocalStorage.run, as pagetree's do (its currentPage(), urlFor() and htmx helpers
// find the request that way across awaits): what the platform charges for that, apart from the framework.
function rawNode(als: boolean): void {
  const prefix = '/lists/';
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const listId = rawParam(req.method, req.url, prefix);
    if (listId !== undefined) {
      const list = loadList(listId);
      const html = wantsPartial(req.headers['hx-request'] as string | undefined, req.headers['hx-target'] as string)
        ? partialPage(list)
        : fullPage(list);
      res.writeHead(200, { 'content-type': contentType, vary, 'content-length': Buffer.byteLength(html) });
      res.end(html);
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('404 page not found\n');
  };
  const store = new AsyncLocalStorage<IncomingMessage>();
  const server = createServer(als ? (req, res) => store.run(req, handle, req, res) : handle);
  server.listen(0, HOST, () => listening((server.address() as AddressInfo).port));
}

// Fastify 5, no logger; the route's string sent with reply.type().
async function fastify(): Promise<void> {
  const { default: Fastify } = await import('fastify');
  const app = Fastify({ logger: false });
  app.get<{ Params: { listId: string } }>('/lists/:listId', (req, reply) => {
    const list = loadList(req.params.listId);
    const html = wantsPartial(req.headers['hx-request'] as string | undefined, req.headers['hx-target'] as string)
      ? partialPage(list)
      : fullPage(list);
    return reply.type(contentType).header('vary', vary).send(html);
  });
  await app.listen({ port: 0, host: HOST });
  listening((app.server.address() as AddressInfo).port);
}

// Hono 4 on @hono/node-server, with its defaults (it replaces the global Request/Response with its lighter ones).
async function hono(): Promise<void> {
  const { Hono } = await import('hono');
  const { serve: honoServe } = await import('@hono/node-server');
  const app = new Hono();
  app.get('/lists/:listId', (c) => {
    const list = loadList(c.req.param('listId'));
    const html = wantsPartial(c.req.header('hx-request'), c.req.header('hx-target'))
      ? partialPage(list)
      : fullPage(list);
    return c.body(html, 200, { 'content-type': contentType, vary });
  });
  honoServe({ fetch: app.fetch, port: 0, hostname: HOST }, (info) => listening(info.port));
}

// pagetree: the page class mounted on a ServeMux, served by core/node; the
// pipeline picks page() or items() from the htmx headers.
function pagetree(): void {
  const mux = new ServeMux();
  // compress: false, as the others: none of them compresses, and the load asks for no encoding (with compression on,
  // pagetree's Vary would also name Accept-Encoding, and the check compares it).
  const tree = mount(mux, App, '/', '', { compress: false });
  const generated = tree.id(ListPage.prototype.items);
  if (generated !== LIST_ID) {
    throw new Error(`bench/e2e: pagetree's id for ListPage.items is ${generated}; set LIST_ID in page.tsx to it`);
  }
  const server = serve(mux, {
    port: 0,
    hostname: HOST,
    onListen: () => listening((server.address() as AddressInfo).port),
  });
}

function main(): void {
  const kind = process.argv[2] as Kind;
  serveParent('bench/e2e/server.tsx');
  switch (kind) {
    case 'node:http':
      return rawNode(false);
    case 'node:http+als':
      return rawNode(true);
    case 'fastify':
      void fastify();
      return;
    case 'hono':
      void hono();
      return;
    case 'pagetree':
      return pagetree();
    default:
      throw new Error(`bench/e2e/server.tsx: unknown server ${JSON.stringify(kind)}; one of ${kinds.join(', ')}`);
  }
}

if (require.main === module) main();
