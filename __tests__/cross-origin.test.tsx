// crossOriginProtection: Go 1.25's http.CrossOriginProtection rules, case by case.

import {
  CrossOriginProtection,
  ServeMux,
  crossOriginProtection,
  mount,
  route,
  type PageRequest,
} from '../core/index.ts';
import { fetchPage } from './support/http.ts';

const csrf = new CrossOriginProtection();
csrf.addTrustedOrigin('https://trusted.example');
csrf.addInsecureBypassPattern('POST /hooks/{name}');

const denyFetchSite = 'cross-origin request detected from Sec-Fetch-Site header';
const denyOrigin =
  'cross-origin request detected, and/or browser is out of date: Sec-Fetch-Site is missing, and Origin does not match Host';

test.each<[string, string, string, Record<string, string>, string | null]>([
  ['GET is safe', 'GET', '/x', { 'sec-fetch-site': 'cross-site' }, null],
  ['HEAD is safe', 'HEAD', '/x', { 'sec-fetch-site': 'cross-site' }, null],
  ['OPTIONS is safe', 'OPTIONS', '/x', { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' }, null],
  ['same-origin', 'POST', '/x', { 'sec-fetch-site': 'same-origin' }, null],
  ['none (typed in the address bar)', 'POST', '/x', { 'sec-fetch-site': 'none' }, null],
  ['cross-site', 'POST', '/x', { 'sec-fetch-site': 'cross-site' }, denyFetchSite],
  ['same-site is not same-origin', 'PUT', '/x', { 'sec-fetch-site': 'same-site' }, denyFetchSite],
  [
    'cross-site from a trusted origin',
    'POST',
    '/x',
    { 'sec-fetch-site': 'cross-site', origin: 'https://trusted.example' },
    null,
  ],
  [
    'a trusted origin must match exactly',
    'POST',
    '/x',
    { 'sec-fetch-site': 'cross-site', origin: 'https://trusted.example:443' },
    denyFetchSite,
  ],
  ['cross-site on a bypass pattern', 'POST', '/hooks/github', { 'sec-fetch-site': 'cross-site' }, null],
  [
    'the bypass pattern is method-specific',
    'DELETE',
    '/hooks/github',
    { 'sec-fetch-site': 'cross-site' },
    denyFetchSite,
  ],
  ['neither header: not a browser, or same-origin', 'POST', '/x', {}, null],
  ['Origin matching Host', 'POST', '/x', { origin: 'http://app.example:8080' }, null],
  [
    'Origin matching Host, another scheme (fails open, as Go)',
    'POST',
    '/x',
    { origin: 'https://app.example:8080' },
    null,
  ],
  ['Origin not matching Host', 'POST', '/x', { origin: 'https://evil.example' }, denyOrigin],
  ['Origin with another port', 'POST', '/x', { origin: 'http://app.example' }, denyOrigin],
  ['Origin null', 'DELETE', '/x', { origin: 'null' }, denyOrigin],
  ['Origin not matching, but trusted', 'PATCH', '/x', { origin: 'https://trusted.example' }, null],
  ['Origin not matching, on a bypass pattern', 'POST', '/hooks/stripe', { origin: 'https://evil.example' }, null],
])('%s', (_, method, path, headers, want) => {
  const req = new Request(`http://app.example:8080${path}`, { method, headers });
  expect(csrf.check(req)).toBe(want);
});

test.each([
  ['https://example.com/path', 'path, query, and fragment are not allowed'],
  ['https://example.com?q', 'path, query, and fragment are not allowed'],
  ['example.com', 'scheme and host are required'],
  ['https://', 'scheme and host are required'],
])('addTrustedOrigin(%j) is refused', (origin, reason) => {
  expect(() => new CrossOriginProtection().addTrustedOrigin(origin)).toThrow(reason);
});

describe('as a middleware', () => {
  class Save {
    props(req: PageRequest) {
      return { method: req.method };
    }
    page(props: { method: string }) {
      return <p safe>{`saved with ${props.method}`}</p>;
    }
  }
  class App {
    save = route('/save', Save);
  }

  test('rejects a cross-site POST with 403 and lets a same-origin one through', async () => {
    const mux = new ServeMux();
    mount(mux, App, '/', '', { middlewares: [crossOriginProtection()] });
    const denied = await fetchPage(mux, '/save', { method: 'POST', headers: { 'sec-fetch-site': 'cross-site' } });
    expect([denied.status, denied.body]).toEqual([403, denyFetchSite + '\n']);
    const ok = await fetchPage(mux, '/save', { method: 'POST', headers: { 'sec-fetch-site': 'same-origin' } });
    expect(ok.body).toBe('<p>saved with POST</p>');
    expect((await fetchPage(mux, '/save', { headers: { 'sec-fetch-site': 'cross-site' } })).status).toBe(200);
  });

  test('options: trusted origins, bypass patterns and a deny handler', async () => {
    const mux = new ServeMux();
    const deny = () => new Response('<p>blocked</p>', { status: 403, headers: { 'content-type': 'text/html' } });
    mount(mux, App, '/', '', {
      middlewares: [crossOriginProtection({ trustedOrigins: ['https://admin.example'], deny })],
    });
    const trusted = await fetchPage(mux, '/save', {
      method: 'POST',
      headers: { 'sec-fetch-site': 'cross-site', origin: 'https://admin.example' },
    });
    expect(trusted.status).toBe(200);
    const denied = await fetchPage(mux, '/save', { method: 'POST', headers: { origin: 'https://evil.example' } });
    expect([denied.status, denied.body]).toEqual([403, '<p>blocked</p>']);
  });
});
