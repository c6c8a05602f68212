// What an htmx request that swaps into an element gets when that element names none of the page's components
// (issue 45.10, 45.11): the page's `fragment`, not the whole page, for htmx 4 (a bare tag, or an id of no component)
// and htmx 2 (no HX-Target, or such an id); and `answerWith(component, props)`, one answer's own fragment (a 422's
// form), with the whole page for a request htmx does not swap.

import {
  htmxRequest,
  mount,
  MountError,
  renderComponent,
  route,
  ServeMux,
  setStatus,
  type PageRequest,
} from '../core/index.ts';
import { answerWith } from '../core/htmx/index.ts';

const names = new Map<string, string>([['1', 'Ada']]);

function EditRow(props: { n: string; name: string; error: string }): string {
  return `<tr><td><input name="name" value="${props.name}">${props.error}</td></tr>`;
}

/** /contacts/{n}: a contact, shown as a table row when htmx swaps into one. */
class ContactPage {
  fragment = this.row;
  props(req: PageRequest) {
    return { n: req.pathValue('n'), name: names.get(req.pathValue('n')) ?? '' };
  }
  async put(req: PageRequest) {
    const n = req.pathValue('n');
    const name = String((await req.formData()).get('name') ?? '');
    if (name === '') {
      setStatus(422);
      return answerWith(EditRow, { n, name, error: 'A name is required' });
    }
    names.set(n, name);
    return { n, name };
  }
  delete(req: PageRequest) {
    names.delete(req.pathValue('n'));
    return renderComponent('');
  }
  page(props: { n: string; name: string }) {
    return `<html><body><h1>Contact</h1><table>${this.row(props)}</table></body></html>`;
  }
  row(props: { n: string; name: string }) {
    return `<tr><td>${props.name}</td></tr>`;
  }
  note() {
    return '<p>note</p>';
  }
}

/** A page whose answer is only ever a fragment (htmx's progress bar, a modal): no page(). */
class ProgressPage {
  fragment = this.bar;
  props() {
    return { percent: 40 };
  }
  bar(props: { percent: number }) {
    return `<div class="bar" style="width:${props.percent}%"></div>`;
  }
}

/** A page without a fragment: as before, the whole page for an element that names no component. */
class PlainPage {
  page() {
    return '<html><body>plain</body></html>';
  }
  row() {
    return '<tr>row</tr>';
  }
}

class App {
  contact = route('/contacts/{n}', ContactPage);
  progress = route('/progress', ProgressPage);
  plain = route('/plain', PlainPage);
}

const mux = new ServeMux();
mount(mux, App);

const page = '<html><body><h1>Contact</h1><table><tr><td>Ada</td></tr></table></body></html>';
const row = '<tr><td>Ada</td></tr>';

beforeEach(() => {
  names.clear();
  names.set('1', 'Ada');
});

describe('fragment: what htmx gets when it swaps into an element that names no component', () => {
  test.each<[string, Request, string]>([
    ['htmx 4, hx-target="closest tr" (HX-Target: tr)', htmxRequest('/contacts/1', { targetTag: 'tr' }), row],
    ['htmx 2, hx-target="closest tr" (no HX-Target)', htmxRequest('/contacts/1', { version: 2 }), row],
    ['htmx 4, an id of no component', htmxRequest('/contacts/1', { target: 'tr#contact-1' }), row],
    ['htmx 2, an id of no component', htmxRequest('/contacts/1', { version: 2, target: 'contact-1' }), row],
    ['htmx 4, a component named', htmxRequest('/contacts/1', { target: ContactPage.prototype.note }), '<p>note</p>'],
    ['htmx 2, a component named', htmxRequest('/contacts/1', { version: 2, target: 'contact-note' }), '<p>note</p>'],
    ['a page load', new Request('http://localhost/contacts/1'), page],
    ['htmx 4, a boosted link', htmxRequest('/contacts/1', { boosted: true }), page],
    ['htmx 2, a boosted link', htmxRequest('/contacts/1', { version: 2, boosted: true }), page],
    ['htmx 4, a history restore', htmxRequest('/contacts/1', { historyRestore: true }), page],
    ['htmx 2, a history restore', htmxRequest('/contacts/1', { version: 2, historyRestore: true }), page],
    ['htmx 4, hx-target="body" (HX-Request-Type: full)', htmxRequest('/contacts/1', { targetTag: 'body' }), page],
  ])('%s', async (_, req, want) => {
    const res = await mux.fetch(req);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(want);
  });

  test('the fragment renders what a verb method returns: a saved row for the row htmx swaps', async () => {
    for (const version of [2, 4] as const) {
      const res = await mux.fetch(
        htmxRequest('/contacts/1', { version, method: 'PUT', targetTag: 'tr', form: { name: `Grace ${version}` } }),
      );
      expect([res.status, await res.text()]).toEqual([200, `<tr><td>Grace ${version}</td></tr>`]);
    }
  });

  test('a page without page() answers every request with its fragment', async () => {
    for (const req of [new Request('http://localhost/progress'), htmxRequest('/progress', { targetTag: 'div' })]) {
      const res = await mux.fetch(req);
      expect([res.status, await res.text()]).toEqual([200, '<div class="bar" style="width:40%"></div>']);
    }
  });

  test('target.component names the fragment, and fragment is no component of its own', async () => {
    let seen: unknown;
    class Spy {
      fragment = this.row;
      props(_req: PageRequest, target: { component: string | null; partial: boolean }) {
        seen = { component: target.component, partial: target.partial };
        return {};
      }
      page() {
        return 'page';
      }
      row() {
        return 'row';
      }
    }
    const spyMux = new ServeMux();
    const tree = mount(spyMux, Spy);
    expect(tree.root.components.map((c) => c.name)).toEqual(['page', 'row']);
    expect(await (await spyMux.fetch(htmxRequest('/', { targetTag: 'li' }))).text()).toBe('row');
    expect(seen).toEqual({ component: 'row', partial: true });
  });

  test('a page without a fragment answers as before: the whole page', async () => {
    for (const version of [2, 4] as const) {
      const res = await mux.fetch(htmxRequest('/plain', { version, targetTag: 'tr' }));
      expect(await res.text()).toBe('<html><body>plain</body></html>');
    }
  });

  test.each<[string, () => unknown, string]>([
    [
      'a method of another page',
      () =>
        class Bad {
          fragment = PlainPage.prototype.row;
          page() {
            return '';
          }
        },
      'mount: Bad: fragment is not a component of this page; give one of its own components, e.g. fragment = this.row',
    ],
    [
      'not a function',
      () =>
        class Bad {
          fragment = 'row';
          page() {
            return '';
          }
        },
      'mount: Bad: fragment is string, not a component of this page; give one of its own components, e.g. fragment = this.row',
    ],
  ])('a fragment that is %s is a mount error', (_, make, message) => {
    const err = (() => {
      try {
        mount(new ServeMux(), make() as new () => object);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(err).toBeInstanceOf(MountError);
    expect((err as Error).message).toBe(message);
  });
});

describe('answerWith: one answer rendered by a component of its own', () => {
  test.each<[string, Request]>([
    ['htmx 4', htmxRequest('/contacts/1', { method: 'PUT', targetTag: 'tr', form: { name: '' } })],
    ['htmx 2', htmxRequest('/contacts/1', { version: 2, method: 'PUT', form: { name: '' } })],
    ['htmx 4, the target a component', htmxRequest('/contacts/1', { method: 'PUT', target: 'contact-note' })],
  ])('%s: the form again with its error, 422', async (_, req) => {
    const res = await mux.fetch(req);
    expect([res.status, await res.text()]).toEqual([
      422,
      '<tr><td><input name="name" value="">A name is required</td></tr>',
    ]);
  });

  test('a request htmx does not swap gets the whole page, rendered with the same props', async () => {
    const res = await mux.fetch(new Request('http://localhost/contacts/1', { method: 'PUT', body: new FormData() }));
    expect(res.status).toBe(422);
    expect(await res.text()).toBe('<html><body><h1>Contact</h1><table><tr><td></td></tr></table></body></html>');
  });

  test('a method of another page is refused, with what to give instead', async () => {
    const logged: unknown[] = [];
    class Other {
      put() {
        return answerWith(PlainPage.prototype.row, {});
      }
      page() {
        return '';
      }
    }
    class Root {
      other = route('/other', Other);
      plain = route('/plain', PlainPage);
    }
    const m = new ServeMux({
      logger: { error: (m, e) => logged.push(`${m} ${(e as Error).message}`), warn: () => {} },
    });
    mount(m, Root);
    const res = await m.fetch(htmxRequest('/other', { method: 'PUT', targetTag: 'tr' }));
    expect(res.status).toBe(500);
    expect(String(logged[0])).toContain(
      'answerWith(row): row is a method of another page; answer with a component of Root.other or a standalone ' +
        'function component',
    );
  });
});
