// The servers of bench/runtimes, as run.ts (CPU time under wrk) and instructions.ts (instructions under callgrind)
// start them: each a child process of Bun or Deno (bun.ts, deno.ts), or of Node 24 (bench/e2e's servers, compiled),
// the runtimes from the npm registry.

import { join } from 'node:path';
import { nodeBinary, toolPackage } from '../../__tests__/support/package.ts';
import { baseRoot, chosenKinds } from '../lib/main.ts';
import { fail } from '../lib/report.ts';
import { startCommand, startServer, type Server } from '../lib/servers.ts';

/** The runtimes, from the npm registry into node_modules/.cache (as the runtime tests get them). */
const runtimes = {
  bun: { version: '1.4.5', script: 'bench/runtimes/bun.ts', args: [] as string[] },
  deno: {
    version: '2.9.6',
    script: 'bench/runtimes/deno.ts',
    // deno.json: JSX through pagetree/jsx-runtime (its source), packages from node_modules.
    args: ['run', '--allow-net=127.0.0.1', '--allow-env', '--allow-read', '--config', 'bench/runtimes/deno.json'],
  },
  // The speed reference (AsyncLocalStorage rides AsyncContextFrame there): bench/e2e's servers, compiled
  // (build/bench/e2e/server.js: npm run bench:runtimes builds it), each told its kind over IPC.
  node: { version: '24', script: 'bench/e2e/server.tsx', args: [] as string[] },
};
export type Runtime = keyof typeof runtimes;

/** The servers, by kind: the runtime and the name its script takes. */
export const servers = {
  'Bun.serve': ['bun', 'Bun.serve'],
  'Bun.serve+als': ['bun', 'Bun.serve+als'],
  'hono on Bun': ['bun', 'hono'],
  elysia: ['bun', 'elysia'],
  'pagetree on Bun': ['bun', 'pagetree'],
  'pagetree direct on Bun': ['bun', 'pagetree-direct'],
  'pagetree/bun': ['bun', 'pagetree-bun'],
  'Deno.serve': ['deno', 'Deno.serve'],
  'Deno.serve+als': ['deno', 'Deno.serve+als'],
  'hono on Deno': ['deno', 'hono'],
  'pagetree on Deno': ['deno', 'pagetree'],
  'pagetree direct on Deno': ['deno', 'pagetree-direct'],
  'node:http': ['node', 'node:http'],
  'node:http+als': ['node', 'node:http+als'],
  fastify: ['node', 'fastify'],
  'hono on Node': ['node', 'hono'],
  'pagetree on Node': ['node', 'pagetree'],
  // With BASE=<another checkout> (main.ts's baseRoot): its pagetree beside this one's, for an A/B run.
  'pagetree@base on Bun': ['bun', 'pagetree'],
  'pagetree@base on Deno': ['deno', 'pagetree'],
  'pagetree@base on Node': ['node', 'pagetree'],
} as const satisfies Record<string, readonly [Runtime, string]>;
export type Kind = keyof typeof servers;

const base = baseRoot();
const atBase = (kind: Kind) => kind.startsWith('pagetree@base');

/**
 * The servers $KINDS asks for (`KINDS=Bun.serve,pagetree\ on\ Bun`), else `fallback` (all, with BASE the
 * pagetree@base ones too).
 * @example chosenServers() // → ['Bun.serve', 'Bun.serve+als', …]
 */
export function chosenServers(fallback: readonly Kind[] = Object.keys(servers) as Kind[]): Kind[] {
  const kinds = chosenKinds(
    Object.keys(servers) as Kind[],
    fallback.filter((k) => base || !atBase(k)),
  );
  if (!base && kinds.some(atBase)) fail('KINDS: pagetree@base needs BASE=<another checkout>');
  return kinds;
}

/**
 * The path of a runtime's binary.
 * @example binary('bun') // → ".../node_modules/.cache/pagetree-test-tools/bun@1.4.5/node_modules/.bin/bun"
 */
export function binary(runtime: Runtime): string {
  if (runtime === 'node') return nodeBinary(Number(runtimes.node.version));
  return join(toolPackage(runtime, runtimes[runtime].version), '../.bin', runtime);
}

/**
 * Starts one server (pinned to core 0 when `pin`; after `wrap`, such as valgrind, when given).
 * @example await start('pagetree on Bun', true)
 */
export async function start(kind: Kind, pin: boolean, wrap?: string[]): Promise<Server<Kind>> {
  const [runtime, name] = servers[kind];
  const { script, args } = runtimes[runtime];
  const root = atBase(kind) ? base : undefined;
  if (runtime === 'node') {
    const server = await startServer(script, name, { pin, root, wrap, node: binary('node'), compiled: true });
    return { ...server, kind };
  }
  return startCommand(kind, [binary(runtime), ...args, script, name], { pin, root, wrap });
}
