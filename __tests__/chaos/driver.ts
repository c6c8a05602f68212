// The raw-socket side of the chaos suite: for one route of app.tsx's table, `clients` connections at a time, each
// playing one fault script after another (faults.ts) until the time is up; then every socket still open is cut.
// Each client has its own PRNG derived from the run's seed, the route and its number, so a seed replays the same
// scripts. A status the route forbids (a 500 where no request fails on purpose, or a fault's own oracle) is a
// failure; what was in flight is kept, to name the suspects when the server dies.
//
//   const run = await drive(port, route, { seed: 40, ms: 1500, clients: 16 });
//   run.failures → [{ fault: 'multipart', label: 'POST /upload, Content-Type: …', problem: '60000 parts … 200' }]

import { connect, type Socket } from 'node:net';
import type { ChaosRoute } from './app.tsx';
import { script, type FaultKind, type Script } from './faults.ts';
import { deriveSeed, Rng } from './rng.ts';

/** Something a route's answer got wrong (the process's own failures are the child's report). */
export interface Failure {
  fault: string;
  label: string;
  problem: string;
}

export interface DriveOptions {
  seed: number;
  ms: number;
  clients: number;
  /** Only these fault kinds (CHAOS_FAULT); default: the route's. */
  faults?: readonly FaultKind[];
  /** Aborted when the server died: the clients stop. */
  signal?: AbortSignal;
}

/** What a run did: scripts played per fault kind, failures, and the scripts open or last done (the suspects). */
export interface DriveResult {
  played: Partial<Record<FaultKind, number>>;
  failures: Failure[];
  suspects(): string[];
}

const statusLine = /(?:^|\r?\n)HTTP\/1\.[01] (\d{3})[ \r]/g;

/**
 * Plays random fault scripts against `route` on 127.0.0.1:port for `ms`.
 * @example await drive(port, routes[0], { seed: 40, ms: 1500, clients: 16 })
 */
export async function drive(port: number, route: ChaosRoute, options: DriveOptions): Promise<DriveResult> {
  const faults = options.faults ?? route.faults;
  const until = Date.now() + options.ms;
  const open = new Map<Socket, string>();
  const recent: string[] = [];
  const played: Partial<Record<FaultKind, number>> = {};
  const failures: Failure[] = [];
  const stopped = () => Date.now() >= until || options.signal?.aborted === true;

  const client = async (n: number) => {
    const rng = new Rng(deriveSeed(options.seed, route.name, n));
    while (!stopped()) {
      const s = script(rng, route, rng.pick(faults));
      played[s.fault] = (played[s.fault] ?? 0) + 1;
      const statuses = await play(port, s, until, open, rng.chance(0.3));
      recent.push(`${s.fault}: ${s.label}`);
      if (recent.length > 2 * options.clients) recent.shift();
      for (const status of statuses) {
        const problem = status === 500 && !s.mayFail ? 'answered 500' : s.oracle?.(status);
        if (problem) failures.push({ fault: s.fault, label: s.label, problem });
      }
    }
  };
  // When the server dies, what was open then and what just ended (its sockets close as it goes) are the suspects.
  let suspects: string[] | undefined;
  const died = () => (suspects ??= [...open.values(), ...recent]);
  options.signal?.addEventListener('abort', died, { once: true });
  const timer = setTimeout(() => {
    for (const socket of open.keys()) socket.destroy();
  }, options.ms);
  await Promise.all(Array.from({ length: options.clients }, (_, n) => client(n)));
  clearTimeout(timer);
  options.signal?.removeEventListener('abort', died); // one run per route on the same server's signal
  return { played, failures, suspects: () => (suspects ?? recent).slice(0, 24).map((l) => l.slice(0, 300)) };
}

// Plays one script on its own connection; resolves with the statuses of the answers read (none when it left first).
function play(port: number, s: Script, until: number, open: Map<Socket, string>, reset: boolean): Promise<number[]> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    open.set(socket, `${s.fault}: ${s.label} (open)`);
    let got = 0;
    let head = '';
    const leave = () => (reset ? socket.resetAndDestroy() : socket.destroy());
    // A cap of its own as well: an event stream or a kept-alive connection would stay open to the end of the run.
    const cap = setTimeout(leave, Math.max(0, Math.min(until - Date.now(), 3000)));
    socket.on('error', () => {}); // refused, reset, timed out: what a client that misbehaves gets
    socket.on('data', (chunk: Buffer) => {
      if (head.length < 1 << 16) head += chunk.toString('latin1', 0, Math.min(chunk.length, (1 << 16) - head.length));
      got += chunk.length;
      if (got >= s.readBytes) leave();
    });
    socket.on('close', () => {
      clearTimeout(cap);
      open.delete(socket);
      resolve([...head.matchAll(statusLine)].map((m) => Number(m[1])));
    });
    socket.on('connect', () => void write(socket, s, leave));
  });
}

// Writes the script's bytes with their pauses, then leaves or half-closes as it says.
async function write(socket: Socket, s: Script, leave: () => void): Promise<void> {
  for (const w of s.writes) {
    if (w.delay > 0) await new Promise((r) => setTimeout(r, w.delay));
    if (socket.destroyed) return;
    socket.write(w.bytes);
  }
  if (s.leave === 'after-writes' || s.readBytes === 0) leave();
  else if (s.halfClose) socket.end();
}

/**
 * Failures of one kind, once each with a count and the first request that showed it: a run's report.
 * @example summarize(run.failures) // → ["bad-head: answered 500 (×2), e.g. GET /file?n=0: malformed head #5"]
 */
export function summarize(failures: Failure[]): string[] {
  const seen = new Map<string, { f: Failure; n: number }>();
  for (const f of failures) {
    const key = `${f.fault}|${f.problem}`;
    const s = seen.get(key);
    if (s) s.n++;
    else seen.set(key, { f, n: 1 });
  }
  return [...seen.values()].map(({ f, n }) => `${f.fault}: ${f.problem} (×${n}), e.g. ${f.label.slice(0, 300)}`);
}
