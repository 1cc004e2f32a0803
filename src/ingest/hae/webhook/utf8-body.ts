/**
 * A webhook body's bytes as UTF-8. Bodies are UTF-8 as the app sends them, but a file a person
 * posts may be UTF-16: Excel's "Unicode Text" save (little-endian, a byte order mark, columns
 * apart by tabs) of a CSV export, or a JSON export saved by Windows PowerShell 5.1's `>` or
 * Out-File. Such a body is read as the text it holds; every other body is left as it came.
 *
 * A UTF-16 body without the byte order mark (.NET's `Encoding.Unicode.GetBytes`, a script that
 * declares `charset=utf-16le` in its Content-Type) is told by the declared charset or, when none
 * is declared, by its first characters: the app's files start with ASCII (`{`, `[`, `Date`,
 * a quote or a space), which UTF-16 writes as a zero byte beside each letter, and UTF-8 text
 * never holds a zero byte.
 *
 * A body that is not valid UTF-8 is text in a single-byte code page: a CSV export opened in Excel
 * on Windows and saved as "CSV (Comma delimited)" (Excel's default: the ANSI code page, not
 * UTF-8), or a JSON file written by Windows PowerShell 5.1's `Set-Content` (ANSI too). Their `°`,
 * `·`, `µ`, `é` or `’` are one byte each, which UTF-8 cannot read (each would become U+FFFD and a
 * unit such as `ml/(kg·min)` would no longer be known). Such a body is read in the charset its
 * Content-Type declares when the runtime knows it (`windows-1251`, `shift_jis`...), else in
 * Windows-1252, the code page of Excel in Western Europe and the Americas (of which ISO-8859-1 is
 * a part: `charset=iso-8859-1` reads the same). A body that is valid UTF-8 is read as UTF-8
 * whatever charset is declared: text in a single-byte code page is hardly ever valid UTF-8, while
 * a relay labelling UTF-8 as Latin-1 is a known mistake. A last character cut in two (a body cut
 * short) does not make a body not UTF-8, nor does a damaged byte in a body that holds UTF-8
 * characters elsewhere. A body spooled to disk (over the inline limit) is read
 * as UTF-8 or UTF-16 only: the app writes its large bodies in UTF-8.
 */
import { isUtf8 } from 'node:buffer';
import fs from 'node:fs';
import { pipeline, type Readable, Transform } from 'node:stream';

type Utf16 = 'utf-16le' | 'utf-16be';

/**
 * `body` re-encoded as UTF-8 when it is UTF-16: it starts with a byte order mark (FF FE
 * little-endian, FE FF big-endian; the mark is dropped), or `contentType` declares a UTF-16
 * charset, or its first characters are ASCII written as UTF-16 (module comment); re-encoded from
 * its single-byte code page (the declared one, else Windows-1252) when it is not valid UTF-8;
 * `body` itself otherwise. Unpaired surrogates and a last odd byte (a file cut mid-character)
 * become U+FFFD, as invalid UTF-8 does: the reader then decides whether the body is usable.
 */
export function utf8Body(body: Buffer, contentType?: string): Buffer {
  const order = utf16OrderOf(body, contentType);
  if (order) return fromUtf16(order, body);
  const codePage = singleByteCharset(body, contentType);
  return codePage ? Buffer.from(new TextDecoder(codePage).decode(body), 'utf8') : body;
}

/** The charset a Content-Type declares, lower case, or undefined. */
function declaredCharset(contentType: string | undefined): string | undefined {
  return /;\s*charset\s*=\s*"?([\w.:-]+)/i.exec(contentType ?? '')?.[1]?.toLowerCase();
}

/**
 * The charset to read `body` in when it is not valid UTF-8 (module comment): the declared one
 * when TextDecoder knows it and it is not UTF-8 itself, else `windows-1252`. Undefined for a
 * body that is valid UTF-8 (a last character cut in two aside), or a multipart body, whose parts
 * are read each on its own.
 */
function singleByteCharset(body: Buffer, contentType: string | undefined): string | undefined {
  if (/multipart\//i.test(contentType ?? '') || isUtf8(withoutCutTail(body))) return undefined;
  if (holdsUtf8Character(body)) return undefined;
  const declared = declaredCharset(contentType);
  if (!declared) return 'windows-1252';
  let encoding: string;
  try {
    encoding = new TextDecoder(declared).encoding;
  } catch {
    return 'windows-1252';
  }
  // declared UTF-8 over bytes that are not: read as UTF-8 still, the bad bytes U+FFFD
  if (encoding === 'utf-8') return undefined;
  return encoding.startsWith('utf-16') ? 'windows-1252' : encoding;
}

/**
 * True when `body` holds a well-formed UTF-8 character of two bytes or more (`’` as E2 80 99):
 * UTF-8 text with a damaged byte somewhere, not a code page's (whose letters hardly ever make
 * one). Read so, its other characters stay as they were sent, and a source named `User’s Apple
 * Watch` keys the same samples as in every other push.
 */
function holdsUtf8Character(body: Buffer): boolean {
  const text = body.toString('utf8');
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x80 && c !== 0xfffd) return true;
  }
  return false;
}

/**
 * `body` without a UTF-8 character cut off at its end: a lead byte in the last three whose
 * sequence runs past the end, with what follows it.
 */
function withoutCutTail(body: Buffer): Buffer {
  for (let i = body.length - 1; i >= Math.max(0, body.length - 3); i--) {
    const b = body[i];
    if (b < 0x80) return body;
    if (b >= 0xc0) {
      const length = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
      return i + length > body.length ? body.subarray(0, i) : body;
    }
  }
  return body;
}

/**
 * The UTF-16 byte order of a body whose first bytes are `head` (utf8Body's rules: a byte order
 * mark, a declared charset over bytes holding a zero, or ASCII written as UTF-16), or undefined
 * for a body to read as it is.
 */
function utf16OrderOf(head: Uint8Array, contentType?: string): Utf16 | undefined {
  if (head.length < 2) return undefined;
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  // a charset declared over UTF-8 bytes (no zero byte in them) is a mistake: read as they are
  const declared = head.includes(0) ? declaredUtf16(contentType, head) : undefined;
  return declared ?? asciiAsUtf16(head);
}

/**
 * The byte order a Content-Type's charset names (`utf-16le`, `utf-16be`; plain `utf-16` or
 * `ucs-2` by the body's first bytes, little-endian when they do not tell), or undefined.
 */
function declaredUtf16(contentType: string | undefined, body: Uint8Array): Utf16 | undefined {
  const charset = declaredCharset(contentType);
  if (charset === 'utf-16le' || charset === 'unicode') return 'utf-16le';
  if (charset === 'utf-16be' || charset === 'unicodefffe') return 'utf-16be';
  if (charset === 'utf-16' || charset === 'ucs-2') return asciiAsUtf16(body) ?? 'utf-16le';
  return undefined;
}

/** Up to this many leading characters must each be ASCII written as UTF-16 to read a body so. */
const ASCII_PROBE_CHARS = 16;

/**
 * The byte order in which `body`'s first characters (up to ASCII_PROBE_CHARS, at least two) are
 * each an ASCII character beside a zero byte, or undefined when any is not.
 */
function asciiAsUtf16(body: Uint8Array): Utf16 | undefined {
  const units = Math.min(ASCII_PROBE_CHARS, Math.floor(body.length / 2));
  if (units < 2) return undefined;
  for (const order of ['utf-16le', 'utf-16be'] as const) {
    const [low, high] = order === 'utf-16le' ? [0, 1] : [1, 0];
    let all = true;
    for (let i = 0; i < units && all; i++) {
      const ch = body[2 * i + low];
      all = body[2 * i + high] === 0 && ch !== 0 && ch < 0x80;
    }
    if (all) return order;
  }
  return undefined;
}

function fromUtf16(order: Utf16, body: Buffer): Buffer {
  // TextDecoder drops the byte order mark itself
  return Buffer.from(new TextDecoder(order).decode(body), 'utf8');
}

/**
 * The bytes of the spooled body `file` as UTF-8, read as they are needed (utf8Body for a body
 * too large to hold): `head` is the file's first bytes, `contentType` the request's. A read
 * error of the file reaches the reader of the stream returned.
 */
export function utf8FileStream(file: string, head: Uint8Array, contentType?: string): Readable {
  const source = fs.createReadStream(file, { highWaterMark: 64 * 1024 });
  const order = utf16OrderOf(head, contentType);
  if (order === undefined) return source;
  const decoder = new TextDecoder(order);
  const recode = new Transform({
    transform(chunk: Buffer, _enc, done) {
      done(null, Buffer.from(decoder.decode(chunk, { stream: true }), 'utf8'));
    },
    flush(done) {
      done(null, Buffer.from(decoder.decode(), 'utf8'));
    },
  });
  return pipeline(source, recode, () => {});
}
