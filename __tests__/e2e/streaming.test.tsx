// Streamed full pages in Chromium (issue 29.1): the shell shows its fallbacks before the slow parts are ready, each
// part lands in place as it resolves (out of order), the final DOM keeps no template or script of ours, and htmx
// (2 and 4) works on what streamed in. Chromium 150+ places the parts itself (`<template for>`, whatwg/html#11818),
// with JavaScript on or off; with that feature switched off (as in a browser without it) the inline script does,
// under a CSP that allows only the page's nonce.

import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { cspNonce, mount, route, ServeMux, setHeader, Suspense, type PageRequest } from '../../core/index.ts';
import { launchChromium, poll, useChromium } from '../support/chromium.ts';
import { useAppServer } from '../support/app-server.ts';

jest.setTimeout(60_000);

function deferred() {
  let resolve!: (v: string) => void;
  const promise = new Promise<string>((r) => (resolve = r));
  return { promise, resolve };
}

// The slow parts of the page being loaded, resolved by the test.
let gates: Record<'first' | 'second', ReturnType<typeof deferred>> | undefined;

async function Part({ name }: { name: 'first' | 'second' }) {
  await gates![name].promise;
  return (
    <section id={`${name}-part`}>
      <h2>{name} part</h2>
      <button id={`${name}-button`} hx-get={`/clicked?from=${name}`} hx-target={`#${name}-out`}>
        Click
      </button>
      <output id={`${name}-out`}></output>
    </section>
  );
}

class StreamedPage {
  stream = true;
  props(req: PageRequest) {
    setHeader('content-security-policy', `script-src 'nonce-${cspNonce()}'`);
    return { htmx: new URL(req.url).searchParams.get('htmx') === '2' ? '2' : '4' };
  }
  page(props: { htmx: string }) {
    return (
      <>
        {'<!doctype html>'}
        <html>
          <head>
            <title>Streamed</title>
            <script nonce={cspNonce()} src={`/htmx.js?v=${props.htmx}`}></script>
          </head>
          <body>
            <h1>Shell</h1>
            <main>
              <Suspense fallback={<p class="fallback">Loading the first part…</p>}>
                <Part name="first" />
              </Suspense>
              <Suspense fallback={<p class="fallback">Loading the second part…</p>}>
                <Part name="second" />
              </Suspense>
            </main>
            <footer>End</footer>
          </body>
        </html>
      </>
    );
  }
}

class Clicked {
  props(req: PageRequest) {
    return { from: new URL(req.url).searchParams.get('from') ?? '' };
  }
  page(props: { from: string }) {
    return <span safe>clicked {props.from}</span>;
  }
}

// htmx 4 with its hx-multipart extension: a partial whose boundary comes as a second part, HX-Target #pt-1.
let boxGate: ReturnType<typeof deferred> | undefined;

async function BoxPart() {
  await boxGate!.promise;
  return (
    <div id="box-part">
      <button id="box-button" hx-get="/clicked?from=box" hx-target="#box-out">
        Click
      </button>
      <output id="box-out"></output>
    </div>
  );
}

class MultipartPage {
  stream = true;
  page() {
    return (
      <>
        {'<!doctype html>'}
        <html>
          <head>
            <script src="/htmx.js?v=4"></script>
            <script src="/hx-multipart.js"></script>
          </head>
          <body>
            <button id="load-box" hx-get="/multipart" hx-target="#box">
              Load
            </button>
            <div id="box"></div>
          </body>
        </html>
      </>
    );
  }
  box() {
    return (
      <div>
        Box:{' '}
        <Suspense fallback={<i class="fallback">loading the box…</i>}>
          <BoxPart />
        </Suspense>
      </div>
    );
  }
}

const multipartExtension = readFileSync(require.resolve('htmx.org/dist/ext/hx-multipart.js'), 'utf8');

class App {
  index = route('/{$}', StreamedPage);
  clicked = route('/clicked', Clicked);
  multipart = route('/multipart', MultipartPage);
}

const mux = new ServeMux();
mount(mux, App, '/', 'App');
mux.handleFunc(
  'GET /hx-multipart.js',
  () => new Response(multipartExtension, { headers: { 'content-type': 'text/javascript' } }),
);
const app = useAppServer(mux);
const chromium = useChromium();

// Chromium as a browser without out-of-order streaming: <?start> parsed as a comment, <template for> as a template.
let withoutPatching: Browser | undefined;
beforeAll(async () => {
  withoutPatching = await launchChromium(['--disable-blink-features=DocumentPatching,HTMLProcessingInstruction']);
});
afterAll(() => withoutPatching?.close());

// What the page shows inside <main>, and what is left of the machinery.
const state = (page: Page) =>
  page.evaluate(() => ({
    main: document.querySelector('main')!.innerText.replace(/\s+/g, ' ').trim(),
    parts: [...document.querySelectorAll('main > section')].map((s) => s.id),
    templates: document.querySelectorAll('template').length,
    scripts: [...document.querySelectorAll('script')].filter((s) => !s.src).length,
    footerLast: document.body.lastElementChild?.localName,
  }));

// Loads the page, checks that the shell shows before any part is ready, then resolves the second part, then the
// first (out of order), and waits for the end of the document.
async function load(page: Page, htmx: string, placed = true) {
  gates = { first: deferred(), second: deferred() };
  const loaded = page.waitForEvent('load');
  await page.goto(`${app.base}/?htmx=${htmx}`, { waitUntil: 'commit' });
  await page.waitForSelector('h1');
  expect((await state(page)).main).toBe('Loading the first part… Loading the second part…');
  gates.second.resolve('');
  if (placed) {
    expect(
      await poll(
        () => state(page).then((s) => s.parts.join()),
        (p) => p === 'second-part',
      ),
    ).toBe('second-part');
    expect((await state(page)).main).toBe('Loading the first part… second part Click');
  }
  gates.first.resolve('');
  await loaded;
}

const cases = [
  ['native <template for>', () => chromium.browser],
  ['the inline script', () => withoutPatching!],
] as const;

describe.each(cases)('placed by %s', (_, browser) => {
  test.each(['2', '4'])('htmx %s, JavaScript on: parts in place, nothing left over, htmx works in them', async (v) => {
    const context = await browser().newContext();
    const page = await context.newPage();
    const errors: string[] = [];
    // (htmx 2 asks for a favicon: its 404 is no error of ours.)
    page.on('console', (m) => m.type() === 'error' && !m.text().startsWith('Failed to load') && errors.push(m.text()));
    page.on('pageerror', (err) => errors.push(err.message));
    await load(page, v);
    const s = await state(page);
    expect(s.parts).toEqual(['first-part', 'second-part']);
    expect(s.main).toBe('first part Click second part Click');
    expect(s.templates).toBe(0);
    expect(s.scripts).toBe(0);
    expect(s.footerLast).toBe('footer');
    await page.click('#first-button');
    expect(
      await poll(
        () => page.textContent('#first-out'),
        (t) => t === 'clicked first',
      ),
    ).toBe('clicked first');
    await page.click('#second-button');
    expect(
      await poll(
        () => page.textContent('#second-out'),
        (t) => t === 'clicked second',
      ),
    ).toBe('clicked second');
    expect(errors).toEqual([]); // no CSP refusal: the inline scripts carry the nonce
    await context.close();
  });
});

test.each(['2', '4'])('htmx %s, JavaScript off, native <template for>: the parts are in place', async (v) => {
  const context = await chromium.browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await load(page, v);
  const s = await state(page);
  expect(s.parts).toEqual(['first-part', 'second-part']);
  expect(s.main).toBe('first part Click second part Click');
  expect(s.templates).toBe(0);
  await context.close();
});

test('JavaScript off in a browser without <template for>: the fallbacks stay (the documented limit)', async () => {
  const context = await withoutPatching!.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await load(page, '4', false);
  const s = await state(page);
  expect(s.main).toBe('Loading the first part… Loading the second part…');
  expect(s.parts).toEqual([]);
  await context.close();
});

test('htmx 4 with hx-multipart: the fragment with its fallback first, then the part into its place', async () => {
  const page = await chromium.browser.newPage();
  await page.goto(`${app.base}/multipart`);
  boxGate = deferred();
  await page.click('#load-box');
  const box = () => page.evaluate(() => document.querySelector('#box')!.innerHTML);
  expect(await poll(box, (h) => h.includes('loading the box'))).toBe(
    '<div>Box: <pagetree-suspense id="pt-1"><i class="fallback">loading the box…</i></pagetree-suspense></div>',
  );
  boxGate.resolve('');
  const html = await poll(box, (h) => h.includes('box-part'));
  expect(html).toMatch(/^<div>Box: <div id="box-part"><button id="box-button"[^>]*>Click<\/button>/);
  expect(html).not.toContain('pagetree-suspense');
  await page.click('#box-button');
  expect(
    await poll(
      () => page.textContent('#box-out'),
      (t) => t === 'clicked box',
    ),
  ).toBe('clicked box');
  await page.close();
});
