/**
 * Lines of a stream of bytes (split at `\n`, without it), for the JSON-lines files of an
 * archive, handed out a chunk's worth at a time (one await per chunk, not per line: rows are
 * small and many); a line longer than `maxLineBytes` is refused rather than buffered.
 */

/** A line of the stream longer than the limit: a fault of the file being read, not of the reader. */
export class LineTooLongError extends Error {
  constructor(maxLineBytes: number) {
    super(`a line is longer than ${maxLineBytes} bytes`);
    this.name = 'LineTooLongError';
  }
}

/** @throws LineTooLongError past `maxLineBytes`. */
export async function* splitLines(
  chunks: AsyncIterable<Buffer>,
  maxLineBytes: number,
): AsyncGenerator<string[]> {
  let carry: Buffer = Buffer.alloc(0);
  for await (const chunk of chunks) {
    const buf = carry.length ? Buffer.concat([carry, chunk]) : chunk;
    const lines: string[] = [];
    let start = 0;
    let nl = buf.indexOf(10, start);
    while (nl !== -1) {
      lines.push(buf.toString('utf8', start, nl));
      start = nl + 1;
      nl = buf.indexOf(10, start);
    }
    if (buf.length - start > maxLineBytes) throw new LineTooLongError(maxLineBytes);
    carry = Buffer.from(buf.subarray(start));
    if (lines.length) yield lines;
  }
  if (carry.length) yield [carry.toString('utf8')];
}
