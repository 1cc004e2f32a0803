/**
 * A consistent copy of the live database taken with SQLite's online backup (better-sqlite3's
 * `db.backup()`): it includes what still sits in the WAL, which a copy of the main file alone
 * would lose, and writers are never blocked for longer than one step. Writes from other
 * connections meanwhile make the steps larger rather than keep it from finishing
 * (backupStepPages). The copy is made a rollback-journal database, readable alone and read-only
 * anywhere.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Db } from '../store/database.js';

/** Pages a backup step copies at first (better-sqlite3's own step size). */
const FIRST_STEP_PAGES = 100;

/**
 * The pages the next step of a backup copies. SQLite starts a backup over whenever another
 * connection writes to the database between two steps (the server's chat connection, an Apple
 * Health import's worker, `npm run mcp`, a replication tool), so a backup taken in small steps
 * while such writes keep coming may never finish. Each time it starts over, the step doubles;
 * after a few starts a step copies the rest at once, which no write can interrupt: the copy
 * always finishes, and in small steps (the event loop free between them) while nobody else writes.
 * @param restarts how often the backup has started over so far.
 */
export function backupStepPages(restarts: number): number {
  return restarts >= 8 ? 0x7fffffff : FIRST_STEP_PAGES * 2 ** restarts;
}

/**
 * Copies `db` into `target` (created; its folder too) and returns when the copy is complete.
 * The copy is a single self-contained file in rollback-journal mode: the backup copies the live
 * database's header, which says WAL, and a WAL file can only be opened where SQLite may create
 * its `-wal` and `-shm` beside it, so a backup on a read-only disk, a mounted snapshot or a
 * folder of another user could not be read ("attempt to write a readonly database").
 * @throws the SQLite error (disk full, say); a partial target is removed.
 */
export async function backupDatabase(db: Db, target: string): Promise<void> {
  fs.mkdirSync(path.dirname(target), { recursive: true });
  let restarts = 0;
  let left = Number.POSITIVE_INFINITY;
  try {
    await db.backup(target, {
      progress: ({ remainingPages }) => {
        // more left than after the last step: another connection wrote, and the copy began again
        if (remainingPages > left) restarts++;
        left = remainingPages;
        return backupStepPages(restarts);
      },
    });
    const copy = new Database(target, { fileMustExist: true });
    try {
      copy.pragma('journal_mode = DELETE');
    } finally {
      copy.close();
    }
  } catch (err) {
    for (const s of ['', '-wal', '-shm', '-journal']) fs.rmSync(target + s, { force: true });
    throw err;
  }
}

/** Opens a snapshot file read-only (for an export or a restore preview). */
export function openSnapshot(file: string): Db {
  return new Database(file, { readonly: true, fileMustExist: true });
}
