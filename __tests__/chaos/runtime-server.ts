// The chaos suite's app on Bun and Deno (runtimes.test.ts): app.tsx's mux, served by pagetree/bun's or pagetree/deno's
// serve in a process of that runtime, as a user serves it there. server.ts is the same for Node, with more to report
// (the loop's delay, the heap, mux.fetch traffic); here the test only needs to know that the process lives:
//
//   bun __tests__/chaos/runtime-server.ts                     prints "listening on http://127.0.0.1:PORT/"
//   deno run --allow-net=127.0.0.1 --allow-env --allow-read --config bench/runtimes/deno.json __tests__/chaos/runtime-server.ts
//
// What would end the process (an unhandled rejection, an uncaught exception) is printed as "chaos fatal: <kind>:
// <error>" before it exits with 70, so the test can say what happened. The memory broker's topic gets a message every
// 25 ms, as server.ts's do (Postgres and Redis stay with the Node run: their clients are Node's).

import process from 'node:process';
import { MemoryBroker, type Logger } from '../../core/index.ts';
import { serve as bunServe } from '../../core/bun/index.ts';
import { serve as denoServe } from '../../core/deno/index.ts';
import { chaosApp } from './app.tsx';

function fatal(kind: string, err: unknown): void {
  const stack = err instanceof Error ? (err.stack ?? err.message) : String(err);
  process.stderr.write(`chaos fatal: ${kind}: ${stack.split('\n').slice(0, 12).join('\n')}\n`);
  process.exit(70);
}
process.on('uncaughtException', (err) => fatal('uncaughtException', err));
process.on('unhandledRejection', (err) => fatal('unhandledRejection', err));

// What the server logs is printed once per message (hostile traffic makes a lot of it): the test shows the output
// when a route fails.
const logged = new Set<string>();
const logger: Logger = {
  error: (message, err) => {
    const line = `${message} ${err instanceof Error ? err.message : ''}`.slice(0, 200);
    if (logged.size >= 100 || logged.has(line)) return;
    logged.add(line);
    process.stderr.write(`logged: ${line}\n`);
  },
  warn: () => {},
};

const broker = new MemoryBroker();
setInterval(() => {
  broker
    .publish('chaos-memory', 'é<b>&'.repeat(1 + Math.floor(Math.random() * 400)))
    .catch((err: unknown) => fatal('publish', err));
}, 25);

const mux = chaosApp({ brokers: { memory: broker } }, logger);
const hostname = '127.0.0.1';

if (typeof (globalThis as { Bun?: unknown }).Bun !== 'undefined') {
  const server = bunServe(mux, { hostname, port: 0 });
  process.stdout.write(`listening on http://${hostname}:${server.port}/\n`);
} else {
  denoServe(mux, {
    hostname,
    port: 0,
    onListen: ({ port }: { port: number }) => process.stdout.write(`listening on http://${hostname}:${port}/\n`),
  });
}
