// Sessions through the mux (issue 27.4): what one answer sets, the next request reads; a changed, moved, expired or
// foreign cookie reads as a new session; secrets rotate; regenerate() and destroy(); a server-side store.

import {
  MemorySessionStore,
  mount,
  MountError,
  route,
  ServeMux,
  session,
  type PageRequest,
  type SessionOptions,
} from '../core/index.ts';

const secret = 'session-secret-of-at-least-32-characters';
const otherSecret = 'another-secret-of-at-least-32-characters';

/** GET /show: the session as JSON; POST /set?k=v: sets; POST /login: regenerate; POST /logout: destroy. */
class Show {
  async props() {
    const s = await session();
    return new Response(JSON.stringify({ id: s.id, data: s.data }));
  }
}
class SetValues {
  async post(req: PageRequest) {
    const s = await session();
    await s.set(Object.fromEntries(new URL(req.url).searchParams));
    return new Response(JSON.stringify({ id: s.id, data: s.data }));
  }
}
class Login {
  async post() {
    const s = await session();
    await s.regenerate();
    return new Response(JSON.stringify({ id: s.id, data: s.data }));
  }
}
class Logout {
  async post() {
    const s = await session();
    await s.destroy();
    return new Response(JSON.stringify({ id: s.id, data: s.data }));
  }
}
class App {
  show = route('/show', Show);
  set = route('/set', SetValues);
  login = route('/login', Login);
  logout = route('/logout', Logout);
}

function app(options: { secret?: string | string[]; session?: SessionOptions } = { secret }) {
  const mux = new ServeMux({ logger: { error: () => {}, warn: () => {} } });
  mount(mux, App, '/', 'App', options);
  return mux;
}

/** Sends `path` with the cookie jar, keeps what the answer sets; returns the answer's JSON and Set-Cookie lines. */
async function send(mux: ServeMux, jar: Map<string, string>, path: string, method = 'GET') {
  const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const res = await mux.fetch(new Request(`http://localhost${path}`, { method, headers: cookie ? { cookie } : {} }));
  const lines = res.headers.getSetCookie();
  for (const line of lines) {
    const [pair] = line.split(';');
    const [name, value] = [pair!.slice(0, pair!.indexOf('=')), pair!.slice(pair!.indexOf('=') + 1)];
    if (/Max-Age=0/.test(line)) jar.delete(name);
    else jar.set(name, value);
  }
  return { status: res.status, body: (await res.json()) as { id: string; data: Record<string, string> }, lines };
}

let now = Date.parse('2026-11-25T12:00:00Z');
beforeEach(() => {
  now = Date.parse('2026-11-25T12:00:00Z');
  jest.spyOn(Date, 'now').mockImplementation(() => now);
});
afterEach(() => jest.restoreAllMocks());

test('what one answer sets, the next request reads; the cookie is opaque, HttpOnly and as long as the session', async () => {
  const mux = app();
  const jar = new Map<string, string>();
  const empty = await send(mux, jar, '/show');
  expect([empty.body.data, empty.lines]).toEqual([{}, []]); // reading an empty session sets nothing
  const set = await send(mux, jar, '/set?userId=7&name=Zo%C3%AB', 'POST');
  expect(set.lines).toEqual([
    expect.stringMatching(/^pagetree-session=v1\.[A-Za-z0-9_-]+; Max-Age=604800; Path=\/; HttpOnly; SameSite=Lax$/),
  ]);
  expect(set.lines[0]).not.toMatch(/userId|Zoë|Zo%C3%AB/); // sealed, not signed: unreadable
  const read = await send(mux, jar, '/show');
  expect(read.body).toEqual({ id: set.body.id, data: { userId: '7', name: 'Zoë' } });
  expect(read.body.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
  // Another instance with the same secret reads it too.
  expect((await send(app(), jar, '/show')).body.data).toEqual({ userId: '7', name: 'Zoë' });
});

test('a changed, moved or foreign cookie reads as a new, empty session', async () => {
  const jar = new Map<string, string>();
  await send(app(), jar, '/set?userId=7', 'POST');
  const value = jar.get('pagetree-session')!;
  const flipped = value.slice(0, 20) + (value[20] === 'A' ? 'B' : 'A') + value.slice(21);
  for (const cookie of [
    new Map([['pagetree-session', flipped]]),
    new Map([['pagetree-session', 'v1.garbage']]),
    new Map([['other', value]]), // moved to another cookie
  ]) {
    expect((await send(app(), cookie, '/show')).body.data).toEqual({});
  }
  expect((await send(app({ secret: otherSecret }), new Map(jar), '/show')).body.data).toEqual({});
  const moved = app({ secret, session: { cookie: 'other' } });
  expect((await send(moved, new Map([['other', value]]), '/show')).body.data).toEqual({}); // the name is sealed in
});

test('secrets rotate: the new one seals, the old one still opens, and without it the old cookie is void', async () => {
  const jar = new Map<string, string>();
  await send(app({ secret }), jar, '/set?userId=7', 'POST');
  const rotated = app({ secret: [otherSecret, secret] });
  expect((await send(rotated, jar, '/show')).body.data).toEqual({ userId: '7' });
  await send(rotated, jar, '/set?theme=dark', 'POST'); // sealed with otherSecret now
  expect((await send(app({ secret: otherSecret }), jar, '/show')).body.data).toEqual({ userId: '7', theme: 'dark' });
  expect((await send(app({ secret }), jar, '/show')).body.data).toEqual({});
});

test('idle and absolute expiry; an active visitor is refreshed at most once a minute', async () => {
  const mux = app({ secret, session: { idleTimeout: 600, absoluteTimeout: 3600 } });
  const jar = new Map<string, string>();
  await send(mux, jar, '/set?userId=7', 'POST');
  now += 30_000;
  expect((await send(mux, jar, '/show')).lines).toEqual([]); // fresh: no Set-Cookie
  now += 540_000; // 9.5 minutes after the last write: still live, and rewritten
  const refreshed = await send(mux, jar, '/show');
  expect([refreshed.body.data, refreshed.lines.length]).toEqual([{ userId: '7' }, 1]);
  expect(refreshed.lines[0]).toMatch(/Max-Age=3030;/); // what is left of the hour
  now += 601_000; // idle too long
  expect((await send(mux, jar, '/show')).body.data).toEqual({});

  const active = new Map<string, string>();
  now = Date.parse('2026-11-25T12:00:00Z');
  await send(mux, active, '/set?userId=8', 'POST');
  for (let minute = 5; minute <= 55; minute += 5) {
    now += 300_000;
    expect((await send(mux, active, '/show')).body.data).toEqual({ userId: '8' });
  }
  now += 301_000; // over an hour since it began, active all along
  expect((await send(mux, active, '/show')).body.data).toEqual({});
});

test('regenerate() gives a new id and keeps the data; destroy() deletes the cookie', async () => {
  const mux = app();
  const jar = new Map<string, string>();
  const before = await send(mux, jar, '/set?cart=3', 'POST');
  const login = await send(mux, jar, '/login', 'POST');
  expect(login.body.id).not.toBe(before.body.id);
  expect(login.body.data).toEqual({ cart: '3' });
  expect((await send(mux, jar, '/show')).body.id).toBe(login.body.id);
  const logout = await send(mux, jar, '/logout', 'POST');
  expect(logout.body.data).toEqual({});
  expect(logout.lines).toEqual([expect.stringMatching(/^pagetree-session=; Max-Age=0; Path=\/;/)]);
  expect(jar.has('pagetree-session')).toBe(false);
});

test('with a store the data stays on the server, and destroy() ends the session for every copy of the cookie', async () => {
  const store = new MemorySessionStore();
  const mux = app({ secret, session: { store } });
  const jar = new Map<string, string>();
  await send(mux, jar, '/set?note=' + 'x'.repeat(5000), 'POST'); // more than a cookie can carry
  expect(jar.get('pagetree-session')!.length).toBeLessThan(200);
  expect(store.size).toBe(1);
  const copy = new Map(jar); // a stolen copy
  expect((await send(mux, copy, '/show')).body.data.note).toHaveLength(5000);
  const login = await send(mux, jar, '/login', 'POST');
  expect((await send(mux, new Map(copy), '/show')).body.data).toEqual({}); // the pre-login id names nothing
  expect(login.body.data.note).toHaveLength(5000);
  await send(mux, jar, '/logout', 'POST');
  expect(store.size).toBe(0);
});

test('a cookie cut short, or from a clock far ahead, reads as a new session (no 500, no extra life)', async () => {
  const jar = new Map<string, string>();
  await send(app(), jar, '/set?userId=7', 'POST');
  const cut = new Map([['pagetree-session', 'v1.' + 'A'.repeat(41)]]); // a length base64 cannot have
  expect(await send(app(), cut, '/show')).toMatchObject({ status: 200, body: { data: {} } });
  const ahead = new Map<string, string>();
  now += 365 * 86_400_000; // another instance, a year ahead, writes it
  await send(app(), ahead, '/set?userId=8', 'POST');
  now -= 365 * 86_400_000;
  expect((await send(app(), ahead, '/show')).body.data).toEqual({});
});

test('a short idle timeout is refreshed within it, so an active visitor stays in', async () => {
  const mux = app({ secret, session: { idleTimeout: 30 } });
  const jar = new Map<string, string>();
  await send(mux, jar, '/set?userId=7', 'POST');
  for (let i = 0; i < 6; i++) {
    now += 20_000;
    expect((await send(mux, jar, '/show')).body.data).toEqual({ userId: '7' });
  }
});

test('with a store: a refresh does not write the data back, so a logout meanwhile stays a logout', async () => {
  const store = new MemorySessionStore();
  let writes = 0;
  const counted = {
    get: (id: string) => store.get(id),
    set: (id: string, d: object, ttl: number) => (writes++, store.set(id, d, ttl)),
    delete: (id: string) => store.delete(id),
  };
  const mux = app({ secret, session: { store: counted } });
  const jar = new Map<string, string>();
  await send(mux, jar, '/set?userId=7', 'POST');
  expect(writes).toBe(1);
  now += 120_000;
  const copy = new Map(jar);
  expect((await send(mux, jar, '/show')).lines).toHaveLength(1); // the cookie is refreshed…
  expect(writes).toBe(1); // …the stored data is not written again
  await send(mux, jar, '/logout', 'POST');
  expect((await send(mux, copy, '/show')).body).toMatchObject({ data: {} });
  expect((await send(mux, copy, '/show')).body.id).not.toBe((await send(mux, new Map(copy), '/show')).body.id); // new each time: nothing to resume
});

test('a store keeps data off the cookie even when the cookie had it before the store was configured', async () => {
  const jar = new Map<string, string>();
  await send(app(), jar, '/set?note=' + 'x'.repeat(1000), 'POST');
  const withStore = app({ secret, session: { store: new MemorySessionStore() } });
  await send(withStore, jar, '/set?userId=7', 'POST');
  expect(jar.get('pagetree-session')!.length).toBeLessThan(200);
});

test('MemorySessionStore drops expired entries as new ones come', () => {
  const store = new MemorySessionStore();
  for (let i = 0; i < 1500; i++) store.set(`old${i}`, {}, 60);
  now += 61_000;
  for (let i = 0; i < 600; i++) store.set(`new${i}`, {}, 60);
  expect(store.size).toBe(600);
});

test('the cookie takes the attributes given, e.g. Secure behind a proxy that ends TLS', async () => {
  const mux = app({ secret, session: { cookieOptions: { secure: true, sameSite: 'strict', path: '/app' } } });
  const set = await send(mux, new Map(), '/set?userId=7', 'POST');
  expect(set.lines).toEqual([
    expect.stringMatching(/; Max-Age=604800; Path=\/app; HttpOnly; Secure; SameSite=Strict$/),
  ]);
});

test('mount checks the options, and session() without a secret says how to give one', async () => {
  const mountWith = (options: object) => () => mount(new ServeMux(), App, '/', 'App', options);
  expect(mountWith({ secret: [] })).toThrow(
    new MountError('App (secret)', 'the list of secrets is empty; the first one signs, so give one'),
  );
  expect(mountWith({ secret: [secret, 'short'] })).toThrow(
    'mount: App (secret[1]): the secret must be a string of at least 32 characters',
  );
  expect(mountWith({ secret, session: { idleTimeout: 0 } })).toThrow(
    'mount: App (session.idleTimeout): 0 is not a number of seconds',
  );
  expect(mountWith({ session: {} })).toThrow(
    'mount: App (session): sessions are sealed with the secret, and none is given',
  );
  expect(mountWith({ secret, session: { cookie: 'my session' } })).toThrow(
    'mount: App (session.cookie): "my session" is not a cookie name',
  );
  const errors: unknown[] = [];
  const mux = new ServeMux({ logger: { error: (_m: string, err?: unknown) => void errors.push(err), warn: () => {} } });
  mount(mux, App, '/', 'App');
  expect((await mux.fetch(new Request('http://localhost/show'))).status).toBe(500);
  expect(errors).toEqual([
    expect.objectContaining({ message: expect.stringMatching(/^session\(\): no secret to sign cookies with/) }),
  ]);
});
