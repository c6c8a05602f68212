// Development only: the open browser tab reloads when the server restarts.
//
//   npm run dev   (tsx watch restarts the process on every change)
//
//   GET /__pagetree/live-reload   → "3f2c…" (this process's id, no-store)
//   a full HTML page              → … <script>…</script></body>   (polls the id every 500 ms;
//                                                                   another id means a restart: reload)
//
// Polling, not a server-sent stream: a stream held open would keep a graceful
// shutdown waiting for it on every restart. Nothing of this exists unless the
// app mounts it, so production responses carry no reload code.

import type { HandlerFunc, PageRequest } from '../kernel/request.ts';
import type { ServeMux } from '../mux/serve-mux.ts';

/** Where `liveReload` answers with the server's id, unless told otherwise. */
const defaultPath = '/__pagetree/live-reload';

/**
 * Reloads open pages when the server restarts, for a dev loop (`tsx watch`,
 * `node --watch`): registers `GET /__pagetree/live-reload` on the mux and
 * returns a middleware that adds a small polling script to full HTML pages
 * (not to htmx partials). Mount it in development only.
 * @example mount(mux, App, '/', 'Home', { middlewares: dev ? [liveReload(mux)] : [] })
 */
export function liveReload(mux: ServeMux, path: string = defaultPath): (next: HandlerFunc) => HandlerFunc {
  const id = crypto.randomUUID();
  mux.handleFunc(`GET ${path}`, () => new Response(id, { headers: { 'cache-control': 'no-store' } }));
  const script =
    `<script>(()=>{let id;const poll=async()=>{try{const r=await fetch(${JSON.stringify(path)},{cache:"no-store"});` +
    `const now=await r.text();if(id!==undefined&&now!==id){location.reload();return}id=now}catch{}` +
    `setTimeout(poll,500)};poll()})()</script>`;
  return (next) => async (req: PageRequest) => {
    const res = await next(req);
    return isFullPage(req, res) ? withScript(res, script) : res;
  };
}

// An HTML page a browser loads whole: not an htmx partial (a history restore is whole).
function isFullPage(req: Request, res: Response): boolean {
  if (!(res.headers.get('content-type') ?? '').startsWith('text/html') || req.method === 'HEAD') return false;
  const h = req.headers;
  return h.get('hx-request') !== 'true' || h.get('hx-history-restore-request') === 'true';
}

async function withScript(res: Response, script: string): Promise<Response> {
  const html = await res.text();
  const end = html.lastIndexOf('</body>');
  const body = end < 0 ? html + script : html.slice(0, end) + script + html.slice(end);
  const headers = new Headers(res.headers);
  headers.delete('content-length');
  return new Response(body, { status: res.status, statusText: res.statusText, headers });
}
