// serve() loads `ws` (an optional peer) from the app's own node_modules, found from its main script, not only from
// the working directory: an app started from elsewhere (`cd / && node /srv/app/dist/main.js`, a process manager, a
// systemd unit without WorkingDirectory) answered every upgrade with 501 "install ws" though ws was installed.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { connect } from './support.ts';

test('an app started from another working directory still opens sockets (ws found from its main script)', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'pagetree-elsewhere-'));
  const loader = pathToFileURL(join(__dirname, '../../node_modules/tsx/dist/loader.mjs')).href;
  const child = spawn(process.execPath, ['--import', loader, join(__dirname, 'elsewhere-app.ts')], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  try {
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no port within 15 s: ${output}`)), 15_000);
      child.stdout.on('data', (c: Buffer) => {
        output += c.toString();
        const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
        if (m) {
          clearTimeout(timer);
          resolve(Number(m[1]));
        }
      });
    });
    const client = await connect(`ws://127.0.0.1:${port}/echo`);
    expect(await client.nth(1)).toBe('<p id="hello">open</p>');
    client.ws.send('{"text":"hi"}');
    expect(await client.nth(2)).toBe('<p id="hello">13</p>');
    client.ws.close();
    await client.closed;
  } finally {
    child.kill('SIGTERM');
    rmSync(cwd, { recursive: true, force: true });
  }
});
