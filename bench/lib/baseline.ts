/**
 * Baselines that put the figures in context on a shared machine: how long the disk takes to make
 * a small write durable (every Klebb append waits for such a flush: SQLite WAL, synchronous=FULL),
 * and how long an HTTP round trip to a route that does nothing (/healthz) takes. Both are
 * Participants, so they can be interleaved with the measured work (see interleave.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { expectStatus, type HttpClient } from './http.js';
import type { Participant } from './interleave.js';

/** Appends 4 KiB to a probe file in `dir` and fdatasyncs it, per op. `close()` removes the file. */
export function fdatasyncProbe(dir: string): Participant & { close(): void } {
  const file = path.join(dir, `.fsync-probe-${process.pid}`);
  const fd = fs.openSync(file, 'w');
  const block = Buffer.alloc(4096, 1);
  return {
    name: 'fdatasync',
    op() {
      const t0 = performance.now();
      fs.writeSync(fd, block);
      fs.fdatasyncSync(fd);
      return performance.now() - t0;
    },
    close() {
      fs.closeSync(fd);
      fs.rmSync(file, { force: true });
    },
  };
}

/** One `GET /healthz` on the client's keep-alive socket per op. */
export function healthzProbe(client: HttpClient): Participant {
  return {
    name: 'healthz',
    async op() {
      return expectStatus(await client.request('/healthz'), 200, 'GET /healthz').ms;
    },
  };
}
