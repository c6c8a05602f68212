// Password hashes for a login form: scrypt (node:crypto, on Node, Bun, Deno and workerd with nodejs_compat), or
// PBKDF2-SHA-256 from Web Crypto where scrypt is missing; compared in constant time. A hash names its algorithm
// and parameters, so stronger parameters later still verify the hashes made before.
//
//   await hashPassword('correct horse')   → "scrypt$32768$8$1$<salt>$<key>"   (base64url; ~0.1 s on this VM)
//   await verifyPassword('correct horse', hash)   → true
//
// Written here rather than taken from a package: node:crypto and Web Crypto are the well-kept libraries for it,
// and what is left is the format and the comparison (bcrypt/argon2 packages are native addons, which workerd and
// Deno cannot load).
//
// Hashing is the one piece of a request that a flood can make expensive on purpose, and on Node it runs on libuv's
// thread pool (4 threads by default), which file reads, DNS lookups and async zlib share. So the process hashes at
// most `concurrent` passwords at once (half the pool), lets `queued` more wait their turn, and refuses the next with
// a 503 and a Retry-After (an HttpError: the page's error answer), at once: a login flood from many addresses, which
// no per-address throttle stops, costs its own 503s, not every other page's static files and queries. A check whose
// request has ended by its turn (the client left, the page timed out) gives the turn to the next without hashing.
//
//   limitPasswordWork({ concurrent: 4, queued: 200 })   → for every hashPassword and verifyPassword after it

import { HttpError } from '../errors.ts';
import { base64url, fromBase64url } from '../kernel/base64url.ts';
import { optionalNodeModule } from '../kernel/node-modules.ts';
import { requestContext } from '../request/context.ts';

// OWASP's minimum for scrypt is N=2^17, r=8, p=1 (128 MiB); 2^15 with r=8 keeps each hash at 32 MiB and ~0.1 s, so
// that a burst of logins cannot exhaust memory. PBKDF2: workerd refuses more than 100,000 iterations.
const scryptParams = { N: 32_768, r: 8, p: 1 };
// The most memory verifying a hash may take (128·N·r bytes): 4× what hashPassword's take.
const maxScryptMemory = 128 * 1024 * 1024;
const pbkdf2Iterations = 100_000;
const keyLength = 32;
const encoder = new TextEncoder();

/** How much password hashing runs at once, and how much may wait for it (`limitPasswordWork`). */
export interface PasswordWorkLimits {
  /**
   * Hashes computed at once (default: half of libuv's thread pool, `UV_THREADPOOL_SIZE` or 4, so 2): the rest of
   * the pool stays free for file reads, DNS lookups and zlib.
   */
  concurrent?: number;
  /**
   * Checks that may wait for a free slot (default 64: at ~0.1 s a hash and 2 at once, ~3 s of waiting). One more is
   * refused at once with `HttpError` 503 and a Retry-After of about the queue's wait.
   */
  queued?: number;
}

const poolSize = Number(globalThis.process?.env?.UV_THREADPOOL_SIZE) || 4;
const limits: Required<PasswordWorkLimits> = { concurrent: Math.max(1, Math.floor(poolSize / 2)), queued: 64 };

/**
 * Sets how many password hashes (`hashPassword`, `verifyPassword`) this process computes at once and how many may
 * wait; a check past both is refused with `HttpError` 503 (Retry-After). For every check started after the call.
 * @example limitPasswordWork({ concurrent: 4, queued: 200 }) // a server with UV_THREADPOOL_SIZE=8 and many logins
 */
export function limitPasswordWork(options: PasswordWorkLimits): void {
  const given = Object.entries(options ?? {}).filter(([, n]) => n !== undefined);
  const next: Required<PasswordWorkLimits> = { ...limits, ...Object.fromEntries(given) };
  for (const [name, min] of [
    ['concurrent', 1],
    ['queued', 0],
  ] as const) {
    const n = next[name];
    if (!Number.isSafeInteger(n) || n < min) {
      throw new RangeError(
        `limitPasswordWork(): ${name} is ${String(n)}, not a whole number ≥ ${min}; give e.g. ${name === 'concurrent' ? 2 : 64}`,
      );
    }
  }
  Object.assign(limits, next);
  // A higher limit lets waiting checks start now.
  while (running < limits.concurrent && waiting.length > 0) {
    running++;
    waiting.shift()!();
  }
}

// The slots: hashes running, and the checks waiting for one, first come first served. Both are bounded (`limits`).
let running = 0;
const waiting: (() => void)[] = [];
// How long a hash takes here (ms, a moving average), for the Retry-After of a refusal.
let hashMs = 100;

async function inSlot<T>(work: () => Promise<T>): Promise<T> {
  // The request's signal: its client may leave, or its page time out (a 503 answered), before its turn comes.
  const signal = requestContext.getStore()?.req.signal;
  if (running < limits.concurrent) {
    running++;
  } else if (waiting.length < limits.queued) {
    // The slot is handed over by the check that frees it (`running` stays as it is).
    await new Promise<void>((resolve) => waiting.push(resolve));
  } else {
    const wait = Math.max(1, Math.ceil((waiting.length / limits.concurrent + 1) * (hashMs / 1000)));
    throw new HttpError(503, 'Service Unavailable: too many logins at once; try again in a moment', {
      'retry-after': String(wait),
    });
  }
  if (signal?.aborted) {
    // Nobody reads this answer: the slot goes to the next check, not to a hash. Not logged (an HttpError).
    release();
    throw new HttpError(503, 'Service Unavailable: the request ended before its password check');
  }
  const start = Date.now();
  try {
    return await work();
  } finally {
    hashMs = 0.8 * hashMs + 0.2 * (Date.now() - start);
    release();
  }
}

// A slot freed: handed to the first check waiting, unless the limit was lowered below what runs.
function release(): void {
  if (running <= limits.concurrent) {
    const next = waiting.shift();
    if (next) return next();
  }
  running--;
}

/**
 * A salted hash of `password` to store instead of it. A password that is no string (an environment variable left
 * unset) rejects with a TypeError that says what it got; past `limitPasswordWork`'s limits, with `HttpError` 503.
 * @example const hash = await hashPassword(form.data.password);
 */
export async function hashPassword(password: string): Promise<string> {
  checkPassword('hashPassword', password);
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const crypt = optionalNodeModule('node:crypto');
  if (crypt?.scrypt) {
    const { N, r, p } = scryptParams;
    const key = await inSlot(() => scrypt(password, salt, N, r, p));
    return `scrypt$${N}$${r}$${p}$${base64url(salt)}$${base64url(key)}`;
  }
  const key = await inSlot(() => pbkdf2(password, salt, pbkdf2Iterations));
  return `pbkdf2-sha256$${pbkdf2Iterations}$${base64url(salt)}$${base64url(key)}`;
}

/**
 * Whether `password` is the one `hash` was made from (hashPassword's format); false for a hash it cannot read.
 * Past `limitPasswordWork`'s limits (a flood of logins) it rejects with `HttpError` 503 and a Retry-After, which a
 * page that lets it propagate answers as such.
 * @example if (!(await verifyPassword(form.data.password, user.passwordHash))) …
 */
export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  checkPassword('verifyPassword', password);
  const parts = hash.split('$');
  let expected: Uint8Array;
  let actual: Uint8Array;
  if (parts[0] === 'scrypt' && parts.length === 6) {
    const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
    if (![N, r, p].every((n) => Number.isSafeInteger(n) && n > 0) || p > 16) return false;
    if (N < 2 || (N & (N - 1)) !== 0) return false; // scrypt's N is a power of two
    if (128 * N * r > maxScryptMemory) return false; // a stored hash must not take the process's memory
    const [salt, key] = [decode(parts[4]!), decode(parts[5]!)];
    if (!salt || !key) return false;
    expected = key;
    const length = expected.length;
    const derived = await inSlot(async () => {
      try {
        return await scrypt(password, salt, N, r, p, length);
      } catch {
        return undefined; // no scrypt on this runtime, or parameters it refuses: a hash it cannot read
      }
    });
    if (derived === undefined) return false;
    actual = derived;
  } else if (parts[0] === 'pbkdf2-sha256' && parts.length === 4) {
    const iterations = Number(parts[1]);
    if (!Number.isSafeInteger(iterations) || iterations < 1 || iterations > 10_000_000) return false;
    const [salt, key] = [decode(parts[2]!), decode(parts[3]!)];
    if (!salt || !key) return false;
    expected = key;
    const length = expected.length;
    actual = await inSlot(() => pbkdf2(password, salt, iterations, length));
  } else return false;
  return expected.length > 0 && equal(expected, actual);
}

// A password that is no string is a mistake in the app (an environment variable left unset, read with `!`): said
// here, with what it was, rather than as "reading 'normalize'" from inside the hash.
function checkPassword(fn: string, password: unknown): void {
  if (typeof password === 'string') return;
  const type = typeof password;
  const got = password == null ? String(password) : `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;
  const hint = password === undefined ? ' (an environment variable that is not set?)' : '';
  throw new TypeError(`${fn}(): the password is ${got}, not a string${hint}`);
}

function scrypt(
  password: string,
  salt: Uint8Array,
  N: number,
  r: number,
  p: number,
  length = keyLength,
): Promise<Uint8Array> {
  const crypt = optionalNodeModule('node:crypto');
  if (!crypt?.scrypt)
    throw new Error('verifyPassword(): this hash is scrypt, and this runtime has no node:crypto scrypt');
  const maxmem = 256 * N * r + (1 << 20);
  return new Promise((resolve, reject) =>
    crypt.scrypt(password.normalize('NFC'), salt, length, { N, r, p, maxmem }, (err, key) =>
      err ? reject(err) : resolve(new Uint8Array(key)),
    ),
  );
}

async function pbkdf2(
  password: string,
  salt: Uint8Array<ArrayBuffer>,
  iterations: number,
  length = keyLength,
): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(password.normalize('NFC')), 'PBKDF2', false, [
    'deriveBits',
  ]);
  const bits = await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations }, key, length * 8);
  return new Uint8Array(bits);
}

function decode(text: string): Uint8Array<ArrayBuffer> | undefined {
  try {
    return fromBase64url(text);
  } catch {
    return undefined; // not base64url: not a hash of ours
  }
}

/** Equal bytes, in time that depends only on the length (which is public: the hash's own). */
function equal(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}
