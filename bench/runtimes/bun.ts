// One server of bench/runtimes on Bun, run by run.ts as `bun bench/runtimes/bun.ts <name>` (Bun reads the
// TypeScript and tsconfig.json's JSX settings itself):
//
//   Bun.serve   rawFetch in Bun.serve          hono      Hono's app.fetch in Bun.serve
//   Bun.serve+als   rawFetch in AsyncLocalStorage.run (apps.ts's alsFetch)
//   elysia      Elysia's listen (Bun.serve)    pagetree  mux.fetch in Bun.serve
//   pagetree-direct   the mux's answers made Responses with nothing around them (apps.ts's directFetch)
//   pagetree-bun   pagetree/bun's serve(mux): Bun.serve, a synchronous page answered without a promise

import process from 'node:process';
import { Elysia } from 'elysia';
import { serve } from '../../core/bun/index.ts';
import { HOST, alsFetch, directFetch, honoApp, listHtml, listening, pagetreeMux, rawFetch } from './apps.ts';
import { contentType, vary } from '../e2e/page.tsx';

// The little of Bun's API used here (@types/bun does not compile against @types/node 20).
declare const Bun: {
  serve(options: { hostname: string; port: number; fetch(req: Request): Response | Promise<Response> }): {
    port: number;
  };
};

const servers = [
  'Bun.serve',
  'Bun.serve+als',
  'hono',
  'elysia',
  'pagetree',
  'pagetree-direct',
  'pagetree-bun',
] as const;

function serveFetch(fetch: (req: Request) => Response | Promise<Response>): void {
  listening(Bun.serve({ hostname: HOST, port: 0, fetch }).port);
}

// Elysia as its documentation writes a handler: the headers set on `set`, the string returned.
function elysia(): void {
  const app = new Elysia().get('/lists/:listId', ({ params, headers, set }) => {
    set.headers['content-type'] = contentType;
    set.headers.vary = vary;
    return listHtml(params.listId, headers['hx-request'], headers['hx-target']);
  });
  app.listen({ hostname: HOST, port: 0 }, (server) => listening(server.port!));
}

function main(name: string | undefined): void {
  switch (name) {
    case 'Bun.serve':
      return serveFetch(rawFetch);
    case 'Bun.serve+als':
      return serveFetch(alsFetch());
    case 'hono':
      return serveFetch(honoApp().fetch);
    case 'elysia':
      return elysia();
    case 'pagetree':
      return serveFetch(pagetreeMux().fetch);
    case 'pagetree-direct':
      return serveFetch(directFetch(pagetreeMux()));
    case 'pagetree-bun':
      return listening(serve(pagetreeMux(), { hostname: HOST, port: 0 }).port);
    default:
      throw new Error(`bench/runtimes/bun.ts: unknown server ${JSON.stringify(name)}; one of ${servers.join(', ')}`);
  }
}

if (typeof Bun !== 'undefined') main(process.argv[2]);
