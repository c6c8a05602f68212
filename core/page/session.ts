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
import { deleteCookie, queueCookie, requestCookies, secretsOf } from './cookies.ts';
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
// A session read by a request older than this (seconds) is written again, so that an active visitor's idle clock
// restarts without a Set-Cookie on every answer.
const refreshAfter = 60;

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
  const secrets = secretsOf(ctx, 'session');
  const now = Math.floor(Date.now() / 1000);
  const read = await decrypt(secrets, options.cookie, requestCookies(ctx)[options.cookie]);
  const live = read && now - read.active <= options.idleTimeout && now - read.created <= options.absoluteTimeout;
  let payload: Payload = live ? read : { id: newId(), created: now, active: now, data: {} };
  let data: Record<string, unknown> = {};
  if (live && options.store) data = { ...((await options.store.get(payload.id)) ?? {}) };
  else if (live) data = { ...payload.data };

  const write = async () => {
    const ttl = payload.created + options.absoluteTimeout - now;
    payload = { ...payload, active: now };
    if (options.store) await options.store.set(payload.id, data, ttl);
    const sealed = await encrypt(secrets[0]!, options.cookie, options.store ? payload : { ...payload, data });
    queueCookie(ctx, 'session', options.cookie, sealed, { maxAge: ttl });
  };
  if (live && now - read.active > refreshAfter) await write();

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
      await write();
    },
    async regenerate() {
      const old = payload.id;
      payload = { ...payload, id: newId() };
      if (options.store) await options.store.delete(old);
      await write();
    },
    async destroy() {
      if (options.store) await options.store.delete(payload.id);
      data = {};
      payload = { id: newId(), created: now, active: now };
      deleteCookie(options.cookie);
    },
  };
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
  const bytes = fromBase64url(value.slice(3));
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

/**
 * A `SessionStore` in this process's memory, for one instance and for tests: entries expire with their `ttl`.
 * Several instances share a store of Postgres or Redis instead.
 * @example mount(mux, App, '/', 'App', { secret, session: { store: new MemorySessionStore() } })
 */
export class MemorySessionStore implements SessionStore {
  readonly #entries = new Map<string, { data: object; expires: number }>();

  get(id: string): object | undefined {
    const entry = this.#entries.get(id);
    if (entry && entry.expires <= Date.now()) this.#entries.delete(id);
    return entry && entry.expires > Date.now() ? entry.data : undefined;
  }

  set(id: string, data: object, ttl: number): void {
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
