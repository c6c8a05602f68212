// Streamed full pages (issue 29.1): a page with `stream = true` sends its shell at once and each <Suspense>
// boundary as it resolves, out of order; htmx partials get the whole fragment, or multipart parts when they accept
// multipart/mixed. The slow parts are promises resolved by hand, never timers.

import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { request as httpRequest } from 'node:http';
import { createBrotliDecompress } from 'node:zlib';
import {
  alsoRender,
  cspNonce,
  htmxDetails,
  HttpError,
  mount,
  route,
  ServeMux,
  setHeader,
  Suspense,
  type Logger,
  type PageRequest,
} from '../core/index.ts';
import { serve, shutdown } from '../core/node/index.ts';

// A promise resolved (or rejected) from the test.
function deferred<T = string>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => ([resolve, reject] = [res, rej]));
  return { promise, resolve, reject };
}

// Every slow part of a request, by name, made when the page renders.
let slow: Record<string, ReturnType<typeof deferred>> = {};
const part = (name: string) => (slow[name] = deferred()).promise as Promise<string>;

async function Slow({ name }: { name: string }) {
  return `<section id="${name}">${await part(name)}</section>`;
}

class StreamedPage {
  stream = true;
  props(req: PageRequest) {
    if (new URL(req.url).searchParams.has('nonce')) {
      setHeader('content-security-policy', `script-src 'nonce-${cspNonce()}'`);
    }
    setHeader('x-from-props', 'yes');
    return { title: 'Streamed' };
  }
  page(props: { title: string }) {
    return (
      <>
        {'<!doctype html>'}
        <html>
          <head>
            <title safe>{props.title}</title>
          </head>
          <body>
            <h1>Top</h1>
            <Suspense fallback={<p class="loading">Loading a…</p>}>
              <Slow name="a" />
            </Suspense>
            <Suspense fallback={<p class="loading">Loading b…</p>}>
              <Slow name="b" />
            </Suspense>
            {this.fast()}
          </body>
        </html>
      </>
    );
  }
  fast() {
    return (
      <div id="fast">
        <Suspense fallback="…">
          <Slow name="f" />
        </Suspense>
      </div>
    );
  }
}

class NestedPage {
  stream = true;
  page() {
    return (
      <html>
        <body>
          <Suspense fallback="outer…">
            <Outer />
          </Suspense>
        </body>
      </html>
    );
  }
}

async function Outer() {
  const text = await part('outer');
  return (
    <div>
      <span safe>{text}</span>
      <Suspense fallback="inner…">
        <Slow name="inner" />
      </Suspense>
    </div>
  );
}

class FailingPage {
  stream = true;
  page() {
    return (
      <html>
        <body>
          <Suspense fallback="…">
            <Slow name="bad" />
          </Suspense>
        </body>
      </html>
    );
  }
}

class LatePage {
  stream = true;
  page() {
    return (
      <html>
        <body>
          <Suspense fallback="…">
            <Late />
          </Suspense>
        </body>
      </html>
    );
  }
}

async function Late() {
  await part('late');
  setHeader('x-late', 'too late');
  return 'never';
}

class Section {
  failing = route('/failing', FailingPage);
  late = route('/late', LatePage);
  error(err: unknown) {
    const text = err instanceof HttpError ? err.message : 'Something went wrong';
    if (htmxDetails().swapsIntoElement)
      return (
        <p class="error" safe>
          {text}
        </p>
      );
    return (
      <html>
        <body>
          <p class="error" safe>
            full page: {text}
          </p>
        </body>
      </html>
    );
  }
}

class PlainPage {
  page() {
    return (
      <main>
        <Suspense fallback="…">
          <Slow name="plain" />
        </Suspense>
      </main>
    );
  }
}

class ShellFails {
  stream = true;
  page() {
    return (
      <main>
        <Suspense fallback="…">
          <Slow name="orphan" />
        </Suspense>
        <Broken />
      </main>
    );
  }
}

async function Broken(): Promise<string> {
  await Promise.resolve();
  throw new Error('the shell broke');
}

class SyncPage {
  stream = true;
  page() {
    return (
      <main>
        <Suspense fallback="…">
          <p>ready at once</p>
        </Suspense>
      </main>
    );
  }
}

class App {
  index = route('/{$}', StreamedPage);
  nested = route('/nested', NestedPage);
  section = route('/section', Section);
  plain = route('/plain', PlainPage);
  shell = route('/shell', ShellFails);
  sync = route('/sync', SyncPage);
}

const logged: { message: string; err?: unknown }[] = [];
const logger: Logger = { error: (message, err) => logged.push({ message, err }), warn: () => {} };
const mux = new ServeMux({ logger });
mount(mux, App, '/', 'App', { compress: false });

beforeEach(() => {
  slow = {};
  logged.length = 0;
});

const tick = () => new Promise((r) => setImmediate(r));

// Reads a streamed body chunk by chunk, as text.
function chunks(res: Response) {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  return {
    async next(): Promise<string | null> {
      const { done, value } = await reader.read();
      return done ? null : decoder.decode(value);
    },
    async rest(): Promise<string> {
      let all = '';
      for (let c = await this.next(); c !== null; c = await this.next()) all += c;
      return all;
    },
  };
}

test('the shell goes first, before any slow part resolves, with the headers props set', async () => {
  const res = await mux.fetch(new Request('http://x/'));
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(res.headers.get('x-from-props')).toBe('yes');
  expect(res.headers.get('content-length')).toBeNull();
  const body = chunks(res);
  const first = await body.next();
  expect(first).toContain('<h1>Top</h1>');
  expect(first).toContain('<?start name="pt-1"><p class="loading">Loading a…</p><?end>');
  expect(first).toContain('<div id="fast"><?start name="pt-3">…<?end></div>');
  expect(first).not.toContain('</body>'); // held back to the end
  expect(Object.keys(slow).sort()).toEqual(['a', 'b', 'f']);
  slow.a!.resolve('A');
  slow.b!.resolve('B');
  slow.f!.resolve('F');
  const rest = await body.rest();
  expect(rest).toMatch(/<\/body><\/html>$/);
});

test('out of order: each boundary goes when it resolves, the script once, the end last', async () => {
  const res = await mux.fetch(new Request('http://x/'));
  const body = chunks(res);
  await body.next();
  slow.b!.resolve('<b>B</b>');
  const b = await body.next();
  expect(b).toBe(
    '<script>function __pt(s){' +
      b!.slice('<script>function __pt(s){'.length, b!.indexOf('</script>')) +
      '</script><template for="pt-2"><section id="b"><b>B</b></section></template>' +
      '<script>__pt(document.currentScript)</script>',
  );
  slow.f!.resolve('F');
  expect(await body.next()).toBe(
    '<template for="pt-3"><section id="f">F</section></template><script>__pt(document.currentScript)</script>',
  );
  slow.a!.resolve('A');
  expect(await body.next()).toContain('<template for="pt-1"><section id="a">A</section></template>');
  expect(await body.next()).toBe('</body></html>');
  expect(await body.next()).toBeNull();
});

test('the inline script carries the nonce of the page', async () => {
  const res = await mux.fetch(new Request('http://x/?nonce'));
  const nonce = /'nonce-([^']+)'/.exec(res.headers.get('content-security-policy')!)![1]!;
  expect(nonce).toMatch(/^[\w-]{22}$/);
  const body = chunks(res);
  await body.next();
  for (const n of ['a', 'b', 'f']) slow[n]!.resolve(n);
  const rest = await body.rest();
  expect(rest.match(/<script nonce="([^"]+)">/g)).toHaveLength(4);
  expect(rest).not.toContain('<script>');
  expect(rest).toContain(`<script nonce="${nonce}">`);
});

test('a boundary nested in another goes after its parent, even when it resolves first', async () => {
  const res = await mux.fetch(new Request('http://x/nested'));
  const body = chunks(res);
  expect(await body.next()).toBe('<html><body><?start name="pt-1">outer…<?end>');
  slow.outer!.resolve('O');
  await tick();
  slow.inner!.resolve('I');
  const rest = await body.rest();
  const outer = rest.indexOf('<template for="pt-1">');
  const inner = rest.indexOf('<template for="pt-2">');
  expect(outer).toBeGreaterThanOrEqual(0);
  expect(rest.slice(outer)).toContain('<?start name="pt-2">inner…<?end>');
  expect(inner).toBeGreaterThan(outer);
});

test('nested: the inner part resolving before its parent is held until the parent is sent', async () => {
  const res = await mux.fetch(new Request('http://x/nested'));
  const body = chunks(res);
  await body.next();
  // Outer is still waiting on its own promise; the inner Suspense is registered only once Outer renders.
  slow.outer!.resolve('O');
  await tick();
  // Both settled now, inner first: the outer template must still come first.
  const all = await Promise.all([body.rest(), (async () => slow.inner!.resolve('I'))()]);
  expect(all[0].indexOf('for="pt-1"')).toBeLessThan(all[0].indexOf('for="pt-2"'));
});

test('an error in a boundary after the first byte: the section error fragment there, logged once, status 200', async () => {
  const res = await mux.fetch(new Request('http://x/section/failing'));
  expect(res.status).toBe(200);
  const body = chunks(res);
  await body.next();
  slow.bad!.reject(new HttpError(502, 'Upstream <down>'));
  const rest = await body.rest();
  expect(rest).toContain('<template for="pt-1"><p class="error">Upstream &lt;down></p></template>');
  expect(rest).not.toContain('full page');
  expect(logged).toHaveLength(1);
  expect(logged[0]!.message).toMatch(/App\.section\.failing .*pt-1.*failed/);
  expect((logged[0]!.err as HttpError).status).toBe(502);
});

test('a header set from inside a boundary is an error, logged, and the boundary shows the error fragment', async () => {
  const res = await mux.fetch(new Request('http://x/section/late'));
  const body = chunks(res);
  await body.next();
  slow.late!.resolve('x');
  const rest = await body.rest();
  expect(res.headers.get('x-late')).toBeNull();
  expect(rest).toContain('<p class="error">Something went wrong</p>');
  expect(logged).toHaveLength(1);
  expect(String(logged[0]!.err)).toMatch(/setHeader\(\): called after the streamed page's first byte/);
});

test('a shell that fails before the first byte answers with the error page; its boundaries are dropped', async () => {
  const res = await mux.fetch(new Request('http://x/shell'));
  expect(res.status).toBe(500);
  expect(await res.text()).toBe('Internal Server Error\n');
  slow.orphan!.reject(new Error('late failure'));
  await tick();
  expect(logged).toHaveLength(1);
  expect(String(logged[0]!.err)).toContain('the shell broke');
});

test('children ready at once render in place: no stream, one string', async () => {
  const res = await mux.fetch(new Request('http://x/sync'));
  expect(await res.text()).toBe('<main><p>ready at once</p></main>');
});

test('a page without stream = true waits for its boundaries and renders them in place', async () => {
  const answer = mux.fetch(new Request('http://x/plain'));
  await tick();
  slow.plain!.resolve('P');
  expect(await (await answer).text()).toBe('<main><section id="plain">P</section></main>');
});

const htmx4 = { 'hx-request': 'true', 'hx-request-type': 'partial' };

test('an htmx partial gets the whole fragment, unstreamed, with Accept in Vary', async () => {
  const answer = mux.fetch(new Request('http://x/', { headers: { ...htmx4, 'hx-target': 'div#fast' } }));
  await tick();
  slow.f!.resolve('F');
  const res = await answer;
  expect(res.headers.get('vary')).toBe('HX-Request, HX-Target, HX-Request-Type, Accept');
  expect(await res.text()).toBe('<div id="fast"><section id="f">F</section></div>');
});

test('an htmx boosted navigation gets the whole page, unstreamed', async () => {
  const answer = mux.fetch(new Request('http://x/', { headers: { 'hx-request': 'true', 'hx-boosted': 'true' } }));
  await tick();
  for (const n of ['a', 'b', 'f']) slow[n]!.resolve(n.toUpperCase());
  const html = await (await answer).text();
  expect(html).toContain('<section id="a">A</section>');
  expect(html).not.toContain('<template');
});

test('htmx 4 with hx-multipart: the fragment, then one part per boundary with its own HX-Target', async () => {
  const res = await mux.fetch(
    new Request('http://x/', {
      headers: { ...htmx4, 'hx-target': 'div#fast', accept: 'text/html, multipart/mixed, multipart/parallel' },
    }),
  );
  const type = res.headers.get('content-type')!;
  const boundary = /^multipart\/mixed; boundary="([^"]+)"$/.exec(type)![1]!;
  const body = chunks(res);
  // Each part ends with the next delimiter, so that the client's parser can hand it over at once.
  expect(await body.next()).toBe(
    `--${boundary}\r\ncontent-type: text/html; charset=utf-8\r\n\r\n` +
      `<div id="fast"><pagetree-suspense id="pt-1">…</pagetree-suspense></div>\r\n--${boundary}`,
  );
  slow.f!.resolve('F');
  expect(await body.next()).toBe(
    `\r\ncontent-type: text/html; charset=utf-8\r\nhx-target: #pt-1\r\nhx-swap: outerHTML\r\n\r\n` +
      `<section id="f">F</section>\r\n--${boundary}`,
  );
  expect(await body.next()).toBe('--\r\n');
});

test('HEAD gets the head of the streamed GET at once, without waiting for the boundaries', async () => {
  const res = await mux.fetch(new Request('http://x/', { method: 'HEAD' }));
  expect(res.status).toBe(200);
  expect(res.headers.get('x-from-props')).toBe('yes');
  expect(res.headers.get('content-length')).toBeNull();
  expect(res.body).toBeNull();
  slow.a!.reject(new Error('nobody reads this'));
  await tick();
  expect(logged).toHaveLength(0);
});

test('stream must be a boolean: a mount error', () => {
  class Bad {
    stream = 'yes';
    page() {
      return <p />;
    }
  }
  class Root {
    bad = route('/bad', Bad);
  }
  expect(() => mount(new ServeMux(), Root)).toThrow(/Root\.bad.*stream is string; give it true/);
});

test('alsoRender from a boundary is refused like a header: nothing can join the sent head', async () => {
  class Regions {
    stream = true;
    page() {
      return (
        <html>
          <body>
            <Suspense fallback="…">
              <Region />
            </Suspense>
          </body>
        </html>
      );
    }
  }
  async function Region() {
    await part('region');
    alsoRender('x', <p />);
    return 'no';
  }
  class Root {
    regions = route('/', Regions);
  }
  const m = new ServeMux({ logger });
  mount(m, Root, '/', 'Root', { compress: false });
  const res = await m.fetch(new Request('http://x/'));
  const body = chunks(res);
  await body.next();
  slow.region!.resolve('r');
  expect(await body.rest()).toContain('<template for="pt-1">Internal Server Error\n</template>');
  expect(String(logged[0]!.err)).toMatch(/alsoRender\(\): called after/);
});

describe('over node:http', () => {
  let server: ReturnType<typeof serve>;
  let port = 0;
  beforeAll(async () => {
    server = serve(mux, { port: 0, hostname: '127.0.0.1', handleSignals: false, onListen: () => {} });
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => shutdown(server, 1000));

  test('the first chunk reaches the client before the slow parts resolve; chunked, no length', async () => {
    const seen: string[] = [];
    const firstChunk = deferred<void>();
    const done = deferred<void>();
    const req = httpRequest({ host: '127.0.0.1', port, path: '/' }, (res) => {
      expect(res.headers['transfer-encoding']).toBe('chunked');
      expect(res.headers['content-length']).toBeUndefined();
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        seen.push(c);
        if (seen.length === 1) firstChunk.resolve();
      });
      res.on('end', () => done.resolve());
    });
    req.end();
    await firstChunk.promise;
    expect(seen.join('')).toContain('<h1>Top</h1>');
    expect(Object.values(slow).every((d) => d !== undefined)).toBe(true);
    slow.b!.resolve('B');
    slow.a!.resolve('A');
    slow.f!.resolve('F');
    await done.promise;
    const all = seen.join('');
    expect(all.indexOf('for="pt-2"')).toBeLessThan(all.indexOf('for="pt-1"'));
    expect(all).toMatch(/<\/body><\/html>$/);
  });

  test('a client that leaves mid-stream drops what is pending, quietly', async () => {
    const gone = deferred<void>();
    const req = httpRequest({ host: '127.0.0.1', port, path: '/' }, (res) => {
      res.once('data', () => req.destroy());
      res.on('close', () => gone.resolve());
    });
    req.on('error', () => {});
    req.end();
    await gone.promise;
    await new Promise((r) => setTimeout(r, 20));
    for (const n of ['a', 'b', 'f']) slow[n]!.resolve(n);
    await tick();
    expect(logged).toHaveLength(0);
  });
});

test('compressed as it streams: br flushed per chunk, the shell decodes before the slow parts resolve', async () => {
  const m = new ServeMux({ logger });
  mount(m, App, '/', 'App', { compress: { threshold: 0 } });
  const res = await m.fetch(new Request('http://x/', { headers: { 'accept-encoding': 'gzip, br' } }));
  expect(res.headers.get('content-encoding')).toBe('br');
  expect(res.headers.get('vary')).toBe('HX-Request, HX-Target, HX-Request-Type, Accept-Encoding');
  const decoder = createBrotliDecompress();
  let text = '';
  decoder.on('data', (b: Buffer) => (text += b.toString()));
  const reader = res.body!.getReader();
  const until = async (want: string) => {
    while (!text.includes(want)) {
      const { done, value } = await reader.read();
      if (done) break;
      await new Promise((r) => decoder.write(value, r));
      await new Promise((r) => setImmediate(r));
    }
    return text;
  };
  expect(await until('<h1>Top</h1>')).not.toContain('<template');
  slow.b!.resolve('B');
  expect(await until('<section id="b">B</section>')).not.toContain('<section id="a">');
  slow.a!.resolve('A');
  slow.f!.resolve('F');
  expect(await until('</html>')).toMatch(/<\/body><\/html>$/);
});
