// Debian's Chromium (/usr/bin/chromium, installed by .ci/run), driven by playwright-core.

import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Starts headless Chromium with the flags this machine needs (no sandbox as root, no background networking).
 * @example const browser = await launchChromium(); … await browser.close();
 */
export async function launchChromium(): Promise<Browser> {
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
    ],
  });
}
