// The odd spellings real clients and scanners send, drawn at random: Accept-Encoding, htmx headers, cookies,
// conditional and range headers, multipart boundaries and parts, urlencoded bodies. Shared by the raw-socket driver
// (faults.ts) and the mux.fetch traffic (fetch-traffic.ts). Every value is a header-safe byte string (no CR, LF or
// NUL; characters above U+00FF sent as their UTF-8 bytes), so `new Headers` takes it too; the raw driver adds the
// malformed ones a Headers object refuses (faults.ts, `bad-head`).
//
//   acceptEncoding(rng) → "br;q=0, *"        boundary(rng) → { contentType: 'multipart/form-data; boundary="ab\"c"',
//                                                               delimiters: ['ab"c', 'ab\\"c', …] }

import type { Rng } from './rng.ts';

/** A string's UTF-8 bytes as latin1 characters: what goes on the wire, in a form Headers accepts. */
export const wire = (s: string): string => Buffer.from(s, 'utf8').toString('latin1');

const encodings = [
  'br',
  'gzip',
  'gzip, deflate, br, zstd',
  'br;q=0, *',
  'gzip;q=1, br;q=0.5',
  'identity;q=0',
  'identity;q=0, *;q=0',
  'zstd',
  'deflate',
  '*',
  'br;q=abc, gzip;q=2',
  'gzip;;q=0.5,,br',
  ' , ;',
  'br;q=0.0000001',
  'x-gzip',
  'BR',
  '',
];

/** Accept-Encoding, or undefined (no header); streamed answers compress for most of them. */
export function acceptEncoding(rng: Rng): string | undefined {
  if (rng.chance(0.15)) return undefined;
  if (rng.chance(0.03)) return 'gzip;q=0.5, '.repeat(rng.size(10, 3000));
  return rng.pick(encodings);
}

/** What htmx 2 or 4 sends, partly or oddly, or nothing. */
export function htmxHeaders(rng: Rng): Record<string, string> {
  switch (rng.int(6)) {
    case 0:
      return { 'HX-Request': 'true', 'HX-Target': rng.pick(['count', 'regions-count', 'x', '']) };
    case 1:
      return { 'HX-Request': 'true', 'HX-Request-Type': 'partial', 'HX-Target': 'div#regions-count' };
    case 2:
      // htmx 4 with hx-multipart: a streamed page answers as multipart/mixed parts.
      return { 'HX-Request': 'true', 'HX-Request-Type': 'partial', Accept: 'multipart/mixed, text/html' };
    case 3:
      return { 'HX-Request': rng.pick(['true', 'TRUE', '1', '']), 'HX-History-Restore-Request': 'true' };
    case 4:
      return { 'HX-Request': 'true', 'HX-Boosted': 'true', 'HX-Current-URL': wire('http://x/ü?%zz') };
    default:
      return {};
  }
}

const sealedLike = () =>
  'v1.' + Buffer.from(Array.from({ length: 64 }, (_, i) => (i * 37) % 256)).toString('base64url');

/** A Cookie header as browsers, old clients and attackers spell it, or undefined. */
export function cookie(rng: Rng): string | undefined {
  const session = rng.pick(['pagetree-session', 'pagetree-flash', 'PAGETREE-SESSION']);
  switch (rng.int(12)) {
    case 0:
      return undefined;
    case 1:
      return `${session}=${sealedLike()}`;
    case 2:
      return `${session}=v1.${rng.text(rng.size(0, 400), 'ABCxyz019-_=.')}`;
    case 3:
      return `${session}="${sealedLike()}"`;
    case 4:
      return `${session}=a; ${session}=b; ${session}=${sealedLike()}`;
    case 5:
      return `${session}=%zz%; a=%E0%A4%A; b=${wire('é')}`;
    case 6:
      return ';;; ; =; ==; a=; =b;';
    case 7:
      return `${session}=${'A'.repeat(rng.size(100, 12_000))}`;
    case 8:
      return Array.from({ length: rng.size(10, 800) }, (_, i) => `c${i}=${i}`).join('; ');
    case 9:
      return `__proto__=1; constructor=2; ${session}=v1.`;
    case 10:
      return `${session}=v1.${'%'.repeat(10)}; $Version=1; ${session}=$Path=/`;
    default:
      return `theme=dark; ${session}=${sealedLike().slice(0, rng.int(80))}`;
  }
}

const ranges = [
  'bytes=0-0',
  'bytes=0-99',
  'bytes=-1',
  'bytes=100-',
  'bytes=-0',
  'bytes=0-1,5-6',
  'bytes=5-2',
  'bytes=abc',
  'bytes=99999999999999999999-',
  'bytes=--1',
  'items=0-1',
  'bytes=0-' + '9'.repeat(400),
  'bytes=' + '0-1,'.repeat(300),
  'bytes=1-1',
];
const tags = ['*', '"x"', 'W/"x"', '"', 'W/', '"a", W/"b", *', 'garbage', '"' + 'e'.repeat(3000) + '"', ''];
const dates = ['Thu, 01 Jan 1970 00:00:00 GMT', 'Fri, 31 Dec 9999 23:59:59 GMT', 'yesterday', '-1', ''];

/** Conditional and range headers, mixed: If-None-Match, Range, If-Range, If-Modified-Since. */
export function conditional(rng: Rng): Record<string, string> {
  const h: Record<string, string> = {};
  if (rng.chance(0.5)) h['Range'] = rng.pick(ranges);
  if (rng.chance(0.4)) h['If-None-Match'] = rng.pick(tags);
  if (rng.chance(0.25)) h['If-Range'] = rng.pick([...tags, ...dates]);
  if (rng.chance(0.25)) h['If-Modified-Since'] = rng.pick(dates);
  return h;
}

/** Headers a request of any route may carry: a random mix of the above. */
export function anyHeaders(rng: Rng): Record<string, string> {
  const h: Record<string, string> = { ...htmxHeaders(rng) };
  const ae = acceptEncoding(rng);
  if (ae !== undefined) h['Accept-Encoding'] = ae;
  const c = rng.chance(0.4) ? cookie(rng) : undefined;
  if (c !== undefined) h['Cookie'] = c;
  if (rng.chance(0.2)) Object.assign(h, conditional(rng));
  if (rng.chance(0.1)) h['Last-Event-ID'] = rng.pick(['1', '999999999', '-1', 'abc', '0']);
  if (rng.chance(0.1)) h['Sec-Fetch-Site'] = rng.pick(['cross-site', 'same-origin', 'none', '?']);
  return h;
}

/** A Content-Type of multipart/form-data as spelled, and the delimiters a parser might read from it. */
export interface Boundary {
  contentType: string;
  delimiters: string[];
}

// Each: the parameter text, and the readings of it a parser could take (quoted, unquoted, unescaped, the other one).
const boundaries: [string, string[]][] = [
  ['boundary=abc', ['abc']],
  ['boundary="abc"', ['abc', '"abc"']],
  ['boundary="abc', ['abc', '"abc']],
  ['boundary="ab\\"c"', ['ab"c', 'ab\\"c', '"ab\\"c"', 'ab\\']],
  ['boundary="ab\\c"', ['abc', 'ab\\c', '"ab\\c"']],
  ['boundary=ab\\c', ['ab\\c', 'abc']],
  ['boundary=; boundary=abc', ['abc', '']],
  ['boundary=abc; boundary=xyz', ['abc', 'xyz']],
  ['boundary=', ['']],
  ['boundary=""', ['', '""']],
  ['BOUNDARY=abc', ['abc']],
  ['boundary = abc', ['abc', ' abc']],
  ['boundary=abc;charset=utf-8', ['abc', 'abc;charset=utf-8']],
  ['charset=utf-8', ['abc']],
  [`boundary=${'b'.repeat(71)}`, ['b'.repeat(71)]],
  ['boundary="a b"', ['a b']],
  ['boundary=a\tb', ['a\tb', 'a']],
  ['boundary="abc";', ['abc']],
];

/** A multipart boundary as spelled in Content-Type (valid, quoted, unterminated, escaped, duplicated, empty). */
export function boundary(rng: Rng): Boundary {
  const [param, delimiters] = rng.pick(boundaries);
  const type = rng.pick(['multipart/form-data', 'Multipart/Form-Data', 'multipart/mixed']);
  return { contentType: `${type}${rng.pick(['; ', ';', ' ; '])}${param}`, delimiters };
}

const dispositions = [
  'form-data; name="title"',
  'form-data; name=title',
  'form-data; name="title; filename=x"',
  'form-data; name="file"; filename="a.txt"',
  'form-data; name="file"; filename*=UTF-8\'\'%E2%82%AC.txt',
  'form-data; name="a"; name="b"',
  'form-data; name="title"; filename=""',
  'form-data',
  'attachment; name="title"',
  'form-data; name="' + 'n'.repeat(5000) + '"',
  'form-data; name="__proto__"',
  'form-data; name="ti\\"tle"',
  'form-data; name="_method"', // methodOverride reads it: a value no form may mean is a 400
];

/** A multipart body in `delimiter`'s parts: odd part headers, sizes, endings. */
export function multipartBody(rng: Rng, delimiter: string): string {
  const eol = rng.chance(0.9) ? '\r\n' : rng.pick(['\n', '\r']);
  let body = rng.chance(0.1) ? 'preamble junk' + eol : '';
  const parts = rng.size(0, 12);
  for (let i = 0; i < parts; i++) {
    body += `--${delimiter}${eol}`;
    if (rng.chance(0.9)) body += `Content-Disposition: ${rng.pick(dispositions)}${eol}`;
    if (rng.chance(0.2))
      body += `Content-Type: ${rng.pick(['text/plain', 'application/octet-stream', ';;', ''])}${eol}`;
    if (rng.chance(0.03)) body += `X-Long: ${'h'.repeat(rng.size(100, 20_000))}${eol}`;
    if (rng.chance(0.95)) body += eol;
    body += rng.chance(0.1) ? 'v'.repeat(rng.size(1000, 40_000)) : wire(rng.pick(['Milk', 'é', '', ' ', 'a\r\nb']));
    body += eol;
  }
  if (rng.chance(0.85)) body += `--${delimiter}--${eol}`;
  if (rng.chance(0.1)) body += 'epilogue';
  return body;
}

/** `n` tiny fields in `delimiter`'s parts, far past maxFields: a parser that reads them all is slow. */
export function multipartFlood(delimiter: string, n: number): string {
  const part = `--${delimiter}\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n`;
  return part.repeat(n) + `--${delimiter}--\r\n`;
}

/** An urlencoded body: mostly a valid form, sometimes a malformed or oversized one. */
export function urlencodedBody(rng: Rng): string {
  switch (rng.int(10)) {
    case 0:
      return '%zz=%&title=%E0%A4%A&%%%%';
    case 1:
      return '&&&&=&=&&title';
    case 2:
      return Array.from({ length: rng.size(50, 5000) }, (_, i) => `f${i}=1`).join('&');
    case 3:
      return `title=${'x'.repeat(rng.size(1000, 200_000))}`;
    case 4:
      return 'title[]=a&title[]=b&__proto__[x]=1&constructor=2&done=maybe&_method=dElEtE';
    case 5:
      return wire(`title=${'é'.repeat(rng.size(1, 500))}&email=ada@example.com&password=${rng.text(8)}`);
    case 6:
      return 'title=' + '%41'.repeat(rng.size(10, 5000));
    default:
      return `title=${rng.text(rng.size(0, 30))}&done=${rng.pick(['on', 'true', ''])}&email=ada%40example.com&password=p`;
  }
}
