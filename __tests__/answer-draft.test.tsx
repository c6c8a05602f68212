// What a request records lives in its answer draft (request/context.ts's AnswerDraft), not in module-level maps keyed
// by the request (issue 42, item 2): a feature's per-request state then goes when the request goes, is seen by every
// step that holds the context (an error page, a <Suspense> part's error fragment), and is listed in one place.

import { readFileSync } from 'node:fs';
import { mount, route, ServeMux, Suspense } from '../core/index.ts';
import { session } from '../core/auth/session.ts';
import { join } from 'node:path';
import { repoRoot } from './support/package.ts';

// Per-request state kept beside the request is a WeakMap or WeakSet keyed by it; the caches of derived keys (by
// secret) are bounded and stay.
const moduleMaps = (file: string) =>
  readFileSync(join(repoRoot, file), 'utf8')
    .split('\n')
    .filter((line) => /^(export )?const \w+ = new Weak(Map|Set)\b/.test(line));

test.each(['core/auth/cookies.ts', 'core/auth/session.ts'])('%s keeps no per-request map of its own', (file) => {
  expect(moduleMaps(file)).toEqual([]);
});

// A <Suspense> part of a streamed page fails after the first byte: its error fragment is rendered from the same
// request. It sees the session the page opened (with what props set), not a second one read from the cookie again.
test('an-error-fragment-sees-the-session-the-page-opened', async () => {
  let fail!: (err: unknown) => void;
  let rendering!: () => void;
  const rendered = new Promise<void>((resolve) => (rendering = resolve));
  async function Part(): Promise<string> {
    await new Promise((_, reject) => {
      fail = reject;
      rendering();
    });
    return '';
  }
  class Page {
    stream = true;
    async props() {
      await (await session()).set({ email: 'set-in-props' });
      return {};
    }
    page() {
      return (
        <main>
          <Suspense fallback="…">
            <Part />
          </Suspense>
        </main>
      );
    }
  }
  class App {
    page = route('GET /{$}', Page);
    async error() {
      const { email } = (await session()).data as { email?: string };
      return <p class="error" safe>{`session: ${email ?? 'none'}`}</p>;
    }
  }
  const mux = new ServeMux({ logger: { error() {}, warn() {}, info() {} } });
  mount(mux, App, '/', '', { secret: 's'.repeat(32), session: {} });
  const res = await mux.fetch(new Request('http://localhost/'));
  const reading = res.text();
  await rendered;
  fail(new Error('the part broke'));
  expect(await reading).toContain('session: set-in-props');
});
