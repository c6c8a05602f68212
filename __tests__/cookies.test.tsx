// Cookies through the mux: the Set-Cookie lines a page's answer carries (defaults, options, replace, delete), the
// Cookie header it reads, signed values, and a flash message across redirect() for plain and htmx posts.

import {
  deleteCookie,
  flash,
  getCookie,
  getCookies,
  getSignedCookie,
  htmxRequest,
  mount,
  MountError,
  redirect,
  renderComponent,
  route,
  ServeMux,
  setCookie,
  setHeader,
  setSignedCookie,
  takeFlash,
  type PageRequest,
} from '../core/index.ts';
import { urlFor } from './support/url-for.ts';

const secret = 'test-secret-that-is-at-least-32-characters';
const otherSecret = 'another-secret-at-least-32-characters-long';
const mac = '[A-Za-z0-9_-]{43}';
const flashDeleted =
  'pagetree-flash=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax';

const tasks: string[] = [];

/** /tasks: the list, with the flash message a post left; post() adds a task and redirects. */
class TasksPage {
  async props() {
    return { notice: await takeFlash() };
  }
  async post(req: PageRequest) {
    const title = String((await req.formData()).get('title') ?? '');
    tasks.push(title);
    await flash(`Added ${title}`);
    return redirect(urlFor(TasksPage));
  }
  page(props: { notice: string | undefined }) {
    return (
      <main>
        {props.notice !== undefined && (
          <p class="flash" safe>
            {props.notice}
          </p>
        )}
        <ul>
          {tasks.map((t) => (
            <li safe>{t}</li>
          ))}
        </ul>
      </main>
    );
  }
}

/** What a layout shows: the flash message, read by an async component while the page renders. */
async function Flash() {
  const message = await takeFlash();
  return message === undefined ? (
    ''
  ) : (
    <p role="status" safe>
      {message}
    </p>
  );
}

/** /notes: a page whose layout part shows the flash. */
class NotesPage {
  page() {
    return (
      <main>
        <Flash />
        <p>notes</p>
      </main>
    );
  }
}

type StepFn = () => unknown;
const steps: Record<string, StepFn> = {
  defaults: () => setCookie('theme', 'dark'),
  options: () =>
    setCookie('theme', 'dark', {
      maxAge: 3600,
      expires: new Date(Date.UTC(2030, 0, 1)),
      path: '/app',
      domain: 'example.com',
      secure: true,
      httpOnly: false,
      sameSite: 'strict',
      partitioned: true,
    }),
  'not-secure': () => setCookie('theme', 'dark', { secure: false }),
  'same-site-none': () => setCookie('embed', '1', { sameSite: 'none', secure: true }),
  unicode: () => setCookie('name', 'Crème brûlée; ✓'),
  several: () => {
    setCookie('a', '1');
    setCookie('b', '2');
    deleteCookie('c');
  },
  replace: () => {
    setCookie('theme', 'dark');
    setCookie('lang', 'fr');
    setCookie('theme', 'light'); // the same cookie: replaces the first
    setCookie('theme', 'blue', { path: '/admin' }); // another path: another cookie
    setCookie('theme', 'red', { domain: 'example.com' });
    setCookie('theme', 'green', { domain: '.Example.com' }); // the same domain
  },
  'set-then-delete': () => {
    setCookie('theme', 'dark');
    deleteCookie('theme');
  },
  delete: () => {
    deleteCookie('theme');
    deleteCookie('sid', { path: '/admin', domain: 'example.com', secure: true });
  },
  'with-response': () => {
    setCookie('a', '1');
    return new Response('own', { headers: { 'set-cookie': 'own=1' } });
  },
  sign: () => setSignedCookie('cart', 'c42 ✓'),
  'flash-twice': async () => {
    await flash('one');
    await flash('two');
  },
  'take-then-flash': async () => {
    setHeader('x-taken', String(await takeFlash()));
    await flash('next');
  },
  'flash-then-take': async () => {
    await flash('next');
    setHeader('x-taken', String(await takeFlash()));
  },
  'none-without-secure': () => setCookie('embed', '1', { sameSite: 'none' }),
  'partitioned-without-secure': () => setCookie('embed', '1', { partitioned: true }),
  'host-prefix-with-path': () => setCookie('__Host-sid', '1', { path: '/admin' }),
  'secure-prefix-without-secure': () => setCookie('__Secure-sid', '1'),
  'bad-name': () => setCookie('a b', '1'),
  'bad-max-age': () => setCookie('a', '1', { maxAge: 1.5 }),
  // "big=" + value + "; Path=/; HttpOnly; SameSite=Lax" (32 bytes): 4096 bytes is the most a browser keeps.
  'at-limit': () => setCookie('big', 'x'.repeat(4060)),
  'too-big': () => setCookie('big', 'x'.repeat(4061)),
};

/** /steps/{step}: runs a step and answers with a fragment (or the step's Response). */
class Step {
  async props(req: PageRequest) {
    const result = await steps[req.pathValue('step')]!();
    return result instanceof Response ? result : renderComponent(<p>done</p>);
  }
}

/** GET /read: the request's cookies as JSON. */
class Read {
  props() {
    return Response.json({
      theme: getCookie('theme') ?? null,
      toString: getCookie('toString') ?? null,
      all: getCookies(),
    });
  }
}

/** GET /signed/{name}: a signed cookie's value as JSON, null when it does not verify. */
class Signed {
  async props(req: PageRequest) {
    return Response.json({ value: (await getSignedCookie(req.pathValue('name'))) ?? null });
  }
}

class App {
  tasks = route('/tasks Tasks', TasksPage);
  notes = route('GET /notes Notes', NotesPage);
  step = route('/steps/{step}', Step);
  read = route('GET /read', Read);
  signed = route('GET /signed/{name}', Signed);
}

const errors: unknown[] = [];
const logger = { error: (_message: string, err?: unknown) => void errors.push(err), warn: () => {} };

function appMux(options: { secret?: string; flashCookie?: string }) {
  const mux = new ServeMux({ logger });
  mount(mux, App, '/', 'App', options);
  return mux;
}
const mux = appMux({ secret });

beforeEach(() => {
  errors.length = 0;
  tasks.length = 0;
});

async function send(req: Request, on = mux) {
  const res = await on.fetch(req);
  return { status: res.status, headers: res.headers, body: await res.text(), cookies: res.headers.getSetCookie() };
}

/** The `name=value` a Set-Cookie line gives the browser to send back. */
function pairOf(line: string | undefined): string {
  return line!.split(';')[0]!;
}

const post = (url: string, fields: Record<string, string> = {}) =>
  new Request(url, { method: 'POST', body: new URLSearchParams(fields) });
const withCookie = (path: string, cookie: string) => new Request(`http://localhost${path}`, { headers: { cookie } });

describe('setCookie and deleteCookie: the Set-Cookie lines of the answer', () => {
  test.each<[string, string, string[]]>([
    ['defaults over http', 'http://localhost/steps/defaults', ['theme=dark; Path=/; HttpOnly; SameSite=Lax']],
    [
      'defaults over https',
      'https://example.com/steps/defaults',
      ['theme=dark; Path=/; HttpOnly; Secure; SameSite=Lax'],
    ],
    [
      'secure: false over https',
      'https://example.com/steps/not-secure',
      ['theme=dark; Path=/; HttpOnly; SameSite=Lax'],
    ],
    [
      'every option',
      'http://localhost/steps/options',
      [
        'theme=dark; Max-Age=3600; Domain=example.com; Path=/app; Expires=Tue, 01 Jan 2030 00:00:00 GMT; Secure; ' +
          'Partitioned; SameSite=Strict',
      ],
    ],
    [
      'SameSite=None with Secure',
      'http://localhost/steps/same-site-none',
      ['embed=1; Path=/; HttpOnly; Secure; SameSite=None'],
    ],
    [
      'a unicode value, percent-encoded',
      'http://localhost/steps/unicode',
      ['name=Cr%C3%A8me%20br%C3%BBl%C3%A9e%3B%20%E2%9C%93; Path=/; HttpOnly; SameSite=Lax'],
    ],
    [
      'several cookies, one line each',
      'http://localhost/steps/several',
      [
        'a=1; Path=/; HttpOnly; SameSite=Lax',
        'b=2; Path=/; HttpOnly; SameSite=Lax',
        'c=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax',
      ],
    ],
    [
      'the same name, path and domain keeps the last',
      'http://localhost/steps/replace',
      [
        'lang=fr; Path=/; HttpOnly; SameSite=Lax',
        'theme=light; Path=/; HttpOnly; SameSite=Lax',
        'theme=blue; Path=/admin; HttpOnly; SameSite=Lax',
        'theme=green; Domain=.Example.com; Path=/; HttpOnly; SameSite=Lax',
      ],
    ],
    [
      'set then deleted: only the deletion',
      'http://localhost/steps/set-then-delete',
      ['theme=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax'],
    ],
    [
      'delete, with the path and domain it was set with',
      'http://localhost/steps/delete',
      [
        'theme=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax',
        'sid=; Max-Age=0; Domain=example.com; Path=/admin; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; SameSite=Lax',
      ],
    ],
    [
      'a Response keeps its own beside them',
      'http://localhost/steps/with-response',
      ['a=1; Path=/; HttpOnly; SameSite=Lax', 'own=1'],
    ],
    [
      'a line of 4096 bytes',
      'http://localhost/steps/at-limit',
      [`big=${'x'.repeat(4060)}; Path=/; HttpOnly; SameSite=Lax`],
    ],
  ])('%s', async (_name, url, lines) => {
    const r = await send(post(url));
    expect([r.status, r.cookies]).toEqual([200, lines]);
  });

  test.each<[string, string]>([
    [
      'none-without-secure',
      'setCookie("embed"): browsers drop a SameSite=None cookie without Secure; pass secure: true and serve the site over https',
    ],
    [
      'partitioned-without-secure',
      'setCookie("embed"): browsers drop a Partitioned cookie without Secure; pass secure: true and serve the site over https',
    ],
    [
      'secure-prefix-without-secure',
      'setCookie("__Secure-sid"): browsers drop a __Secure- cookie without Secure; pass secure: true and serve the site over https',
    ],
    [
      'host-prefix-with-path',
      'setCookie("__Host-sid"): browsers drop a __Host- cookie without Secure; pass secure: true and serve the site over https',
    ],
    ['bad-name', 'setCookie("a b"): argument name is invalid: a b'],
    ['bad-max-age', 'setCookie("a"): option maxAge is invalid: 1.5'],
    [
      'too-big',
      'setCookie("big"): the Set-Cookie line is 4097 bytes; browsers drop a cookie over 4096 bytes without a word; ' +
        'keep an id in the cookie and the data on the server',
    ],
  ])('what a browser would drop silently is an error: %s', async (step, message) => {
    const r = await send(post(`http://localhost/steps/${step}`));
    expect([r.status, r.cookies, errors]).toEqual([500, [], [expect.objectContaining({ message })]]);
  });

  test('a __Host- cookie needs Path=/ and no Domain, also over https', async () => {
    const r = await send(post('https://example.com/steps/host-prefix-with-path'));
    expect([r.status, errors]).toEqual([
      500,
      [
        expect.objectContaining({
          message: 'setCookie("__Host-sid"): browsers drop a __Host- cookie with a Domain or a Path other than /',
        }),
      ],
    ]);
  });
});

describe('getCookie and getCookies: the request Cookie header', () => {
  test('decoded values; a repeated name keeps the first; bad percent-encoding stays as sent', async () => {
    const r = await send(withCookie('/read', 'theme=dark; name=Cr%C3%A8me%20%E2%9C%93; odd=%E0%A4%A; dup=1; dup=2'));
    expect(JSON.parse(r.body)).toEqual({
      theme: 'dark',
      toString: null,
      all: { theme: 'dark', name: 'Crème ✓', odd: '%E0%A4%A', dup: '1' },
    });
  });

  test('no Cookie header: undefined and an empty record', async () => {
    const r = await send(new Request('http://localhost/read'));
    expect(JSON.parse(r.body)).toEqual({ theme: null, toString: null, all: {} });
  });

  test('a cookie named like an Object method is there only when sent', async () => {
    const r = await send(withCookie('/read', 'toString=x'));
    expect(JSON.parse(r.body)).toEqual({ theme: null, toString: 'x', all: { toString: 'x' } });
  });
});

describe('flash across redirect()', () => {
  const flashLine = new RegExp(`^pagetree-flash=Added%20Milk\\.${mac}; Path=/; HttpOnly; SameSite=Lax$`);

  test('a plain POST: 303 with the signed cookie; the next GET shows it once and deletes it', async () => {
    const posted = await send(post('http://localhost/tasks', { title: 'Milk' }));
    expect([posted.status, posted.headers.get('location'), posted.cookies]).toEqual([
      303,
      '/tasks',
      [expect.stringMatching(flashLine)],
    ]);
    const shown = await send(withCookie('/tasks', pairOf(posted.cookies[0])));
    expect([shown.status, shown.body, shown.cookies]).toEqual([
      200,
      '<main><p class="flash">Added Milk</p><ul><li>Milk</li></ul></main>',
      [flashDeleted],
    ]);
    // The browser dropped the cookie: the next page has no message and sets nothing.
    const next = await send(new Request('http://localhost/tasks'));
    expect([next.body, next.cookies]).toEqual(['<main><ul><li>Milk</li></ul></main>', []]);
  });

  test('an htmx POST: HX-Location with the signed cookie; the page htmx then GETs shows it once', async () => {
    const posted = await send(htmxRequest('/tasks', { form: { title: 'Milk' } }));
    expect([posted.status, posted.headers.get('hx-location'), posted.cookies]).toEqual([
      200,
      '/tasks',
      [expect.stringMatching(flashLine)],
    ]);
    const shown = await send(htmxRequest('/tasks', { target: 'body', headers: { cookie: pairOf(posted.cookies[0]) } }));
    expect([shown.status, shown.body, shown.cookies]).toEqual([
      200,
      '<main><p class="flash">Added Milk</p><ul><li>Milk</li></ul></main>',
      [flashDeleted],
    ]);
  });

  test('an async component in the layout reads it while the page renders', async () => {
    const posted = await send(post('http://localhost/tasks', { title: 'Milk' }));
    const shown = await send(withCookie('/notes', pairOf(posted.cookies[0])));
    expect([shown.body, shown.cookies]).toEqual([
      '<main><p role="status">Added Milk</p><p>notes</p></main>',
      [flashDeleted],
    ]);
    const none = await send(new Request('http://localhost/notes'));
    expect([none.body, none.cookies]).toEqual(['<main><p>notes</p></main>', []]);
  });

  test('over https the flash cookie is Secure', async () => {
    const posted = await send(post('https://example.com/tasks', { title: 'Milk' }));
    expect(posted.cookies).toEqual([expect.stringMatching(new RegExp(`; Path=/; HttpOnly; Secure; SameSite=Lax$`))]);
  });

  test('unicode and markup round-trip, escaped on the page', async () => {
    const posted = await send(post('http://localhost/tasks', { title: 'Crème brûlée ✓ 日本 <b>' }));
    const shown = await send(withCookie('/tasks', pairOf(posted.cookies[0])));
    expect(shown.body).toContain('<p class="flash">Added Crème brûlée ✓ 日本 &lt;b');
  });

  test('a second flash in the request replaces the first', async () => {
    const r = await send(post('http://localhost/steps/flash-twice'));
    expect(r.cookies).toEqual([expect.stringMatching(new RegExp(`^pagetree-flash=two\\.${mac}; Path=/;`))]);
  });

  test('takeFlash then flash: the new message goes out, not the deletion', async () => {
    const posted = await send(post('http://localhost/tasks', { title: 'Milk' }));
    const r = await send(
      new Request('http://localhost/steps/take-then-flash', {
        method: 'POST',
        headers: { cookie: pairOf(posted.cookies[0]) },
      }),
    );
    expect([r.headers.get('x-taken'), r.cookies]).toEqual([
      'Added Milk',
      [expect.stringMatching(new RegExp(`^pagetree-flash=next\\.${mac}; Path=/;`))],
    ]);
  });

  // Issue 24: a page that flashes and renders in one answer (a bulk delete) shows its message at once.
  test('flash then takeFlash in one request: the new message is shown now, and its cookie is not set', async () => {
    const posted = await send(post('http://localhost/tasks', { title: 'Milk' }));
    const withOld = { cookie: pairOf(posted.cookies[0]) };
    const r = await send(new Request('http://localhost/steps/flash-then-take', { method: 'POST', headers: withOld }));
    expect([r.headers.get('x-taken'), r.cookies]).toEqual(['next', [flashDeleted]]); // the old one is deleted
    const fresh = await send(new Request('http://localhost/steps/flash-then-take', { method: 'POST' }));
    expect([fresh.headers.get('x-taken'), fresh.cookies]).toEqual(['next', []]);
  });
});

// Issue 26.9: the flash cookie's name is the app's to choose, and two apps on one host keep their messages apart.
describe('two apps on one host name', () => {
  test('each reads its own flash, and leaves the other one alone', async () => {
    const tasks = appMux({ secret, flashCookie: 'tasks-flash' });
    const notes = appMux({ secret: otherSecret, flashCookie: 'notes-flash' });
    const posted = await send(post('http://localhost/tasks', { title: 'Milk' }), tasks);
    expect(posted.cookies).toEqual([expect.stringMatching(new RegExp(`^tasks-flash=Added%20Milk\\.${mac}; Path=/;`))]);
    const cookie = pairOf(posted.cookies[0]);
    // The other app's page: no message, and the cookie is not deleted (not its name).
    const other = await send(withCookie('/notes', cookie), notes);
    expect([other.body, other.cookies]).toEqual(['<main><p>notes</p></main>', []]);
    const own = await send(withCookie('/notes', cookie), tasks);
    expect([own.body, own.cookies]).toEqual([
      '<main><p role="status">Added Milk</p><p>notes</p></main>',
      [flashDeleted.replace('pagetree-flash', 'tasks-flash')],
    ]);
  });

  test('a flashCookie that is no cookie name is a mount error', () => {
    expect(() => appMux({ secret, flashCookie: 'my flash' })).toThrow(
      'mount: App (flashCookie): "my flash" is not a cookie name; use letters, digits and - (e.g. "tasks-flash")',
    );
  });
});

describe('signed cookies: what the client changed reads as missing', () => {
  let signed: string; // "c42%20%E2%9C%93.<mac>", as the browser sends it back
  beforeAll(async () => {
    const r = await send(post('http://localhost/steps/sign'));
    expect(r.cookies).toEqual([
      expect.stringMatching(new RegExp(`^cart=c42%20%E2%9C%93\\.${mac}; Path=/; HttpOnly; SameSite=Lax$`)),
    ]);
    signed = pairOf(r.cookies[0]).slice('cart='.length);
  });
  const flipped = (s: string) => s.slice(0, -1) + (s.endsWith('A') ? 'B' : 'A');

  test.each<[string, () => string, string, string | null]>([
    ['as signed (unicode round-trips)', () => `cart=${signed}`, 'cart', 'c42 ✓'],
    ['another value, the same signature', () => `cart=${signed.replace('c42', 'c43')}`, 'cart', null],
    ['a changed signature', () => `cart=${flipped(signed)}`, 'cart', null],
    ['no signature', () => 'cart=c42', 'cart', null],
    ['a signature of the wrong length', () => `cart=${signed}A`, 'cart', null],
    ['a signature that is not base64url', () => `cart=${signed.slice(0, -1)}!`, 'cart', null],
    ['moved to another cookie name', () => `other=${signed}`, 'other', null],
    ['not sent', () => 'x=1', 'cart', null],
  ])('%s', async (_name, cookie, name, value) => {
    const r = await send(withCookie(`/signed/${name}`, cookie()));
    expect([r.status, JSON.parse(r.body)]).toEqual([200, { value }]);
  });

  test('signed with another secret', async () => {
    const other = appMux({ secret: otherSecret });
    const r = await send(post('http://localhost/steps/sign'), other);
    const read = await send(withCookie('/signed/cart', pairOf(r.cookies[0])));
    expect(JSON.parse(read.body)).toEqual({ value: null });
  });

  test.each<[string, () => Promise<string>]>([
    [
      'a changed message',
      async () => {
        const r = await send(post('http://localhost/tasks', { title: 'Milk' }));
        return pairOf(r.cookies[0]).replace('Milk', 'Eggs');
      },
    ],
    [
      'a message signed with another secret',
      async () =>
        pairOf(
          (await send(post('http://localhost/tasks', { title: 'Milk' }), appMux({ secret: otherSecret }))).cookies[0],
        ),
    ],
    ['a signature moved from another cookie', async () => `pagetree-flash=${signed}`],
    ['no signature at all', async () => 'pagetree-flash=Hello'],
  ])('a flash is ignored and still deleted: %s', async (_name, cookie) => {
    const c = await cookie();
    tasks.length = 0;
    const shown = await send(withCookie('/tasks', c));
    expect([shown.status, shown.body, shown.cookies]).toEqual([200, '<main><ul></ul></main>', [flashDeleted]]);
  });
});

describe('mistakes', () => {
  const fix =
    "no secret to sign cookies with; pass one to mount, at least 32 characters, from the environment: mount(mux, App, '/', 'App', " +
    '{ secret: process.env.PAGETREE_SECRET }) (generate it with openssl rand -base64 32)';

  test.each<[string, Request, string]>([
    ['flash', post('http://localhost/tasks', { title: 'Milk' }), `flash(): ${fix}`],
    ['takeFlash', new Request('http://localhost/tasks'), `takeFlash(): ${fix}`],
    ['setSignedCookie', post('http://localhost/steps/sign'), `setSignedCookie(): ${fix}`],
    ['getSignedCookie', new Request('http://localhost/signed/cart'), `getSignedCookie(): ${fix}`],
  ])('%s without a mount secret says how to give one', async (_name, req, message) => {
    const r = await send(req, appMux({}));
    expect([r.status, r.cookies, errors]).toEqual([500, [], [expect.objectContaining({ message })]]);
  });

  test('outside a request', async () => {
    const outside = (api: string) => `${api}(): called outside a request; call it from props() or a component`;
    expect(() => getCookie('x')).toThrow(outside('getCookie'));
    expect(() => getCookies()).toThrow(outside('getCookies'));
    expect(() => setCookie('x', '1')).toThrow(outside('setCookie'));
    expect(() => deleteCookie('x')).toThrow(outside('deleteCookie'));
    await expect(setSignedCookie('x', '1')).rejects.toThrow(outside('setSignedCookie'));
    await expect(getSignedCookie('x')).rejects.toThrow(outside('getSignedCookie'));
    await expect(flash('x')).rejects.toThrow(outside('flash'));
    await expect(takeFlash()).rejects.toThrow(outside('takeFlash'));
  });

  test.each<[string, unknown]>([
    ['short', 'too-short'],
    ['31 characters', 'x'.repeat(31)],
    ['not a string', 42],
  ])('mount rejects a secret that is %s, in dev too', (_name, bad) => {
    for (const dev of [false, true]) {
      const attempt = () => mount(new ServeMux(), App, '/', 'App', { secret: bad as string, dev });
      expect(attempt).toThrow(MountError);
      expect(attempt).toThrow(
        'mount: App (secret): the secret must be a string of at least 32 characters; generate one (openssl rand ' +
          '-base64 32) and pass it from the environment',
      );
    }
  });

  test('an unset secret is a mount error naming the variable to set', () => {
    const attempt = () => mount(new ServeMux(), App, '/', 'App', { secret: process.env.PAGETREE_TEST_UNSET });
    expect(attempt).toThrow(MountError);
    expect(attempt).toThrow(
      'mount: App (secret): the secret is undefined; set the environment variable it is read from, e.g. ' +
        'PAGETREE_SECRET, to 32 or more random characters (openssl rand -base64 32), or pass dev: true in ' +
        'development to generate one per start',
    );
  });
});

describe('dev: true without a secret', () => {
  function devMux(options: { secret?: string }) {
    const warnings: string[] = [];
    const mux = new ServeMux({ logger: { ...logger, warn: (message: string) => void warnings.push(message) } });
    mount(mux, App, '/', 'App', { ...options, dev: true });
    return { mux, warnings };
  }

  test('signs with a secret generated for this start, and says so once', async () => {
    for (const options of [{}, { secret: undefined }]) {
      const { mux: dev, warnings } = devMux(options);
      expect(warnings).toEqual([
        'pagetree: no secret (PAGETREE_SECRET is unset?); this start signs cookies with a generated one, so flash ' +
          'messages do not survive a restart. Set PAGETREE_SECRET in .env (openssl rand -base64 32) to keep them.',
      ]);
      const added = await send(post('http://localhost/tasks', { title: 'Milk' }), dev);
      const shown = await send(withCookie('/tasks', added.cookies[0]!), dev);
      expect(shown.body).toContain('Added Milk');
      // Another start has another secret: the message of the last one reads as missing.
      const shownAfterRestart = await send(withCookie('/tasks', added.cookies[0]!), devMux(options).mux);
      expect(shownAfterRestart.body).not.toContain('Added Milk');
      expect(warnings).toHaveLength(1);
    }
  });

  test('a secret given is used as it is, with no warning', async () => {
    const { mux: dev, warnings } = devMux({ secret });
    const added = await send(post('http://localhost/tasks', { title: 'Milk' }), dev);
    expect((await send(withCookie('/tasks', added.cookies[0]!), mux)).body).toContain('Added Milk');
    expect(warnings).toEqual([]);
  });
});
