// One server of bench/runtimes on Deno, run by run.ts as `deno run --config bench/runtimes/deno.json
// bench/runtimes/deno.ts <name>` (deno.json gives the JSX settings and maps pagetree/jsx-runtime to its source):
//
//   Deno.serve   rawFetch in Deno.serve     hono   Hono's app.fetch     pagetree   mux.fetch in Deno.serve
//   Deno.serve+als   rawFetch in AsyncLocalStorage.run (apps.ts's alsFetch)
//   pagetree-direct   the mux's answers made Responses with nothing around them (apps.ts's directFetch)

import process from 'node:process';
import { HOST, alsFetch, directFetch, honoApp, listening, pagetreeMux, rawFetch } from './apps.ts';

// The little of Deno's API used here (Deno's types are not on npm).
declare const Deno: {
  serve(
    options: { hostname: string; port: number; onListen(addr: { port: number }): void },
    handler: (req: Request) => Response | Promise<Response>,
  ): unknown;
};

const servers = ['Deno.serve', 'Deno.serve+als', 'hono', 'pagetree', 'pagetree-direct'] as const;

function serveFetch(handler: (req: Request) => Response | Promise<Response>): void {
  Deno.serve({ hostname: HOST, port: 0, onListen: ({ port }) => listening(port) }, handler);
}

function main(name: string | undefined): void {
  switch (name) {
    case 'Deno.serve':
      return serveFetch(rawFetch);
    case 'Deno.serve+als':
      return serveFetch(alsFetch());
    case 'hono':
      return serveFetch(honoApp().fetch);
    case 'pagetree':
      return serveFetch(pagetreeMux().fetch);
    case 'pagetree-direct':
      return serveFetch(directFetch(pagetreeMux()));
    default:
      throw new Error(`bench/runtimes/deno.ts: unknown server ${JSON.stringify(name)}; one of ${servers.join(', ')}`);
  }
}

if (typeof Deno !== 'undefined') main(process.argv[2]);
