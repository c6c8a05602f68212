// The `socket` fault kind: a WebSocket client that misbehaves after (or during) the upgrade, as raw bytes on the wire
// (RFC 6455 frames, masked as a client's must be, or not). One script is the upgrade request, then one of:
//
//   flood        hundreds of small text frames at once (valid messages, invalid ones, "throw"/"reject")
//   huge         a frame whose header claims up to 2^62 bytes, then a little of it, then silence or a leave
//   big          a whole frame past the route's 64 KiB limit
//   half         a frame cut in its header or its payload, then the client leaves (FIN or RST)
//   bad          an unmasked frame, a reserved opcode, RSV bits, bad UTF-8, a continuation without a start, a
//                fragmented message never finished, a control frame too long, a close with an odd code
//   cross-site   the upgrade with another site's Origin: 403, nothing opened
//
//   socketScript(rng, '/socket') → { label: 'GET /socket: upgrade, then flood of 300 frames', writes: […] }

import { randomBytes } from 'node:crypto';
import type { Rng } from './rng.ts';

/** The script's writes and its label; faults.ts wraps them into a Script. */
export interface SocketPlay {
  label: string;
  writes: { bytes: Buffer; delay: number }[];
  /** Leave right after the writes (a client that vanishes) rather than read the answers. */
  leaveAfterWrites: boolean;
}

/** One client frame: FIN + opcode, the length in its 7/16/64-bit form, a mask (unless `unmasked`), the payload. */
function frame(opcode: number, payload: Buffer, options: { fin?: boolean; unmasked?: boolean; rsv?: number } = {}) {
  const fin = options.fin ?? true;
  const first = (fin ? 0x80 : 0) | ((options.rsv ?? 0) << 4) | opcode;
  const maskBit = options.unmasked ? 0 : 0x80;
  const n = payload.length;
  const len =
    n < 126
      ? Buffer.from([first, maskBit | n])
      : n < 65536
        ? Buffer.from([first, maskBit | 126, n >> 8, n & 255])
        : Buffer.concat([Buffer.from([first, maskBit | 127]), u64(n)]);
  if (options.unmasked) return Buffer.concat([len, payload]);
  const mask = randomBytes(4);
  const masked = Buffer.from(payload);
  for (let i = 0; i < masked.length; i++) masked[i]! ^= mask[i & 3]!;
  return Buffer.concat([len, mask, masked]);
}

function u64(n: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(n));
  return b;
}

const text = (s: string) => Buffer.from(s, 'utf8');
const message = (rng: Rng) =>
  rng.pick([
    JSON.stringify({ text: rng.text(rng.size(1, 50)), headers: { 'HX-Request': 'true' } }),
    JSON.stringify({ text: rng.text(rng.size(1, 50)), HEADERS: { 'HX-Request': 'true' } }),
    JSON.stringify({ text: '' }),
    JSON.stringify({ text: rng.pick(['throw', 'reject']) }),
    JSON.stringify({ text: 'x'.repeat(500) }),
    '{"text":',
    'not json',
    '[]',
    '{"__proto__":{"text":"a"}}',
  ]);

/** The upgrade request's bytes, with another site's Origin when `origin` is given. */
function upgrade(path: string, origin?: string): Buffer {
  const key = randomBytes(16).toString('base64');
  return Buffer.from(
    `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
      `Sec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n${origin ? `Origin: ${origin}\r\n` : ''}\r\n`,
    'latin1',
  );
}

/**
 * A random misbehaving WebSocket client of the socket route at `path`.
 * @example socketScript(rng, '/socket').label // → "GET /socket: upgrade, then flood of 212 frames"
 */
export function socketScript(rng: Rng, path: string): SocketPlay {
  const kind = rng.pick(['flood', 'huge', 'big', 'half', 'bad', 'cross-site'] as const);
  const head = { bytes: upgrade(path), delay: 0 };
  const after = (frames: Buffer[], detail: string, leaveAfterWrites = rng.chance(0.5)): SocketPlay => ({
    label: `GET ${path}: upgrade, then ${detail}`,
    writes: [head, ...frames.map((bytes) => ({ bytes, delay: rng.chance(0.2) ? rng.int(20) : 0 }))],
    leaveAfterWrites,
  });
  switch (kind) {
    case 'flood': {
      const n = rng.size(50, 600);
      const frames = Array.from({ length: n }, () => frame(1, text(message(rng))));
      // Most in one write, as a client that queued them.
      return after([Buffer.concat(frames)], `flood of ${n} frames`);
    }
    case 'huge': {
      const claimed = rng.pick([2 ** 20, 2 ** 32, 2 ** 53 - 1]);
      const header = Buffer.concat([Buffer.from([0x81, 0x80 | 127]), u64(claimed), randomBytes(4)]);
      return after([header, randomBytes(rng.size(0, 70_000))], `a frame claiming ${claimed} bytes`);
    }
    case 'big': {
      const n = rng.size(65_537, 300_000);
      return after([frame(1, text('x'.repeat(n)))], `one frame of ${n} bytes`, false);
    }
    case 'half': {
      const whole = frame(1, text(message(rng)));
      const cut = rng.int(whole.length);
      return after(
        [frame(1, text(message(rng))), whole.subarray(0, cut)],
        `a frame cut at ${cut}/${whole.length}`,
        true,
      );
    }
    case 'bad': {
      const variants: [string, Buffer][] = [
        ['an unmasked frame', frame(1, text('{"text":"a"}'), { unmasked: true })],
        ['a reserved opcode', frame(rng.pick([3, 4, 5, 11, 15]), text('x'))],
        ['RSV bits without an extension', frame(1, text('{"text":"a"}'), { rsv: rng.int(7) + 1 })],
        ['bad UTF-8', frame(1, Buffer.from([0xc3, 0x28, 0xff, 0xfe]))],
        ['a continuation without a start', frame(0, text('tail'))],
        ['a fragmented message never finished', frame(1, text('{"text":'), { fin: false })],
        ['a ping of 200 bytes', frame(9, randomBytes(200))],
        ['a binary frame', frame(2, randomBytes(rng.size(1, 1000)))],
        ['a close with an odd code', frame(8, Buffer.from([0x03, 0xe7 + rng.int(20), 0x61]))],
        ['pings in a row', Buffer.concat(Array.from({ length: 200 }, () => frame(9, randomBytes(8))))],
      ];
      const [detail, bytes] = rng.pick(variants);
      return after([bytes], detail);
    }
    case 'cross-site':
      return {
        label: `GET ${path}: an upgrade from another site's page`,
        writes: [
          { bytes: upgrade(path, rng.pick(['http://evil.example', 'null', 'https://127.0.0.1.evil'])), delay: 0 },
        ],
        leaveAfterWrites: false,
      };
  }
}
