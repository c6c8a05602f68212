// The example app's admin section requires a login: the benches that load it start the example with this account
// and log in through its form, as a browser does.

import type { ServeMux } from '../../core/index.ts';

/** The account bench servers pass to createApp({ admin }). */
export const benchAdmin = { email: 'bench@example.com', password: 'bench-password' };

const loginRequest = (base: string) =>
  new Request(base + '/login', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
    body: new URLSearchParams(benchAdmin),
    redirect: 'manual',
  });

/** Logs in to the example at `base` (a server) or through `mux.fetch`; returns the session cookie `name=value`. */
export async function adminCookie(on: string | ServeMux): Promise<string> {
  const res = typeof on === 'string' ? await fetch(loginRequest(on)) : await on.fetch(loginRequest('http://localhost'));
  const pair = res.headers.getSetCookie()[0]?.split(';')[0];
  if (res.status !== 303 || !pair) throw new Error(`bench: the example's login answered ${res.status}`);
  return pair;
}
