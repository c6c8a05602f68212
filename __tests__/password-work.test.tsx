// Password work is bounded: a flood of logins from many addresses (which no per-address throttle stops) gets 503s
// with a Retry-After once the process hashes `concurrent` passwords and `queued` more wait, instead of queueing
// without end on libuv's thread pool, which file reads, DNS and zlib share.

import { readFile } from 'node:fs/promises';
import { HttpError, mount, route, ServeMux, setStatus, type PageRequest } from '../core/index.ts';
import { parseForm } from '../core/forms/index.ts';
import { hashPassword, limitPasswordWork, verifyPassword } from '../core/auth/index.ts';
import { z } from 'zod';

let hash: string;
beforeAll(async () => {
  hash = await hashPassword('correct horse');
});
// The defaults (UV_THREADPOOL_SIZE unset: 4 threads, so 2 at once; 64 waiting), back after each test.
afterEach(() => limitPasswordWork({ concurrent: 2, queued: 64 }));

// Settles every promise, in the order they settle: 'true', 'false' or the rejection's status.
async function outcomes(checks: Promise<unknown>[]): Promise<string[]> {
  const order: string[] = [];
  await Promise.all(
    checks.map((p) =>
      p.then(
        (v) => void order.push(String(v)),
        (err: unknown) => void order.push(err instanceof HttpError ? String(err.status) : `threw ${String(err)}`),
      ),
    ),
  );
  return order;
}

test('past `concurrent` running and `queued` waiting, a check is refused at once with 503 and Retry-After', async () => {
  limitPasswordWork({ concurrent: 1, queued: 2 });
  const checks = Array.from({ length: 5 }, (_, i) => verifyPassword(i % 2 ? 'wrong' : 'correct horse', hash));
  const refused = await checks[3]!.catch((err: unknown) => err);
  expect(refused).toBeInstanceOf(HttpError);
  expect(refused).toMatchObject({ status: 503, message: expect.stringContaining('too many logins at once') });
  expect(Number((refused as HttpError).headers['retry-after'])).toBeGreaterThanOrEqual(1);
  // The three taken answer what they should; the two refused were refused before any of them finished.
  expect(await outcomes(checks)).toEqual(['503', '503', 'true', 'false', 'true']);
  // And the slots are free again.
  expect(await outcomes([verifyPassword('correct horse', hash), verifyPassword('x', hash)])).toEqual(['true', 'false']);
});

test('hashPassword takes a slot too', async () => {
  limitPasswordWork({ concurrent: 1, queued: 0 });
  const order = await outcomes([hashPassword('a'), hashPassword('b')]);
  expect(order).toEqual(['503', expect.stringMatching(/^scrypt\$/)]);
});

test('a check whose hashing throws frees its slot', async () => {
  limitPasswordWork({ concurrent: 1, queued: 0 });
  // No node:crypto (a runtime without scrypt): the check is false, its slot given back.
  const getBuiltinModule = process.getBuiltinModule;
  const spy = jest
    .spyOn(process, 'getBuiltinModule')
    .mockImplementation(((name: string) =>
      name === 'node:crypto' ? undefined : getBuiltinModule(name)) as typeof process.getBuiltinModule);
  const bad = verifyPassword('correct horse', hash);
  spy.mockRestore();
  expect(await bad).toBe(false);
  expect(await verifyPassword('correct horse', hash)).toBe(true); // a stuck slot would have refused it: 503
});

test('a raised limit starts the waiting checks at once, which makes room in the queue', async () => {
  limitPasswordWork({ concurrent: 1, queued: 3 });
  const first = verifyPassword('correct horse', hash);
  const waiting = Array.from({ length: 3 }, () => verifyPassword('correct horse', hash));
  await expect(verifyPassword('correct horse', hash)).rejects.toMatchObject({ status: 503 }); // the queue is full
  limitPasswordWork({ concurrent: 4 });
  const next = verifyPassword('correct horse', hash); // waits in the queue the three left
  expect(await outcomes([first, ...waiting, next])).toEqual(['true', 'true', 'true', 'true', 'true']);
});

test('a file read is not starved by 40 password checks (libuv has threads left for it)', async () => {
  const order: string[] = [];
  const checks = Array.from({ length: 40 }, (_, i) =>
    verifyPassword('correct horse', hash).then(() => void order.push(`check ${i}`)),
  );
  await readFile(__filename).then(() => void order.push('read'));
  await Promise.all(checks);
  // Unbounded, the 40 scrypt jobs queue on the pool ahead of the read (4 threads: it would come after ~36 of them).
  expect(order.indexOf('read')).toBeLessThan(4);
}, 30_000);

test.each([
  [{ concurrent: 0 }, 'limitPasswordWork(): concurrent is 0, not a whole number ≥ 1; give e.g. 2'],
  [{ concurrent: 1.5 }, 'limitPasswordWork(): concurrent is 1.5, not a whole number ≥ 1; give e.g. 2'],
  [{ queued: -1 }, 'limitPasswordWork(): queued is -1, not a whole number ≥ 0; give e.g. 64'],
  [{ queued: Number.NaN }, 'limitPasswordWork(): queued is NaN, not a whole number ≥ 0; give e.g. 64'],
])('limitPasswordWork(%j) refuses: %s', (limits, message) => {
  expect(() => limitPasswordWork(limits)).toThrow(new RangeError(message));
});

// A login page that checks the posted password, and a POST of it.
function loginApp() {
  class Login {
    page() {
      return <form method="post">login</form>;
    }
    async post(req: PageRequest) {
      const form = await parseForm(req, z.object({ password: z.string() }));
      if (!form.ok || !(await verifyPassword(form.data.password, hash))) setStatus(422);
      return {};
    }
  }
  class App {
    login = route('/login', Login);
  }
  const mux = new ServeMux({ logger: { error: (m: string, e?: unknown) => console.error(m, e), warn: () => {} } });
  mount(mux, App);
  return (signal?: AbortSignal) =>
    mux.fetch(
      new Request('http://x/login', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'password=wrong',
        signal,
      }),
    );
}

// What a user sees: a login page whose verifyPassword is refused answers the 503 and its Retry-After, not a 500.
test('a login page under a flood answers 503 with Retry-After to the checks past the limits', async () => {
  limitPasswordWork({ concurrent: 1, queued: 1 });
  const post = loginApp();
  const answers = await Promise.all([post(), post(), post(), post()]);
  expect(answers.map((a) => a.status).sort()).toEqual([422, 422, 503, 503]);
  const refused = answers.find((a) => a.status === 503)!;
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  expect(await refused.text()).toContain('too many logins at once');
});

test('a check whose request ended before its turn gives the turn to the next without hashing', async () => {
  limitPasswordWork({ concurrent: 1, queued: 5 });
  const crypt = process.getBuiltinModule('node:crypto');
  const scrypt = jest.spyOn(crypt, 'scrypt');
  // The first check holds the one slot until the test lets it go.
  let letGo = () => {};
  scrypt.mockImplementationOnce(((...args: unknown[]) => {
    const done = args[args.length - 1] as (err: Error | null, key: Buffer) => void;
    letGo = () => done(null, Buffer.alloc(32));
  }) as never);
  const holder = verifyPassword('correct horse', hash);
  const post = loginApp();
  const client = new AbortController();
  const gone = post(client.signal);
  const stays = post();
  await new Promise((resolve) => setTimeout(resolve, 50)); // both read their forms (and wait for the slot)
  client.abort();
  letGo();
  expect(await holder).toBe(false); // the held hash was zeros
  expect((await stays).status).toBe(422); // hashed: a wrong password
  expect((await gone).status).toBe(503); // nobody reads it
  expect(scrypt).toHaveBeenCalledTimes(2); // the holder's and the one that stayed: none for the request that ended
  scrypt.mockRestore();
});
