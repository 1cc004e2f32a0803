/**
 * The instance's SQLite database (better-sqlite3, WAL, synchronous=FULL so an acknowledged
 * write survives a power cut). Opening applies the migrations; closing
 * checkpoints the WAL into the main file so a copy of the .sqlite file alone is complete.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { MIGRATIONS } from './migrations.js';

export type Db = Database.Database;

/**
 * Opens (creating if needed) the database file and brings its schema up to date.
 * `synchronous` defaults to FULL (card rows: an acknowledged write survives a power cut); the
 * chat transcripts use a second connection with NORMAL, which in WAL mode still survives a
 * crash of the process, so a turn's two commits do not each block on the disk.
 * @throws if the file is not a database or a migration fails (nothing half-applied: each
 *   migration runs in its own transaction).
 */
export function openDatabase(file: string, opts: { synchronous?: 'FULL' | 'NORMAL' } = {}): Db {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${opts.synchronous ?? 'FULL'}`);
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return db;
}

function migrate(db: Db): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  for (let v = current; v < MIGRATIONS.length; v++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[v]);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
}

/**
 * Checkpoints the WAL into the main file (TRUNCATE) and closes the handle. Safe to call twice.
 * @returns whether the checkpoint completed (false when a reader held it back).
 */
export function closeDatabase(db: Db): boolean {
  if (!db.open) return true;
  let complete = false;
  try {
    const rows = db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
    complete = rows[0]?.busy === 0;
  } finally {
    db.close();
  }
  return complete;
}
