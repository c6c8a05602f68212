// pagetree/auth: who is asking, and may they. Cookies (plain and signed), flash messages, sessions and their stores,
// login (requireLogin, safeNext), passwords, the login throttle with the client's address it counts by, and the
// cross-origin check.
//
//   import { LoginThrottle, requireLogin, session, verifyPassword } from 'pagetree/auth';

export {
  deleteCookie,
  flash,
  getCookie,
  getCookies,
  getSignedCookie,
  setCookie,
  setSignedCookie,
  takeFlash,
} from './cookies.ts';
export type { CookieOptions } from './cookies.ts';
export {
  MemorySessionStore,
  session,
  type Session,
  type SessionData,
  type SessionOptions,
  type SessionStore,
} from './session.ts';
export { requireLogin, safeNext, type RequireLoginOptions } from './login.ts';
export { hashPassword, limitPasswordWork, verifyPassword, type PasswordWorkLimits } from './password.ts';
export {
  LoginThrottle,
  MemoryThrottleStore,
  type ThrottleCount,
  type ThrottleOptions,
  type ThrottleStore,
} from './throttle.ts';
// The address a throttle counts by; adapters read it from pagetree/adapter, the same function.
export { clientAddress } from '../kernel/adapter.ts';
export { CrossOriginProtection, crossOriginProtection, type CrossOriginOptions } from './cross-origin.ts';
