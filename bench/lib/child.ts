// The child side of the HTTP benchmarks: a server process started by
// bench/lib/servers.ts talks to its parent over IPC.
//
//   child  → parent   { port }                      once listening
//   parent → child    { cpu: true }                 → { cpuMicros }   user + system CPU time so far
//   parent → child    { memory: true, gc: true }    → { memory }      process.memoryUsage() after a full GC
//
// The child exits when the parent goes away (the IPC channel closes).

/** What the parent asks a child. */
export type ParentMessage = { cpu: true } | { memory: true; gc: boolean };

/** The memory figures a child reports, in bytes. */
export interface MemoryReport {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  /** Whether a full GC ran first (the child needs `--expose-gc`). */
  collected: boolean;
}

/** What a child sends its parent. */
export type ChildMessage =
  { port: number; info?: Record<string, string> } | { cpuMicros: number } | { memory: MemoryReport };

function send(msg: ChildMessage): void {
  process.send!(msg);
}

/**
 * Answers the parent's questions and exits with it; call once, first thing in a server child.
 * @example serveParent('bench/e2e/server.tsx') // then start listening and call listening(port)
 */
export function serveParent(script: string): void {
  if (!process.send) throw new Error(`${script}: run it from its run.ts (it needs an IPC channel)`);
  process.on('message', (msg: ParentMessage) => {
    if ('cpu' in msg) {
      const u = process.cpuUsage();
      send({ cpuMicros: u.user + u.system });
    } else if ('memory' in msg) {
      void memory(msg.gc).then((m) => send({ memory: m }));
    }
  });
  process.on('disconnect', () => process.exit(0));
}

/** Tells the parent the server listens on `port`, with anything else it needs to know (ids, URLs). */
export function listening(port: number, info?: Record<string, string>): void {
  send(info ? { port, info } : { port });
}

async function memory(gc: boolean): Promise<MemoryReport> {
  const collect = gc ? (globalThis as { gc?: () => void }).gc : undefined;
  if (collect) {
    // Twice, a turn of the event loop apart: the first GC queues finalizers
    // (FinalizationRegistry, weak callbacks) whose garbage the second collects.
    collect();
    await new Promise((r) => setImmediate(r));
    collect();
  }
  const m = process.memoryUsage();
  return { rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external, collected: !!collect };
}

/**
 * The one path value of `GET <prefix>{value}`, matched by hand as a raw node:http server would
 * (decoded when it can be), or undefined for any other request.
 * @example rawParam('GET', '/hello/a%20b?x', '/hello/') // → "a b"
 */
export function rawParam(method: string | undefined, url: string | undefined, prefix: string): string | undefined {
  const u = url ?? '/';
  if (method !== 'GET' || !u.startsWith(prefix)) return undefined;
  const q = u.indexOf('?');
  const raw = u.slice(prefix.length, q < 0 ? u.length : q);
  if (raw === '' || raw.includes('/')) return undefined;
  if (!raw.includes('%')) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw; // keep it as sent
  }
}
