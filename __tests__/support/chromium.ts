// Debian's Chromium (/usr/bin/chromium, installed by .ci/run), driven by playwright-core.

import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Starts headless Chromium with the flags this machine needs (no sandbox as root, no background networking), and
 * `args` of the test's own (e.g. `--disable-blink-features=…` to play a browser without a feature).
 * @example const browser = await launchChromium(); … await browser.close();
 */
export async function launchChromium(args: readonly string[] = []): Promise<Browser> {
  if (!existsSync(executablePath)) {
    throw new Error(
      `no Chromium at ${executablePath}: install Debian's (apt-get install chromium), as .ci/run does, ` +
        'or point CHROMIUM_PATH at one',
    );
  }
  return chromium.launch({
    executablePath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...args,
    ],
  });
}

/**
 * One Chromium for a test file: launched before its tests, closed after them. Call it at the top of the file and
 * read `.browser` in tests and hooks.
 * @example const chromium = useChromium(); test('…', async () => { const page = await chromium.browser.newPage(); });
 */
export function useChromium(): { readonly browser: Browser } {
  const handle: { browser?: Browser } = {};
  beforeAll(async () => {
    handle.browser = await launchChromium();
  });
  afterAll(async () => {
    await handle.browser?.close();
  });
  return {
    get browser(): Browser {
      if (!handle.browser) throw new Error('useChromium(): Chromium is not running yet; read .browser in a test');
      return handle.browser;
    },
  };
}

/**
 * Waits until `probe` returns a value that `ok` accepts, and returns it (or the last value after `timeout` ms):
 * jest has no expect.poll.
 * @example expect(await poll(() => page.locator('li').count(), (n) => n === 1)).toBe(1);
 */
export async function poll<T>(probe: () => T | Promise<T>, ok: (value: T) => boolean, timeout = 5000): Promise<T> {
  const end = Date.now() + timeout;
  for (;;) {
    const value = await probe();
    if (ok(value) || Date.now() > end) return value;
    await new Promise((r) => setTimeout(r, 20));
  }
}
