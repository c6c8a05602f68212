// Compressed answers as browsers ask for them (issue 43): zstd first where the runtime has it, the presets that weigh
// CPU against bytes, and the compression contexts kept from answer to answer (each answer decodes alone).

import { randomBytes } from 'node:crypto';
import * as zlib from 'node:zlib';
import { MountError, ServeMux, mount, route, type MountOptions, type PageRequest } from '../core/index.ts';
import { codecsOf } from '../core/compress/codecs.ts';

const zstd = (zlib as { zstdDecompressSync?: (b: Uint8Array) => Buffer }).zstdDecompressSync;
const CHROMIUM = 'gzip, deflate, br, zstd'; // Firefox sends the same
const SAFARI = 'gzip, deflate, br';

// A task list with a token made per request, as a page with a CSRF field is: no two bodies alike.
const tasks = Array.from({ length: 40 }, (_, i) => `Task ${i}: ${['buy milk', 'call Ann', 'file the taxes'][i % 3]}`);

class TaskPage {
  props(req: PageRequest) {
    const rows = Number(new URL(req.url).searchParams.get('rows') ?? tasks.length);
    const token = new URL(req.url).searchParams.get('token') ?? randomBytes(18).toString('base64url');
    return { token, rows };
  }
  page(p: { token: string; rows: number }) {
    return (
      <ul hx-headers={JSON.stringify({ 'X-CSRF-Token': p.token })}>
        {Array.from({ length: p.rows }, (_, i) => (
          <li class="task">
            <button hx-post={`/tasks/${i}/toggle`}>☐</button>
            <span safe>{tasks[i % tasks.length]!}</span>
          </li>
        ))}
      </ul>
    );
  }
}

class App {
  tasks = route('/tasks', TaskPage);
}

function app(options: MountOptions = {}): ServeMux {
  const mux = new ServeMux();
  mount(mux, App, '/', 'Home', options);
  return mux;
}

function decode(coding: string | null, body: Uint8Array): string {
  if (coding === null) return Buffer.from(body).toString();
  if (coding === 'gzip') return zlib.gunzipSync(body).toString();
  if (coding === 'br') return zlib.brotliDecompressSync(body).toString();
  if (coding === 'zstd' && zstd) return zstd(body).toString();
  throw new Error(`unexpected Content-Encoding ${coding}`);
}

async function get(mux: ServeMux, accept: string, path = '/tasks') {
  const res = await mux.fetch(new Request(`http://localhost${path}`, { headers: { 'accept-encoding': accept } }));
  const bytes = new Uint8Array(await res.arrayBuffer());
  return {
    coding: res.headers.get('content-encoding'),
    bytes,
    text: decode(res.headers.get('content-encoding'), bytes),
  };
}

const token = /X-CSRF-Token&#34;:&#34;([A-Za-z0-9_-]{24})/;

test.each([
  // [preset, Accept-Encoding, the coding sent]
  [undefined, CHROMIUM, zstd ? 'zstd' : 'br'],
  [undefined, SAFARI, 'br'],
  [undefined, 'gzip', 'gzip'],
  ['balanced', CHROMIUM, zstd ? 'zstd' : 'br'],
  ['fast', CHROMIUM, zstd ? 'zstd' : 'br'],
  ['small', CHROMIUM, 'br'],
  ['small', 'gzip, zstd', zstd ? 'zstd' : 'gzip'],
] as const)('preset %j, Accept-Encoding %j → %s', async (preset, accept, want) => {
  const r = await get(app({ compress: preset === undefined ? {} : { preset } }), accept);
  expect(r.coding).toBe(want);
  expect(r.text).toMatch(/^<ul hx-headers=/);
});

test('encodings still decides the order over the preset: br first as before', async () => {
  const r = await get(app({ compress: { encodings: ['br', 'zstd', 'gzip'] } }), CHROMIUM);
  expect(r.coding).toBe('br');
});

// The same page (one token for all) in each preset, as bytes: 'small' sends the fewest, 'fast' the most (zstd's
// levels 1 to 6 differ by a few bytes either way on a page this size).
test.each(['br', 'gzip'])('%s: small ≤ balanced ≤ fast in bytes', async (coding) => {
  const size = async (preset: 'fast' | 'balanced' | 'small') =>
    (await get(app({ compress: { preset, encodings: [coding as 'br'] } }), coding, `/tasks?token=${'t'.repeat(24)}`))
      .bytes.byteLength;
  const [small, balanced, fast] = [await size('small'), await size('balanced'), await size('fast')];
  expect(small).toBeLessThanOrEqual(balanced);
  expect(balanced).toBeLessThanOrEqual(fast);
  if (coding === 'br') expect(small).toBeLessThan(fast);
});

// Many answers through the one context a mount keeps per coding: each decodes alone to its own page (its own token),
// whatever came before it, a body larger than the context's output buffer too.
test.each(['gzip', 'br', ...(zstd ? ['zstd'] : [])])(
  '%s: every answer of a kept context decodes alone, big or small',
  async (coding) => {
    const mux = app({ compress: { encodings: [coding as 'gzip'] } });
    const seen = new Set<string>();
    for (const rows of [40, 3000, 20, 40, 3000, 25]) {
      const r = await get(mux, coding, `/tasks?rows=${rows}`);
      expect(r.coding).toBe(coding);
      expect(r.text.match(/<li class="task">/g)).toHaveLength(rows);
      expect(r.text.endsWith('</li></ul>')).toBe(true);
      seen.add(token.exec(r.text)![1]!);
    }
    expect(seen.size).toBe(6);
  },
);

test.each([
  [{ preset: 'tiny' }, /App \(compress\).*preset "tiny" is not one of "balanced", "fast", "small"/],
  [{ preset: 3 }, /preset 3 is not one of/],
])('a bad compress option %j is a mount error', (compress, message) => {
  expect(() => app({ compress: compress as MountOptions['compress'] })).toThrow(MountError);
  expect(() => app({ compress: compress as MountOptions['compress'] })).toThrow(message);
});

// Where node:zlib's stream has no handle of Node's shape (another runtime), or it fails, each body still compresses.
describe('a kept context where the runtime differs', () => {
  const body = '<li>pagetree</li>'.repeat(500);

  test('no handle: the one-shot call', () => {
    const bare = { ...zlib, createGzip: () => Object.assign(zlib.createGzip(), { _handle: undefined }) };
    const gzip = codecsOf(bare as typeof zlib, 'balanced').gzip!;
    expect(zlib.gunzipSync(gzip(body, body.length)).toString()).toBe(body);
  });

  test('a handle that fails: that body goes through the one-shot call, the next through a new context', () => {
    let made = 0;
    const flaky = {
      ...zlib,
      createGzip: (options: zlib.ZlibOptions) => {
        const s = zlib.createGzip(options);
        // The first context fails at its fourth write (the mount's check wrote twice; then the first body, then
        // the second), as a handle does when zlib fails: it destroys its stream.
        if (++made === 1) {
          const handle = (s as unknown as { _handle: { writeSync: (...a: unknown[]) => void } })._handle;
          const writeSync = handle.writeSync.bind(handle);
          let calls = 0;
          handle.writeSync = (...a: unknown[]) => {
            if (++calls === 4) return void s.destroy(new Error('zlib: out of memory'));
            writeSync(...a);
          };
        }
        return s;
      },
    };
    const gzip = codecsOf(flaky as typeof zlib, 'balanced').gzip!;
    for (let i = 0; i < 3; i++) expect(zlib.gunzipSync(gzip(body + i, body.length)).toString()).toBe(body + i);
    expect(made).toBe(2);
  });
});
