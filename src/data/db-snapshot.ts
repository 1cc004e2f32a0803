/**
 * A consistent copy of the live database taken with SQLite's online backup (better-sqlite3's
 * `db.backup()`): it includes what still sits in the WAL, which a copy of the main file alone
 * would lose, and writers are never blocked for longer than one step.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Db } from '../store/database.js';

/**
 * Copies `db` into `target` (created; its folder too) and returns when the copy is complete.
 * @throws the SQLite error (disk full, say); a partial target is removed.
 */
export async function backupDatabase(db: Db, target: string): Promise<void> {
  fs.mkdirSync(path.dirname(target), { recursive: true });
  try {
    await db.backup(target);
  } catch (err) {
    fs.rmSync(target, { force: true });
    throw err;
  }
}

/** Opens a snapshot file read-only (for an export or a restore preview). */
export function openSnapshot(file: string): Db {
  return new Database(file, { readonly: true, fileMustExist: true });
}
