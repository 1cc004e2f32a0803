/**
 * A Readable over an iterator of text pieces, cut into chunks of about CHUNK_BYTES, that counts
 * bytes and lines and computes the sha256 as it goes: the export writes each file exactly once
 * and learns its inventory figures on the way (constant memory whatever the file's size).
 */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';

/** Size of the chunks handed to the zip writer, bytes. */
const CHUNK_BYTES = 256 * 1024;

/** Figures of a file once its stream has ended. */
export interface StreamFigures {
  bytes: number;
  sha256: string;
}

/**
 * Builds the stream; `done` is called once with the figures after the last chunk was read.
 * `pieces` are written as given (callers add their own newlines).
 */
export function hashingStream(pieces: Iterable<string | Buffer>, done: (f: StreamFigures) => void): Readable {
  const hash = createHash('sha256');
  let bytes = 0;
  function* chunks(): Generator<Buffer> {
    let parts: Buffer[] = [];
    let size = 0;
    const flush = () => {
      const b = Buffer.concat(parts, size);
      parts = [];
      size = 0;
      hash.update(b);
      bytes += b.length;
      return b;
    };
    for (const p of pieces) {
      const b = typeof p === 'string' ? Buffer.from(p, 'utf8') : p;
      parts.push(b);
      size += b.length;
      if (size >= CHUNK_BYTES) yield flush();
    }
    if (size > 0) yield flush();
    done({ bytes, sha256: hash.digest('hex') });
  }
  return Readable.from(chunks(), { objectMode: false });
}

/** sha256 and size of a sequence of pieces, without a stream (the import's verification). */
export function figuresOf(pieces: Iterable<string | Buffer>): StreamFigures {
  const hash = createHash('sha256');
  let bytes = 0;
  for (const p of pieces) {
    const b = typeof p === 'string' ? Buffer.from(p, 'utf8') : p;
    hash.update(b);
    bytes += b.length;
  }
  return { bytes, sha256: hash.digest('hex') };
}
