/**
 * The worker thread of an Apple Health import (import-xml.ts starts it): reads the export and
 * stores its samples on its own connection to the instance's database (WAL: the server's
 * connection goes on reading and writing meanwhile), then computes the subscribed cards' rows,
 * so the server's event loop only relays progress and writes the rows at the end.
 *
 * Messages to the parent (ImportWorkerMessage): `progress` after each chunk read, then one `done`
 * with what was read, the push run's counts and the cards' rows, or one `failed` with the error.
 * Each batch of samples is its own transaction on this connection. Their commits do not wait for
 * the disk (synchronous=NORMAL: in WAL mode a commit still survives a crash of the process): the
 * import's answer waits for the push record's commit on the server's connection, whose sync of the
 * WAL (synchronous=FULL) makes every earlier frame in it durable too, the samples included.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Database } from 'better-sqlite3';
import { KlebbError } from '../../errors.js';
import { SERVER_SQLITE_CACHE_KIB } from '../../limits.js';
import { MIGRATION_STEPS } from '../../migration-steps.js';
import { openDatabase } from '../../store/database.js';
import type { Subscription } from '../hae/cards.js';
import { resolveMetric } from '../hae/format/catalogue.js';
import type { MetricBlock } from '../hae/format/payload.js';
import { RowsAhead } from '../hae/rows-ahead.js';
import { HaeSampleStore } from '../hae/sample-store.js';
import { APPLE_HEALTH_ORIGIN, type PreparedFill, PushRun, type PushRunState } from '../hae/service.js';
import { type ExportRead, readAppleHealthExport } from './read-export.js';

/** What the worker is asked to do (its `workerData`). */
export interface ImportJob {
  /** The instance's SQLite file. */
  dbFile: string;
  /** The export.xml to read, and its size in bytes. */
  file: string;
  bytes: number;
  /** A path of this import's own for the identical-sample counts not in use (removed at the end). */
  countsFile: string;
  /** The cards subscribed when the import started: `[cardId, catalogue metric key]`. */
  subscriptions: [string, string][];
  /** The person's IANA zone (undefined: the server's): it dates what an export writes on another clock. */
  timeZone?: string;
  /** Blocks read from beside the export in its zip (its electrocardiograms), stored with its records. */
  extraBlocks?: MetricBlock[];
}

/** An error as it crosses from the worker: enough to throw the same KlebbError or storage fault again. */
export interface WorkerError {
  message: string;
  stack?: string;
  /** A KlebbError's status and code. */
  status?: number;
  klebbCode?: KlebbError['code'];
  /** A system or SQLite error code (`ENOENT`, `SQLITE_FULL`). */
  code?: string;
}

/** A message from the worker. */
export type ImportWorkerMessage =
  | { kind: 'opened'; pushId: number; afterId: number }
  | { kind: 'progress'; bytesRead: number; records: number }
  | { kind: 'done'; read: ExportRead; state: PushRunState; fills: Map<string, PreparedFill> }
  | { kind: 'failed'; error: WorkerError };

function errorOf(err: unknown): WorkerError {
  if (!(err instanceof Error)) return { message: String(err) };
  const out: WorkerError = { message: err.message, stack: err.stack };
  if (err instanceof KlebbError) {
    out.status = err.status;
    out.klebbCode = err.code;
  } else {
    const code = (err as { code?: unknown }).code;
    if (typeof code === 'string') out.code = code;
  }
  return out;
}

async function run(job: ImportJob, post: (m: ImportWorkerMessage) => void): Promise<void> {
  let db: Database | undefined;
  try {
    // the server connections' page cache, not better-sqlite3's 16 MB, which the samples written
    // filled: the import's peak memory grew with the file (by 14 MB at 100 MB, measured)
    db = openDatabase(job.dbFile, {
      synchronous: 'NORMAL',
      steps: MIGRATION_STEPS,
      cacheKiB: SERVER_SQLITE_CACHE_KIB,
    });
    const samples = new HaeSampleStore(db, () => job.timeZone);
    // the parent hears of the push row, to settle the push should this thread fail or die
    const onOpened = (pushId: number, afterId: number) => post({ kind: 'opened', pushId, afterId });
    const push = new PushRun({ samples, onOpened }, APPLE_HEALTH_ORIGIN, job.bytes);
    const subs: Subscription[] = [];
    for (const [cardId, metric] of job.subscriptions) {
      const entry = resolveMetric(metric);
      if (entry) subs.push({ cardId, metric, entry });
    }
    // the cards' rows are made as the samples are stored, not read back afterwards (hae/rows-ahead.ts)
    const ahead = new RowsAhead(
      subs.map((s) => s.entry),
      samples.timeZone(),
    );
    let last = 0;
    const read = await readAppleHealthExport(
      push,
      job.file,
      job.countsFile,
      (bytesRead, records) => {
        const now = Date.now();
        if (now - last < 100) return;
        last = now;
        post({ kind: 'progress', bytesRead, records });
      },
      ahead,
      job.extraBlocks,
    );
    post({ kind: 'progress', bytesRead: job.bytes, records: read.records });
    const fills =
      read.records || read.workouts || job.extraBlocks?.length
        ? await push.prepareFills(subs, ahead)
        : new Map();
    post({ kind: 'done', read, state: push.state(), fills });
  } catch (err) {
    post({ kind: 'failed', error: errorOf(err) });
  } finally {
    db?.close();
  }
}

if (parentPort) {
  const port = parentPort;
  await run(workerData as ImportJob, (m) => port.postMessage(m));
}
