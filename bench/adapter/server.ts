// One server of the adapter benchmark, run as a child process by run.ts:
//
//   node --import tsx bench/adapter/server.ts <kind>
//
// It listens on 127.0.0.1 (a free port), tells the parent the port over IPC,
// answers {cpu: true} with its CPU time so far (bench/lib/child.ts), and exits
// when the parent goes away or sends SIGTERM.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ServeMux } from '../../core/index.ts';
import { serve } from '../../core/node/index.ts';
import { liteResponse } from '../../core/kernel/answer.ts';
import { listening as tellPort, rawParam, serveParent } from '../lib/child.ts';
import { contentType, helloPage } from './page.ts';

/** The servers, by the name run.ts passes. */
export const kinds = ['node:http', 'pagetree lite', 'pagetree Response', 'hono'] as const;
export type Kind = (typeof kinds)[number];

const HOST = '127.0.0.1';

function listening(server: Server): void {
  tellPort((server.address() as AddressInfo).port);
}

// Raw node:http: the route matched by hand, the same string written with
// content-type and content-length.
function rawNode(): void {
  const prefix = '/hello/';
  const server = createServer((req, res) => {
    const name = rawParam(req.method, req.url, prefix);
    if (name !== undefined) {
      const body = helloPage(name);
      res.writeHead(200, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
      res.end(body);
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('404 page not found\n');
  });
  server.listen(0, HOST, () => listening(server));
}

// pagetree: a ServeMux served by `serve` (toNodeListener on node:http).
function pagetree(lite: boolean): void {
  const mux = new ServeMux();
  if (lite) {
    // What the page pipeline returns: a LiteResponse the adapter writes directly.
    mux.handleFunc('GET /hello/{name}', (req) =>
      liteResponse(200, helloPage(req.pathValue('name')), { 'content-type': contentType }),
    );
  } else {
    // A real Web Response, which the adapter streams.
    mux.handleFunc(
      'GET /hello/{name}',
      (req) => new Response(helloPage(req.pathValue('name')), { headers: { 'content-type': contentType } }),
    );
  }
  const server = serve(mux, { port: 0, hostname: HOST, onListen: () => listening(server) });
}

// Hono on @hono/node-server, with its defaults (it replaces the global
// Request/Response with its lighter ones).
async function hono(): Promise<void> {
  const { Hono } = await import('hono');
  const { serve: honoServe } = await import('@hono/node-server');
  const app = new Hono();
  app.get('/hello/:name', (c) => c.body(helloPage(c.req.param('name')), 200, { 'content-type': contentType }));
  honoServe({ fetch: app.fetch, port: 0, hostname: HOST }, (info) => tellPort(info.port));
}

function main(): void {
  const kind = process.argv[2] as Kind;
  serveParent('bench/adapter/server.ts');
  switch (kind) {
    case 'node:http':
      return rawNode();
    case 'pagetree lite':
      return pagetree(true);
    case 'pagetree Response':
      return pagetree(false);
    case 'hono':
      void hono();
      return;
    default:
      throw new Error(`bench/adapter/server.ts: unknown server ${JSON.stringify(kind)}; one of ${kinds.join(', ')}`);
  }
}

if (require.main === module) main();
