/**
 * An upload that is gzip-compressed although it came without `Content-Encoding` (an
 * `export.xml.gz`, or a tool that compressed it without saying so): told by its first bytes
 * (unpack-upload.ts) and decompressed with node:zlib into a file beside it, as a stream, under the same limit as a body
 * sent with `Content-Encoding: gzip` (the decompressed bytes count).
 */
import fs from 'node:fs';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { KlebbError, payloadTooLarge } from '../../errors.js';
import { closedFile } from './file-closed.js';

/** Passes bytes through, failing with 413 once more than `maxBytes` went by (unpacked bytes). */
export class ByteLimit extends Transform {
  private seen = 0;
  constructor(private readonly maxBytes: number) {
    super();
  }
  /** Bytes passed through so far. */
  get bytes(): number {
    return this.seen;
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.seen += chunk.length;
    if (this.seen > this.maxBytes) {
      done(
        payloadTooLarge(
          `the upload is larger than ${this.maxBytes} bytes once decompressed (KLEBB_APPLE_HEALTH_MAX_BYTES)`,
        ),
      );
      return;
    }
    done(null, chunk);
  }
}

/**
 * Decompresses the gzip file `file` into a new file `out` (mode 0600). `out` is removed again
 * when this fails.
 * @returns the decompressed size, bytes.
 * @throws 413 PAYLOAD_TOO_LARGE past `maxBytes` decompressed bytes (the decompression stops
 *   there); 400 BAD_CONTENT_ENCODING when the bytes do not decompress (a damaged or cut file);
 *   the file system's error when `out` cannot be written (a full disk).
 */
export async function gunzipFile(file: string, out: string, maxBytes: number): Promise<number> {
  const gunzip = zlib.createGunzip();
  let zlibError: Error | undefined;
  gunzip.on('error', (err) => {
    zlibError = err;
  });
  const written = fs.createWriteStream(out, { flags: 'wx', mode: 0o600 });
  try {
    await pipeline(fs.createReadStream(file), gunzip, new ByteLimit(maxBytes), written);
  } catch (err) {
    await closedFile(written);
    fs.rmSync(out, { force: true });
    if (err instanceof KlebbError) throw err;
    if (zlibError && err === zlibError) {
      throw new KlebbError(
        400,
        'BAD_CONTENT_ENCODING',
        `the upload is gzip-compressed but does not decompress (${zlibError.message}): the file is damaged or cut short; gunzip it, or upload export.xml itself`,
      );
    }
    throw err;
  }
  return fs.statSync(out).size;
}
