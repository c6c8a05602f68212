// A mux of a test's own on a real port for browser tests, with the real htmx 2 and htmx 4 at /htmx.js?v=2|4.

import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ServeMux } from '../../core/index.ts';
import { serve, shutdown } from '../../core/node/index.ts';

const scripts: Record<string, string> = {
  '2': readFileSync(require.resolve('htmx2/dist/htmx.min.js'), 'utf8'),
  '4': readFileSync(require.resolve('htmx.org/dist/htmx.min.js'), 'utf8'),
};

/**
 * Serves `mux` on 127.0.0.1 before the tests of the enclosing block, with `GET /htmx.js?v=4` (or `v=2`) answering
 * that htmx, and shuts it down after them.
 * @example const app = useAppServer(mux); … await page.goto(app.base + '/?htmx=2');
 */
export function useAppServer(mux: ServeMux): { readonly base: string } {
  let server: Server | undefined;
  let base = '';
  beforeAll(async () => {
    mux.handleFunc('GET /htmx.js', (req) => {
      const version = new URL(req.url).searchParams.get('v') ?? '4';
      return new Response(scripts[version], { headers: { 'content-type': 'text/javascript' } });
    });
    server = serve(mux, { port: 0, hostname: '127.0.0.1', handleSignals: false, onListen: () => {} });
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => (server ? shutdown(server, 1000) : undefined));
  return {
    get base() {
      if (!base) throw new Error('useAppServer(): the server is not running yet; read .base in a test or hook');
      return base;
    },
  };
}

/**
 * A whole page around `body` that loads the htmx of `version` ("2", else 4) from `useAppServer`'s /htmx.js.
 * @example page() { return htmxDocument(props.htmx, <p>…</p>); }
 */
export function htmxDocument(version: string, body: JSX.Element): string {
  const v = version === '2' ? '2' : '4';
  return `<!doctype html><html><head><script src="/htmx.js?v=${v}"></script></head><body>${body as string}</body></html>`;
}
