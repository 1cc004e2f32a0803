/**
 * Runs the commit of rows written in slices (staged-rows.ts) on a worker thread's own connection
 * to the database (staged-commit-worker.ts), for a commit that replaces a card's old rows: that
 * one transaction moves every row, which on hundreds of thousands of rows takes seconds, and the
 * server's event loop keeps answering meanwhile (its reads see the old rows until the commit; a
 * write of its own waits for the lock as for any other writer).
 */
import { Worker } from 'node:worker_threads';
import { workerScriptUrl } from '../worker-script.js';
import type { StagedCommit } from './staged-rows.js';

/** What the worker is asked (its `workerData`). */
export interface StagedCommitJob {
  dbFile: string;
  commit: StagedCommit;
}

/** What the worker answers. */
export type StagedCommitResult =
  | { ok: true; version: number; setId: number }
  | { ok: false; message: string; code?: string };

/**
 * Commits `job` on a worker's connection to `dbFile`.
 * @returns the new data version and the change set it was recorded in.
 * @throws the worker's error (with its SQLite code, such as SQLITE_FULL); nothing changed then.
 */
export function commitInWorker(
  dbFile: string,
  commit: StagedCommit,
): Promise<{ version: number; setId: number }> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      fn();
    };
    const worker = new Worker(workerScriptUrl('./staged-commit-worker.js', import.meta.url), {
      workerData: { dbFile, commit } satisfies StagedCommitJob,
    });
    worker.once('message', (m: StagedCommitResult) =>
      settle(() => {
        if (m.ok) return resolve({ version: m.version, setId: m.setId });
        const err = new Error(m.message) as Error & { code?: string };
        if (m.code !== undefined) err.code = m.code;
        reject(err);
      }),
    );
    worker.once('error', (err) => settle(() => reject(err)));
    worker.once('exit', (code) =>
      settle(() => reject(new Error(`the thread storing the rows ended (code ${code}) before it answered`))),
    );
  });
}
