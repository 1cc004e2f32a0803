/**
 * The `error` an import, restore or roll back job ends with when applying fails: a catalogued
 * code and a sentence for people, never the database library's own code (SQLITE_CORRUPT) or
 * wording alone. Refusals of the server's own (FILE_CHANGED, SNAPSHOT_DAMAGED …) and storage
 * conditions (DISK_FULL, STORAGE_BUSY, NOT_SAVED) keep their codes; anything else is
 * IMPORT_FAILED.
 */
import { type ErrorCode, KlebbError } from '../errors.js';
import { storageFault } from '../store/storage-faults.js';

/** SQLite's codes for a file that is not a database or is damaged inside. */
const DAMAGED = /^SQLITE_(CORRUPT|NOTADB)/;

/** What the job was doing when it failed. */
export interface FailedJob {
  kind: 'import' | 'restore' | 'rollback';
  /** Past the database step, the home's rows were already replaced. */
  stage?: 'snapshot' | 'database' | 'files';
}

/** The job's `error` for `err`. */
export function jobFailure(err: unknown, job: FailedJob): { code: ErrorCode; message: string } {
  const known = err instanceof KlebbError ? err : storageFault(err);
  if (known) return { code: known.code, message: known.message };
  const what =
    job.kind === 'import' ? 'the import' : job.kind === 'restore' ? 'the restore' : 'the roll back';
  const source = job.kind === 'import' ? 'the archive' : 'the snapshot';
  const outcome = job.stage === 'files' ? 'the rows were replaced but not every file' : 'nothing was changed';
  const code = (err as { code?: unknown })?.code;
  const reason = err instanceof Error ? err.message : String(err);
  if (typeof code === 'string' && DAMAGED.test(code))
    return {
      code: 'IMPORT_FAILED',
      message: `${what} stopped: ${source}'s database is damaged (${reason}); ${outcome}`,
    };
  return { code: 'IMPORT_FAILED', message: `${what} did not complete (${reason}); ${outcome}` };
}
