// Cookies of the current request: read its Cookie header, queue Set-Cookie lines for its answer, and sign values
// with the tree's secret so that a value the client changed reads as missing.
//
//   request   Cookie: theme=dark; pagetree-flash=Saved%20%E2%9C%93.kq0v…43 chars
//   getCookie('theme')            → "dark"
//   setCookie('theme', 'light')   → ctx.answer.cookies ["theme=light; Path=/; HttpOnly; SameSite=Lax"]
//   flash('Saved ✓')              → ctx.answer.cookies ["pagetree-flash=Saved%20%E2%9C%93.<mac>; Path=/; HttpOnly; SameSite=Lax"]
//   takeFlash()                   → "Saved ✓", and ctx.answer.cookies ["pagetree-flash=; Max-Age=0; Path=/; Expires=…"]
//
// A signed value is `value.mac`: mac = base64url(HMAC-SHA-256(secret, "name=value")). A cookie name has no "=", so
// the signed text is unambiguous, and covering the name keeps a signature from being moved to another cookie.
// Only the canonical spelling of a MAC verifies: one cookie string per value.
// Web Crypto (globalThis.crypto.subtle) signs, so Node, Bun, Deno and workerd all run it; verify() compares in
// constant time. The lines go out with the page's answer, rendered or a Response (answerHeaders, withContext).

import { parseCookie, parseSetCookie, stringifySetCookie } from 'cookie';
import { answerContext, checkHeadOpen, context, draft, type RequestContext } from '../request/context.ts';
import { flashCookieSetting, secretsSetting } from '../tree/tree.ts';
import { base64url, fromBase64url } from '../kernel/base64url.ts';

/** How the browser keeps a cookie and when it sends it back; the defaults are the safe choice. */
export interface CookieOptions {
  /** Seconds until the browser drops it. Without it (and `expires`) it is a session cookie. */
  maxAge?: number;
  /** When the browser drops it; `maxAge` wins where both are given. */
  expires?: Date;
  /** The paths it is sent to; default `/` (the whole site). */
  path?: string;
  /** Share it with subdomains; default: this host only. */
  domain?: string;
  /** Sent over https only; default: true when the request's URL is https. */
  secure?: boolean;
  /** Hidden from the page's scripts (`document.cookie`); default true. */
  httpOnly?: boolean;
  /** Whether cross-site requests carry it; default `lax` (top-level navigations only). `none` needs `secure`. */
  sameSite?: 'lax' | 'strict' | 'none';
  /** Kept apart per top-level site (CHIPS), for a cookie set inside a cross-site frame; needs `secure`. */
  partitioned?: boolean;
}

// Browsers drop a larger cookie without a word (RFC 6265bis: name and value together at most 4096 bytes).
const maxLineBytes = 4096;
const encoder = new TextEncoder();
// A base64url HMAC-SHA-256: 32 bytes, 43 characters without padding. The last character carries 2 bits that
// encode nothing and must be 0 (RFC 4648 §3.5: canonical encoding), else one MAC would have four spellings.
const macPattern = /^[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/;

/**
 * The value of a cookie the request carries, percent-decoded; undefined when it has none by that name. It reads
 * the request, not what this answer sets.
 * @example getCookie('theme') // → "dark" for `Cookie: theme=dark`
 */
export function getCookie(name: string): string | undefined {
  return requestCookies(context('getCookie'))[name];
}

/**
 * Every cookie the request carries, name → percent-decoded value (the first of a repeated name, as browsers
 * send the most specific path first).
 * @example getCookies() // → { theme: "dark", lang: "fr" }
 */
export function getCookies(): Record<string, string> {
  return Object.assign(Object.create(null) as Record<string, string>, requestCookies(context('getCookies')));
}

/**
 * Sets a cookie on the page's answer: HttpOnly, SameSite=Lax, Path=/ and Secure for an https request unless
 * the options say otherwise. The same name, path and domain set again in the request keeps the last value.
 * @example setCookie('theme', 'dark', { maxAge: 60 * 60 * 24 * 365 }) // → Set-Cookie: theme=dark; Max-Age=31536000; Path=/; HttpOnly; SameSite=Lax
 */
export function setCookie(name: string, value: string, options: CookieOptions = {}): void {
  queueCookie(answerContext('setCookie'), 'setCookie', name, value, options);
}

/**
 * Makes the browser drop a cookie: give the path and domain it was set with.
 * @example deleteCookie('theme') // → Set-Cookie: theme=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax
 */
export function deleteCookie(name: string, options: Omit<CookieOptions, 'maxAge' | 'expires'> = {}): void {
  queueCookie(answerContext('deleteCookie'), 'deleteCookie', name, '', expired(options));
}

/**
 * Sets a cookie whose value carries an HMAC of its name and value with the mount's `secret`, so that
 * getSignedCookie reads a changed value as missing. Signed, not encrypted: the client can read the value.
 * @example await setSignedCookie('cart', cartId) // → Set-Cookie: cart=c42.Yx3…; Path=/; HttpOnly; SameSite=Lax
 */
export async function setSignedCookie(name: string, value: string, options: CookieOptions = {}): Promise<void> {
  await queueSigned(answerContext('setSignedCookie'), 'setSignedCookie', name, value, options);
}

/**
 * The value of a cookie set with setSignedCookie; undefined when the request has none, or its signature does not
 * verify (changed, signed with another secret, or moved from another cookie).
 * @example await getSignedCookie('cart') // → "c42"
 */
export async function getSignedCookie(name: string): Promise<string | undefined> {
  return verified(context('getSignedCookie'), 'getSignedCookie', name);
}

/**
 * Leaves a message for the next page the browser shows, usually just before `redirect()`: a signed session
 * cookie (`pagetree-flash`) that `takeFlash()` reads there. A second flash in the request replaces the first; a
 * `takeFlash()` later in the same request takes it at once (a page that flashes and renders in one answer).
 * @example await flash('Task added'); return redirect(urlFor(TasksPage));
 */
export async function flash(message: string): Promise<void> {
  const ctx = answerContext('flash');
  await queueSigned(ctx, 'flash', flashNameOf(ctx), message, {});
  (draft(ctx).flash ??= { pending: undefined, taken: undefined }).pending = message;
}

/**
 * The message for this page: one `flash()` left in this request (its cookie is then not set), else the one the
 * request's flash cookie carries, if its signature verifies. A flash cookie the request carries is deleted on this
 * answer (valid or not), so the message shows once. It returns the same message each call within the request.
 * @example const notice = await takeFlash(); // → "Task added" on the page after the redirect, then undefined
 */
export async function takeFlash(): Promise<string | undefined> {
  const ctx = answerContext('takeFlash');
  const flashName = flashNameOf(ctx);
  const state = ctx.answer?.flash;
  const pending = state?.pending;
  if (state !== undefined && pending !== undefined) {
    // Shown in this answer: its cookie is not set, and the next page shows nothing.
    state.pending = undefined;
    state.taken = pending;
    unqueue(ctx, flashName);
    if (requestCookies(ctx)[flashName] !== undefined) queueCookie(ctx, 'takeFlash', flashName, '', expired({}));
    return pending;
  }
  if (state?.taken !== undefined) return state.taken;
  const message = await verified(ctx, 'takeFlash', flashName);
  const key = lineKey(flashName, '/', undefined);
  const queued = ctx.answer?.cookies?.some((line) => keyOf(line) === key);
  if (requestCookies(ctx)[flashName] !== undefined && !queued)
    queueCookie(ctx, 'takeFlash', flashName, '', expired({}));
  return message;
}

// The flash cookie's name: the mount's `flashCookie`, else pagetree-flash.
function flashNameOf(ctx: RequestContext): string {
  return ctx.tree.setting(flashCookieSetting) ?? 'pagetree-flash';
}

/** The request's cookies, parsed once per request (kept in its answer draft). */
export function requestCookies(ctx: RequestContext): Record<string, string> {
  const answer = draft(ctx);
  const req = ctx.req;
  if (answer.requestCookies?.req !== req) {
    // The parser's decode keeps a value that is not valid percent-encoding as it is: it never throws.
    const values = parseCookie(req.headers.get('cookie') ?? '') as Record<string, string>;
    answer.requestCookies = { req, values };
  }
  return answer.requestCookies.values;
}

function expired(options: CookieOptions): CookieOptions {
  // Max-Age for today's browsers, the past Expires for the rest.
  return { ...options, maxAge: 0, expires: new Date(0) };
}

// Adds a Set-Cookie line to the answer, replacing one for the same cookie (name, path, domain): the browser would
// keep only the last, and one line per cookie is what a reader of the headers expects. The head is checked here, at
// the moment the line is queued: a signed cookie or a session awaits Web Crypto first, and a streamed page's first
// byte may go out meanwhile; a line queued after it would be lost without a word.
/** Queues a Set-Cookie line for the answer, replacing one queued before for the same cookie. */
export function queueCookie(
  ctx: RequestContext,
  api: string,
  name: string,
  value: string,
  options: CookieOptions,
): void {
  checkHeadOpen(ctx, api);
  const line = setCookieLine(ctx, api, name, value, options);
  const key = lineKey(name, options.path ?? '/', options.domain);
  const answer = draft(ctx);
  const others = answer.cookies?.filter((l) => keyOf(l) !== key) ?? [];
  answer.cookies = [...others, line];
}

function setCookieLine(ctx: RequestContext, api: string, name: string, value: string, options: CookieOptions): string {
  const label = `${api}(${JSON.stringify(name)})`;
  const secure = options.secure ?? ctx.req.url.startsWith('https:');
  const sameSite = options.sameSite ?? 'lax';
  const path = options.path ?? '/';
  // Each of these a browser drops without a word; here they are an error the developer sees.
  const insecure = (what: string) =>
    new TypeError(`${label}: browsers drop ${what} without Secure; pass secure: true and serve the site over https`);
  if (sameSite === 'none' && !secure) throw insecure('a SameSite=None cookie');
  if (options.partitioned && !secure) throw insecure('a Partitioned cookie');
  if (name.startsWith('__Secure-') && !secure) throw insecure('a __Secure- cookie');
  if (name.startsWith('__Host-')) {
    if (!secure) throw insecure('a __Host- cookie');
    if (path !== '/' || options.domain !== undefined) {
      throw new TypeError(`${label}: browsers drop a __Host- cookie with a Domain or a Path other than /`);
    }
  }
  let line: string;
  try {
    line = stringifySetCookie({
      name,
      value,
      maxAge: options.maxAge,
      expires: options.expires,
      path,
      domain: options.domain,
      secure,
      httpOnly: options.httpOnly ?? true,
      sameSite,
      partitioned: options.partitioned,
    });
  } catch (err) {
    // The package's message names the bad part: "argument name is invalid: a b", "option maxAge is invalid: 1.5".
    throw new TypeError(`${label}: ${(err as Error).message}`, { cause: err });
  }
  // The value is percent-encoded and the attributes are checked ASCII: one character is one byte.
  if (line.length > maxLineBytes) {
    throw new RangeError(
      `${label}: the Set-Cookie line is ${line.length} bytes; browsers drop a cookie over ${maxLineBytes} bytes ` +
        `without a word; keep an id in the cookie and the data on the server`,
    );
  }
  return line;
}

// Drops the queued line for a cookie at Path=/ on this host.
function unqueue(ctx: RequestContext, name: string): void {
  const key = lineKey(name, '/', undefined);
  const answer = ctx.answer;
  if (answer?.cookies === undefined) return;
  answer.cookies = answer.cookies.filter((l) => keyOf(l) !== key);
  if (answer.cookies.length === 0) answer.cookies = undefined;
}

// Which cookie a line sets, as browsers tell cookies apart; a domain's case and leading dot do not matter.
function lineKey(name: string, path: string | undefined, domain: string | undefined): string {
  return `${name};${path ?? ''};${(domain ?? '').toLowerCase().replace(/^\./, '')}`;
}

function keyOf(line: string): string {
  const c = parseSetCookie(line);
  return lineKey(c.name, c.path, c.domain);
}

async function queueSigned(
  ctx: RequestContext,
  api: string,
  name: string,
  value: string,
  options: CookieOptions,
): Promise<void> {
  const key = await hmacKey(secretsOf(ctx, api)[0]!);
  const mac = await crypto.subtle.sign('HMAC', key, encoder.encode(`${name}=${value}`));
  queueCookie(ctx, api, name, `${value}.${base64url(new Uint8Array(mac))}`, options);
}

async function verified(ctx: RequestContext, api: string, name: string): Promise<string | undefined> {
  const secrets = secretsOf(ctx, api); // before the cookie is looked at: a missing secret fails on every request
  const signed = requestCookies(ctx)[name];
  if (signed === undefined) return undefined;
  const dot = signed.lastIndexOf('.');
  const mac = signed.slice(dot + 1);
  if (dot === -1 || !macPattern.test(mac)) return undefined;
  const value = signed.slice(0, dot);
  for (const secret of secrets) {
    const key = await hmacKey(secret);
    if (await crypto.subtle.verify('HMAC', key, fromBase64url(mac), encoder.encode(`${name}=${value}`))) return value;
  }
  return undefined;
}

/** The mount's secrets, newest first; `api` names the caller in the error when the mount gave none. */
export function secretsOf(ctx: RequestContext, api: string): readonly string[] {
  const secrets = ctx.tree.setting(secretsSetting);
  if (secrets === undefined) {
    throw new Error(
      `${api}(): no secret to sign cookies with; pass one to mount, at least 32 characters, from the environment: ` +
        `mount(mux, App, '/', 'App', { secret: process.env.PAGETREE_SECRET }) (generate it with openssl rand -base64 32)`,
    );
  }
  return secrets;
}

// One imported key per secret: importKey is async work that every signed cookie would otherwise repeat. (The type is
// named through crypto.subtle: the published build has no DOM library, whose global CryptoKey @types/node lacks.)
type HmacKey = ReturnType<typeof crypto.subtle.importKey>;
const keys = new Map<string, HmacKey>();

function hmacKey(secret: string): HmacKey {
  let key = keys.get(secret);
  if (!key) {
    const raw = encoder.encode(secret);
    key = crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    keys.set(secret, key);
  }
  return key;
}
