// How long a request's context lasts (issue 28): until its answer is made, then it is released for the GC. What runs
// after (a timer, a promise nobody awaited) finds no request, unless the body streams.

import { ServeMux, currentPage, mount, route } from '../core/index.ts';

/** What currentPage() said in a timer that fired after the answer: the page's name, or the error. */
function later(): Promise<string> {
  return new Promise((resolve) =>
    setTimeout(() => {
      try {
        resolve(currentPage().name);
      } catch (err) {
        resolve((err as Error).message);
      }
    }, 5),
  );
}

let seen: Promise<string> = Promise.resolve('');

class SyncPage {
  props() {
    seen = later();
    return { now: currentPage().name };
  }
  page(p: { now: string }) {
    return <p safe>{p.now}</p>;
  }
}

class AsyncPage {
  async props() {
    await new Promise((r) => setTimeout(r, 1));
    seen = later();
    return { now: currentPage().name };
  }
  page(p: { now: string }) {
    return <p safe>{p.now}</p>;
  }
}

// A hand-made Response: its body may be a stream that runs after the answer, so the context stays.
class HandMade {
  serveHTTP() {
    seen = later();
    return new Response('made');
  }
}

class App {
  sync = route('/sync', SyncPage);
  async = route('/async', AsyncPage);
  made = route('/made', HandMade);
}

const mux = new ServeMux();
mount(mux, App, '/', 'App');

describe('the request context', () => {
  test.each([
    ['a synchronous page', '/sync', '<p>sync</p>'],
    ['an async page', '/async', '<p>async</p>'],
  ])('of %s ends with its answer: a timer that fires later finds no request', async (_name, path, body) => {
    const res = await mux.fetch(new Request(`http://x${path}`));
    expect(await res.text()).toBe(body);
    expect(await seen).toBe('currentPage(): called outside a request; call it while rendering a page');
  });

  test('of a hand-made Response lasts: its body may still be running', async () => {
    const res = await mux.fetch(new Request('http://x/made'));
    expect(await res.text()).toBe('made');
    expect(await seen).toBe('made');
  });
});
