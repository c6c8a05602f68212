// Hostile and large form bodies (issue 24): how long one POST holds the server, and how long a GET sent meanwhile
// waits for its answer.
//
//   npm run bench:forms
//
// Each body is posted to a page that runs parseForm (server.tsx, a child process); while it is in flight, the
// client sends GET /ping every 5 ms on another connection and keeps the slowest answer. The server's RSS growth
// comes over IPC. Bodies (each within the 10 MiB body limit):
//   many keys       urlencoded, as many distinct empty keys as fit (the attack of issue 24)
//   many files      multipart, as many 1-byte file parts as fit
//   widest fields   urlencoded, 1,000 fields of percent-encoded text, 10 MiB in all: the worst body the defaults accept
//   widest parts    multipart, 1,000 text fields and 100 files, 10 MiB in all: the same for multipart

import { request } from 'node:http';
import { environment, setting } from '../lib/main.ts';
import { printTable } from '../lib/report.ts';
import { HOST, runServers, serverMemory, startServer } from '../lib/servers.ts';

const ROUNDS = setting('ROUNDS', 3, 1, 20);
const LIMIT = 10 * 1024 * 1024;

interface Body {
  name: string;
  type: string;
  bytes: Buffer;
}

function manyKeys(): Body {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; ; i++) {
    const key = `${i.toString(36)}=`;
    if (size + key.length + 1 > LIMIT) break;
    parts.push(key);
    size += key.length + 1;
  }
  return {
    name: `many keys (${parts.length.toLocaleString('en')})`,
    type: 'application/x-www-form-urlencoded',
    bytes: Buffer.from(parts.join('&')),
  };
}

const boundary = 'b';

function part(name: string, value: string, file?: string): string {
  const filename = file === undefined ? '' : `; filename="${file}"`;
  return `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${filename}\r\n\r\n${value}\r\n`;
}

function manyFiles(): Body {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; ; i++) {
    const p = part(`f${i}`, 'x', 'a');
    if (size + p.length + 8 > LIMIT) break;
    parts.push(p);
    size += p.length;
  }
  const type = `multipart/form-data; boundary=${boundary}`;
  return {
    name: `many files (${parts.length.toLocaleString('en')})`,
    type,
    bytes: Buffer.from(parts.join('') + `--${boundary}--\r\n`),
  };
}

function widestFields(): Body {
  const each = Math.floor((LIMIT - 1000 * 8) / 1000 / 9) * 9; // "%E4%B8%AD" is 9 bytes
  const value = '%E4%B8%AD'.repeat(each / 9);
  const parts = Array.from({ length: 1000 }, (_, i) => `${i === 0 ? 'title' : `t${i}`}=${value}`);
  return {
    name: 'widest fields (1,000 × 10 KiB)',
    type: 'application/x-www-form-urlencoded',
    bytes: Buffer.from(parts.join('&')),
  };
}

function widestParts(): Body {
  const overhead = part('t0000', '').length;
  const fileOverhead = part('f000', '', 'a.bin').length;
  const text = 'x'.repeat(5 * 1024);
  const fields = Array.from({ length: 1000 }, (_, i) => part(i === 0 ? 'title' : `t${i}`, text));
  const used = fields.reduce((n, p) => n + p.length, 0) + 100 * fileOverhead + overhead + 16;
  const file = 'y'.repeat(Math.floor((LIMIT - used) / 100));
  const files = Array.from({ length: 100 }, (_, i) => part(`f${i}`, file, 'a.bin'));
  const type = `multipart/form-data; boundary=${boundary}`;
  return {
    name: 'widest parts (1,000 fields, 100 files)',
    type,
    bytes: Buffer.from(fields.join('') + files.join('') + `--${boundary}--\r\n`),
  };
}

// The server may answer a 413 before the whole body is sent, and close: the body is written in 64 KiB pieces,
// each after the last was taken, and the writing stops once the answer came.
function post(port: number, body: Body): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((res, rej) => {
    let answered = false;
    const req = request(
      {
        host: HOST,
        port,
        path: '/submit',
        method: 'POST',
        agent: false,
        headers: { 'content-type': body.type, 'content-length': String(body.bytes.length) },
      },
      (incoming) => {
        answered = true;
        const ms = performance.now() - started;
        incoming.resume();
        incoming.on('end', () => res({ status: incoming.statusCode ?? 0, ms }));
        incoming.on('error', () => res({ status: incoming.statusCode ?? 0, ms }));
      },
    );
    // A reset before the answer was read (the server closed while the body was still coming): no status to show.
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (answered) return;
      if (err.code === 'EPIPE' || err.code === 'ECONNRESET') res({ status: 0, ms: performance.now() - started });
      else rej(err);
    });
    const write = (at: number): void => {
      if (answered || req.destroyed) return;
      if (at >= body.bytes.length) {
        req.end();
        return;
      }
      req.write(body.bytes.subarray(at, at + 65536), () => write(at + 65536));
    };
    write(0);
  });
}

function get(port: number): Promise<number> {
  const started = performance.now();
  return new Promise((res, rej) => {
    const req = request({ host: HOST, port, path: '/ping', agent: false }, (incoming) => {
      incoming.resume();
      incoming.on('end', () => res(performance.now() - started));
    });
    req.on('error', rej);
    req.end();
  });
}

runServers('bench/forms', 20 * 60_000, async () => {
  const server = await startServer('bench/forms/server.tsx', 'forms', { pin: false, nodeArgs: ['--expose-gc'] });
  const bodies = [manyKeys(), manyFiles(), widestFields(), widestParts()];
  const rows: string[][] = [];
  for (const body of bodies) {
    const answers: number[] = [];
    const waits: number[] = [];
    const grew: number[] = [];
    let status = 0;
    for (let r = 0; r < ROUNDS; r++) {
      const before = (await serverMemory(server, true)).rss;
      let done = false;
      let worst = 0;
      const posted = post(server.port, body).finally(() => (done = true));
      while (!done) {
        worst = Math.max(worst, await get(server.port));
        await new Promise((w) => setTimeout(w, 5));
      }
      const { status: s, ms } = await posted;
      const after = (await serverMemory(server, false)).rss;
      status = s;
      answers.push(ms);
      waits.push(worst);
      grew.push(after - before);
    }
    const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
    rows.push([
      body.name,
      `${(body.bytes.length / 1024 / 1024).toFixed(1)} MiB`,
      status === 0 ? 'reset' : String(status),
      `${med(answers).toFixed(0)} ms`,
      `${med(waits).toFixed(0)} ms`,
      `${(med(grew) / 1024 / 1024).toFixed(0)} MiB`,
    ]);
  }
  console.log(`bench/forms: ${environment()}; median of ${ROUNDS} rounds`);
  printTable(['body', 'size', 'status', 'answered after', 'slowest GET meanwhile', 'server RSS growth'], rows);
});
