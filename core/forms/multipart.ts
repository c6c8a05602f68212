// A multipart/form-data body read before the runtime's parser sees it (issues 24 and 40): the boundary taken from
// the Content-Type, then a counter that walks the body as it streams, counts its fields, files and field sizes, and
// refuses (400) any body the parsers could split otherwise than it counts.
//
//   multipart/form-data; boundary=abc          → abc      boundary="abc   boundary="ab\"c"   → 400
//   multipart/form-data; boundary="a:b"        → a:b      boundary=; boundary=abc            → 400
//                                                         boundary=a, multipart/form-data; boundary=b → 400
//
//   (CRLFs) --abc CRLF                              the first delimiter: only CRLFs before it
//   Content-Disposition: form-data; name="t" CRLF   header lines: token ":" value CRLF, no other CR or LF
//   CRLF                                            a blank line, then the part's body
//   Milk CRLF --abc CRLF                            CRLF "--abc" ends the body; CRLF opens the next part
//   …  CRLF --abc -- (CRLFs)                        "--" closes: only CRLFs after it
//
// Why so strict: each runtime has its own parser and they disagree at the edges. undici (Node) ends a part at the
// first "abc" anywhere and a header line at a CR and whatever byte follows it; Deno ends a part at any "--abc" and
// splits Content-Disposition at every ";"; Bun splits the whole body at "--abc\r\n", takes the first "boundary=" of
// the Content-Type, and reads \" in a name as an escaped quote. A counter that reads a body one way while the
// parser reads it another counts nothing real: with `boundary="abc` the counter before looked for `"abc` while
// undici parsed 100,000 parts. So the counter takes only what all of them read alike (what browsers, curl and undici
// send): the boundary appears nowhere but in its delimiters, Content-Disposition is exactly undici's `form-data;
// name="…"` with an optional `; filename="…"`. The parser is then handed a Content-Type of our own making with the
// boundary that was counted.
//
// Cost: the body is searched for the boundary with Knuth–Morris–Pratt, and while no match is under way the search
// jumps to the boundary's first byte with indexOf: each byte is looked at a bounded number of times, so the cost is
// linear in the body, whatever its bytes (numbers at findBoundary).

import { HttpError } from '../errors.ts';
import { formTooLarge, type FormCounter, type FormLimits } from './form-limits.ts';

/** RFC 2046's boundary characters (without the space): the unquoted ones, and all of them inside quotes. */
const tokenBoundary = /^[0-9A-Za-z'+_.-]{1,70}$/;
const quotedBoundary = /^[0-9A-Za-z'()+_./:=?-]{1,70}$/;

/**
 * The boundary of a multipart/form-data Content-Type, read as the fetch standard's MIME type parser reads it (undici,
 * Deno), refusing with HttpError(400) a type that parser and another (Bun's, a proxy's) could read differently.
 * @example multipartBoundary('multipart/form-data; boundary="a:b"') // → "a:b"
 */
export function multipartBoundary(contentType: string): string {
  const refuse = (why: string) =>
    new HttpError(
      400,
      `Bad Request: the multipart/form-data Content-Type ${why}; send "multipart/form-data; boundary=…" as browsers do`,
      {},
      { cause: `Content-Type ${JSON.stringify(contentType.slice(0, 200))}` },
    );
  // A comma makes two values of one header: the standard's parser takes the last one, others the first.
  if (contentType.includes(',')) throw refuse('holds a comma');
  const s = contentType;
  let boundary: string | undefined;
  let boundaryAt = -1;
  let i = s.indexOf(';');
  while (i !== -1 && i < s.length) {
    i++; // past ";"
    while (s[i] === ' ' || s[i] === '\t') i++;
    const nameAt = i;
    while (i < s.length && s[i] !== ';' && s[i] !== '=') i++;
    const name = s.slice(nameAt, i).toLowerCase();
    let value: string | undefined;
    let quoted = false;
    if (s[i] === '=') {
      i++;
      if (s[i] === '"') {
        // A quoted-string: the standard unescapes \x and runs an unterminated one to the end; Bun does neither.
        const close = s.slice(i + 1).search(/["\\]/);
        if (close === -1) throw refuse('has a quoted string without its closing quote');
        if (s[i + 1 + close] === '\\') throw refuse('has a backslash in a quoted string');
        value = s.slice(i + 1, i + 1 + close);
        quoted = true;
        i += close + 2;
        while (s[i] === ' ' || s[i] === '\t') i++;
        if (i < s.length && s[i] !== ';') throw refuse('has text after a closing quote');
      } else {
        const end = s.indexOf(';', i);
        value = s.slice(i, end === -1 ? s.length : end);
        i = end === -1 ? s.length : end;
      }
    }
    if (name !== 'boundary') {
      // "boundary =x", "x-boundary=…": a parameter one parser takes for the boundary and another does not.
      if (name.includes('boundary')) throw refuse(`has a parameter named ${JSON.stringify(name.trim())}`);
      continue;
    }
    if (boundary !== undefined) throw refuse('has two boundary parameters');
    if (value === undefined || !(quoted ? quotedBoundary : tokenBoundary).test(value)) {
      throw refuse(
        `has a boundary that is not 1 to 70 letters, digits or '()+_-./:=? (quoted if it holds any of ()/:=?)`,
      );
    }
    boundary = value;
    boundaryAt = nameAt;
  }
  if (boundary === undefined) throw refuse('has no boundary parameter');
  // Bun's parser takes the first "boundary=" anywhere in the header: it must be this parameter's.
  if (s.toLowerCase().indexOf('boundary=') !== boundaryAt) throw refuse('holds "boundary=" twice');
  return boundary;
}

/**
 * The Content-Type handed to the runtime's parser: the counted boundary, quoted where RFC 2045 asks for quotes.
 * @example multipartType('a:b') // → 'multipart/form-data; boundary="a:b"'
 */
export function multipartType(boundary: string): string {
  return `multipart/form-data; boundary=${tokenBoundary.test(boundary) ? boundary : `"${boundary}"`}`;
}

/** A multipart part's header block past this many bytes is refused (Go's textproto allows 10,000 per part). */
const maxPartHeaderBytes = 16 * 1024;

// undici's Content-Disposition, the only one its parser takes (RFC 7578's, as browsers write it); `filename*` and
// further parameters make it fail, and Deno and Bun read them otherwise.
const disposition = /^ *form-data; name="([^"]*)"(?:; filename="([^"]*)")?$/;

const CR = 0x0d;
const LF = 0x0a;
const DASH = 0x2d;
const COLON = 0x3a;
const TAB = 0x09;

/** RFC 9110's token characters: a header name. */
const tokenByte = new Uint8Array(128);
for (const c of "!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") {
  tokenByte[c.charCodeAt(0)] = 1;
}

// Where the counter is. Preamble: CRLFs, then "--"; Opening: the rest of the first "--" + boundary. After a
// delimiter: "--" (Closing) ends the body, CRLF (OpeningLF) opens a part. A part's header lines (HeaderName,
// HeaderValue, HeaderLF), the blank line (BlankLF), its body (Body). Epilogue: after the closing delimiter, CRLFs.
const Preamble = 0;
const PreambleLF = 1;
const Opening = 2;
const AfterDelimiter = 3;
const Closing = 4;
const OpeningLF = 5;
const HeaderName = 6;
const HeaderValue = 7;
const HeaderLF = 8;
const BlankLF = 9;
const Body = 10;
const Epilogue = 11;
const EpilogueLF = 12;

/**
 * Counts a multipart/form-data body with this boundary as it streams: `push` throws HttpError(413) at the first
 * limit passed and HttpError(400) at the first byte the parsers could read otherwise; `end` throws 400 for a body
 * that stops before its closing delimiter.
 * @example const counter = multipartCounter('abc', defaultFormLimits); counter.push(bytes); counter.end()
 */
export function multipartCounter(boundary: string, limits: FormLimits): FormCounter {
  const pattern = Uint8Array.from(boundary, (c) => c.charCodeAt(0));
  const m = pattern.length;
  // Knuth–Morris–Pratt: fail[j] is the length of the longest proper prefix of pattern[0..j] that also ends it.
  const fail = new Int32Array(m);
  for (let j = 1, f = 0; j < m; j++) {
    while (f > 0 && pattern[j] !== pattern[f]) f = fail[f - 1]!;
    if (pattern[j] === pattern[f]) f++;
    fail[j] = f;
  }
  // The last bytes before the current chunk: "\r\n--" before a boundary that starts a chunk is there.
  const history = new Uint8Array(m + 4);

  let state = Preamble;
  let offset = 0; // where the current chunk starts in the body
  const progress = new Int32Array(1); // boundary bytes matched so far, across chunks
  let opened = 1; // bytes of "--" + boundary matched while Opening
  const headers = new Uint8Array(maxPartHeaderBytes); // this part's header block
  let headerBytes = 0;
  let lineAt = 0; // where the current header line starts in `headers`
  let colonAt = 0;
  let named = false; // this part has its Content-Disposition
  let isFile = false;
  let sized = false; // its body is held to maxFieldBytes
  let bodyAt = 0; // where this part's body starts in the body
  let fields = 0;
  let files = 0;

  // The cause is logged (one line, as for a parser's failure): where in the body the counter stopped.
  const malformed = (what: string) =>
    new HttpError(
      400,
      `Bad Request: the multipart/form-data body ${what}; send it as a browser's FormData is sent`,
      {},
      { cause: `after ${fields + files} parts` },
    );
  const fieldTooLarge = () => formTooLarge('maxFieldBytes', limits.maxFieldBytes, 'a form field has at most {n} bytes');

  function keep(b: number): void {
    if (headerBytes === maxPartHeaderBytes) {
      throw new HttpError(413, `Content Too Large: a form part's headers have at most ${maxPartHeaderBytes} bytes`);
    }
    headers[headerBytes++] = b;
  }

  // A header line is whole (its CRLF kept): Content-Disposition is read the way undici reads it.
  function endLine(): void {
    if (colonAt - lineAt !== 19) return;
    if (latin1(headers, lineAt, colonAt).toLowerCase() !== 'content-disposition') return;
    if (named) throw malformed('has a part with two Content-Disposition headers');
    const value = disposition.exec(latin1(headers, colonAt + 1, headerBytes - 2));
    if (!value) throw malformed(`has a Content-Disposition other than form-data; name="…" (and ; filename="…")`);
    const [, name, filename] = value;
    // Bun reads \" as an escaped quote: a name ending in \ would run on into the filename there.
    if (name!.endsWith('\\') || filename?.endsWith('\\')) throw malformed('has a name or filename ending in \\');
    named = true;
    isFile = filename !== undefined;
    // An empty filename is a file to undici and Bun and a text field to Deno: counted as a file, sized as a field.
    sized = !isFile || filename === '';
  }

  function startPart(): void {
    if (!named) throw malformed('has a part without Content-Disposition: form-data; name="…"');
    if (isFile) {
      if (++files > limits.maxFiles) throw formTooLarge('maxFiles', limits.maxFiles, 'a form has at most {n} files');
    } else if (++fields > limits.maxFields) {
      throw formTooLarge('maxFields', limits.maxFields, 'a form has at most {n} fields');
    }
  }

  return {
    kind: 'multipart',
    type: multipartType(boundary),
    push(chunk) {
      const n = chunk.length;
      // The byte at `at` in the body: in this chunk, or among the last bytes of the ones before.
      const byteAt = (at: number) => (at >= offset ? chunk[at - offset]! : history[m + 4 - (offset - at)]!);
      let i = 0;
      while (i < n) {
        if (state === Body) {
          const end = findBoundary(chunk, i, pattern, fail, progress);
          if (end === -1) break;
          // Every boundary in a body must be a delimiter's: "\r\n--" right before it, after the body began.
          const at = offset + end - m; // where the boundary starts in the body
          const delimiter =
            at - 4 >= bodyAt &&
            byteAt(at - 4) === CR &&
            byteAt(at - 3) === LF &&
            byteAt(at - 2) === DASH &&
            byteAt(at - 1) === DASH;
          if (!delimiter) throw malformed('holds its boundary inside a part');
          if (sized && at - 4 - bodyAt > limits.maxFieldBytes) throw fieldTooLarge();
          state = AfterDelimiter;
          i = end;
          continue;
        }
        const b = chunk[i++]!;
        switch (state) {
          case Preamble:
            if (b === CR) state = PreambleLF;
            else if (b === DASH) state = Opening;
            else throw malformed('does not start with its boundary');
            break;
          case PreambleLF:
            if (b !== LF) throw malformed('does not start with its boundary');
            state = Preamble;
            break;
          case Opening:
            if (b !== (opened === 1 ? DASH : pattern[opened - 2])) throw malformed('does not start with its boundary');
            if (++opened === m + 2) state = AfterDelimiter;
            break;
          case AfterDelimiter:
            if (b === DASH) state = Closing;
            else if (b === CR) state = OpeningLF;
            else throw malformed('has bytes after a delimiter other than CRLF or "--"');
            break;
          case Closing:
            if (b !== DASH) throw malformed('has bytes after a delimiter other than CRLF or "--"');
            state = Epilogue;
            break;
          case OpeningLF:
            if (b !== LF) throw malformed('has bytes after a delimiter other than CRLF or "--"');
            state = HeaderName;
            headerBytes = lineAt = 0;
            named = false;
            break;
          case HeaderName:
            keep(b);
            if (b === COLON && headerBytes - 1 > lineAt) {
              state = HeaderValue;
              colonAt = headerBytes - 1;
              progress[0] = 0;
            } else if (b === CR && headerBytes - 1 === lineAt) {
              state = BlankLF;
            } else if (b >= 128 || tokenByte[b] !== 1) {
              throw malformed('has a part header that is not "Name: value" on a line of its own');
            }
            break;
          case HeaderValue:
            keep(b);
            if (b === CR) {
              state = HeaderLF;
            } else if ((b < 0x20 && b !== TAB) || b === 0x7f) {
              throw malformed('has a control character in a part header');
            } else {
              // "--" + boundary in a header: Bun splits the body there.
              let k = progress[0]!;
              while (k > 0 && b !== pattern[k]) k = fail[k - 1]!;
              if (b === pattern[k]) k++;
              if (k === m) {
                const at = headerBytes - m;
                if (at - 2 > colonAt && headers[at - 1] === DASH && headers[at - 2] === DASH) {
                  throw malformed('holds "--" and its boundary in a part header');
                }
                k = fail[m - 1]!;
              }
              progress[0] = k;
            }
            break;
          case HeaderLF:
            keep(b);
            if (b !== LF) throw malformed('has a CR without LF in a part header');
            endLine();
            lineAt = headerBytes;
            state = HeaderName;
            break;
          case BlankLF:
            if (b !== LF) throw malformed('has a CR without LF in a part header');
            startPart();
            state = Body;
            bodyAt = offset + i;
            progress[0] = 0;
            break;
          case Epilogue:
            if (b !== CR) throw malformed('goes on after its closing delimiter');
            state = EpilogueLF;
            break;
          case EpilogueLF:
            if (b !== LF) throw malformed('goes on after its closing delimiter');
            state = Epilogue;
            break;
        }
      }
      // Checked per chunk as well, so that one huge field stops the read without waiting for its end: at most
      // "\r\n--" and the boundary bytes matched so far may yet turn out to be a delimiter.
      const pending = 4 + progress[0]!;
      if (state === Body && sized && offset + n - bodyAt - pending > limits.maxFieldBytes) throw fieldTooLarge();
      remember(history, chunk);
      offset += n;
    },
    end() {
      if (state !== Epilogue) throw malformed('ends before its closing delimiter ("--" + boundary + "--")');
    },
  };
}

/**
 * Where the boundary next ends in `chunk` from `from` (the index past its last byte), or -1 if not in this chunk;
 * `progress[0]` carries the bytes matched from one chunk to the next. Knuth–Morris–Pratt in locals, which V8 keeps
 * in registers: the same loop on the counter's closure variables took 2–3× as long. Its worst body, 10 MiB of "-"
 * for a boundary that starts "----", takes 80–110 ms on a loaded 2-core VM, as all-CR bodies took the search before
 * (85–97 ms); a file of random bytes 10–20 ms.
 */
function findBoundary(
  chunk: Uint8Array,
  from: number,
  pattern: Uint8Array,
  fail: Int32Array,
  progress: Int32Array,
): number {
  const n = chunk.length;
  const m = pattern.length;
  const first = pattern[0]!;
  let k = progress[0]!;
  let i = from;
  while (i < n) {
    if (k === 0) {
      // Nothing matched: only the boundary's first byte can start a match.
      const next = chunk.indexOf(first, i);
      if (next === -1) break;
      i = next;
    }
    const b = chunk[i++]!;
    while (k > 0 && b !== pattern[k]) k = fail[k - 1]!;
    if (b === pattern[k] && ++k === m) {
      progress[0] = 0;
      return i;
    }
  }
  progress[0] = k;
  return -1;
}

// The last history.length bytes of the body so far, once `chunk` is added.
function remember(history: Uint8Array, chunk: Uint8Array): void {
  const h = history.length;
  const n = chunk.length;
  if (n >= h) {
    history.set(chunk.subarray(n - h));
  } else {
    history.copyWithin(0, n);
    history.set(chunk, h - n);
  }
}

function latin1(bytes: Uint8Array, from: number, to: number): string {
  return String.fromCharCode(...bytes.subarray(from, to));
}
