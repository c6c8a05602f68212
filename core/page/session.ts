// Sessions: what the app keeps about a visitor between requests (who logged in, a cart), in a cookie that the
// visitor cannot read or change, so that any instance of the app reads it with the mount's secret.
//
//   const s = await session();          // the request's session (the same object for the whole request)
//   s.data.userId                       // → 7, or undefined
//   await s.set({ userId: 7 });         // Set-Cookie: pagetree-session=v1.<iv+ciphertext>; Path=/; HttpOnly; …
//   await s.regenerate();               // a new id: log in (the id from before the login names nothing any more)
//   await s.destroy();                  // log out: the cookie deleted (and the stored data, with a store)
//
// The cookie holds `v1.` + base64url(iv ‖ AES-256-GCM(JSON { id, created, active, data })), the cookie's name as
// additional data (a session cannot be moved to another cookie). The key is derived from the mount's secret by
// HKDF; with a list of secrets the first encrypts and each decrypts, so a rotation keeps everyone logged in. A
// session idle longer than `idleTimeout` or older than `absoluteTimeout` reads as empty, a new one. Web Crypto
// only: Node, Bun, Deno and workerd run it alike.
//
// With a `store`, the cookie carries only the id and times, and the data lives in the store: destroy() then ends the
// session everywhere (a copy of the cookie names nothing), and data that must not travel stays on the server.

import { context, treeSessionOptions, type RequestContext } from './context.ts';
import { base64url, fromBase64url } from '../http/base64url.ts';
import { deleteCookie, queueCookie, requestCookies, secretsOf, type CookieOptions } from './cookies.ts';
import type { Register } from './url-types.ts';

/** What a session holds, declared once: `declare module 'pagetree' { interface Register { session: { userId: number } } }`. */
export type SessionData = Register extends { session: infer S extends object } ? S : Record<string, unknown>;

/** Where sessions keep their data when it stays on the server (`mount(…, { session: { store } })`). */
export interface SessionStore {
  /** The data stored for `id`, or undefined (none, expired, destroyed). */
  get(id: string): Promise<object | undefined> | object | undefined;
  /** Stores the data of `id` for `ttl` seconds (the session's absolute expiry). */
  set(id: string, data: object, ttl: number): Promise<void> | void;
  /** Forgets `id`. */
  delete(id: string): Promise<void> | void;
}

/** The session options of a mount. */
export interface SessionOptions {
  /** The cookie's name (default `pagetree-session`). */
  cookie?: string;
  /** Seconds without a request after which a session is over (default 7,200: two hours). */
  idleTimeout?: number;
  /** Seconds after its start after which a session is over, active or not (default 604,800: a week). */
  absoluteTimeout?: number;
  /** Keep the data on the server instead of in the cookie. */
  store?: SessionStore;
  /**
   * The cookie's attributes (`setCookie`'s options but its lifetime, which is the session's). `secure: true` behind
   * a proxy that ends TLS, where the request the app sees is http.
   */
  cookieOptions?: Omit<CookieOptions, 'maxAge' | 'expires'>;
}

/** One visitor's session, for the current request. */
export interface Session<T extends object = SessionData> {
  /** A random id (22 characters), new for every session and on regenerate(). */
  readonly id: string;
  /** The values: as the request brought them, with what set() added since. */
  readonly data: Readonly<Partial<T>>;
  /** Merges `values` into the data (an `undefined` value removes its key); the cookie goes out with this answer. */
  set(values: Partial<T>): Promise<void>;
  /** Gives the session a new id, its data kept: call it when the visitor logs in (session fixation). */
  regenerate(): Promise<void>;
  /** Ends the session: the data emptied and the cookie deleted (with a store, the stored data too). */
  destroy(): Promise<void>;
}

interface Payload {
  id: string;
  /** Seconds since the epoch when the session began. */
  created: number;
  /** Seconds since the epoch of the last request that refreshed it. */
  active: number;
  /** The data, unless a store keeps it. */
  data?: object;
}

const defaults = { cookie: 'pagetree-session', idleTimeout: 7_200, absoluteTimeout: 604_800 };
const encoder = new TextEncoder();
const decoder = new TextDecoder();
// A session last written longer ago than this (seconds; half the idle timeout when that is shorter) is written
// again, so that an active visitor's idle clock restarts without a Set-Cookie on every answer.
const maxRefreshAfter = 60;
// How far ahead of this instance's clock another instance's may be.
const clockSkew = 60;

const sessions = new WeakMap<RequestContext, Promise<Session>>();

/**
 * The current request's session: read (and decrypted) once per request, typed by `Register`'s `session`.
 * @example const { userId } = (await session()).data;
 */
export function session(): Promise<Session> {
  const ctx = context('session');
  let s = sessions.get(ctx);
  if (!s) sessions.set(ctx, (s = open(ctx)));
  return s;
}

async function open(ctx: RequestContext): Promise<Session> {
  const options = { ...defaults, ...treeSessionOptions.get(ctx.tree) };
  const { store } = options;
  const secrets = secretsOf(ctx, 'session');
  const now = Math.floor(Date.now() / 1000);
  const read = await decrypt(secrets, options.cookie, requestCookies(ctx)[options.cookie]);
  // A cookie from the future (another instance's clock far ahead) is not trusted to say how old it is.
  const live =
    read !== undefined &&
    read.created <= now + clockSkew &&
    read.active <= now + clockSkew &&
    now - read.active <= options.idleTimeout &&
    now - read.created <= options.absoluteTimeout;
  let stored: object | undefined;
  if (live && store) stored = await store.get(read.id);
  // With a store, a session the store no longer has (destroyed, expired there) is over, whatever the cookie says.
  const current = live && (!store || stored !== undefined);
  let payload: Payload = current ? { id: read.id, created: read.created, active: read.active } : fresh(now);
  let data: Record<string, unknown> = current ? { ...(store ? stored : read.data) } : {};
  const cookieOptions = { ...options.cookieOptions, maxAge: undefined, expires: undefined };

  // Writes the cookie (and the store's entry when the data changed) with this request as the last activity.
  const write = async (changed: boolean) => {
    const ttl = payload.created + options.absoluteTimeout - now;
    payload = { ...payload, active: now };
    if (store && changed) await store.set(payload.id, data, ttl);
    const sealed = await encrypt(secrets[0]!, options.cookie, store ? payload : { ...payload, data });
    queueCookie(ctx, 'session', options.cookie, sealed, { ...cookieOptions, maxAge: ttl });
  };
  // An active visitor's idle clock restarts: the cookie is written again, at most every refreshAfter seconds. (The
  // store's entry is not: its time to live is the absolute expiry, which a refresh does not move.)
  const refreshAfter = Math.min(maxRefreshAfter, Math.floor(options.idleTimeout / 2));
  if (current && now - payload.active > refreshAfter) await write(false);

  return {
    get id() {
      return payload.id;
    },
    get data() {
      return data;
    },
    async set(values) {
      data = { ...data, ...values };
      for (const [key, value] of Object.entries(values)) if (value === undefined) delete data[key];
      await write(true);
    },
    async regenerate() {
      const old = payload.id;
      payload = { ...payload, id: newId() };
      if (store) await store.delete(old);
      await write(true);
    },
    async destroy() {
      if (store) await store.delete(payload.id);
      data = {};
      payload = fresh(now);
      deleteCookie(options.cookie, cookieOptions);
    },
  };
}

function fresh(now: number): Payload {
  return { id: newId(), created: now, active: now };
}

function newId(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(16)));
}

// One derived key per secret: deriveKey is async work every request would otherwise repeat. (Typed through
// crypto.subtle: the published build has no DOM library.)
type AesKey = ReturnType<typeof crypto.subtle.deriveKey>;
const keys = new Map<string, AesKey>();

function aesKey(secret: string): AesKey {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle
      .importKey('raw', encoder.encode(secret), 'HKDF', false, ['deriveKey'])
      .then((base) =>
        crypto.subtle.deriveKey(
          { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: encoder.encode('pagetree session v1') },
          base,
          { name: 'AES-GCM', length: 256 },
          false,
          ['encrypt', 'decrypt'],
        ),
      );
    keys.set(secret, key);
  }
  return key;
}

async function encrypt(secret: string, name: string, payload: Payload): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const plain = encoder.encode(JSON.stringify(payload));
  const aad = encoder.encode(name);
  const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: aad }, await aesKey(secret), plain);
  const bytes = new Uint8Array(12 + sealed.byteLength);
  bytes.set(iv);
  bytes.set(new Uint8Array(sealed), 12);
  return `v1.${base64url(bytes)}`;
}

/** The payload of a cookie value, or undefined when it is missing, changed, or sealed with no secret given. */
async function decrypt(
  secrets: readonly string[],
  name: string,
  value: string | undefined,
): Promise<Payload | undefined> {
  if (value === undefined || !/^v1\.[A-Za-z0-9_-]{40,}$/.test(value)) return undefined;
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = fromBase64url(value.slice(3));
  } catch {
    return undefined; // a length base64 cannot have: cut short on the way
  }
  const aad = encoder.encode(name);
  for (const secret of secrets) {
    try {
      const iv = bytes.subarray(0, 12);
      const plain = await crypto.subtle.decrypt(
        { name: 'AES-GCM', iv, additionalData: aad },
        await aesKey(secret),
        bytes.subarray(12),
      );
      const payload = JSON.parse(decoder.decode(plain)) as Payload;
      if (typeof payload.id === 'string' && Number.isFinite(payload.created) && Number.isFinite(payload.active)) {
        return payload;
      }
      return undefined;
    } catch {
      // another secret, or not ours
    }
  }
  return undefined;
}

// MemorySessionStore drops its expired entries every this many sets.
const prune = 1000;

/**
 * A `SessionStore` in this process's memory, for one instance and for tests: entries expire with their `ttl`.
 * Several instances share a store of Postgres or Redis instead.
 * @example mount(mux, App, '/', 'App', { secret, session: { store: new MemorySessionStore() } })
 */
export class MemorySessionStore implements SessionStore {
  readonly #entries = new Map<string, { data: object; expires: number }>();
  #sets = 0;

  get(id: string): object | undefined {
    const entry = this.#entries.get(id);
    if (entry && entry.expires <= Date.now()) this.#entries.delete(id);
    return entry && entry.expires > Date.now() ? entry.data : undefined;
  }

  set(id: string, data: object, ttl: number): void {
    // Expired entries go as new ones come: every `prune` sets, each expired entry is dropped.
    if (++this.#sets % prune === 0) {
      const now = Date.now();
      for (const [key, entry] of this.#entries) if (entry.expires <= now) this.#entries.delete(key);
    }
    this.#entries.delete(id);
    this.#entries.set(id, { data: structuredClone(data), expires: Date.now() + ttl * 1000 });
  }

  delete(id: string): void {
    this.#entries.delete(id);
  }

  /** How many sessions it holds (expired ones included until read). */
  get size(): number {
    return this.#entries.size;
  }
}
