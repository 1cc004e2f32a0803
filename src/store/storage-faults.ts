/**
 * Storage conditions that are nobody's mistake and no bug either, turned into answers a client
 * can act on instead of a 500: the database held by another process past the busy timeout (a
 * backup tool, the sqlite3 shell, a second server by mistake) is 503 with `Retry-After`, and a
 * full disk (SQLite's SQLITE_FULL, the file system's ENOSPC or EDQUOT) is 507. In both cases the
 * write was rolled back and nothing changed.
 */
import { KlebbError } from '../errors.js';
import { STORAGE_BUSY_RETRY_AFTER_S } from '../limits.js';

/** A 503 whose answer carries `Retry-After` (seconds). */
export class StorageBusyError extends KlebbError {
  constructor(readonly retryAfterSeconds: number) {
    super(
      503,
      'STORAGE_BUSY',
      `the database is locked by another program; nothing was changed, try again in ${retryAfterSeconds} s`,
    );
    this.name = 'StorageBusyError';
  }
}

/** 507 DISK_FULL: the write did not fit on the disk and was rolled back. */
export const diskFull = () =>
  new KlebbError(
    507,
    'DISK_FULL',
    'the disk is full: the change was not applied; free some space and try again',
  );

const BUSY = /^SQLITE_(BUSY|LOCKED)/;
const FULL_ERRNO = new Set(['ENOSPC', 'EDQUOT']);

/** Whether `err` says the disk (or the quota) is full. */
export function isDiskFull(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'string' && (code === 'SQLITE_FULL' || FULL_ERRNO.has(code));
}

/** Whether `err` says the database was locked by someone else past the busy timeout. */
export function isStorageBusy(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'string' && BUSY.test(code);
}

/** The client-facing error for a storage condition, or null when `err` is something else. */
export function storageFault(err: unknown): KlebbError | null {
  if (isDiskFull(err)) return diskFull();
  if (isStorageBusy(err)) return new StorageBusyError(STORAGE_BUSY_RETRY_AFTER_S);
  return null;
}
