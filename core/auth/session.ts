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

import { checkHeadOpen, context, draft, type RequestContext } from '../request/context.ts';
import { sessionSetting } from '../tree/tree.ts';
import { base64url, fromBase64url } from '../kernel/base64url.ts';
import { deleteCookie, queueCookie, requestCookies, secretsOf, type CookieOptions } from './cookies.ts';
import type { Register } from '../tree/url-types.ts';

/** What a session holds, declared once: `declare module 'pagetree' { interface Register { session: { userId: number } } }`. */
export type SessionData = Register extends { session: infer S extends object } ? S : Record<string, unknown>;

/**
 * Where sessions keep their data when it stays on the server (`mount(…, { session: { store } })`). `idleTimeout` is
 * the mount's, in seconds: a store may forget an entry neither read nor written for that long (the session is over
 * then whatever the store does: its cookie says when it was last active).
 */
export interface SessionStore {
  /** The data stored for `id`, or undefined (none, expired, destroyed). */
  get(id: string, idleTimeout?: number): Promise<object | undefined> | object | undefined;
  /** Stores the data of `id` for `ttl` seconds (the session's absolute expiry). */
  set(id: string, data: object, ttl: number, idleTimeout?: number): Promise<void> | void;
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

/**
 * One visitor's session, for the current request. Its writes record for the answer's head, as the cookie helpers do:
 * inside a streamed page's `<Suspense>` part after the first byte they throw, and change nothing.
 */
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

/**
 * The current request's session: read (and decrypted) once per request, typed by `Register`'s `session`.
 * @example const { userId } = (await session()).data;
 */
export function session(): Promise<Session> {
  const ctx = context('session');
  const answer = draft(ctx);
  // Kept in the request's answer draft, which request/context.ts types without naming Session.
  return (answer.session ??= open(ctx)) as Promise<Session>;
}

async function open(ctx: RequestContext): Promise<Session> {
  // The tree keeps them as the object mount checked (tree.ts cannot name this file's type).
  const options = { ...defaults, ...(ctx.tree.setting(sessionSetting) as SessionOptions | undefined) };
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
  if (live && store) stored = await store.get(read.id, options.idleTimeout);
  // With a store, a session the store no longer has (destroyed, expired there) is over, whatever the cookie says.
  const current = live && (!store || stored !== undefined);
  let payload: Payload = current ? { id: read.id, created: read.created, active: read.active } : fresh(now);
  let data: Record<string, unknown> = current ? { ...(store ? stored : read.data) } : {};
  const cookieOptions = { ...options.cookieOptions, maxAge: undefined, expires: undefined };
  const ttl = () => payload.created + options.absoluteTimeout - now;
  // The cookie of `next` (with this request as its last activity), sealed: async work with no effect yet.
  const seal = (next: Payload, nextData: object) =>
    encrypt(secrets[0]!, options.cookie, store ? next : { ...next, data: nextData });
  const queue = (api: string, sealed: string) =>
    queueCookie(ctx, api, options.cookie, sealed, { ...cookieOptions, maxAge: ttl() });

  // An active visitor's idle clock restarts: the cookie is written again, at most every refreshAfter seconds. (The
  // store's entry is not: its time to live is the absolute expiry, which a refresh does not move.) Not once a
  // streamed page's head is out (a part read the session): a refresh is no write the app asked for, and the next
  // request makes it.
  const refreshAfter = Math.min(maxRefreshAfter, Math.floor(options.idleTimeout / 2));
  if (current && now - payload.active > refreshAfter && !ctx.stream?.committed) {
    const next = { ...payload, active: now };
    const sealed = await seal(next, data);
    if (!ctx.stream?.committed) {
      queue('session', sealed);
      payload = next;
    }
  }

  // A write records for the answer's head, as a cookie helper does (issue 40): checked before anything, and again
  // when the cookie is queued, after the awaits. A write the answer cannot carry any more changes nothing: not the
  // data, not the id, not the store's entries (regenerate's new entry names nothing until its cookie is queued, and
  // the old one goes only after).
  return {
    get id() {
      return payload.id;
    },
    get data() {
      return data;
    },
    async set(values) {
      checkHeadOpen(ctx, 'session.set');
      const nextData: Record<string, unknown> = { ...data, ...values };
      for (const [key, value] of Object.entries(values)) if (value === undefined) delete nextData[key];
      const next = { ...payload, active: now };
      const sealed = await seal(next, nextData);
      queue('session.set', sealed); // before the store's entry, which the cookie already names, changes
      payload = next;
      if (store) await store.set(next.id, nextData, ttl(), options.idleTimeout);
      data = nextData;
    },
    async regenerate() {
      checkHeadOpen(ctx, 'session.regenerate');
      const old = payload.id;
      const next = { ...payload, id: newId(), active: now };
      const sealed = await seal(next, data);
      if (store) await store.set(next.id, data, ttl(), options.idleTimeout);
      try {
        queue('session.regenerate', sealed);
      } catch (err) {
        // The new id cannot reach the browser: it names nothing, and the old one stays the session.
        if (store) await forget(store, next.id);
        throw err;
      }
      payload = next;
      // Only now, with the new id on its way: the id from before names nothing any more.
      if (store) await store.delete(old);
    },
    async destroy() {
      checkHeadOpen(ctx, 'session.destroy');
      deleteCookie(options.cookie, cookieOptions);
      const old = payload.id;
      data = {};
      payload = fresh(now);
      if (store) await store.delete(old);
    },
  };
}

// Deletes an entry nothing names, whose failure would only hide the error being told (it expires with its ttl).
async function forget(store: SessionStore, id: string): Promise<void> {
  try {
    await store.delete(id);
  } catch {
    // expires with its ttl
  }
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

/** Options of `MemorySessionStore`. */
export interface MemorySessionStoreOptions {
  /**
   * The most sessions it holds (default 100,000); past it, the one used least recently goes (its visitor logged out).
   * Size it above the visitors active within the idle timeout: every session written counts, a visitor's cart too.
   */
  maxSessions?: number;
}

// One session in the store, and its place in the list from the least to the most recently used.
interface Entry {
  readonly id: string;
  readonly data: object;
  /** When it is over whatever happens (ms since the epoch): the session's absolute expiry. */
  readonly expires: number;
  /** How long it lives unused (ms): the mount's idle timeout, Infinity when none was given. */
  idle: number;
  /** When it was last read or written (ms since the epoch). */
  seen: number;
  older: Entry | undefined;
  newer: Entry | undefined;
}

// The session layer counts whole seconds: a cookie is live up to a second past its idle timeout, and its entry must be.
const idleGrace = 1000;
// A sweep for entries past their absolute expiry runs once every this many sets, or every `size` sets if more.
const sweepEvery = 1000;

/**
 * A `SessionStore` in this process's memory, for one instance and for tests. An entry goes at its absolute expiry
 * (`ttl`), after the mount's idle timeout without a request, or, past `maxSessions` (100,000), when it is the one used
 * least recently; every step is O(1) (amortised). Several instances share a store of Postgres or Redis instead.
 * @example mount(mux, App, '/', 'App', { secret, session: { store: new MemorySessionStore({ maxSessions: 50_000 }) } })
 */
export class MemorySessionStore implements SessionStore {
  readonly #entries = new Map<string, Entry>();
  readonly #max: number;
  // The list through the entries' `older`/`newer`: using one and dropping the oldest are O(1). (A Map in insertion
  // order is not: V8 scans the holes deletions leave at its front, 64 µs a set at 100,000 entries.)
  #oldest: Entry | undefined = undefined;
  #newest: Entry | undefined = undefined;
  #sets = 0;

  constructor(options: MemorySessionStoreOptions = {}) {
    const max = options.maxSessions ?? 100_000;
    if (!Number.isInteger(max) || max < 1) {
      throw new RangeError(
        `MemorySessionStore(): maxSessions ${String(max)} is not a whole number above 0; ` +
          `pass the most sessions to keep, e.g. new MemorySessionStore({ maxSessions: 100_000 })`,
      );
    }
    this.#max = max;
  }

  get(id: string, idleTimeout?: number): object | undefined {
    const entry = this.#entries.get(id);
    if (entry === undefined) return undefined;
    const now = Date.now();
    if (idleTimeout !== undefined) entry.idle = idleTimeout * 1000; // the mount's, as it is now
    if (this.#expired(entry, now)) {
      this.#remove(entry);
      return undefined;
    }
    entry.seen = now;
    this.#unlink(entry);
    this.#append(entry);
    return entry.data;
  }

  set(id: string, data: object, ttl: number, idleTimeout?: number): void {
    const copy = structuredClone(data); // first: data it cannot copy changes nothing
    const now = Date.now();
    const idle = idleTimeout === undefined ? Infinity : idleTimeout * 1000;
    const old = this.#entries.get(id);
    if (old !== undefined) this.#remove(old);
    const entry: Entry = {
      id,
      data: copy,
      expires: now + ttl * 1000,
      idle,
      seen: now,
      older: undefined,
      newer: undefined,
    };
    this.#entries.set(id, entry);
    this.#append(entry);
    this.#prune(now);
  }

  delete(id: string): void {
    const entry = this.#entries.get(id);
    if (entry !== undefined) this.#remove(entry);
  }

  /** How many sessions it holds (expired ones included until they go). */
  get size(): number {
    return this.#entries.size;
  }

  // Expired entries first, then the least recently used while over the bound. A mount gives every entry the same idle
  // timeout, so the least recently used are the first to go idle: they leave from the old end, each once. An entry past
  // its absolute expiry may stand anywhere: a sweep of all, once every `size` sets, finds it at O(1) a set.
  #prune(now: number): void {
    while (this.#oldest !== undefined && this.#expired(this.#oldest, now)) this.#remove(this.#oldest);
    if (++this.#sets >= Math.max(sweepEvery, this.#entries.size)) {
      this.#sets = 0;
      for (const entry of this.#entries.values()) if (this.#expired(entry, now)) this.#remove(entry);
    }
    while (this.#entries.size > this.#max) this.#remove(this.#oldest!);
  }

  #expired(entry: Entry, now: number): boolean {
    return entry.expires <= now || now - entry.seen > entry.idle + idleGrace;
  }

  #remove(entry: Entry): void {
    this.#entries.delete(entry.id);
    this.#unlink(entry);
  }

  #append(entry: Entry): void {
    entry.older = this.#newest;
    entry.newer = undefined;
    if (this.#newest === undefined) this.#oldest = entry;
    else this.#newest.newer = entry;
    this.#newest = entry;
  }

  #unlink(entry: Entry): void {
    if (entry.older === undefined) this.#oldest = entry.newer;
    else entry.older.newer = entry.newer;
    if (entry.newer === undefined) this.#newest = entry.older;
    else entry.newer.older = entry.older;
    entry.older = entry.newer = undefined;
  }
}
