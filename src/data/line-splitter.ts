/**
 * Lines of a stream of bytes (split at `\n`, without it), for the JSON-lines files of an
 * archive; a line longer than `maxLineBytes` is refused rather than buffered.
 */

/** @throws Error "line too long" past `maxLineBytes`. */
export async function* splitLines(
  chunks: AsyncIterable<Buffer>,
  maxLineBytes: number,
): AsyncGenerator<string> {
  let carry: Buffer = Buffer.alloc(0);
  for await (const chunk of chunks) {
    let buf = carry.length ? Buffer.concat([carry, chunk]) : chunk;
    let nl = buf.indexOf(10);
    while (nl !== -1) {
      yield buf.toString('utf8', 0, nl);
      buf = buf.subarray(nl + 1);
      nl = buf.indexOf(10);
    }
    if (buf.length > maxLineBytes) throw new Error(`a line is longer than ${maxLineBytes} bytes`);
    carry = Buffer.from(buf);
  }
  if (carry.length) yield carry.toString('utf8');
}
