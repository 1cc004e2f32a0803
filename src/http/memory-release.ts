/**
 * Gives memory back after start-up, after a large request (a data replace, an import, a
 * Health Auto Export push) and after a request that compiled its route's checks (they are
 * compiled at first use, src/http/validation.ts). All leave garbage on the JavaScript heap
 * (start-up about 10 MB: module sources read; a large request tens of MB) and pages in SQLite's
 * cache; V8 collects the heap only when something allocates again, and an idle instance allocates
 * nothing, so without this the memory stays taken until the next request (measured in
 * bench/idle-memory.ts). Once the server has started, or a large request has come in, and then
 * no request has been answered for MEMORY_RELEASE_IDLE_MS, SQLite is asked to free its caches
 * (`PRAGMA shrink_memory`) and V8 to collect its heap, once.
 */
import v8 from 'node:v8';
import vm from 'node:vm';
import type { FastifyInstance } from 'fastify';
import {
  MEMORY_RELEASE_IDLE_MS,
  MEMORY_RELEASE_MAX_WAIT_MS,
  MEMORY_RELEASE_MIN_BODY_BYTES,
} from '../limits.js';
import type { Db } from '../store/database.js';
import { checksCompiled } from './validation.js';

/**
 * V8's collector, when the process allowed it (main.ts sets `--expose-gc` before anything loads;
 * a context made afterwards gets the `gc` function). Undefined otherwise: then only SQLite frees.
 */
function collector(): (() => void) | undefined {
  try {
    const gc = vm.runInNewContext('typeof gc === "function" ? gc : undefined');
    return typeof gc === 'function' ? gc : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The release's collection of the V8 heap. It compacts: it moves the survivors out of half-empty
 * pages so those go back to the system now (about 10 MB after start-up), not whenever V8's own
 * memory reducer gets to it (seconds to minutes later). It also drops the bytecode of every
 * function not running at that moment, and the baseline machine code made from it (V8 makes both
 * again from the source when the function is next called): V8 would drop a function's bytecode
 * only after several full collections without a call, which an idle server never has, and never
 * drops baseline code unless told to, so the code of what ran once at start-up (module bodies,
 * migrations, route declarations) stayed for good: about 3 MB of an idle server's RSS. The next
 * request pays for making its functions' code again (a few ms, measured). The second collection
 * compacts the pages the first one's dropped code left half empty. The server's other
 * collections stay as V8 decides: every flag is put back.
 */
function collectOnce(gc: () => void): void {
  v8.setFlagsFromString('--compact-on-every-full-gc');
  v8.setFlagsFromString('--stress-flush-code');
  v8.setFlagsFromString('--flush-baseline-code');
  try {
    gc();
    v8.setFlagsFromString('--no-stress-flush-code');
    v8.setFlagsFromString('--no-flush-baseline-code');
    gc();
  } finally {
    v8.setFlagsFromString('--no-stress-flush-code');
    v8.setFlagsFromString('--no-flush-baseline-code');
    v8.setFlagsFromString('--no-compact-on-every-full-gc');
  }
}

/** The size of V8's young generation (its new space), in bytes. */
function youngGenerationBytes(): number {
  return v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0;
}

/**
 * Installs the release once the app is ready (start-up), after requests whose body is at
 * least MEMORY_RELEASE_MIN_BODY_BYTES and after requests that compiled route checks; any
 * answered request while one is due puts it off, so it runs in a quiet moment rather than between the requests of a burst (but never more than
 * MEMORY_RELEASE_MAX_WAIT_MS after it was due, so a client polling without pause cannot hold it
 * off for good).
 */
export function releaseMemoryAfterLargeRequests(app: FastifyInstance, dbs: Db[]): void {
  const gc = collector();
  let timer: NodeJS.Timeout | undefined;
  let dueSince = 0;
  let compiledSeen = checksCompiled();
  const idleYoung = youngGenerationBytes();
  let settle: NodeJS.Timeout | undefined;
  // V8 gives back a young generation that grew during a large push only at a collection that
  // follows a quiet spell measured from the previous collection, so the release's own collections
  // come too soon: one more, a quiet spell later, returns those tens of MB.
  const settleYoung = () => {
    settle = undefined;
    if (gc && youngGenerationBytes() > idleYoung) gc();
  };
  const release = () => {
    timer = undefined;
    for (const db of dbs) if (db.open) db.pragma('shrink_memory');
    if (!gc) return;
    collectOnce(gc);
    if (youngGenerationBytes() > idleYoung && !settle) {
      settle = setTimeout(settleYoung, MEMORY_RELEASE_IDLE_MS);
      settle.unref();
    }
  };
  const schedule = () => {
    if (timer) {
      if (Date.now() - dueSince < MEMORY_RELEASE_MAX_WAIT_MS) timer.refresh();
    } else {
      dueSince = Date.now();
      timer = setTimeout(release, MEMORY_RELEASE_IDLE_MS);
      timer.unref();
    }
  };
  app.addHook('onReady', async () => schedule());
  // a callback hook, not an async one: no promise per request for work that never waits
  app.addHook('onResponse', (req, _reply, done) => {
    const length = Number(req.headers['content-length'] ?? 0);
    const chunked = req.headers['transfer-encoding'] !== undefined;
    const compiledNow = checksCompiled();
    if (timer || length >= MEMORY_RELEASE_MIN_BODY_BYTES || chunked || compiledNow !== compiledSeen)
      schedule();
    compiledSeen = compiledNow;
    done();
  });
  app.addHook('onClose', async () => {
    if (timer) clearTimeout(timer);
    if (settle) clearTimeout(settle);
    timer = undefined;
    settle = undefined;
  });
}
