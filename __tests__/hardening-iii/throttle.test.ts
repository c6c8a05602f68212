// Hardening III (issue 40.4): the login throttle could be flushed. Once an account was locked, a thousand tries on
// other accounts (from the address that was itself already over its limit) pushed the victim's count out of
// MemoryThrottleStore (oldest key first), and the account had five more guesses. Now an address over its limit adds
// no account key, and a full store forgets expired keys first, then the unlocked key whose window ends first, never a
// locked one. Through the store, through `LoginThrottle`, and through a login route on a real server (`serve`, where
// the client's address is known, from several loopback addresses) and through `mux.fetch` (where it is not).

import { once } from 'node:events';
import { Agent, request as httpRequest, type Server } from 'node:http';
import {
  LoginThrottle,
  MemoryThrottleStore,
  ServeMux,
  clientAddress,
  mount,
  route,
  type PageRequest,
} from '../../core/index.ts';
import { serve, shutdown } from '../../core/node/index.ts';

afterEach(() => jest.restoreAllMocks());

describe('MemoryThrottleStore, full', () => {
  test('a locked key outlives a flood of new keys', async () => {
    const store = new MemoryThrottleStore(1000);
    for (let i = 0; i < 5; i++) await store.hit('account:victim', 900, 5);
    for (let i = 0; i < 1000; i++) await store.hit(`account:other-${i}`, 900, 5);
    expect((await store.hit('account:victim', 900, 5)).count).toBe(6);
  });

  test('an expired key goes before a live one, whatever their order of arrival', async () => {
    let now = Date.parse('2026-11-25T12:00:00Z');
    jest.spyOn(Date, 'now').mockImplementation(() => now);
    const store = new MemoryThrottleStore(2);
    await store.hit('long', 900); // first in, its window ends last
    await store.hit('short', 1);
    now += 2000;
    await store.hit('new', 900);
    expect((await store.hit('long', 900)).count).toBe(2);
  });

  test('an unlocked key goes for a new one, the one whose window ends first; a locked one never', async () => {
    let now = Date.parse('2026-11-25T12:00:00Z');
    jest.spyOn(Date, 'now').mockImplementation(() => now);
    const store = new MemoryThrottleStore(3);
    for (let i = 0; i < 3; i++) await store.hit('locked', 900, 3);
    await store.hit('older', 900, 3);
    now += 1000;
    await store.hit('newer', 900, 3);
    await store.hit('new', 900, 3); // full: "older" goes
    expect([(await store.hit('newer', 900, 3)).count, (await store.hit('locked', 900, 3)).count]).toEqual([2, 4]);
    expect((await store.hit('older', 900, 3)).count).toBe(1); // forgotten: a new window
  });

  test('full of locked keys, a new key is refused until the first window ends, and nothing is forgotten', async () => {
    let now = Date.parse('2026-11-25T12:00:00Z');
    jest.spyOn(Date, 'now').mockImplementation(() => now);
    const store = new MemoryThrottleStore(2);
    await store.hit('a', 900, 1);
    now += 100_000;
    await store.hit('b', 900, 1);
    expect(await store.hit('c', 900, 1)).toEqual({ count: 2, resetsIn: 800 });
    expect([(await store.hit('a', 900, 1)).count, (await store.hit('b', 900, 1)).count]).toEqual([2, 2]);
    now += 800_000; // a's window is over: c takes its place
    expect(await store.hit('c', 900, 1)).toEqual({ count: 1, resetsIn: 900 });
  });
});

describe('LoginThrottle with a full MemoryThrottleStore', () => {
  test('a thousand tries on other accounts leave a locked account locked', async () => {
    const throttle = new LoginThrottle({ maxKeys: 1000 });
    for (let i = 0; i < 5; i++) expect(await throttle.attempt('victim@example.com')).toBe(0);
    for (let i = 0; i < 1000; i++) await throttle.attempt(`other-${i}@example.com`);
    expect(await throttle.attempt('victim@example.com')).toBeGreaterThan(0);
  });

  test('an address over its limit counts no account: its tries leave the accounts as they were', async () => {
    const store = new MemoryThrottleStore();
    const throttle = new LoginThrottle({ store, perAddress: 10 });
    for (let i = 0; i < 10; i++) expect(await throttle.attempt(`user-${i}@example.com`, '203.0.113.9')).toBe(0);
    for (let i = 0; i < 20; i++) expect(await throttle.attempt('ada@example.com', '203.0.113.9')).toBeGreaterThan(0);
    // Ada's five tries are all hers: the refused ones from 203.0.113.9 did not count on her account.
    for (let i = 0; i < 5; i++) expect(await throttle.attempt('ada@example.com', '198.51.100.1')).toBe(0);
    expect(await throttle.attempt('ada@example.com', '198.51.100.1')).toBeGreaterThan(0);
  });
});

// --- a login route, on a real server and through mux.fetch ----------------------------------------------------------

/** The login of a small app: the password is "right" for every account; the throttle keeps at most `maxKeys`. */
function loginApp(maxKeys: number): ServeMux {
  const throttle = new LoginThrottle({ maxKeys });
  class Login {
    async post(req: PageRequest): Promise<Response> {
      const form = await req.formData();
      const address = clientAddress(req) || undefined;
      const wait = await throttle.attempt(String(form.get('email')), address);
      if (wait > 0) return new Response('too many tries', { status: 429, headers: { 'retry-after': String(wait) } });
      if (form.get('password') !== 'right') return new Response('wrong', { status: 422 });
      await throttle.succeeded(String(form.get('email')), address);
      return new Response('welcome');
    }
    page() {
      return 'log in';
    }
  }
  class App {
    login = route('/login', Login);
  }
  const mux = new ServeMux();
  mount(mux, App);
  return mux;
}

const body = (email: string, password: string) => new URLSearchParams({ email, password }).toString();

/** POST /login from `from` (a loopback address: 127.0.0.1 to 127.255.255.254 all reach the server), its status. */
function tryLogin(port: number, from: string, agent: Agent, email: string, password: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path: '/login',
        method: 'POST',
        localAddress: from,
        agent,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      },
    );
    req.on('error', reject);
    req.end(body(email, password));
  });
}

// On a real server the store keeps 250 keys, not the probe's 1,000: the same flush in a quarter of the requests, so
// that a loaded machine runs it in seconds.
describe('through a login route on a real server', () => {
  const maxKeys = 250;
  const slow = 30_000; // a few hundred requests, each its own connection's turn, on a loaded machine
  let server: Server;
  let port = 0;
  const agents = new Map<string, Agent>();
  const from = (address: string) => {
    if (!agents.has(address)) agents.set(address, new Agent({ keepAlive: true, maxSockets: 8 }));
    const agent = agents.get(address)!;
    return (email: string, password = 'wrong') => tryLogin(port, address, agent, email, password);
  };
  beforeEach(async () => {
    server = serve(loginApp(maxKeys), { port: 0, hostname: '127.0.0.1', handleSignals: false, onListen: () => {} });
    await once(server, 'listening');
    port = (server.address() as { port: number }).port;
  });
  afterEach(async () => {
    for (const agent of agents.values()) agent.destroy();
    agents.clear();
    await shutdown(server, 500);
  });

  /** Tries `emails` from `address`, eight at a time; their statuses, counted. */
  async function flood(address: string, emails: string[]): Promise<Record<number, number>> {
    const statuses: Record<number, number> = {};
    const send = from(address);
    for (let i = 0; i < emails.length; i += 8) {
      for (const status of await Promise.all(emails.slice(i, i + 8).map((email) => send(email)))) {
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
    }
    return statuses;
  }

  test(
    'an address already over its limit cannot flush a locked account out of the throttle',
    async () => {
      const attacker = from('127.0.0.1');
      for (let i = 0; i < 5; i++) expect(await attacker('victim@example.com')).toBe(422);
      expect(await attacker('victim@example.com', 'right')).toBe(429);
      // The address over its 50 tries, then more tries on other accounts than the store keeps: all refused.
      const others = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag}-${i}@example.com`);
      await flood('127.0.0.1', others(50, 'warm-up'));
      expect(await flood('127.0.0.1', others(maxKeys, 'flush'))).toEqual({ 429: maxKeys });
      // From another address, the victim's account is still locked: the right password gets no hearing.
      expect(await from('127.0.0.2')('victim@example.com', 'right')).toBe(429);
    },
    slow,
  );

  test(
    'tries spread over ten addresses, each under its limit, cannot flush a locked account either',
    async () => {
      const attacker = from('127.0.0.1');
      for (let i = 0; i < 5; i++) expect(await attacker('victim@example.com')).toBe(422);
      // 10 addresses × 30 accounts: more keys than the store keeps.
      for (let a = 10; a < 20; a++) {
        const emails = Array.from({ length: 30 }, (_, i) => `spread-${a}-${i}@example.com`);
        expect(await flood(`127.0.0.${a}`, emails)).toEqual({ 422: 30 });
      }
      expect(await from('127.0.0.2')('victim@example.com', 'right')).toBe(429);
    },
    slow,
  );
});

test('through mux.fetch (no address known): a thousand tries on other accounts leave a locked account locked', async () => {
  const mux = loginApp(1000);
  const login = async (email: string, password = 'wrong') =>
    (
      await mux.fetch(
        new Request('http://localhost/login', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: body(email, password),
        }),
      )
    ).status;
  for (let i = 0; i < 5; i++) expect(await login('victim@example.com')).toBe(422);
  for (let i = 0; i < 1000; i++) expect(await login(`other-${i}@example.com`)).toBe(422);
  expect(await login('victim@example.com', 'right')).toBe(429);
}, 30_000);
