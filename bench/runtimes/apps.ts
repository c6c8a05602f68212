// The fetch handlers bench/runtimes serves on Bun and Deno: bench/e2e's page for GET /lists/{listId}, or its list
// alone for an htmx request that targets the list (bench/e2e/page.tsx), byte for byte as bench/e2e's servers answer.
//
//   rawFetch          the route matched by hand on req.url, a new Response(html, { headers })
//   alsFetch()        rawFetch inside AsyncLocalStorage.run(req, …): what the runtime charges for a request context
//   honoApp().fetch   Hono 4: app.get('/lists/:listId'), c.body(html, 200, headers)
//   pagetreeMux()     bench/e2e/app.tsx mounted on a ServeMux; served by mux.fetch
//   directFetch(mux)  the same mux without mux.fetch's wrapper: what a native adapter for Bun or Deno could do at best
//
// bun.ts and deno.ts serve them, with Bun.serve and Deno.serve; Elysia, Bun's own, is in bun.ts.

import { AsyncLocalStorage } from 'node:async_hooks';
import process from 'node:process';
import { Hono } from 'hono';
import { ServeMux, mount } from '../../core/index.ts';
import { toResponse } from '../../core/kernel/answer.ts';
import { App, ListPage } from '../e2e/app.tsx';
import { LIST_ID, contentType, fullPage, loadList, partialPage, vary, wantsPartial } from '../e2e/page.tsx';
import { rawParam } from '../lib/child.ts';

/** Every server binds this address only. */
export const HOST = '127.0.0.1';

const headers = { 'content-type': contentType, vary };

/** The page or the list alone, as every server but pagetree renders it. */
export function listHtml(listId: string, hxRequest: string | null | undefined, hxTarget: string | null | undefined) {
  const list = loadList(listId);
  return wantsPartial(hxRequest, hxTarget) ? partialPage(list) : fullPage(list);
}

/**
 * Raw: the path cut out of the absolute URL the runtime hands over, matched as bench/e2e's node:http server does.
 * @example await rawFetch(new Request('http://x/lists/groceries')) // → 200, the whole page
 */
export function rawFetch(req: Request): Response {
  const url = req.url;
  const listId = rawParam(req.method, url.slice(url.indexOf('/', url.indexOf('//') + 2)), '/lists/');
  if (listId === undefined) return new Response('404 page not found\n', { status: 404 });
  return new Response(listHtml(listId, req.headers.get('hx-request'), req.headers.get('hx-target')), { headers });
}

/**
 * rawFetch inside `AsyncLocalStorage.run(req, …)`, as pagetree runs each request (bench/e2e's node:http+als): what the
 * runtime charges for a request context that survives an `await`, apart from any framework.
 * @example Deno.serve(alsFetch())
 */
export function alsFetch(): (req: Request) => Response {
  const store = new AsyncLocalStorage<Request>();
  return (req) => store.run(req, rawFetch, req);
}

/** Hono 4 with its defaults, the handler as in bench/e2e. */
export function honoApp(): Hono {
  const app = new Hono();
  app.get('/lists/:listId', (c) =>
    c.body(listHtml(c.req.param('listId'), c.req.header('hx-request'), c.req.header('hx-target')), 200, headers),
  );
  return app;
}

/** bench/e2e's page class mounted on a ServeMux, after checking it generates the id the others write. */
export function pagetreeMux(): ServeMux {
  const mux = new ServeMux();
  // compress: false, as the others (on Bun pagetree compresses by default, and says so in Vary even to a client
  // that accepts no coding, as wrk does).
  const generated = mount(mux, App, '/', '', { compress: false }).id(ListPage.prototype.items);
  if (generated !== LIST_ID) {
    throw new Error(`bench/runtimes: pagetree's id for ListPage.items is ${generated}; set LIST_ID in page.tsx to it`);
  }
  return mux;
}

/**
 * The mux's answer made a Response with nothing around it: no async function, no hand-over of the runtime's second
 * argument, no HEAD check, no net for a handler that throws. A native adapter (Bun.serve or Deno.serve called by
 * pagetree itself) must still hand the runtime one Response per request, so this is the least it could cost: if it
 * is not measurably cheaper than mux.fetch, neither would such an adapter be (issue 28).
 * @example Bun.serve({ fetch: directFetch(pagetreeMux()) })
 */
export function directFetch(mux: ServeMux): (req: Request) => Response | Promise<Response> {
  return (req) => {
    const res = mux.serveHTTP(req);
    return res instanceof Promise ? res.then(toResponse) : toResponse(res);
  };
}

/**
 * Tells the parent (bench/lib/servers.ts's startCommand) the port on stdout, and exits when the parent closes this
 * process's stdin (it has no IPC channel on these runtimes).
 */
export function listening(port: number): void {
  process.stdout.write(`listening on ${port}\n`);
  process.stdin.on('end', () => process.exit(0));
  process.stdin.resume();
}
