// Login (issue 27.5): a section behind requireLogin sends a browser to the login page with a 303 and htmx with
// HX-Location, keeping where the visitor was; safeNext never leaves the site; passwords hash with scrypt (or
// PBKDF2) and verify in constant time; LoginThrottle slows guessing per account and per address.

import {
  hashPassword,
  htmxRequest,
  LoginThrottle,
  mount,
  parseForm,
  redirect,
  requireLogin,
  route,
  safeNext,
  ServeMux,
  session,
  setStatus,
  verifyPassword,
  type PageRequest,
} from '../core/index.ts';
import { z } from 'zod';

const secret = 'login-secret-of-at-least-32-characters!';
let passwordHash: string;
beforeAll(async () => {
  passwordHash = await hashPassword('correct horse');
});

const LoginInput = z.object({ email: z.string(), password: z.string() });

class LoginPage {
  props() {
    return {};
  }
  page() {
    return <form method="post">login</form>;
  }
  async post(req: PageRequest) {
    const form = await parseForm(req, LoginInput);
    if (!form.ok || !(await verifyPassword(form.data.password, passwordHash))) {
      setStatus(422);
      return {};
    }
    const s = await session();
    await s.regenerate();
    // requireLogin's default looks for a userId. (This program's Register is the example's, { email }.)
    await s.set({ userId: 1 } as never);
    return redirect(safeNext(new URL(req.url).searchParams.get('next')));
  }
}

class Users {
  page() {
    return <table id="users">users</table>;
  }
  cell() {
    return <td>1 task</td>;
  }
}

class Admin {
  users = route('/users Users', Users);
  middlewares() {
    return [requireLogin({ login: LoginPage })];
  }
}

class App {
  login = route('/login Login', LoginPage);
  admin = route('/admin Admin', Admin);
}

function app() {
  const mux = new ServeMux({ logger: { error: (m: string, e?: unknown) => console.error(m, e), warn: () => {} } });
  mount(mux, App, '/', 'App', { secret });
  return mux;
}

describe('requireLogin', () => {
  test('a browser without a login gets a 303 to the login page, the page it wanted as next', async () => {
    const res = await app().fetch(new Request('http://localhost/admin/users?sort=name'));
    expect([res.status, res.headers.get('location')]).toEqual([303, '/login?next=%2Fadmin%2Fusers%3Fsort%3Dname']);
  });

  test.each([4, 2] as const)('htmx %s gets HX-Location, never the login form in the cell', async (version) => {
    const req = htmxRequest('/admin/users', {
      version,
      target: 'td#users-cell',
      currentUrl: 'http://localhost/admin/users?page=2',
    });
    const res = await app().fetch(req);
    expect([res.status, res.headers.get('hx-location'), await res.text()]).toEqual([
      200,
      '/login?next=%2Fadmin%2Fusers%3Fpage%3D2', // the address bar's page, not the fragment's URL
      '',
    ]);
  });

  test.each([4, 2] as const)('a boosted link under htmx %s comes back to the page it asked for', async (version) => {
    const req = htmxRequest('/admin/users', { version, boosted: true, currentUrl: 'http://localhost/' });
    const res = await app().fetch(req);
    expect([res.status, res.headers.get('hx-location')]).toEqual([200, '/login?next=%2Fadmin%2Fusers']);
  });

  test('a POST without a login comes back to the home page: its URL is no page to GET', async () => {
    const res = await app().fetch(new Request('http://localhost/admin/users', { method: 'POST' }));
    expect([res.status, res.headers.get('location')]).toEqual([303, '/login?next=%2F']);
  });

  test('logging in sends the visitor back to where they were, and the section lets them in', async () => {
    const mux = app();
    const login = await mux.fetch(
      new Request('http://localhost/login?next=%2Fadmin%2Fusers', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
        body: 'email=a%40example.com&password=correct+horse',
      }),
    );
    expect([login.status, login.headers.get('location')]).toEqual([303, '/admin/users']);
    const cookie = login.headers.getSetCookie()[0]!.split(';')[0]!;
    const users = await mux.fetch(new Request('http://localhost/admin/users', { headers: { cookie } }));
    expect([users.status, await users.text()]).toEqual([200, '<table id="users">users</table>']);

    const wrong = await mux.fetch(
      new Request('http://localhost/login', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'email=a%40example.com&password=wrong',
      }),
    );
    expect([wrong.status, wrong.headers.getSetCookie()]).toEqual([422, []]);
  });
});

test.each<[string, string | null, string]>([
  ['a path', '/admin/users?page=2#top', '/admin/users?page=2#top'],
  ['a path with dots', '/admin/../users', '/users'],
  ['none', null, '/'],
  ['an absolute URL', 'https://evil.example/', '/'],
  ['a protocol-relative URL', '//evil.example/', '/'],
  ['a backslash', '/\\evil.example', '/'],
  ['a tab inside (browsers drop it: //evil)', '/\t/evil.example', '/'],
  ['a scheme', 'javascript:alert(1)', '/'],
  ['a relative path', 'admin', '/'],
  ['encoded slashes stay a path', '/%2F%2Fevil.example', '/%2F%2Fevil.example'],
  ['a dot segment that leaves //', '/.//evil.example', '/'],
  ['a dot-dot segment that leaves //', '/a/..//evil.example', '/'],
  ['an encoded dot segment', '/%2e//evil.example', '/'],
  ['a dot and a backslash', '/.\\/evil.example', '/'],
  ['a dot, a slash and a backslash', '/./\\evil.example', '/'],
])('safeNext: %s', (_name, next, expected) => {
  expect(safeNext(next)).toBe(expected);
});

describe('passwords', () => {
  test('scrypt by default; the right password verifies, another does not; each hash is salted', async () => {
    expect(passwordHash).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(await verifyPassword('correct horse', passwordHash)).toBe(true);
    expect(await verifyPassword('correct horsE', passwordHash)).toBe(false);
    expect(await verifyPassword('', passwordHash)).toBe(false);
    expect(await hashPassword('correct horse')).not.toBe(passwordHash);
  });

  test('PBKDF2 where scrypt is missing (workerd without it): same format rules, and both verify anywhere', async () => {
    const getBuiltinModule = process.getBuiltinModule;
    const spy = jest
      .spyOn(process, 'getBuiltinModule')
      .mockImplementation(((name: string) =>
        name === 'node:crypto' ? undefined : getBuiltinModule(name)) as typeof process.getBuiltinModule);
    const hash = await hashPassword('Zoë');
    spy.mockRestore();
    expect(hash).toMatch(/^pbkdf2-sha256\$100000\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(await verifyPassword('Zoë', hash)).toBe(true);
    expect(await verifyPassword('Zoe\u0308', hash)).toBe(true); // the same text, decomposed (NFC)
    expect(await verifyPassword('Zoe', hash)).toBe(false);
  });

  test.each([
    '',
    'plain',
    'scrypt$1$1$1$AA$AA',
    'scrypt$99999999$8$1$AA$AA',
    'pbkdf2-sha256$0$AA$AA',
    'scrypt$2$1$1$!!$AA',
    'md5$x',
  ])('a hash it cannot read verifies nothing: %j', async (hash) => {
    expect(await verifyPassword('x', hash)).toBe(false);
  });
});

describe('LoginThrottle', () => {
  let now = 0;
  beforeEach(() => {
    now = Date.parse('2026-11-25T12:00:00Z');
    jest.spyOn(Date, 'now').mockImplementation(() => now);
  });
  afterEach(() => jest.restoreAllMocks());

  test('five tries lock the account for the rest of the window, whatever its case; a success forgets them', async () => {
    const throttle = new LoginThrottle();
    for (let i = 0; i < 5; i++)
      expect(await throttle.attempt(i === 3 ? ' ADA@example.com' : 'ada@example.com', `10.0.0.${i}`)).toBe(0);
    expect(await throttle.attempt('ada@example.com', '10.0.0.9')).toBe(900);
    now += 600_000;
    expect(await throttle.attempt('ada@example.com')).toBe(300);
    now += 300_000;
    expect(await throttle.attempt('ada@example.com')).toBe(0);
    for (let i = 0; i < 4; i++) await throttle.attempt('bo@example.com');
    await throttle.succeeded('bo@example.com');
    for (let i = 0; i < 5; i++) expect(await throttle.attempt('bo@example.com')).toBe(0);
  });

  test('a burst sent at once is counted before any password is checked', async () => {
    const throttle = new LoginThrottle();
    const tries = await Promise.all(
      Array.from({ length: 40 }, async () => {
        const wait = await throttle.attempt('ada@example.com');
        if (wait > 0) return 429;
        await new Promise((r) => setImmediate(r)); // the password check
        return 422;
      }),
    );
    expect(tries.filter((status) => status === 422)).toHaveLength(5);
    expect(tries.filter((status) => status === 429)).toHaveLength(35);
  });

  test('one address trying many accounts is slowed as well; its right logins are not counted', async () => {
    const throttle = new LoginThrottle({ perAddress: 10, window: 60 });
    await throttle.attempt('me@example.com', '203.0.113.9');
    await throttle.succeeded('me@example.com', '203.0.113.9');
    for (let i = 0; i < 10; i++) expect(await throttle.attempt(`user${i}@example.com`, '203.0.113.9')).toBe(0);
    expect(await throttle.attempt('someone@example.com', '203.0.113.9')).toBe(60);
    expect(await throttle.attempt('someone@example.com', '203.0.113.10')).toBe(0);
  });

  test('memory is bounded: past maxKeys an unlocked key is forgotten, the first to end; a locked one is kept', async () => {
    const throttle = new LoginThrottle({ perAccount: 2, maxKeys: 3 });
    for (const who of ['locked', 'locked', 'a', 'b', 'c']) await throttle.attempt(who); // c takes a's place
    const waits: number[] = [];
    for (const who of ['b', 'b', 'locked', 'a', 'a']) waits.push(await throttle.attempt(who));
    // b and "locked" kept their counts; a came back new, in place of c (the one open key left).
    expect(waits).toEqual([0, 900, 900, 0, 0]);
    // All three locked now: a new account waits until the first window ends, which frees a place.
    expect(await throttle.attempt('c')).toBe(900);
    now += 900_000;
    expect(await throttle.attempt('c')).toBe(0);
  });

  test('locked out of one account from one address, not from the others (perAccountAndAddress)', async () => {
    const throttle = new LoginThrottle({ perAccountAndAddress: 5, perAccount: 20 });
    for (let i = 0; i < 5; i++) expect(await throttle.attempt('ada@example.com', '203.0.113.9')).toBe(0);
    expect(await throttle.attempt('ADA@example.com ', '203.0.113.9')).toBe(900);
    expect(await throttle.attempt('bo@example.com', '203.0.113.9')).toBe(0); // another account from there
    expect(await throttle.attempt('ada@example.com', '198.51.100.1')).toBe(0); // Ada from home
    await throttle.succeeded('ada@example.com', '198.51.100.1');
    // Refused tries from 203.0.113.9 do not count on the account: 20 more from there, and Ada still gets in.
    for (let i = 0; i < 20; i++) expect(await throttle.attempt('ada@example.com', '203.0.113.9')).toBe(900);
    expect(await throttle.attempt('ada@example.com', '198.51.100.1')).toBe(0);
  });

  test('the account’s own limit is the backstop: many addresses together lock it for everyone', async () => {
    const throttle = new LoginThrottle({ perAccountAndAddress: 5, perAccount: 20 });
    for (let i = 0; i < 20; i++) expect(await throttle.attempt('ada@example.com', `10.0.${i % 4}.1`)).toBe(0);
    expect(await throttle.attempt('ada@example.com', '10.0.9.1')).toBe(900);
    now += 900_000;
    expect(await throttle.attempt('ada@example.com', '10.0.9.1')).toBe(0);
  });

  test('without an address, the pair is the account alone: perAccountAndAddress limits it', async () => {
    const throttle = new LoginThrottle({ perAccountAndAddress: 3, perAccount: 20 });
    for (let i = 0; i < 3; i++) expect(await throttle.attempt('ada@example.com')).toBe(0);
    expect(await throttle.attempt('ada@example.com')).toBe(900);
    expect(await throttle.attempt('ada@example.com', '198.51.100.1')).toBe(0);
    await throttle.succeeded('ada@example.com');
    expect(await throttle.attempt('ada@example.com')).toBe(0);
  });
});
