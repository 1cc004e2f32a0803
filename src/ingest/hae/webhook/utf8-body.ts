/**
 * A webhook body's bytes as UTF-8. Bodies are UTF-8 as the app sends them, but a file a person
 * posts may be UTF-16: Excel's "Unicode Text" save (little-endian, a byte order mark, columns
 * apart by tabs) of a CSV export, or a JSON export saved by Windows PowerShell 5.1's `>` or
 * Out-File. Such a body is read as the text it holds; every other body is left as it came.
 */

/**
 * `body` re-encoded as UTF-8 when it starts with a UTF-16 byte order mark (FF FE little-endian,
 * FE FF big-endian; the mark is dropped); `body` itself otherwise. Unpaired surrogates (a file
 * cut mid-character) become U+FFFD, as invalid UTF-8 does: the reader then decides whether the
 * body is usable.
 */
export function utf8Body(body: Buffer): Buffer {
  if (body.length < 2) return body;
  if (body[0] === 0xff && body[1] === 0xfe) return fromUtf16('utf-16le', body);
  if (body[0] === 0xfe && body[1] === 0xff) return fromUtf16('utf-16be', body);
  return body;
}

function fromUtf16(order: 'utf-16le' | 'utf-16be', body: Buffer): Buffer {
  // TextDecoder drops the byte order mark itself
  return Buffer.from(new TextDecoder(order).decode(body), 'utf8');
}
