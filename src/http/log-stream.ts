/**
 * Where the server's pino lines go: standard output, written from the calling thread.
 *
 * pino's own default (sonic-boom on fd 1, asynchronous) hands every line to the libuv thread
 * pool and back: two thread switches and a wake-up of the event loop per request line, which on
 * a small machine cost more CPU than building the line (measured with bench/append-latency.ts:
 * about 0.05 ms per request). `process.stdout` writes a file at once (a synchronous write) and a
 * pipe or terminal at once too while it has room, queueing only what does not fit, so lines are
 * never lost or reordered and a slow reader never stalls the server.
 *
 * A reader that went away (EPIPE, the log collector was stopped) ends logging instead of
 * crashing the server on its next request, as pino's default stream does.
 */
import type { Writable } from 'node:stream';

/** Streams whose reader is gone, by stream (one error listener each, however many apps log there). */
const readerGone = new WeakMap<Writable, { gone: boolean }>();

/** Marks `out` as gone on EPIPE (once per stream); any other error is rethrown. */
function brokenPipeState(out: Writable): { gone: boolean } {
  let state = readerGone.get(out);
  if (!state) {
    const s = { gone: false };
    out.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE') throw err;
      s.gone = true;
    });
    readerGone.set(out, s);
    state = s;
  }
  return state;
}

/** The destination of the app's logger (Fastify's `logger.stream`): one `write` per line. */
export function logStream(out: Writable = process.stdout): { write(line: string): void } {
  const state = brokenPipeState(out);
  return {
    write(line: string) {
      if (!state.gone) out.write(line);
    },
  };
}
