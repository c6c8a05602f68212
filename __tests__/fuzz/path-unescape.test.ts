// pathUnescape decodes in one linear pass (issue 12: the decoder it replaced
// searched ever-shorter runs of bytes that decode, which made 2,000 × "%ff"
// take ~80 s). Its answers are the old decoder's, checked on random segments
// short enough for the old one to finish.

import fc from 'fast-check';
import { pathUnescape } from '../../core/mux/pattern.ts';

// The decoder as it was before issue 12, kept here as the reference.
function quadraticPathUnescape(seg: string): string {
  if (!seg.includes('%')) return seg;
  try {
    return decodeURIComponent(seg);
  } catch {
    const bytes: number[] = [];
    for (let i = 0; i < seg.length; i++) {
      if (seg[i] !== '%') {
        // By code point: the old decoder took UTF-16 units and split a character outside the BMP (a bug, not kept).
        const ch = String.fromCodePoint(seg.codePointAt(i)!);
        bytes.push(...Buffer.from(ch, 'utf8'));
        i += ch.length - 1;
        continue;
      }
      const hex = seg.slice(i + 1, i + 3);
      if (!/^[0-9a-fA-F]{2}$/.test(hex)) return seg;
      bytes.push(parseInt(hex, 16));
      i += 2;
    }
    // ignoreBOM: the old decoder dropped a U+FEFF that began a run after an invalid byte (a bug, not kept).
    const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
    let out = '';
    let start = 0;
    while (start < bytes.length) {
      let end = bytes.length;
      for (; end > start; end--) {
        try {
          out += decoder.decode(Uint8Array.from(bytes.slice(start, end)));
          break;
        } catch {
          // shrink the run until it decodes
        }
      }
      if (end === start) {
        out += '%' + bytes[start]!.toString(16).toUpperCase().padStart(2, '0');
        end = start + 1;
      }
      start = end;
    }
    return out;
  }
}

const hex2 = (b: number) => b.toString(16).padStart(2, '0');
// Bytes that start, continue or break UTF-8 sequences, at the edges of the decoder's ranges.
const edgeBytes = [
  0x00, 0x2f, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1, 0xec, 0xed, 0xee,
  0xef, 0xf0, 0xf1, 0xf3, 0xf4, 0xf5, 0xff,
];
const escape = fc
  .oneof(fc.constantFrom(...edgeBytes), fc.integer({ min: 0, max: 255 }))
  .chain((b) => fc.constantFrom('%' + hex2(b), '%' + hex2(b).toUpperCase()));
// Valid sequences too, so that runs of good UTF-8 sit between bad bytes.
const encodedChar = fc
  .oneof(fc.constantFrom('é', '€', '𝄞', '\u07ff', '\u0800', '\uffff', '\u{10ffff}'), fc.string({ maxLength: 1 }))
  .map((c) => encodeURIComponent(c));
const rawChar = fc.oneof(
  fc.constantFrom('a', '/', '+', '~', 'é', '€', '𝄞', '%', '%4', '%zz'),
  fc.string({ maxLength: 1 }),
);
const segment = fc.array(fc.oneof(escape, escape, encodedChar, rawChar), { maxLength: 24 }).map((p) => p.join(''));

test('pathUnescape answers as the decoder it replaced', () => {
  fc.assert(
    fc.property(segment, (seg) => {
      expect(pathUnescape(seg)).toBe(quadraticPathUnescape(seg));
    }),
    { numRuns: 5000 },
  );
});

test.each([
  // A byte order mark is kept wherever it stands (the old decoder dropped it after an invalid byte).
  ['%ff%EF%BB%BFa', '%FF\ufeffa'],
  // A raw character outside the BMP stays itself (the old decoder split it into two U+FFFD).
  ['%ff𝄞', '%FF𝄞'],
  // Overlong forms, surrogates and code points past U+10FFFF are not UTF-8: every byte stays escaped.
  ['%C0%AF', '%C0%AF'],
  ['%ED%A0%80', '%ED%A0%80'],
  ['%F4%90%80%80', '%F4%90%80%80'],
  ['%E2%82%AC%E2%82', '€%E2%82'],
])('pathUnescape(%j) → %j', (input, want) => {
  expect(pathUnescape(input)).toBe(want);
});

test('a long run of invalid bytes stays escaped byte for byte', () => {
  expect(pathUnescape('a' + '%ff'.repeat(5000) + '%C3%A9')).toBe('a' + '%FF'.repeat(5000) + 'é');
});
