/**
 * A snapshot's database in this build's schema. A snapshot keeps the database as the Klebb that
 * took it wrote it: one taken before an upgrade (a daily one of last week, a manual one of last
 * year) lacks the tables and columns later versions added, and holds samples keyed as that
 * version keyed them. Copying its rows into the running home as they are fails on a missing table
 * or stores the samples under old keys, so the next push of the same readings is stored twice.
 * The restore reads a copy brought up to date by the same migrations a start runs; the snapshot
 * itself is never changed.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { MIGRATION_STEPS } from '../migration-steps.js';
import { openDatabase } from '../store/database.js';
import { MIGRATIONS } from '../store/migrations.js';
import type { StagedPaths } from './staged-home.js';

/** The schema version (`PRAGMA user_version`) of the database at `file`, read-only. */
function schemaVersion(file: string): number {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return db.pragma('user_version', { simple: true }) as number;
  } finally {
    db.close();
  }
}

/** A staged home whose database is in this build's schema, and what to remove when done. */
export interface CurrentSchema {
  staged: StagedPaths;
  /** Removes the migrated copy, if one was made. */
  done(): void;
}

/**
 * `staged` itself when its database is in this build's schema; else the same paths with the
 * database replaced by a migrated copy written as `workFile` (and its -wal/-shm while open).
 * @throws NewerDatabaseError for a database a later Klebb wrote (nothing is copied then), or
 *   the disk's error while copying; no copy is left behind.
 */
export function inCurrentSchema(staged: StagedPaths, workFile: string): CurrentSchema {
  if (schemaVersion(staged.db) === MIGRATIONS.length) return { staged, done: () => {} };
  const remove = () => {
    for (const f of [workFile, `${workFile}-wal`, `${workFile}-shm`, `${workFile}-journal`])
      fs.rmSync(f, { force: true });
  };
  try {
    fs.mkdirSync(path.dirname(workFile), { recursive: true });
    fs.copyFileSync(staged.db, workFile);
    fs.chmodSync(workFile, 0o600);
    openDatabase(workFile, { synchronous: 'NORMAL', steps: MIGRATION_STEPS }).close();
  } catch (err) {
    remove();
    throw err;
  }
  return { staged: { ...staged, db: workFile }, done: remove };
}
