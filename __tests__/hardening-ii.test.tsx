// Hardening II (issue 24): what an outside probe of forms, cookies, header helpers and event streams broke. Each
// case runs through a real server started by `serve` and through `mux.fetch`, and each was written to fail on the
// code before the fix (a process that died, a loop that froze, a message shown twice, a log line per stack frame).

import { once } from 'node:events';
import { request as httpRequest, type Server } from 'node:http';
import { connect } from 'node:net';
import { z } from 'zod';
import {
  EventHub,
  HttpError,
  ServeMux,
  flash,
  getSignedCookie,
  hxLocation,
  hxPushUrl,
  hxRedirect,
  hxReplaceUrl,
  hxTrigger,
  mount,
  parseForm,
  redirect,
  route,
  setHeader,
  setSignedCookie,
  setStatus,
  takeFlash,
  type ErrorPage,
  type PageRequest,
} from '../core/index.ts';
import { liteResponse } from '../core/kernel/answer.ts';
import { onShutdown, shutdown } from '../core/node/index.ts';
import { listen, openStream, send as sendRaw } from './support/node-http.ts';

const secret = 'hardening-ii-secret-at-least-32-characters';
const errors: { message: string; err: unknown }[] = [];
const warnings: string[] = [];
const logger = {
  error: (message: string, err?: unknown) => void errors.push({ message, err }),
  warn: (message: string) => void warnings.push(message),
};
const tick = () => new Promise((r) => setTimeout(r, 1));
const query = (req: PageRequest) => new URL(req.url).searchParams;

// --- the app -------------------------------------------------------------------------------------------------------

/** GET /login?next=…: the common pattern, a redirect to where the user came from; /login-async awaits first. */
class Login {
  props(req: PageRequest) {
    return redirect(query(req).get('next') ?? '/');
  }
}
class LoginAsync {
  async props(req: PageRequest) {
    await tick();
    return redirect(query(req).get('next') ?? '/');
  }
}

/** GET /helper/{name}?v=…: one header helper with a value from the request. */
const helpers: Record<string, (v: string) => void> = {
  setHeader: (v) => setHeader('x-note', v),
  setHeaderName: (v) => setHeader(v, '1'),
  hxTrigger: (v) => hxTrigger(v),
  hxRedirect: (v) => hxRedirect(v),
  hxPushUrl: (v) => hxPushUrl(v),
  hxReplaceUrl: (v) => hxReplaceUrl(v),
  hxLocation: (v) => hxLocation(v),
  hxLocationObject: (v) => hxLocation({ path: v, target: '#main' }),
  setStatus: (v) => setStatus(Number(v)),
};
class Helper {
  props(req: PageRequest) {
    helpers[req.pathValue('name')]!(query(req).get('v') ?? '');
    return {};
  }
  page() {
    return <p>ok</p>;
  }
}

const Title = z.object({ title: z.string().min(1) });
const small = { maxFields: 3, maxFiles: 1, maxFieldBytes: 10, maxBytes: 1000 };
/** POST /form: parseForm with the defaults; /form-small with small limits; /raw-form: req.formData(). */
class Form {
  async post(req: PageRequest) {
    const form = await parseForm(req, Title);
    if (!form.ok) setStatus(422);
    return { fields: Object.keys(form.allValues).length };
  }
  page(props: { fields: number }) {
    return <p>{props.fields} fields</p>;
  }
}
class FormSmall {
  async post(req: PageRequest) {
    const form = await parseForm(req, Title, small);
    return { fields: Object.keys(form.allValues).length };
  }
  page(props: { fields: number }) {
    return <p>{props.fields} fields</p>;
  }
}
class RawForm {
  async post(req: PageRequest) {
    return { fields: [...(await req.formData()).keys()].length };
  }
  page(props: { fields: number }) {
    return <p>{props.fields} fields</p>;
  }
}

/** POST /sign sets a signed cookie; GET /signed reads it back. */
class Sign {
  async post() {
    await setSignedCookie('cart', 'c42');
    return new Response(null, { status: 204 });
  }
}
class Signed {
  async props() {
    return { value: (await getSignedCookie('cart')) ?? '(none)' };
  }
  page(props: { value: string }) {
    return <p safe>{props.value}</p>;
  }
}

/** The flash a layout shows, taken while the page (or the error page) renders. */
async function Notice() {
  const message = await takeFlash();
  return message === undefined ? (
    ''
  ) : (
    <p class="flash" safe>
      {message}
    </p>
  );
}

/** A section with its own error page whose layout shows the flash. */
class Section implements ErrorPage {
  broken = route('/broken', Broken);
  error(err: unknown) {
    const status = err instanceof HttpError ? err.status : 500;
    return (
      <main>
        <Notice />
        <h1>Error {status}</h1>
      </main>
    );
  }
}
/** Its page: a trigger and a header recorded, then the failure. */
class Broken {
  props(): never {
    hxTrigger('task-added');
    setHeader('cache-control', 'public, max-age=3600');
    throw new HttpError(409, 'Conflict');
  }
  page() {
    return <p>never</p>;
  }
}
/** No error page of its own: takes the flash, then fails; the mount's error handler answers. */
class TakesThenFails {
  async props(): Promise<never> {
    await takeFlash();
    throw new Error('boom');
  }
  page() {
    return <p>never</p>;
  }
}
/** POST /flash-and-redirect: a flash, then a thrown redirect. */
class FlashThrowsRedirect {
  async post(): Promise<never> {
    await flash('Saved');
    throw redirect('/');
  }
}
/** POST /bulk-delete: flashes and renders in one answer. */
class BulkDelete {
  async post() {
    await flash('Deleted 3 contacts');
    return {};
  }
  page() {
    return (
      <main>
        <Notice />
      </main>
    );
  }
}
/** GET /with-flash: leaves a flash for the next page (plain request). */
class LeaveFlash {
  async props() {
    await flash('Hello');
    return new Response(null, { status: 204 });
  }
}

/** Pages that outlive the mount's timeout: one fails once aborted, one answers late. */
class SlowFails {
  async props(req: PageRequest): Promise<never> {
    await new Promise((r) => req.signal.addEventListener('abort', r, { once: true }));
    req.signal.throwIfAborted();
    throw new Error('unreachable');
  }
  page() {
    return <p>never</p>;
  }
}
class SlowAnswers {
  async props() {
    await new Promise((r) => setTimeout(r, 400));
    return {};
  }
  page() {
    return <p>late</p>;
  }
}

class Ok {
  page() {
    return <p>ok</p>;
  }
}

class App {
  ok = route('GET /ok', Ok);
  login = route('GET /login', Login);
  loginAsync = route('GET /login-async', LoginAsync);
  helper = route('GET /helper/{name}', Helper);
  form = route('/form', Form);
  formSmall = route('/form-small', FormSmall);
  rawForm = route('/raw-form', RawForm);
  sign = route('/sign', Sign);
  signed = route('GET /signed', Signed);
  section = route('/section', Section);
  takesThenFails = route('GET /takes-then-fails', TakesThenFails);
  flashThrowsRedirect = route('/flash-and-redirect', FlashThrowsRedirect);
  bulkDelete = route('/bulk-delete', BulkDelete);
  leaveFlash = route('GET /with-flash', LeaveFlash);
}

/** The pages that time out, in their own tree: a page reading 10 MiB on a loaded machine must not meet the 200 ms. */
class Slow {
  fails = route('GET /fails', SlowFails);
  answers = route('GET /answers', SlowAnswers);
}

const mux = new ServeMux({ logger });
mount(mux, App, '/', 'App', { secret });
mount(mux, Slow, '/slow/', 'Slow', { timeout: 200 });
// Answers a Response refuses to be and node refuses to write: what the adapters' last net catches.
mux.handleFunc('GET /unwritable-header', () => liteResponse(200, 'x', { 'x-bad': 'a\r\nb' }));
mux.handleFunc('GET /unwritable-status', () => liteResponse(1000, 'x', {}));

// --- the two ways in -----------------------------------------------------------------------------------------------

interface Seen {
  status: number;
  headers: Headers;
  body: string;
  cookies: string[];
}

let server: Server;
let port = 0;

beforeAll(async () => {
  server = await listen(mux);
  port = (server.address() as { port: number }).port;
});
afterAll(() => shutdown(server, 500));
beforeEach(() => {
  errors.length = 0;
  warnings.length = 0;
});

type Via = 'serve' | 'fetch';
const vias: Via[] = ['serve', 'fetch'];

async function call(
  via: Via,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<Seen> {
  if (via === 'fetch') {
    const body = typeof init.body === 'string' || init.body === undefined ? init.body : new Uint8Array(init.body);
    const res = await mux.fetch(new Request(`http://localhost${path}`, { ...init, body }));
    return { status: res.status, headers: res.headers, body: await res.text(), cookies: res.headers.getSetCookie() };
  }
  const r = await sendRaw(port, path, init);
  const headers = new Headers();
  for (const [name, value] of Object.entries(r.headers)) {
    if (value === undefined) continue;
    for (const v of [value].flat()) headers.append(name, v);
  }
  return { status: r.status, headers, body: r.body, cookies: headers.getSetCookie() };
}

const htmx = { 'hx-request': 'true', 'hx-request-type': 'partial', 'hx-target': 'main#main' };

// --- 1. header values ----------------------------------------------------------------------------------------------

describe.each(vias)('header values from user input (%s)', (via) => {
  test.each([
    ['/login', 303, 'location'],
    ['/login-async', 303, 'location'],
  ])('redirect-percent-encodes-non-ascii: %s?next=/中 → /%E4%B8%AD', async (path, status, header) => {
    const r = await call(via, `${path}?next=${encodeURIComponent('/中?q=crème brûlée')}`);
    expect([r.status, r.headers.get(header)]).toEqual([status, '/%E4%B8%AD?q=cr%C3%A8me%20br%C3%BBl%C3%A9e']);
    const h = await call(via, `${path}?next=${encodeURIComponent('/中')}`, { headers: htmx });
    expect([h.status, h.headers.get('hx-location')]).toEqual([200, '/%E4%B8%AD']);
    expect(errors).toEqual([]);
  });

  test.each([
    [
      '/login',
      '/a\r\nSet-Cookie: x=1',
      'redirect(): the URL "/a\\r\\nSet-Cookie: x=1" holds a control character (U+000D)',
    ],
    ['/login-async', '/a\u0000b', 'redirect(): the URL "/a\\u0000b" holds a control character (U+0000)'],
    ['/login', '/a\u007fb', 'holds a control character (U+007F)'],
    ['/login', '/a\tb', 'holds a control character (U+0009)'],
    ['/login', 'javascript:alert(document.cookie)', 'redirect(): refused a javascript: URL'],
    ['/login-async', 'JavaScript:alert(1)', 'redirect(): refused a javascript: URL'],
    ['/login', 'data:text/html,<script>alert(1)</script>', 'redirect(): refused a data: URL'],
    ['/login', 'vbscript:msgbox(1)', 'redirect(): refused a vbscript: URL'],
  ])('redirect-refuses-what-no-url-holds: %s?next=%j → 500, one log line', async (path, next, message) => {
    for (const headers of [{}, htmx]) {
      errors.length = 0;
      const r = await call(via, `${path}?next=${encodeURIComponent(next)}`, { headers });
      expect([r.status, r.body, r.cookies, r.headers.get('location'), r.headers.get('hx-location')]).toEqual([
        500,
        'Internal Server Error\n',
        [],
        null,
        null,
      ]);
      expect(errors).toHaveLength(1);
      expect(String(errors[0]!.err)).toContain(message);
    }
  });

  test.each<[string, string, number, string | null, string]>([
    ['setHeader', 'max-age=60,\tpublic', 200, 'x-note', 'max-age=60,\tpublic'],
    [
      'setHeader',
      '中',
      500,
      null,
      'setHeader(): "中" cannot be a header value: it holds a character beyond ASCII (U+4E2D)',
    ],
    // node sends Latin-1 in a header as UTF-8 when it writes the body in the same call: no client could read it.
    [
      'setHeader',
      'Zoë',
      500,
      null,
      'setHeader(): "Zoë" cannot be a header value: it holds a character beyond ASCII (U+00EB)',
    ],
    ['setHeader', 'a\nb', 500, null, 'setHeader(): "a\\nb" cannot be a header value: it holds a control character'],
    ['setHeaderName', 'x note', 500, null, 'setHeader(): "x note" is not a header name'],
    ['hxTrigger', '中', 200, 'hx-trigger', '{"\\u4e2d":null}'],
    ['hxTrigger', 'saved,done', 200, 'hx-trigger', '{"saved,done":null}'],
    ['hxTrigger', 'a\nb', 500, null, 'hxTrigger(): the event name "a\\nb" holds a control character'],
    ['hxPushUrl', '/é', 200, 'hx-push-url', '/%C3%A9'],
    ['hxReplaceUrl', '/a b', 200, 'hx-replace-url', '/a%20b'],
    ['hxRedirect', '/中', 200, 'hx-redirect', '/%E4%B8%AD'],
    ['hxRedirect', 'javascript:alert(1)', 500, null, 'hxRedirect(): refused a javascript: URL'],
    ['hxReplaceUrl', 'data:text/html,x', 500, null, 'hxReplaceUrl(): refused a data: URL'],
    ['hxPushUrl', '/a\rb', 500, null, 'hxPushUrl(): the URL "/a\\rb" holds a control character (U+000D)'],
    ['hxLocation', '/中', 200, 'hx-location', '/%E4%B8%AD'],
    ['hxLocationObject', '/中', 200, 'hx-location', '{"path":"/%E4%B8%AD","target":"#main"}'],
    ['hxLocationObject', 'vbscript:x', 500, null, 'hxLocation(): refused a vbscript: URL'],
    ['setStatus', '1000', 500, null, 'setStatus(1000): a status is a whole number from 200 to 599'],
  ])('%s(%j) → %s', async (helper, value, status, header, want) => {
    const r = await call(via, `/helper/${helper}?v=${encodeURIComponent(value)}`, { headers: htmx });
    expect(r.status).toBe(status);
    if (header) {
      expect([r.headers.get(header), errors]).toEqual([want, []]);
    } else {
      expect(r.body).toBe('Internal Server Error\n');
      expect(errors).toHaveLength(1);
      expect(String(errors[0]!.err)).toContain(want);
    }
  });

  test.each(['/unwritable-header', '/unwritable-status'])(
    'an-answer-the-adapter-cannot-write-is-a-500: %s',
    async (path) => {
      const r = await call(via, path);
      expect([r.status, r.body, r.headers.get('x-bad')]).toEqual([500, 'Internal Server Error\n', null]);
      expect(errors).toHaveLength(1);
      expect(errors[0]!.message).toMatch(
        /^pagetree: the answer to GET http:\/\/[^ ]+ could not be (written|made a Response):$/,
      );
      const after = await call(via, '/ok'); // still serving
      expect([after.status, after.body]).toEqual([200, '<p>ok</p>']);
    },
  );
});

// --- 2. form bodies ------------------------------------------------------------------------------------------------

const urlencoded = { 'content-type': 'application/x-www-form-urlencoded' };
const boundary = 'XyZ';
const multipart = { 'content-type': `multipart/form-data; boundary=${boundary}` };
function parts(...list: [name: string, value: string, filename?: string][]): string {
  const each = list.map(([name, value, filename]) => {
    const file = filename === undefined ? '' : `; filename="${filename}"`;
    return `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${file}\r\n\r\n${value}\r\n`;
  });
  return each.join('') + `--${boundary}--\r\n`;
}
const fields = (n: number) => Array.from({ length: n }, (_, i) => (i === 0 ? 'title=t' : `f${i}=`)).join('&');

describe.each(vias)('form limits, counted while the body streams (%s)', (via) => {
  test.each<[string, string, Record<string, string>, string | Buffer, number, string]>([
    ['/form', '1,000 fields pass', urlencoded, fields(1000), 200, '<p>1000 fields</p>'],
    ['/form', '1,001 fields', urlencoded, fields(1001), 413, 'a form has at most 1000 fields (maxFields)'],
    ['/raw-form', 'req.formData(): 1,001 fields', urlencoded, fields(1001), 413, 'at most 1000 fields (maxFields)'],
    ['/form', '1,001 empty keys, & only', urlencoded, '&'.repeat(5000) + fields(1001), 413, '(maxFields)'],
    [
      '/form',
      'a field of 1 MiB + 1',
      urlencoded,
      'title=' + 'x'.repeat(1024 * 1024 - 5),
      413,
      'a form field has at most 1048576 bytes (maxFieldBytes)',
    ],
    [
      '/form',
      '101 files',
      multipart,
      parts(
        ['title', 't'],
        ...Array.from({ length: 101 }, (_, i): [string, string, string] => [`f${i}`, 'x', 'a.txt']),
      ),
      413,
      'a form has at most 100 files (maxFiles)',
    ],
    ['/form-small', '3 fields pass', urlencoded, 'title=a&b=1&c=2', 200, '<p>3 fields</p>'],
    ['/form-small', '4 fields', urlencoded, 'title=a&b=1&c=2&d=3', 413, 'a form has at most 3 fields (maxFields)'],
    [
      '/form-small',
      '4 multipart fields',
      multipart,
      parts(['a', '1'], ['b', '2'], ['c', '3'], ['d', '4']),
      413,
      'at most 3 fields (maxFields)',
    ],
    [
      '/form-small',
      'a field of 11 bytes',
      urlencoded,
      'title=abcde',
      413,
      'a form field has at most 10 bytes (maxFieldBytes)',
    ],
    [
      '/form-small',
      'a multipart field of 11 bytes',
      multipart,
      parts(['title', 'abcdefghijk']),
      413,
      'at most 10 bytes (maxFieldBytes)',
    ],
    [
      '/form-small',
      'a file of 100 bytes is no field',
      multipart,
      parts(['title', 'a'], ['f', 'x'.repeat(100), 'a.txt']),
      200,
      '<p>1 fields</p>',
    ],
    [
      '/form-small',
      '2 files',
      multipart,
      parts(['f', 'x', 'a.txt'], ['g', 'y', 'b.txt']),
      413,
      'a form has at most 1 files (maxFiles)',
    ],
    [
      '/form-small',
      '1,001 bytes',
      urlencoded,
      'title=a&b=' + '%41'.repeat(3) + '&c=' + 'x'.repeat(980),
      413,
      'a form has at most 1000 bytes (maxBytes)',
    ],
  ])('%s: %s', async (path, _name, headers, body, status, want) => {
    const r = await call(via, path, { method: 'POST', headers, body });
    expect(r.status).toBe(status);
    expect(r.body).toContain(want);
    expect(errors).toEqual([]);
  });

  test('the worst body the defaults accept is answered (1,000 fields of percent-encoded text, 10 MiB)', async () => {
    const value = '%E4%B8%AD'.repeat(1160);
    const body = Array.from({ length: 1000 }, (_, i) => `${i === 0 ? 'title' : `t${i}`}=${value}`).join('&');
    expect(body.length).toBeLessThan(10 * 1024 * 1024);
    const r = await call(via, '/form', { method: 'POST', headers: urlencoded, body });
    expect([r.status, r.body]).toEqual([200, '<p>1000 fields</p>']);
  });
});

// A client still sending a large body when the 413 comes: the answer must reach it, not a reset connection (the
// socket lingers after the answer; the body reader that stopped does not destroy the request).
test('a-413-reaches-a-client-still-sending: 10 MiB of empty fields, written in 64 KiB pieces', async () => {
  const body = Buffer.from(
    Array.from({ length: 1_700_000 }, (_, i) => `${i.toString(36)}=`)
      .join('&')
      .slice(0, 10 * 1024 * 1024 - 1),
  );
  for (let round = 0; round < 3; round++) {
    const status = await new Promise<number | string>((resolve) => {
      let answered = false;
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          path: '/form',
          method: 'POST',
          headers: { ...urlencoded, 'content-length': String(body.length) },
        },
        (res) => {
          answered = true;
          res.resume();
          resolve(res.statusCode!);
        },
      );
      req.on('error', (err: NodeJS.ErrnoException) => answered || resolve(err.code ?? 'error'));
      const write = (at: number): void => {
        if (answered || req.destroyed) return;
        if (at >= body.length) return void req.end();
        req.write(body.subarray(at, at + 65536), () => write(at + 65536));
      };
      write(0);
    });
    expect(status).toBe(413);
  }
});

// --- 3. one spelling of a signed value -----------------------------------------------------------------------------

describe.each(vias)('signed cookies (%s)', (via) => {
  test('mac-has-one-spelling: of the four last characters that decode to the same MAC, one verifies', async () => {
    const signed = (await call(via, '/sign', { method: 'POST' })).cookies[0]!.split(';')[0]!.slice('cart='.length);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet.indexOf(signed.at(-1)!);
    expect(last % 4).toBe(0); // the canonical one, its two unused bits 0
    const read = [];
    for (let low = 0; low < 4; low++) {
      const variant = signed.slice(0, -1) + alphabet[last + low];
      read.push((await call(via, '/signed', { headers: { cookie: `cart=${variant}` } })).body);
    }
    expect(read).toEqual(['<p>c42</p>', '<p>(none)</p>', '<p>(none)</p>', '<p>(none)</p>']);
  });
});

// --- 5. and 6. cookies on every answer, and a flash taken in its own request ---------------------------------------

const flashDeleted =
  'pagetree-flash=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax';

describe.each(vias)('what an answer carries (%s)', (via) => {
  async function flashCookie(): Promise<string> {
    return (await call(via, '/with-flash')).cookies[0]!.split(';')[0]!;
  }

  test('error-page-deletes-the-flash-it-showed: the section error page shows it once', async () => {
    const cookie = await flashCookie();
    const r = await call(via, '/section/broken', { headers: { cookie } });
    expect([r.status, r.body, r.cookies]).toEqual([
      409,
      '<main><p class="flash">Hello</p><h1>Error 409</h1></main>',
      [flashDeleted],
    ]);
  });

  test('error-answer-drops-what-the-failed-page-recorded: no trigger, no cache header', async () => {
    const r = await call(via, '/section/broken', { headers: htmx });
    expect([r.status, r.headers.get('hx-trigger'), r.headers.get('cache-control')]).toEqual([409, null, null]);
  });

  test('error-handler-answer-carries-the-cookies: the default handler deletes a flash taken before the failure', async () => {
    const cookie = await flashCookie();
    const r = await call(via, '/takes-then-fails', { headers: { cookie } });
    expect([r.status, r.body, r.cookies]).toEqual([500, 'Internal Server Error\n', [flashDeleted]]);
    expect(errors).toHaveLength(1);
  });

  test('thrown-redirect-carries-the-flash', async () => {
    const r = await call(via, '/flash-and-redirect', { method: 'POST' });
    expect([r.status, r.headers.get('location'), r.cookies]).toEqual([
      303,
      '/',
      [expect.stringMatching(/^pagetree-flash=Saved\.[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax$/)],
    ]);
  });

  test('flash-shown-in-its-own-request: a page that flashes and renders shows it now, and sets no cookie', async () => {
    const r = await call(via, '/bulk-delete', { method: 'POST' });
    expect([r.status, r.body, r.cookies]).toEqual([200, '<main><p class="flash">Deleted 3 contacts</p></main>', []]);
  });
});

// --- 7. a timed-out page, one log line -----------------------------------------------------------------------------

describe.each(vias)('timeouts (%s)', (via) => {
  test.each(['fails', 'answers'])('timed-out-page-logged-once: /slow/%s', async (name) => {
    const path = `/slow/${name}`;
    const r = await call(via, path);
    expect([r.status, r.body]).toEqual([503, 'Service Unavailable\n']);
    await new Promise((done) => setTimeout(done, 400)); // the page's late end
    expect(errors).toEqual([
      {
        message: `pagetree: Slow.${name} (GET ${path}) did not answer within 200 ms`,
        err: undefined,
      },
    ]);
  });
});

// --- 4. and 8. event streams: one render per change, and shutdown ends them ----------------------------------------

async function until(ok: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok() && Date.now() < end) await new Promise((r) => setTimeout(r, 5));
  expect(ok()).toBe(true);
}

describe('EventHub: one render per change, the same bytes to every stream', () => {
  let renders = 0;
  let listening = 0;
  const listeners = new Set<() => void>();
  const store = {
    count: 0,
    change() {
      this.count++;
      for (const l of listeners) l();
    },
  };
  const hub = new EventHub((h) => {
    listening++;
    const l = () => void h.send(() => (renders++, (<b class="count">{store.count}</b>)));
    listeners.add(l);
    return () => {
      listening--;
      listeners.delete(l);
    };
  });
  const hubMux = new ServeMux({ logger });
  class Live {
    props(req: PageRequest) {
      return hub.stream(req);
    }
  }
  class LiveApp {
    live = route('GET /live', Live);
  }
  mount(hubMux, LiveApp);

  test('through mux.fetch: 50 streams, one change, one render, every stream reads the same event', async () => {
    const readers = await Promise.all(
      Array.from({ length: 50 }, async () => {
        const reader = (await hubMux.fetch(new Request('http://localhost/live'))).body!.getReader();
        await reader.read(); // ": ok"
        return reader;
      }),
    );
    expect([hub.size, listening, listeners.size]).toEqual([50, 1, 1]);
    renders = 0;
    const reads = readers.map((r) => r.read());
    store.change();
    const events = (await Promise.all(reads)).map((r) => new TextDecoder().decode(r.value));
    expect([renders, new Set(events)]).toEqual([1, new Set([`data: <b class="count">${store.count}</b>\n\n`])]);
    await Promise.all(readers.map((r) => r.cancel()));
    expect([hub.size, listening, listeners.size]).toEqual([0, 0, 0]);
    renders = 0;
    store.change(); // nobody listens: nothing renders
    await expect(hub.send(() => (renders++, 'x'))).resolves.toBe(0);
    expect(renders).toBe(0);
  });

  test('through serve: 20 clients, one change, one render', async () => {
    const s = await listen(hubMux);
    const at = (s.address() as { port: number }).port;
    const clients = await Promise.all(Array.from({ length: 20 }, () => openStream(at, '/live')));
    await until(() => hub.size === 20);
    renders = 0;
    store.change();
    const want = `data: <b class="count">${store.count}</b>\n\n`;
    await until(() => clients.every((c) => c.text().endsWith(want)));
    expect(renders).toBe(1);
    for (const c of clients) c.res.destroy();
    await until(() => hub.size === 0 && listening === 0);
    await new Promise((r) => setTimeout(r, 50));
    expect(errors).toEqual([]); // clients leaving are no failure of the server's
    await shutdown(s, 500);
  });
});

describe('shutdown ends event streams', () => {
  test('shutdown-does-not-wait-for-event-streams: 50 open, done in well under the timeout; each ends cleanly', async () => {
    const cleanups: number[] = [];
    const streamMux = new ServeMux({ logger });
    const hub = new EventHub();
    class Live {
      props(req: PageRequest) {
        return hub.stream(req, { start: () => () => void cleanups.push(1) });
      }
    }
    class Slow {
      async props() {
        await new Promise((r) => setTimeout(r, 300));
        return {};
      }
      page() {
        return <p>finished</p>;
      }
    }
    class LiveApp {
      live = route('GET /live', Live);
      slow = route('GET /slow', Slow);
    }
    mount(streamMux, LiveApp);
    const s = await listen(streamMux, { shutdownTimeout: 10_000 });
    const at = (s.address() as { port: number }).port;
    const hooks: string[] = [];
    onShutdown(s, () => hooks.push('first'));
    const removed = onShutdown(s, () => hooks.push('removed'));
    removed();
    const clients = await Promise.all(Array.from({ length: 50 }, () => openStream(at, '/live')));
    expect(hub.size).toBe(50);
    const slow = sendRaw(at, '/slow'); // in flight: shutdown waits for it
    await new Promise((r) => setTimeout(r, 50));
    const started = performance.now();
    const done = shutdown(s, 10_000);
    onShutdown(s, () => hooks.push('during')); // registered during a shutdown: runs at once
    await done;
    const took = performance.now() - started;
    expect(took).toBeLessThan(3000); // it waited the whole 10 s before
    await expect(slow).resolves.toMatchObject({ status: 200, body: '<p>finished</p>' });
    expect(await Promise.all(clients.map((c) => c.ended))).toEqual(Array(50).fill('end'));
    expect([cleanups.length, hub.size, hooks]).toEqual([50, 0, ['first', 'during']]);
  });

  test('serve-limits-connections-by-default: maxConnections 10,000, and a refused one is logged', async () => {
    const s = await listen(mux);
    expect(s.maxConnections).toBe(10_000);
    await shutdown(s, 100);
    const tight = await listen(mux, { maxConnections: 1 }); // warns through the mux's logger
    const at = (tight.address() as { port: number }).port;
    const held = connect(at, '127.0.0.1');
    await once(held, 'connect');
    await new Promise((r) => setTimeout(r, 50)); // the server has taken it
    await expect(sendRaw(at, '/ok')).rejects.toThrow(); // closed at once
    expect(warnings.filter((w) => w.startsWith('pagetree: refused a connection: 1 are open'))).toHaveLength(1);
    held.destroy();
    await shutdown(tight, 100);
  });
});
