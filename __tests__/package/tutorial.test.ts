// docs/tutorial.md, followed literally with the packed packages: its commands run (npm create → npm exec of the
// scaffolder's tarball), each ```diff block is applied in order with git apply, `npm test` passes after every step,
// and the finished app, started as the production step says, answers over HTTP as the page claims, and in Chromium.

import { readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { useChromium } from '../support/chromium.ts';
import {
  attempt,
  freePort,
  packTarball,
  repoRoot,
  run,
  serveProcess,
  tempDir,
  type Served,
} from '../support/package.ts';

jest.setTimeout(600_000);

const doc = readFileSync(join(repoRoot, 'docs/tutorial.md'), 'utf8');

interface Step {
  title: string;
  blocks: { lang: string; body: string }[];
}

/** The page's numbered sections ("## 0. Create the app"), each with its code blocks in order. */
const steps: Step[] = doc
  .split(/^## (?=\d+\. )/m)
  .slice(1)
  .map((section) => ({
    title: section.slice(0, section.indexOf('\n')),
    blocks: [...section.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1]!, body: m[2]! })),
  }));

const shell = (step: Step) =>
  step.blocks.filter((b) => b.lang === 'sh').flatMap((b) => b.body.split('\n').filter(Boolean));

let project: string;
let app: Served | undefined;
afterAll(() => app?.stop());
const chromium = useChromium();

test('the page has the steps this test follows', () => {
  expect(steps.map((s) => s.title)).toEqual([
    '0. Create the app',
    '1. Search, one page at a time',
    '2. Check a field as the user leaves it',
    '3. Delete several entries at once',
    '4. A live count',
    '5. To production',
  ]);
  expect(shell(steps[0]!)).toEqual(['npm create pagetree@latest guestbook', 'cd guestbook', 'npm run dev']);
});

test('0. npm create pagetree writes the app, and npm run dev serves it', async () => {
  const parent = tempDir('tutorial');
  const scaffolder = packTarball(join(repoRoot, 'create-pagetree'));
  run(
    'npm',
    ['exec', '--yes', `--package=${scaffolder}`, '--', 'create-pagetree', 'guestbook', '--pagetree', packTarball()],
    parent,
  );
  project = join(parent, 'guestbook');
  const dev = await serveProcess('npm', ['run', 'dev'], project, { PORT: String(await freePort()) });
  try {
    expect(await (await fetch(dev.url + '/')).text()).toContain('<h1>Guestbook</h1>');
  } finally {
    await dev.stop();
  }
});

test.each(steps.slice(1, 5).map((s) => [s.title, s] as const))(
  '%s: the diffs apply, and npm test passes',
  (_title, step) => {
    const diffs = step.blocks.filter((b) => b.lang === 'diff');
    expect(diffs.length).toBeGreaterThan(0);
    for (const diff of diffs) {
      const applied = attempt('git', ['apply', '-'], project, {}, diff.body);
      expect([applied.status, applied.output]).toEqual([0, '']);
    }
    const tested = attempt('npm', ['test'], project);
    expect([tested.status, tested.output]).toEqual([0, expect.stringMatching(/# fail 0/)]);
  },
);

test('5. without a secret npm start refuses, with one it serves what the steps built', async () => {
  const commands = shell(steps[5]!);
  expect(commands).toEqual(['export PAGETREE_SECRET="$(openssl rand -base64 32)"', 'PORT=8080 npm start']);
  // A server has no .env (it is not committed): the secret npm create wrote there is this machine's.
  const envFile = join(project, '.env');
  expect(readFileSync(envFile, 'utf8')).toMatch(/^PAGETREE_SECRET=\S{43}$/m);
  renameSync(envFile, `${envFile}.aside`);
  const refused = attempt('npm', ['start'], project, { PAGETREE_SECRET: undefined });
  expect([refused.status === 0, refused.output]).toEqual([
    false,
    expect.stringContaining('mount: App (secret): the secret is undefined'),
  ]);

  const port = String(await freePort());
  const script = commands.join('\n').replace('PORT=8080', `PORT=${port}`);
  app = await serveProcess('bash', ['-c', script], project, {}, 60_000);
  const url = app.url;
  expect(app.output()).toContain(`pagetree: listening on http://localhost:${port}`);
  const htmx4 = (target: string) => ({ 'hx-request': 'true', 'hx-request-type': 'partial', 'hx-target': target });
  const post = (path: string, body: string, headers: Record<string, string>) =>
    fetch(url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin', ...headers },
      body,
    });

  // The live count: the stream sends the new count when an entry is signed.
  const events = (await fetch(url + '/events', { headers: htmx4('p#home-entry-count') }))
    .body!.pipeThrough(new TextDecoderStream())
    .getReader();
  await events.read();

  // 2. A field checks itself: its message, nothing saved.
  const checked = await post('/', 'name=&message=', htmx4('div#home-name-field'));
  expect([checked.status, await checked.text()]).toEqual([200, expect.stringContaining('Say who you are')]);

  for (let i = 1; i <= 12; i++) await post('/', `name=Guest+${i}&message=Hello`, htmx4('div#home-entry-form'));
  expect((await events.read()).value).toMatch(/^data: 1 entry\n\n/); // the next ones may come in the same chunk
  await events.cancel();

  // 1. Search and pages: 12 entries, 10 per page.
  const page2 = await (await fetch(url + '/?q=guest&page=2', { headers: htmx4('section#home-entry-list') })).text();
  expect(page2.match(/<li>/g)?.length).toBe(2);
  expect(page2).toContain('<strong aria-current="page">2</strong>');
  const full = await (await fetch(url + '/?q=guest+1')).text();
  expect(full).toMatch(/^<!doctype html>/);
  expect(full).toContain('12 entries');
  expect(full.match(/<li>/g)?.length).toBe(4); // Guest 1, 10, 11, 12

  // 3. Delete several at once: htmx gets the list without them; the count follows.
  const deleted = await (await post('/entries/delete', 'id=1&id=2&id=3', htmx4('section#home-entry-list'))).text();
  expect(deleted).not.toMatch(/Guest [123]</);
  expect(await (await fetch(url + '/')).text()).toContain('9 entries');
});

test('in Chromium (htmx 4): the search, the field that checks itself, the bulk delete and the live count', async () => {
  const url = app!.url;
  const tab = await chromium.browser.newPage();
  const other = await chromium.browser.newPage(); // another visitor: the live count
  try {
    await other.goto(url + '/');
    await tab.goto(url + '/');
    const count = other.locator('#home-entry-count');
    await count.waitFor();
    const start = Number(/\d+/.exec(await count.innerText())![0]);

    // A name of only a space (the input's value changed, so it posts when left): the field says so at once.
    await tab.fill('input[name=name]', ' ');
    await tab.locator('input[name=message]').focus();
    await tab.locator('#home-name-field .error').waitFor();
    expect(await tab.locator('#home-name-field .error').innerText()).toBe('Say who you are');
    await tab.fill('input[name=name]', 'Zoë');
    await tab.fill('input[name=message]', 'From the browser');
    await tab.click('button:text("Sign")');
    await tab.locator('#home-entry-list li', { hasText: 'Zoë' }).waitFor();
    await other.locator('#home-entry-count', { hasText: `${start + 1} entries` }).waitFor();

    // The search: typing filters the list alone and pushes the URL.
    await tab.fill('input[name=q]', 'zoë');
    await tab.waitForURL(/\?q=zo%C3%AB/);
    await tab.locator('#home-entry-list li').first().waitFor();
    expect(await tab.locator('#home-entry-list li').allInnerTexts()).toEqual(['Zoë: From the browser']);

    // The bulk delete: the list without it, and the other tab's count follows.
    await tab.check('#home-entry-list input[type=checkbox]');
    await tab.click('button:text("Delete selected")');
    await tab
      .locator('#home-entry-list', { hasText: 'No entry matches' })
      .or(tab.locator('#home-entry-list li'))
      .first()
      .waitFor();
    await other.locator('#home-entry-count', { hasText: `${start} entries` }).waitFor();
  } finally {
    await tab.close();
    await other.close();
  }
});
