/**
 * The worker thread of staged-commit.ts: opens its own connection to the instance's database
 * (synchronous=FULL: the commit is durable when it answers), commits the staged rows with the
 * same code the server's connection uses (CardDataStore.commitStagedRows), answers with the
 * version and change set, and ends.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { MIGRATION_STEPS } from '../migration-steps.js';
import { CardDataStore } from './card-data-store.js';
import { type Db, openDatabase } from './database.js';
import type { StagedCommitJob, StagedCommitResult } from './staged-commit.js';

function run(job: StagedCommitJob): StagedCommitResult {
  let db: Db | undefined;
  try {
    db = openDatabase(job.dbFile, { steps: MIGRATION_STEPS });
    const store = new CardDataStore(db);
    const version = store.commitStagedRows(job.commit);
    const setId = db.prepare('SELECT set_id FROM changes WHERE id = ?').pluck().get(version) as number;
    return { ok: true, version, setId };
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    return { ok: false, message: (err as Error).message, code: typeof code === 'string' ? code : undefined };
  } finally {
    db?.close();
  }
}

if (parentPort) parentPort.postMessage(run(workerData as StagedCommitJob));
