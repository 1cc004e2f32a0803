/**
 * Request bodies sent with `Content-Encoding` (gzip, deflate, br), decoded as they arrive with
 * node:zlib. Health Auto Export compresses its pushes with gzip when asked to; every route that
 * reads a body reads it decoded, and every body limit counts the DECODED bytes: past the limit
 * the decompressor is stopped (a zip bomb is never inflated whole) and the answer is 413, while
 * the rest of the compressed bytes are drained unread so the client gets the answer.
 *
 * - JSON routes: a preParsing hook (installBodyDecoding) replaces the payload with the decoded
 *   stream, capped at the route's body limit; Fastify's parser then reads it as usual.
 * - Raw-body routes (src/ingest/raw-body.ts) are skipped by the hook: their reader
 *   (receiveBody) decodes with decodedBody under its own, larger limit.
 * - An encoding not listed here is 415 UNSUPPORTED_ENCODING before any byte is read; bytes that
 *   do not decode are 400 BAD_CONTENT_ENCODING naming the encoding.
 */
import { type Readable, Transform, type TransformCallback } from 'node:stream';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { lookupTable } from '../common/lookup-table.js';
import { KlebbError, payloadTooLarge } from '../errors.js';

/** Content codings a request body may use, and the node:zlib decoder of each. */
const DECODERS = lookupTable<() => Transform>({
  gzip: () => zlib.createGunzip(),
  'x-gzip': () => zlib.createGunzip(),
  deflate: () => zlib.createInflate(),
  br: () => zlib.createBrotliDecompress(),
});

/** The encodings the server decodes, as listed in a 415 answer. */
export const SUPPORTED_ENCODINGS = ['gzip', 'deflate', 'br'] as const;

/**
 * The one coding of a Content-Encoding header, lower case; undefined for none or `identity`.
 * @throws 415 UNSUPPORTED_ENCODING for a coding not in DECODERS, or for more than one coding.
 */
export function requestEncoding(header: string | string[] | undefined): string | undefined {
  const codings = [header ?? '']
    .flat()
    .join(',')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  if (codings.length === 0) return undefined;
  if (codings.length === 1 && DECODERS[codings[0]]) return codings[0];
  throw new KlebbError(
    415,
    'UNSUPPORTED_ENCODING',
    `Content-Encoding "${codings.join(', ')}" is not supported: send the body as it is, or compressed with one of ${SUPPORTED_ENCODINGS.join(', ')}`,
  );
}

/** The decoded side of a request body: counts bytes in and out (Fastify reads both). */
class DecodedBody extends Transform {
  receivedEncodedLength = 0;
  private decodedLength = 0;

  constructor(private readonly maxBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.decodedLength += chunk.length;
    if (this.decodedLength > this.maxBytes) {
      done(payloadTooLarge(`the body is larger than ${this.maxBytes} bytes once decoded (Content-Encoding)`));
      return;
    }
    done(null, chunk);
  }
}

/**
 * `raw` decoded with `encoding` (from requestEncoding), as a stream that fails with 413
 * PAYLOAD_TOO_LARGE once more than `maxBytes` decoded bytes came out, and with 400
 * BAD_CONTENT_ENCODING when the bytes do not decode. On either failure the decoder stops and
 * the rest of `raw` is drained unread. A connection that closes mid-body fails the stream.
 */
export function decodedBody(raw: Readable, encoding: string, maxBytes: number): Readable {
  const make = DECODERS[encoding];
  // requestEncoding chose the coding from the table
  if (!make) throw new Error(`no decoder for ${encoding}`);
  const decoder = make();
  const out = new DecodedBody(maxBytes);
  const stop = () => {
    raw.unpipe(decoder);
    decoder.unpipe(out);
    decoder.destroy();
    raw.on('error', () => {});
    raw.resume();
  };
  raw.on('data', (chunk: Buffer) => {
    out.receivedEncodedLength += chunk.length;
  });
  decoder.on('error', (err) => {
    stop();
    out.destroy(
      new KlebbError(
        400,
        'BAD_CONTENT_ENCODING',
        `the body is not valid ${encoding} (Content-Encoding: ${encoding}): ${err.message}`,
      ),
    );
  });
  out.on('error', stop);
  raw.on('error', (err) => out.destroy(err));
  raw.on('close', () => {
    if (!(raw as Readable & { complete?: boolean }).complete && !out.writableEnded)
      out.destroy(new Error('the connection closed before the body ended'));
  });
  raw.pipe(decoder).pipe(out);
  return out;
}

/**
 * Decodes the bodies of every route outside the raw-body scopes (see the module comment).
 * Raw-body routes carry `config.rawBody` (set by rawBodyScope).
 */
export function installBodyDecoding(app: FastifyInstance): void {
  // a callback hook: no promise per request, and a request without the header goes on at once
  app.addHook('preParsing', (req, _reply, payload, done) => {
    // a raw-body route reads the header itself, after its own checks (the phone's token first)
    if (req.headers['content-encoding'] === undefined || req.routeOptions.config?.rawBody)
      return done(null, payload);
    let encoding: string | undefined;
    try {
      encoding = requestEncoding(req.headers['content-encoding']);
    } catch (err) {
      return done(err as Error);
    }
    if (encoding === undefined) return done(null, payload);
    done(null, decodedBody(payload, encoding, req.routeOptions.bodyLimit ?? Number.POSITIVE_INFINITY));
  });
}
