// The example app on a real port for browser tests: one per describe block, its store in memory.

import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { shutdown, toNodeListener } from '../../core/node/index.ts';
import { createApp, type AppOptions } from '../../pages-example/app.tsx';
import { adminCookie } from './node-http.ts';

/** The running example: its app (store, mux, tree) and the address it serves at. */
export interface ExampleServer {
  readonly app: ReturnType<typeof createApp>;
  /** e.g. "http://127.0.0.1:41234" */
  readonly base: string;
  /**
   * Logs in as the admin through the login form's POST, and returns the session cookie for a browser context
   * (`context.addCookies([cookie])`) or a request (`${cookie.name}=${cookie.value}`).
   */
  adminCookie(): Promise<{ name: string; value: string; url: string }>;
  /** How many requests for `path` are in flight now: e.g. the open event streams of `/admin/events`. */
  inFlight(path: string): number;
}

/**
 * Serves the example on 127.0.0.1 before the tests of the enclosing block and shuts it down after them.
 * @example const example = useExampleServer({ htmxVersion: '2' }); … await page.goto(example.base + '/');
 */
export function useExampleServer(options: AppOptions = {}): ExampleServer {
  let running: { app: ExampleServer['app']; base: string; server: Server } | undefined;
  const inFlight = new Map<string, number>();
  beforeAll(async () => {
    const app = createApp({ databasePath: ':memory:', ...options });
    const listener = toNodeListener(app.mux);
    // The requests in flight by path: an open event stream is one until its connection closes.
    const server = createServer((req, res) => {
      const path = (req.url ?? '').split('?')[0]!;
      inFlight.set(path, (inFlight.get(path) ?? 0) + 1);
      res.once('close', () => inFlight.set(path, inFlight.get(path)! - 1));
      listener(req, res);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    running = { app, server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  });
  afterAll(async () => {
    if (!running) return;
    await shutdown(running.server, 1000);
    await running.app.store.close();
  });
  const current = () => {
    if (!running) throw new Error('useExampleServer(): the server is not running yet; read it in a test or hook');
    return running;
  };
  return {
    get app() {
      return current().app;
    },
    get base() {
      return current().base;
    },
    inFlight: (path) => inFlight.get(path) ?? 0,
    async adminCookie() {
      const { app, base } = current();
      const pair = await adminCookie(base, app.admin.email, app.admin.password);
      const eq = pair.indexOf('=');
      return { name: pair.slice(0, eq), value: pair.slice(eq + 1), url: base };
    },
  };
}
