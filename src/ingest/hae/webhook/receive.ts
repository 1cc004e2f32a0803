/**
 * Reading a request body as bytes, with our own limits.
 *
 * - Bytes are collected as Buffers and decoded once (never `body += chunk`, which turns a
 *   multi-byte character split across TCP chunks into U+FFFD).
 * - Past `maxBytes` the promise resolves `tooLarge` at once, from the data handler, so the caller
 *   answers 413 while the body is still arriving; the rest of the body is drained (`resume()`),
 *   never destroyed, so the client reads the 413 instead of a connection reset and does not retry
 *   forever. A declared Content-Length over the limit is refused before reading anything.
 * - Up to `inlineMaxBytes` the body stays in memory; past it, what came so far and the rest are
 *   written to a spool file (backpressure honoured), so a 100 MB body never sits in memory.
 */
import fs from 'node:fs';
import type { Readable } from 'node:stream';
import { badRequest, KlebbError } from '../../../errors.js';
import { decodedBody, requestEncoding } from '../../../http/body-encoding.js';
import { storageFault } from '../../../store/storage-faults.js';

/**
 * Bytes the spool file's stream buffers before the body is paused, 1 MiB. Node's default (16 KiB)
 * is less than one TCP chunk of a fast upload (64 KiB): every chunk paused the request and wrote
 * on its own. With room for several, the chunks that arrive while one write is under way go out
 * together in the next (one writev), and the request is paused only when the disk falls behind.
 */
const SPOOL_BUFFER_BYTES = 1024 * 1024;

/** The outcome of receiveBody. */
export type Received =
  /**
   * The whole body in memory: `chunks` as they arrived, and `body`, those joined into one buffer
   * when first read (a caller that only hashes the chunks, such as a webhook re-send answered from
   * its memo, never copies the body into fresh memory: about a third of such a re-send's CPU time).
   */
  | { kind: 'inline'; bytes: number; chunks: readonly Buffer[]; readonly body: Buffer }
  /** The whole body in `file` (the caller removes or keeps it). */
  | { kind: 'spooled'; bytes: number; file: string }
  /** Over the limit: answer 413 now; the rest is being drained. `bytes`: what had arrived. */
  | { kind: 'tooLarge'; bytes: number; declared?: number }
  /**
   * The client went away or the spool could not be written; nothing to answer. A KlebbError
   * (a body that does not decode: 400 BAD_CONTENT_ENCODING) is the answer to give.
   */
  | { kind: 'failed'; bytes: number; error: Error };

/** Options of receiveBody. */
export interface ReceiveOptions {
  /** Largest body accepted, bytes. */
  maxBytes: number;
  /** Bodies larger than this are spooled to disk, bytes. */
  inlineMaxBytes: number;
  /** Path of the spool file to create when needed (called at most once). */
  spoolPath: () => string;
  /** The request's Content-Length header, when sent. */
  contentLength?: string | number;
  /**
   * The request's Content-Encoding header: a gzip, deflate or br body is decoded as it arrives
   * (src/http/body-encoding.ts) and `maxBytes` counts the decoded bytes.
   */
  contentEncoding?: string | string[];
  /**
   * Told the bytes received so far after each chunk (decoded bytes when `contentEncoding` is
   * set), for a progress report while a large upload arrives.
   */
  onBytes?: (bytes: number) => void;
}

/**
 * Reads `stream` (the raw request) to its end under the limits above.
 * @returns never rejects; see Received.
 */
export function receiveBody(raw: Readable, opts: ReceiveOptions): Promise<Received> {
  let stream = raw;
  try {
    const encoding = requestEncoding(opts.contentEncoding);
    if (encoding) stream = decodedBody(raw, encoding, opts.maxBytes);
  } catch (err) {
    raw.resume();
    return Promise.resolve({ kind: 'failed', bytes: 0, error: err as Error });
  }
  const declared = opts.contentLength === undefined ? undefined : Number(opts.contentLength);
  if (declared !== undefined && Number.isFinite(declared) && declared > opts.maxBytes) {
    stream.resume();
    return Promise.resolve({ kind: 'tooLarge', bytes: 0, declared });
  }
  return new Promise<Received>((resolve) => {
    let bytes = 0;
    let chunks: Buffer[] = [];
    let spool: fs.WriteStream | undefined;
    let spoolFile: string | undefined;
    let done = false;

    const detach = () => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
      stream.off('aborted', onAborted);
      stream.off('close', onClose);
    };
    const dropSpool = () => {
      if (!spool || !spoolFile) return;
      const file = spoolFile;
      spool.destroy();
      spool.once('close', () => fs.rmSync(file, { force: true }));
      fs.rmSync(file, { force: true });
    };
    const finish = (r: Received) => {
      if (done) return;
      done = true;
      detach();
      resolve(r);
    };
    const fail = (error: Error) => {
      if (done) return;
      chunks = [];
      dropSpool();
      // keep reading (and discarding) so a still-connected client is not reset
      stream.on('error', () => {});
      stream.resume();
      finish({ kind: 'failed', bytes, error });
    };

    function onData(chunk: Buffer) {
      if (done) return;
      bytes += chunk.length;
      opts.onBytes?.(bytes);
      if (bytes > opts.maxBytes) {
        chunks = [];
        dropSpool();
        // the answer goes out now, from the data handler; the rest of the body is drained
        stream.on('error', () => {});
        stream.resume();
        finish({ kind: 'tooLarge', bytes });
        return;
      }
      if (!spool) {
        chunks.push(chunk);
        if (bytes <= opts.inlineMaxBytes) return;
        spoolFile = opts.spoolPath();
        try {
          spool = fs.createWriteStream(spoolFile, {
            flags: 'wx',
            mode: 0o600,
            highWaterMark: SPOOL_BUFFER_BYTES,
          });
        } catch (err) {
          fail(err as Error);
          return;
        }
        spool.on('error', (err) => fail(err));
        const pending = chunks;
        chunks = [];
        for (const c of pending.slice(0, -1)) spool.write(c);
        chunk = pending[pending.length - 1];
      }
      if (!spool.write(chunk)) {
        stream.pause();
        spool.once('drain', () => {
          if (!done) stream.resume();
        });
      }
    }

    function onEnd() {
      if (done) return;
      if (!spool) {
        finish(inlineBody(chunks, bytes));
        chunks = [];
        return;
      }
      const file = spoolFile as string;
      const ws = spool;
      detach();
      // a spool file the folder refused (read-only, no permission) fails only now, when a small
      // body ended before its asynchronous open: end's callback gets that error, and the body
      // is then not spooled, whatever came first
      ws.end((err?: Error | null) => {
        if (err) return fail(err);
        if (done) return;
        done = true;
        resolve({ kind: 'spooled', bytes, file });
      });
    }

    function onError(err: Error) {
      // the decoded body grew past the limit: the decoder stopped and drains the rest itself
      if (!(err instanceof KlebbError && err.status === 413)) return fail(err);
      chunks = [];
      dropSpool();
      finish({ kind: 'tooLarge', bytes });
    }
    function onAborted() {
      fail(new Error('the client aborted the request'));
    }
    function onClose() {
      // 'close' before 'end': the connection went away mid-body
      if (!done && !(stream as Readable & { complete?: boolean }).complete)
        fail(new Error('the connection closed before the body ended'));
    }

    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onError);
    stream.on('aborted', onAborted);
    stream.on('close', onClose);
  });
}

/** An inline outcome whose `body` joins `chunks` (`bytes` in all) on first read, once. */
function inlineBody(chunks: readonly Buffer[], bytes: number): Received {
  let joined: Buffer | undefined;
  return {
    kind: 'inline',
    bytes,
    chunks,
    get body(): Buffer {
      joined ??= chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, bytes);
      return joined;
    },
  };
}

/**
 * Decodes a whole UTF-8 body once, from the complete bytes (so a character split across TCP
 * chunks is whole again). A leading byte-order mark is dropped; invalid sequences become U+FFFD
 * rather than failing: JSON.parse then decides whether the body is usable.
 */
export function decodeUtf8(body: Buffer): string {
  const bom = body.length >= 3 && body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf;
  return (bom ? body.subarray(3) : body).toString('utf8');
}

/**
 * The answer to a body receiveBody could not read (`failed`): its own refusal when it is one (a
 * body that does not decode: 400 BAD_CONTENT_ENCODING), a storage condition when the spool file
 * could not be written (507 DISK_FULL …), else 400 BODY_READ_FAILED: the upload broke off (the
 * client went away, or sent less than its Content-Length) and nothing of it was kept.
 */
export function bodyReadError(err: Error): KlebbError {
  if (err instanceof KlebbError) return err;
  const fault = storageFault(err);
  if (fault) return fault;
  return badRequest(
    `the upload broke off before its body was read (${err.message}); nothing of it was kept, send it again`,
    undefined,
    'BODY_READ_FAILED',
  );
}
