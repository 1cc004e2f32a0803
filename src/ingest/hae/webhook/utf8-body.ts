/**
 * A webhook body's bytes as UTF-8. Bodies are UTF-8 as the app sends them, but a file a person
 * posts may be UTF-16: Excel's "Unicode Text" save (little-endian, a byte order mark, columns
 * apart by tabs) of a CSV export, or a JSON export saved by Windows PowerShell 5.1's `>` or
 * Out-File. Such a body is read as the text it holds; every other body is left as it came.
 */
import fs from 'node:fs';
import { pipeline, type Readable, Transform } from 'node:stream';

/**
 * `body` re-encoded as UTF-8 when it starts with a UTF-16 byte order mark (FF FE little-endian,
 * FE FF big-endian; the mark is dropped); `body` itself otherwise. Unpaired surrogates (a file
 * cut mid-character) become U+FFFD, as invalid UTF-8 does: the reader then decides whether the
 * body is usable.
 */
export function utf8Body(body: Buffer): Buffer {
  const order = utf16Order(body);
  // TextDecoder drops the byte order mark itself
  return order === undefined ? body : Buffer.from(new TextDecoder(order).decode(body), 'utf8');
}

/** The UTF-16 byte order a byte order mark at the start of `head` names, or undefined. */
function utf16Order(head: Uint8Array): 'utf-16le' | 'utf-16be' | undefined {
  if (head.length < 2) return undefined;
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  return undefined;
}

/**
 * The bytes of the spooled body `file` as UTF-8, read as they are needed (utf8Body for a body
 * too large to hold): `head` is the file's first bytes. A read error of the file reaches the
 * reader of the stream returned.
 */
export function utf8FileStream(file: string, head: Uint8Array): Readable {
  const source = fs.createReadStream(file, { highWaterMark: 64 * 1024 });
  const order = utf16Order(head);
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
