// The dev loop in Chromium: an open page reloads by itself when the server restarts (npm run dev).

import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ServeMux, liveReload, mount, route } from '../../core/index.ts';
import { serve, shutdown } from '../../core/node/index.ts';
import { useChromium } from '../support/chromium.ts';

jest.setTimeout(60_000);

class Home {
  page() {
    return (
      <html>
        <body>
          <p>home</p>
        </body>
      </html>
    );
  }
}
class App {
  home = route('/{$}', Home);
}

// A server as `npm run dev` starts it: a new process, so a new liveReload id, on the same port.
async function startDevServer(port: number): Promise<Server> {
  const mux = new ServeMux();
  mount(mux, App, '/', '', { middlewares: [liveReload(mux)] });
  const server = serve(mux, { port, hostname: '127.0.0.1', handleSignals: false, onListen: () => {} });
  await once(server, 'listening');
  return server;
}

const chromium = useChromium();

test('the open tab reloads when the server restarts, and not before', async () => {
  let server = await startDevServer(0);
  const port = (server.address() as AddressInfo).port;
  const page = await chromium.browser.newPage();
  await page.goto(`http://127.0.0.1:${port}/`);
  await page.evaluate(() => ((window as unknown as { marker: string }).marker = 'before the restart'));
  await page.waitForTimeout(1_200); // two polls of the same server: no reload
  expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe('before the restart');

  await shutdown(server, 1_000);
  server = await startDevServer(port);
  await page.waitForFunction(() => (window as unknown as { marker?: string }).marker === undefined, undefined, {
    timeout: 10_000,
  });
  expect(await page.textContent('p')).toBe('home');
  await page.close();
  await shutdown(server, 1_000);
});
