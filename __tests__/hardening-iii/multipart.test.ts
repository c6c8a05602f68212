// Hardening III (issue 40.3): the multipart limits could be passed by. The counter (formCounter) and the runtime's
// parser read the boundary differently (`boundary="abc` with no closing quote, `"ab\"c"`, `"ab\c"`, an empty
// `boundary=` before the real one, a second Content-Type after a comma), so the counter saw no part while undici
// parsed every one (100,000 in 10 MiB: a 422 after 0.3–16 s, every other request waiting); a part named
// `title; filename=x` counted as a file while the parser read a 30 KB text field. Now the Content-Type is read as the
// fetch standard's MIME parser reads it, with anything two parsers could read differently refused (400), the part
// headers are read line by line as undici reads them, and every body the counter cannot count the same way as the
// parsers is refused before the parser runs: the tests watch Response.prototype.formData (the runtime's parser) and
// see it not called. Through `serve()` and through `mux.fetch`, with parseForm and with req.formData().

import type { Server } from 'node:http';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { ServeMux, mount, parseForm, route, type HttpError, type PageRequest } from '../../core/index.ts';
import { multipartCounter } from '../../core/forms/multipart.ts';
import { shutdown } from '../../core/node/index.ts';
import { listen, portOf, send } from '../support/node-http.ts';

// --- the app -------------------------------------------------------------------------------------------------------

/** A schema that takes any object: the test wants to see what the form held. */
const anything: StandardSchemaV1<Record<string, unknown>> = {
  '~standard': { version: 1, vendor: 'test', validate: (value) => ({ value: value as Record<string, unknown> }) },
};

/** What a form held: each field's name and text, or `file:` and the file's name and size. */
function shown(entries: Iterable<[string, unknown]>): [string, string][] {
  const out: [string, string][] = [];
  for (const [name, value] of entries) {
    for (const v of Array.isArray(value) ? value : [value]) {
      out.push([name, v instanceof File ? `file:${v.name}:${v.size}` : String(v)]);
    }
  }
  return out;
}

/** POST /form: parseForm with 20 fields of at most 1,000 bytes; POST /raw-form: req.formData() (the defaults). */
class Form {
  async post(req: PageRequest): Promise<Response> {
    const form = await parseForm(req, anything, { maxFields: 20, maxFieldBytes: 1000 });
    return Response.json(form.ok ? shown(Object.entries(form.data)) : 'invalid');
  }
}
class RawForm {
  async post(req: PageRequest): Promise<Response> {
    return Response.json(shown(await req.formData()));
  }
}
class App {
  form = route('/form', Form);
  rawForm = route('/raw-form', RawForm);
}

// Each refusal is logged as one line (the page pipeline's warn for a client's fault), never as an error.
const warnings: string[] = [];
const errors: unknown[] = [];
const logger = {
  warn: (message: string) => void warnings.push(message),
  error: (...args: unknown[]) => void errors.push(args),
};
const mux = new ServeMux({ logger });
mount(mux, App);

let server: Server;
let port = 0;
beforeAll(async () => {
  server = await listen(mux);
  port = portOf(server);
});
afterAll(() => shutdown(server, 500));

// The runtime's own multipart parser, watched: a body refused before it ran never reaches it.
let parsed: jest.SpyInstance;
beforeEach(() => {
  parsed = jest.spyOn(Response.prototype, 'formData');
  warnings.length = 0;
});
afterEach(() => {
  jest.restoreAllMocks();
  expect(errors).toEqual([]);
});

type Via = 'serve' | 'fetch';
const vias: Via[] = ['serve', 'fetch'];

/** POSTs `body` as `type`; the answer's text is cut at 2,000 characters (a failure prints no 30 KB field). */
async function post(via: Via, path: string, type: string, body: string): Promise<{ status: number; body: string }> {
  const headers = { 'content-type': type };
  let status: number;
  let text: string;
  if (via === 'fetch') {
    const res = await mux.fetch(new Request(`http://localhost${path}`, { method: 'POST', headers, body }));
    [status, text] = [res.status, await res.text()];
  } else {
    const r = await send(port, path, { method: 'POST', headers, body });
    [status, text] = [r.status, r.body];
  }
  return { status, body: text.length > 2000 ? `${text.slice(0, 2000)}…` : text };
}

// --- bodies --------------------------------------------------------------------------------------------------------

/** A part as a browser writes it; `disposition` replaces the Content-Disposition value. */
function part(boundary: string, name: string, value: string, disposition = `form-data; name="${name}"`): string {
  return `--${boundary}\r\nContent-Disposition: ${disposition}\r\n\r\n${value}\r\n`;
}

/** `n` one-byte text fields and the closing delimiter. */
function fields(boundary: string, n: number): string {
  return Array.from({ length: n }, (_, i) => part(boundary, `f${i}`, 'v')).join('') + `--${boundary}--\r\n`;
}

const many = 1200; // past both routes' field limits (20 for /form, 1,000 for req.formData())

// --- the Content-Type ----------------------------------------------------------------------------------------------

// Each type is read by the fetch standard's MIME parser (undici's) with the boundary the body is written with; the
// counter before read another one (or none) and counted nothing.
const ambiguousTypes: [name: string, type: string, parserBoundary: string][] = [
  ['unterminated-quote', 'multipart/form-data; boundary="abc', 'abc'],
  ['escaped-quote', 'multipart/form-data; boundary="ab\\"c"', 'ab"c'],
  ['escaped-letter', 'multipart/form-data; boundary="ab\\c"', 'abc'],
  ['empty-then-real', 'multipart/form-data; boundary=; boundary=abc', 'abc'],
  ['duplicate', 'multipart/form-data; boundary=abc; boundary=xyz', 'abc'],
  ['space-after-equals', 'multipart/form-data; boundary= abc', ' abc'],
  ['space-before-equals', 'multipart/form-data; boundary =abc; charset=utf-8', 'abc'],
  ['second-type-after-a-comma', 'multipart/form-data; boundary=abc, multipart/form-data; boundary=xyz', 'xyz'],
  ['boundary-inside-another-parameter', 'multipart/form-data; x-boundary=zzz; boundary=abc', 'abc'],
  ['quote-in-another-parameter', 'multipart/form-data; charset="utf-8; boundary=abc', 'abc'],
  ['text-after-the-closing-quote', 'multipart/form-data; boundary="abc"def', 'abc'],
  ['outside-rfc-2046-characters', 'multipart/form-data; boundary=a@b', 'a@b'],
  ['longer-than-70', `multipart/form-data; boundary=${'a'.repeat(71)}`, 'a'.repeat(71)],
];

describe.each(vias)('an ambiguous multipart Content-Type is a 400 before the parser runs (%s)', (via) => {
  test.each(ambiguousTypes)('%s-boundary-is-refused: %s', async (_name, type, boundary) => {
    for (const path of ['/form', '/raw-form']) {
      const r = await post(via, path, type, fields(boundary, many));
      expect([path, r.status]).toEqual([path, 400]);
      expect(r.body).toContain('multipart/form-data');
    }
    expect(parsed).not.toHaveBeenCalled();
    expect(warnings).toEqual([
      expect.stringMatching(/\/form: 400 Bad Request: the multipart\/form-data Content-Type .*\(Content-Type ".*"\)$/),
      expect.stringMatching(/\/raw-form: 400 Bad Request: the multipart\/form-data Content-Type /),
    ]);
  });
});

// The spellings a browser, curl, undici or a careful client send keep working, and each is counted.
const validTypes: [type: string, boundary: string][] = [
  ['multipart/form-data; boundary=abc', 'abc'],
  ['multipart/form-data;boundary=abc', 'abc'],
  ['Multipart/Form-Data; BOUNDARY=abc', 'abc'],
  ['multipart/form-data; boundary="abc"', 'abc'],
  ['multipart/form-data; charset=utf-8; boundary=abc', 'abc'],
  ['multipart/form-data; boundary=abc; charset=utf-8', 'abc'],
  ['multipart/form-data ; boundary=abc ', 'abc'],
  ['multipart/form-data; boundary="a:b=c/d?(e)"', 'a:b=c/d?(e)'],
  ['multipart/form-data; boundary=----WebKitFormBoundary7MA4YWxkTrZu0gW', '----WebKitFormBoundary7MA4YWxkTrZu0gW'],
  ['multipart/form-data; boundary=----geckoformboundary5c4a1f2e9b', '----geckoformboundary5c4a1f2e9b'],
  [
    'multipart/form-data; boundary=------------------------d74496d66958873e',
    '------------------------d74496d66958873e',
  ],
  [`multipart/form-data; boundary=${'x'.repeat(70)}`, 'x'.repeat(70)],
];

describe.each(vias)('the usual multipart spellings still parse (%s)', (via) => {
  test.each(validTypes)('%s', async (type, boundary) => {
    const body =
      part(boundary, 'title', 'Milk') +
      part(boundary, 'note', 'a -- b\r\n--c') +
      part(boundary, 'f', 'bytes', 'form-data; name="f"; filename="a.txt"') +
      `--${boundary}--\r\n`;
    const want = [
      ['title', 'Milk'],
      ['note', 'a -- b\r\n--c'],
      ['f', 'file:a.txt:5'],
    ];
    for (const path of ['/form', '/raw-form']) {
      const r = await post(via, path, type, body);
      expect([path, r.status, JSON.parse(r.body)]).toEqual([path, 200, want]);
    }
    const over = await post(via, '/form', type, fields(boundary, 21));
    expect([over.status, over.body]).toEqual([413, expect.stringContaining('at most 20 fields (maxFields)')]);
  });
});

// --- the part headers ----------------------------------------------------------------------------------------------

const type = 'multipart/form-data; boundary=abc';
const close = '--abc--\r\n';
const big = 'x'.repeat(30_000);

test.each(vias)('a-quoted-semicolon-names-a-field-not-a-file: name="title; filename=x" (%s)', async (via) => {
  const r = await post(via, '/form', type, part('abc', '', big, 'form-data; name="title; filename=x"') + close);
  expect([r.status, r.body]).toEqual([413, expect.stringContaining('at most 1000 bytes (maxFieldBytes)')]);
  expect(parsed).not.toHaveBeenCalled();
  const small = await post(via, '/form', type, part('abc', '', 'Milk', 'form-data; name="title; filename=x"') + close);
  expect([small.status, JSON.parse(small.body)]).toEqual([200, [['title; filename=x', 'Milk']]]);
});

test.each(vias)('an-empty-filename-is-held-to-the-field-size: Deno reads it as text (%s)', async (via) => {
  const r = await post(via, '/form', type, part('abc', 'f', big, 'form-data; name="f"; filename=""') + close);
  expect([r.status, r.body]).toEqual([413, expect.stringContaining('(maxFieldBytes)')]);
  // The empty file input a browser sends: a file part with no name and no bytes, as before.
  const empty = await post(via, '/form', type, part('abc', 'f', '', 'form-data; name="f"; filename=""') + close);
  expect([empty.status, JSON.parse(empty.body)]).toEqual([200, []]);
});

// Undici ends a header line at a CR and whatever byte follows it; the counter read on to the next CRLF CRLF, and so
// took the next part's delimiter for header bytes: every other part went uncounted.
function hiddenParts(pairs: number): string {
  let body = '';
  for (let i = 0; i < pairs; i++) {
    body += `--abc\r\nContent-Disposition: form-data; name="a${i}"\r\nX: \r\r\r\nv\r\n`;
    body += part('abc', `b${i}`, 'w');
  }
  return body + close;
}

// Bodies a parser could split into other parts than the counter counts, or that undici refuses anyway: each a 400
// before the parser runs.
const malformedBodies: [name: string, body: string][] = [
  ['a-bare-cr-ends-no-header-line', hiddenParts(15)],
  ['a-bare-lf-ends-no-header-line', `--abc\r\nContent-Disposition: form-data; name="a"\nX: y\r\n\r\nv\r\n${close}`],
  ['the-boundary-inside-a-part', part('abc', 'a', 'x--abc\r\nContent-Disposition: form-data; name="b"') + close],
  ['the-boundary-in-a-header', `--abc\r\nContent-Disposition: form-data; name="a"\r\nX: --abc\r\n\r\nv\r\n${close}`],
  ['filename-star', part('abc', 'a', big, 'form-data; name="a"; filename*="x.txt"') + close],
  ['a-name-ending-in-a-backslash', part('abc', 'a', big, 'form-data; name="a\\"; filename="x"') + close],
  ['an-unquoted-name', part('abc', 'a', 'v', 'form-data; name=a') + close],
  ['a-parameter-after-the-filename', part('abc', 'a', 'v', 'form-data; name="a"; filename="x"; size=1') + close],
  ['not-form-data', part('abc', 'a', 'v', 'attachment; name="a"') + close],
  ['a-tab-before-the-value', part('abc', 'a', 'v', '\tform-data; name="a"') + close],
  [
    'two-content-dispositions',
    `--abc\r\nContent-Disposition: form-data; name="a"\r\n${part('abc', 'b', 'v').slice(7)}${close}`,
  ],
  ['no-content-disposition', `--abc\r\nContent-Type: text/plain\r\n\r\nv\r\n${close}`],
  ['a-header-without-a-colon', `--abc\r\nContent-Disposition: form-data; name="a"\r\nX\r\n\r\nv\r\n${close}`],
  ['a-space-before-the-colon', `--abc\r\nContent-Disposition : form-data; name="a"\r\n\r\nv\r\n${close}`],
  ['a-folded-header-line', `--abc\r\nContent-Disposition: form-data;\r\n name="a"\r\n\r\nv\r\n${close}`],
  ['a-preamble', 'hello\r\n' + fields('abc', 1)],
  ['padding-after-a-delimiter', `--abc  \r\nContent-Disposition: form-data; name="a"\r\n\r\nv\r\n${close}`],
  ['parts-after-the-close', fields('abc', 1) + fields('abc', 1)],
  ['no-closing-delimiter', part('abc', 'a', 'v')],
  ['a-truncated-close', part('abc', 'a', 'v') + '--abc-'],
  ['no-part-at-all', ''],
];

describe.each(vias)('a body the counter cannot count as the parsers read it is a 400 (%s)', (via) => {
  test.each(malformedBodies)('%s', async (_name, body) => {
    for (const path of ['/form', '/raw-form']) {
      const r = await post(via, path, type, body);
      expect([path, r.status, r.body]).toEqual([path, 400, expect.stringContaining('multipart')]);
    }
    expect(parsed).not.toHaveBeenCalled();
  });
});

describe.each(vias)('well-formed bodies the strict reading keeps (%s)', (via) => {
  test.each<[name: string, body: string, want: [string, string][]]>([
    [
      'leading and trailing CRLFs (undici skips them)',
      `\r\n\r\n${fields('abc', 2)}\r\n\r\n`,
      [
        ['f0', 'v'],
        ['f1', 'v'],
      ],
    ],
    ['no CRLF after the close', fields('abc', 1).slice(0, -2), [['f0', 'v']]],
    ['no parts', close, []],
    ['an empty value', part('abc', 'a', '') + close, [['a', '']]],
    [
      'a part Content-Type and no space after the colon',
      `--abc\r\nContent-Type: text/plain\r\nContent-Disposition:form-data; name="a"\r\n\r\nv\r\n${close}`,
      [['a', 'v']],
    ],
    [
      'UTF-8 names and %22 in a filename',
      part('abc', '', 'v', 'form-data; name="prénom"; filename="a%22b.txt"') + close,
      [['prénom', 'file:a"b.txt:1']],
    ],
    [
      'the boundary letters in a header (only "--abc" is refused there)',
      part('abc', 'abc', 'v', 'form-data; name="abc"; filename="abc.txt"') + close,
      [['abc', 'file:abc.txt:1']],
    ],
  ])('%s', async (_name, body, want) => {
    for (const path of ['/form', '/raw-form']) {
      const r = await post(via, path, type, body);
      expect([path, r.status, JSON.parse(r.body)]).toEqual([path, 200, want]);
    }
  });
});

// --- chunks --------------------------------------------------------------------------------------------------------

// A client chooses where its body's chunks end: a delimiter, a header line or "\r\n--" split across chunks must count
// as it does in one piece (the counter looks back into the chunks before for the "\r\n--" ahead of a boundary).
describe('multipartCounter reads a body one byte at a time as it reads it whole', () => {
  const limits = { maxFields: 3, maxFiles: 1, maxFieldBytes: 5, maxBytes: 1000 };
  const outcome = (body: Uint8Array, step: number): string => {
    const counter = multipartCounter('abc', limits);
    try {
      for (let i = 0; i < body.length; i += step) counter.push(body.subarray(i, i + step));
      counter.end();
      return 'counted';
    } catch (err) {
      return String((err as HttpError).status) + ' ' + (err as HttpError).message;
    }
  };
  test.each<[name: string, body: string, want: string]>([
    ['3 fields', fields('abc', 3), 'counted'],
    ['4 fields', fields('abc', 4), '413 Content Too Large: a form has at most 3 fields (maxFields)'],
    ['a field of 5 bytes', part('abc', 'a', '12345') + close, 'counted'],
    [
      'a field of 6 bytes',
      part('abc', 'a', '123456') + close,
      '413 Content Too Large: a form field has at most 5 bytes (maxFieldBytes)',
    ],
    [
      'a field of 5 bytes and a CR',
      part('abc', 'a', '12345\r') + close,
      '413 Content Too Large: a form field has at most 5 bytes (maxFieldBytes)',
    ],
    ['a file of 20 bytes', part('abc', 'f', 'x'.repeat(20), 'form-data; name="f"; filename="a"') + close, 'counted'],
    [
      '2 files',
      part('abc', 'f', 'x', 'form-data; name="f"; filename="a"').repeat(2) + close,
      '413 Content Too Large: a form has at most 1 files (maxFiles)',
    ],
    ...malformedBodies
      .filter(([, body]) => body.length < 1000)
      .map(([name, body]): [string, string, string] => [name, body, '400']),
  ])('%s', (_name, text, want) => {
    const body = new TextEncoder().encode(text);
    const whole = outcome(body, body.length || 1);
    expect(whole.startsWith(want)).toBe(true);
    for (const step of [1, 2, 3, 7]) expect([step, outcome(body, step)]).toEqual([step, whole]);
  });
});
