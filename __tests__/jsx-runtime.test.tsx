// The tsconfig's jsxImportSource is "pagetree": this file renders through pagetree/jsx-runtime.

import { jsx as kitaJsx, jsxs as kitaJsxs } from '@kitajs/html/jsx-runtime';
import fc from 'fast-check';
import { Fragment, jsx, jsxs } from '../jsx-runtime/index.ts';
import { jsxDEV } from '../jsx-runtime/dev.ts';

test('htmx 2 and htmx 4 attributes render as written', async () => {
  const html = await (
    <form
      hx-post="/todos"
      hx-target="#todo-list"
      hx-swap="outerHTML"
      // Names with "::", two colons, or a digit after ":" are not JSX names: spread them.
      {...{ 'hx-on::after-request': 'this.reset()', 'hx-on:htmx:after:request': 'this.reset()' }}
      {...{ 'hx-status:404': 'swap:none' }}
      hx-target:inherited="#main"
      hx-config='{"timeout": 1000}'
    >
      <input name="title" />
    </form>
  );
  expect(html).toBe(
    '<form hx-post="/todos" hx-target="#todo-list" hx-swap="outerHTML" hx-on::after-request="this.reset()" ' +
      'hx-on:htmx:after:request="this.reset()" hx-status:404="swap:none" hx-target:inherited="#main" ' +
      'hx-config="{&#34;timeout&#34;: 1000}"><input name="title"/></form>',
  );
});

test('the runtime is @kitajs/html: children are not escaped unless safe', async () => {
  // Typed `string`: the XSS scanner trusts literal types and would call this `safe` unused.
  const evil: string = '<script>alert(1)</script>';
  expect(await (<p safe>{evil}</p>)).toBe('<p>&lt;script>alert(1)&lt;/script></p>');
  expect(await jsx(Fragment, { children: ['a', 'b'] })).toBe('ab');
});

describe('attribute-value-round-trips-ampersand-entities', () => {
  // How an HTML parser reads a double-quoted attribute value that has no bare "&" left: the two
  // references the runtime writes, once each (the browser test in e2e/attributes does it for real).
  const readAttribute = (html: string): string =>
    /value="([^"]*)"/.exec(html)![1]!.replace(/&#34;|&amp;/g, (ref) => (ref === '&amp;' ? '&' : '"'));

  test.each([
    ['&lt;b&gt;', '&amp;lt;b&amp;gt;'],
    ['a&b', 'a&amp;b'],
    ['"q"', '&#34;q&#34;'],
    ['&amp;', '&amp;amp;'],
    ['&#34;', '&amp;#34;'],
    ["it's <b>", "it's <b>"], // "<", ">" and "'" need nothing inside double quotes
    ['&"&', '&amp;&#34;&amp;'],
  ])('value=%j is written as %j', async (value, written) => {
    const html = await (<input value={value} />);
    expect(html).toBe(`<input value="${written}"/>`);
    expect(readAttribute(html)).toBe(value);
  });

  test('every string round-trips (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('&', '"', "'", '<', '>', ';', '#', '3', '4', 'a', 'm', 'p') }),
        (s) => {
          expect(readAttribute(String(<input value={s} />))).toBe(s);
        },
      ),
      { numRuns: 2000 },
    );
  });

  test('class lists, style objects, other attributes and several children are escaped the same way', async () => {
    const html = await (
      <a href="/?a=1&b=2" class={['x&y', 'z']} style={{ content: '"&"' }} data-n={3} hidden>
        <b>1</b>
        <b>2</b>
      </a>
    );
    expect(html).toBe(
      '<a href="/?a=1&amp;b=2" class="x&amp;y z" style="content:&#34;&amp;&#34;;" data-n="3" hidden><b>1</b><b>2</b></a>',
    );
  });

  test('children are untouched, and a component gets its props as they are', async () => {
    const seen: string[] = [];
    function Field(props: { value: string }) {
      seen.push(props.value);
      return <input value={props.value} />;
    }
    const trusted = 'a & <b>'; // a literal type: the XSS scanner lets it through unescaped
    const text: string = trusted;
    expect(await (<p title="&">{trusted}</p>)).toBe('<p title="&amp;">a & <b></p>');
    expect(await (<p safe>{text}</p>)).toBe('<p>a &amp; &lt;b></p>');
    expect(await (<Field value="x&y" />)).toBe('<input value="x&amp;y"/>');
    expect(seen).toEqual(['x&y']);
  });

  test('attributes with no value to write are still left out', async () => {
    expect(await (<input value={undefined} name={null as unknown as string} disabled={false} />)).toBe('<input/>');
  });

  test('jsxDEV (the "react-jsxdev" runtime) escapes as jsx does', () => {
    expect(jsxDEV('input', { value: 'a&"b"' })).toBe('<input value="a&amp;&#34;b&#34;"/>');
    expect(jsxDEV('p', { title: '&', children: ['a', '&'] })).toBe('<p title="&amp;">a&</p>');
  });

  test('numbers, dates, kitajs attrs, tag of, and values that are functions or objects', async () => {
    const when = new Date(Date.UTC(2026, 0, 2));
    const toString = () => 'x&"y"';
    expect(await (<meter value={0.5} max={1n as never} data-when={when as never} />)).toBe(
      '<meter value="0.5" max="1" data-when="2026-01-02T00:00:00.000Z"></meter>',
    );
    // kitajs's raw `attrs` text is written as it is; an `attrs` object is attributes like any others.
    expect(await (<p attrs={'data-raw="&amp;"' as never}>x</p>)).toBe('<p data-raw="&amp;">x</p>');
    expect(await (<p attrs={{ title: 'a&b' } as never}>x</p>)).toBe('<p title="a&amp;b">x</p>');
    expect(await (<tag of="my-element" title="&" />)).toBe('<my-element title="&amp;"></my-element>');
    // Written by their toString(), escaped; kitajs left a function's `"` as it was: onclick="alert("&")".
    const handler = Object.assign(() => {}, { toString: () => 'alert("&")' });
    expect(await (<button onclick={handler as never} />)).toBe('<button onclick="alert(&#34;&amp;&#34;)"></button>');
    expect(await (<p title={{ toString } as never} style={{ content: { toString } } as never} />)).toBe(
      '<p title="x&amp;&#34;y&#34;" style="content:x&amp;&#34;y&#34;;"></p>',
    );
  });

  test('a child that is a promise: attributes escaped all the same', async () => {
    const later = Promise.resolve('done' as const); // a literal type: the XSS scanner lets it through
    const html = <p title="a&b">{later}</p>;
    expect(html).toBeInstanceOf(Promise);
    expect(await html).toBe('<p title="a&amp;b">done</p>');
  });

  test('a component gets class lists, style objects and every other prop as they are', async () => {
    const seen: unknown[] = [];
    function Box(props: { class: string[]; style: { content: string }; title: string; n: number }) {
      seen.push(props);
      return <div class={props.class} style={props.style} title={props.title} data-n={props.n} />;
    }
    const props = { class: ['a&b', 'c'], style: { content: '"&"' }, title: '&lt;', n: 7 };
    expect(await (<Box {...props} />)).toBe(
      '<div class="a&amp;b c" style="content:&#34;&amp;&#34;;" title="&amp;lt;" data-n="7"></div>',
    );
    expect(seen).toEqual([props]);
  });

  // The reference: kitajs's own runtime given the same props with `&` escaped beforehand in the
  // attribute values (strings, class-list items, style objects' strings; never children nor
  // `attrs`). kitajs then escapes `"` itself, so this writes each reference once. The runtime
  // must write exactly this: kitajs's output in all else (children, safe, booleans, omissions).
  test('the runtime writes what kitajs writes once `&` is escaped in attribute values (property)', () => {
    const amp = (s: string) => s.replace(/&/g, '&amp;');
    const preEscaped = (props: Record<string, unknown>) => {
      const copy: Record<string, unknown> = {};
      for (const [key, v] of Object.entries(props)) {
        if (key === 'children' || key === 'attrs') copy[key] = v;
        else if (typeof v === 'string') copy[key] = amp(v);
        else if (Array.isArray(v)) copy[key] = v.map((c: unknown) => (typeof c === 'string' ? amp(c) : c));
        else if (key === 'style' && typeof v === 'object' && v !== null)
          copy[key] = Object.fromEntries(Object.entries(v).map(([n, s]) => [n, typeof s === 'string' ? amp(s) : s]));
        else copy[key] = v;
      }
      return copy;
    };
    const text = fc.string({ unit: fc.constantFrom('&', '"', "'", '<', '>', ';', '#', ' ', 'a', 'm', 'p') });
    const scalar = fc.oneof(text, fc.integer(), fc.boolean(), fc.constant(null), fc.constant(undefined));
    const props = fc.record(
      {
        value: text,
        title: scalar,
        'data-x': scalar,
        'hx-vals': text.map((s) => JSON.stringify({ s })),
        class: fc.oneof(text, fc.array(fc.oneof(text, fc.constant(null), fc.constant(false)), { maxLength: 4 })),
        className: fc.oneof(text, fc.boolean()),
        style: fc.oneof(text, fc.dictionary(fc.constantFrom('color', 'fontSize', 'content'), scalar)),
        hidden: fc.boolean(),
        safe: fc.boolean(),
        children: fc.oneof(text, fc.array(text, { maxLength: 3 })),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.constantFrom('input', 'p', 'div'), props, (tag, p) => {
        const many = Array.isArray(p.children);
        const ours = many ? jsxs(tag, p as never) : jsx(tag, p);
        const reference = many ? kitaJsxs(tag, preEscaped(p) as never) : kitaJsx(tag, preEscaped(p));
        expect(ours).toBe(reference);
      }),
      { numRuns: 3000 },
    );
  });
});

// The runtime joins children itself (so that a refused child first observes the promises beside it, without a try
// per element): what it writes must be what kitajs writes, for any mix of text, numbers, booleans, nulls, nested
// arrays and promises of them, escaped or not.
test('children are joined as kitajs joins them, promises and nested arrays included (property)', async () => {
  type Child = string | number | bigint | boolean | null | undefined | Child[] | { promise: Child };
  const text = fc.string({ unit: fc.constantFrom('&', '"', '<', '>', 'a', ' ', 'é') });
  const { child } = fc.letrec<{ child: Child }>((tie) => ({
    child: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      text,
      fc.integer(),
      fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }),
      fc.boolean(),
      fc.constant(null),
      fc.constant(undefined),
      fc.array(tie('child'), { maxLength: 4 }),
      tie('child').map((c) => ({ promise: c })),
    ),
  }));
  // Each runtime gets children of its own (kitajs splices nested arrays into the array it is given).
  const make = (c: Child): unknown =>
    Array.isArray(c) ? c.map(make) : typeof c === 'object' && c !== null ? Promise.resolve(make(c.promise)) : c;
  await fc.assert(
    fc.asyncProperty(fc.array(child, { maxLength: 5 }), fc.boolean(), async (children, safe) => {
      const ours = await jsxs('p', { children: children.map(make) as never[], safe });
      const theirs = await kitaJsxs('p', { children: children.map(make) as never[], safe });
      expect(ours).toBe(theirs);
      const one = children[0];
      expect(await jsx('p', { children: make(one) as never, safe })).toBe(
        await kitaJsx('p', { children: make(one) as never, safe }),
      );
    }),
    { numRuns: 300 },
  );
});

test('a child that is an object is refused as kitajs refuses it, and the promises beside it are observed', async () => {
  const rejected = Promise.reject(new Error('sibling failed'));
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', onUnhandled);
  try {
    expect(() => jsxs('p', { children: ['a', [{ an: 'object' } as never], rejected] })).toThrow(
      'Objects are not valid as a KitaJSX child',
    );
    expect(() => kitaJsxs('p', { children: ['a', [{ an: 'object' } as never]] })).toThrow(
      'Objects are not valid as a KitaJSX child',
    );
    await new Promise((r) => setTimeout(r, 20));
    expect(unhandled).toEqual([]);
  } finally {
    process.off('unhandledRejection', onUnhandled);
  }
});
