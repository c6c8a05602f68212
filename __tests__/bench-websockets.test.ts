// bench/websockets (issue 44, item 7) runs: three servers (pagetree's socket route with a SocketHub, pagetree's event
// stream with an EventHub, a raw ws server), their clients in processes of their own, every client checked to hold
// the exact bytes of a message before anything is timed, then a row each. With 20 clients a server and one message:
// the numbers are the benchmark's to report, not a test's to assert; only that each row is there with numbers.

import { execFileSync } from 'node:child_process';
import { repoRoot } from './support/package.ts';

test('bench-websockets-prints-a-row-per-server-after-checking-every-client', () => {
  const out = execFileSync(process.execPath, ['--import', 'tsx', 'bench/websockets/run.ts'], {
    cwd: repoRoot,
    env: { ...process.env, CLIENTS: '20', ROUNDS: '1', WARMUP: '0' },
    encoding: 'utf8',
  });
  expect(out).toMatch(/^bench\/websockets: .*; 20 clients a server, median of 1 messages$/m);
  const rows = out.split('\n').filter((line) => line.startsWith('| '));
  const row = (label: string) => rows.find((r) => r.startsWith(`| ${label}`));
  for (const label of [
    'pagetree: socket route + SocketHub',
    'pagetree: event stream + EventHub',
    'ws: WebSocketServer, the same bytes',
  ]) {
    expect(row(label)).toMatch(
      /\| +[\d.]+ ms \| +±[\d.]+% \| +[\d.]+× \| +\d+ ms \| +([\d.]+×|Infinity×|NaN×) \| +-?[\d.]+ KiB \|$/,
    );
  }
  expect(row('ws: WebSocketServer, the same bytes')).toMatch(/\| +1\.00× \|/);
}, 120_000);
