/**
 * Storage conditions that are nobody's mistake and no bug either, turned into answers a client
 * can act on instead of a 500: the database held by another process past the busy timeout (a
 * backup tool, the sqlite3 shell, a second server by mistake) is 503 with `Retry-After`, and a
 * full disk (SQLite's SQLITE_FULL, the file system's ENOSPC or EDQUOT) is 507, and a write the disk
 * refused (an I/O error, a read-only file or mount, a folder the server may not write) is 503
 * NOT_SAVED. In each case the write was rolled back and nothing changed.
 */
import path from 'node:path';
import { KlebbError, RetryLaterError } from '../errors.js';
import { STORAGE_BUSY_RETRY_AFTER_S } from '../limits.js';
import { recursiveMkdirCause } from './mkdir-cause.js';

/** A 503 whose answer carries `Retry-After` (seconds). */
export class StorageBusyError extends RetryLaterError {
  constructor(retryAfterSeconds: number) {
    super(
      503,
      'STORAGE_BUSY',
      `the database is locked by another program; nothing was changed, try again in ${retryAfterSeconds} s`,
      retryAfterSeconds,
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

/**
 * 503 NOT_SAVED: the disk or the file system refused a write (an I/O error, a read-only file or
 * mount), or SQLite rolled the transaction back on its own after such a refusal; nothing of the
 * change was kept.
 */
export const notSaved = (why: string) =>
  new KlebbError(503, 'NOT_SAVED', `the disk refused the write (${why}): nothing was saved; try again later`);

const BUSY = /^SQLITE_(BUSY|LOCKED)/;
const REFUSED = /^SQLITE_(IOERR|READONLY|CANTOPEN)/;
/**
 * What the file system says when it refuses a write of a card file or another file of the home:
 * a data folder on a mount made read-only, a folder or file the server's user may not write (a
 * volume owned by another user, a file locked by hand), a failing disk.
 */
const REFUSED_ERRNO: Record<string, string> = {
  EROFS: 'the file system is read-only',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EIO: 'an input/output error',
};
/** Codes of the answers above, passed on as they are when they come back as errors. */
const STORAGE_CODES = new Set(['DISK_FULL', 'STORAGE_BUSY', 'NOT_SAVED']);
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
  if (err instanceof KlebbError) return STORAGE_CODES.has(err.code) ? err : null;
  // a folder that could not be made is reported as missing by a recursive mkdir: read its cause
  const hidden = recursiveMkdirCause(err);
  if (hidden) return storageFault(hidden);
  if (isDiskFull(err)) return diskFull();
  if (isStorageBusy(err)) return new StorageBusyError(STORAGE_BUSY_RETRY_AFTER_S);
  const code = (err as { code?: unknown })?.code;
  if (typeof code === 'string' && REFUSED.test(code)) return notSaved(code);
  if (typeof code === 'string' && Object.hasOwn(REFUSED_ERRNO, code)) {
    // the folder, not the file: that may be a temporary file whose name says nothing to a person
    const where = (err as { path?: unknown }).path;
    return notSaved(
      `${code}, ${REFUSED_ERRNO[code]}${typeof where === 'string' ? ` in ${path.dirname(where)}` : ''}`,
    );
  }
  return null;
}
