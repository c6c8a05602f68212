// One message to 5,000 WebSockets (issue 44.7): how long from the publish until the last socket has it, the server's
// CPU per message, and its memory per open socket; beside event streams (EventHub) for the same fragment, and beside a
// raw `ws` server writing the same bytes.
//
//   npm run bench:websockets                        (5,000 clients a server, 2 warm-up and 7 timed messages)
//   CLIENTS=1000 ROUNDS=3 npm run bench:websockets
//
// Each server (server.ts) is a child process; its clients (clients.ts) are another, one per server, so a server's
// CPU time (process.cpuUsage() over IPC) is its own. The server's memory is read after a full GC before its clients
// open and once they all are: RSS per client. Then every client must receive the exact bytes of the first message
// (CHECK FAILED otherwise, before anything is timed), then the warm-up messages, then ROUNDS messages to each
// server in turn (a different one first each round). A message is timed by its clients' process, from just before
// its POST /publish until the last client has it; the server's CPU is read before and after.
//
// 5,000 clients a process need more open files than a default `ulimit -n` (1,024 on many systems): every child runs
// under `ulimit -n` raised to what it needs, which fails with how to fix it when the hard limit is lower.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { environment, setting } from '../lib/main.ts';
import { fail, formatInt, formatRatio, formatSpread, median, medianRatio, printTable } from '../lib/report.ts';
import { interleave } from '../lib/rounds.ts';
import { runServers, serverCpu, serverMemory, startServer, withTimeout, type Server } from '../lib/servers.ts';

const CLIENTS = setting('CLIENTS', 5000, 1, 20_000);
const ROUNDS = setting('ROUNDS', 7, 1, 50);
const WARMUP = setting('WARMUP', 2, 0, 20);
const ROOT = resolve(__dirname, '../..');

const contenders = [
  { kind: 'socket', clients: 'ws', name: 'pagetree: socket route + SocketHub' },
  { kind: 'stream', clients: 'sse', name: 'pagetree: event stream + EventHub' },
  { kind: 'ws', clients: 'ws', name: 'ws: WebSocketServer, the same bytes' },
] as const;

type Reply = { opened: number } | { ms: number } | { error: string };

/** A server and the process of its clients. */
interface Contender {
  name: string;
  server: Server;
  clients: ChildProcess;
  rssPerClient: number;
}

// The open files a process of CLIENTS sockets needs (each server, each clients' process), and the command that runs
// a child under that limit: `sh -c 'ulimit -n N && exec "$@"'`. Fails first, with the fix, when the hard limit is lower.
function withOpenFiles(): string[] {
  const need = CLIENTS + 256; // and node's own: the IPC channel, stdio, libuv
  const hard = spawnSync('sh', ['-c', 'ulimit -Hn'], { encoding: 'utf8' }).stdout.trim();
  if (hard !== 'unlimited' && !(Number(hard) >= need)) {
    throw new Error(
      `bench/websockets: ${formatInt(CLIENTS)} clients need ${formatInt(need)} open files a process, and ` +
        `ulimit -Hn is ${hard}; raise the hard limit (/etc/security/limits.conf, or LimitNOFILE=) or run with ` +
        `CLIENTS=${Math.max(1, Number(hard) - 256)}`,
    );
  }
  const soft = Number(spawnSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).stdout.trim());
  return ['sh', '-c', `ulimit -n ${Math.max(need, soft || 0)} && exec "$@"`, 'sh'];
}

function nextReply(child: ChildProcess, what: string, ms: number): Promise<Exclude<Reply, { error: string }>> {
  const reply = new Promise<Reply>((res, rej) => {
    const onExit = (code: number | null) => rej(new Error(`the clients exited (${code}) before ${what}`));
    child.once('message', (msg: Reply) => {
      child.off('exit', onExit);
      res(msg);
    });
    child.once('exit', onExit);
  });
  return withTimeout(reply, ms, what).then((msg) => {
    if ('error' in msg) throw new Error(`${what}: ${msg.error}`);
    return msg;
  });
}

async function start(c: (typeof contenders)[number], wrap: string[]): Promise<Contender> {
  const server = await startServer('bench/websockets/server.ts', c.kind, {
    pin: false,
    nodeArgs: ['--expose-gc'],
    wrap,
  });
  const before = await serverMemory(server, true);
  // Compiled (build/bench/websockets/run.js), the clients run compiled beside it, as the servers do.
  const clientsScript = __filename.endsWith('.js')
    ? ['bench/websockets/clients.js']
    : ['--import', 'tsx', 'bench/websockets/clients.ts'];
  const [cmd, ...args] = [...wrap, process.execPath, ...clientsScript];
  const clients = spawn(cmd!, [...args, c.clients, String(server.port), String(CLIENTS)], {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await nextReply(clients, `opening ${formatInt(CLIENTS)} clients of ${c.name}`, 120_000);
  const opened = await serverMemory(server, true);
  return { name: c.name, server, clients, rssPerClient: (opened.rss - before.rss) / CLIENTS };
}

// One message: the time its clients measured, and the server's CPU time meanwhile (µs).
async function message(c: Contender, k: number): Promise<{ ms: number; cpu: number }> {
  const cpu0 = await serverCpu(c.server);
  c.clients.send({ round: k });
  const reply = await nextReply(c.clients, `message ${k} to the clients of ${c.name}`, 60_000);
  const cpu = (await serverCpu(c.server)) - cpu0;
  if (!('ms' in reply)) throw new Error(`${c.name}: the clients answered ${JSON.stringify(reply)}`);
  return { ms: reply.ms, cpu };
}

runServers('bench/websockets', 5 * 60_000, async () => {
  const heading = `bench/websockets: ${environment()}; ${formatInt(CLIENTS)} clients a server, median of ${ROUNDS} messages`;
  const wrap = withOpenFiles();
  const running: Contender[] = [];
  try {
    for (const c of contenders) running.push(await start(c, wrap));
    // Check first: message 1 must reach every client of every server as the exact bytes (clients.ts checks them).
    for (const c of running) {
      await message(c, 1).catch((err: unknown) => fail(`${c.name}: ${err instanceof Error ? err.message : err}`));
    }
    let k = 1;
    for (let w = 0; w < WARMUP; w++) {
      k++;
      for (const c of running) await message(c, k);
    }
    const first = k;
    const results = await interleave(running, ROUNDS, (c, _i, round) => message(c, first + 1 + round));
    const times = results.map((rs) => rs.map((r) => r.ms));
    const cpus = results.map((rs) => rs.map((r) => r.cpu / 1000));
    const floor = running.length - 1; // the raw ws server
    console.log(heading);
    printTable(
      ['server', 'publish to last client', 'spread', 'vs ws', 'server CPU per message', 'vs ws', 'RSS per client'],
      running.map((c, i) => [
        c.name,
        `${median(times[i]!).toFixed(1)} ms`,
        formatSpread(times[i]!),
        formatRatio(medianRatio(times[i]!, times[floor]!)),
        `${median(cpus[i]!).toFixed(0)} ms`,
        formatRatio(medianRatio(cpus[i]!, cpus[floor]!)),
        `${(c.rssPerClient / 1024).toFixed(1)} KiB`,
      ]),
    );
  } finally {
    for (const c of running) if (c.clients.connected) c.clients.disconnect();
  }
});
