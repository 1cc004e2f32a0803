/**
 * The instance's SQLite database (better-sqlite3, WAL, synchronous=FULL so an acknowledged
 * write survives a power cut). Opening applies the migrations; closing
 * checkpoints the WAL into the main file so a copy of the .sqlite file alone is complete. A
 * database file replaced or removed under a running server makes every later write a 503
 * instead of a write into the old file that the next start would not see.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { KlebbError } from '../errors.js';
import { SQLITE_BUSY_TIMEOUT_MS, WAL_SIZE_LIMIT_BYTES } from '../limits.js';
import { MIGRATIONS, type MigrationSteps } from './migrations.js';
import { notSaved } from './storage-faults.js';
import { WalSync } from './wal-sync.js';

export type Db = Database.Database;

/** The group commit of each connection opened with `synchronous: 'FULL'`. */
const walSyncs = new WeakMap<Db, WalSync>();
/** Per connection: the prepared statements that switch its synchronous level. */
const levels = new WeakMap<Db, { normal: Database.Statement; full: Database.Statement }>();

/**
 * Per connection: one `db.transaction()` wrapper that runs whatever function is in `fn`.
 * better-sqlite3 builds four wrapper functions for every `db.transaction(fn)` call; every row
 * write is a transaction, so building them once per connection saves that on each write. The
 * wrapper's own rules stay: BEGIN IMMEDIATE (a savepoint inside a transaction), rollback on throw.
 */
const runners = new WeakMap<
  Db,
  { tx: Database.Transaction<() => unknown>; fn: (() => unknown) | undefined }
>();

/** Per connection: a check every write transaction runs first; it throws to refuse the write. */
const writeGates = new WeakMap<Db, () => void>();

/**
 * Sets the check each write transaction of `db` (writeTransaction, deferredWriteTransaction)
 * runs before it begins, outside another transaction: it throws to refuse the write (the home's
 * freeze while a restore is applied, src/store/home-freeze.ts). Transactions opened with
 * `db.transaction` directly (the restore's own) are not checked.
 */
export function setWriteGate(db: Db, gate: () => void): void {
  writeGates.set(db, gate);
}

/** Runs the write gate and the file check of `db` before a write transaction (not a savepoint). */
function beforeWrite(db: Db): void {
  if (db.inTransaction) return;
  writeGates.get(db)?.();
  assertFileInPlace(db);
}

/** How often a write looks at whether the database file is still the one open, ms. */
const FILE_CHECK_MS = 250;

/** Per connection: the database file, its identity (device and inode) when opened, and when it was last checked. */
const opened = new WeakMap<Db, { file: string; identity: string | null; checkedAt: number; gone: boolean }>();

function fileIdentity(file: string): string | null {
  try {
    const st = fs.statSync(file);
    return `${st.dev}:${st.ino}`;
  } catch {
    return null;
  }
}

/**
 * Refuses a write once the database file is no longer the file this connection has open: it was
 * replaced (a restore moved into place, `litestream restore -o` over it) or deleted while the
 * server runs. SQLite goes on writing into the old, unlinked file, so every later write would be
 * answered as saved and be gone at the next start. Checked at most every FILE_CHECK_MS; once
 * seen, every write is refused until a restart opens the file now in place.
 * @throws 503 NOT_SAVED saying so.
 */
function assertFileInPlace(db: Db): void {
  const o = opened.get(db);
  if (!o) return;
  const now = Date.now();
  if (!o.gone && now - o.checkedAt >= FILE_CHECK_MS) {
    o.checkedAt = now;
    o.gone = fileIdentity(o.file) !== o.identity;
  }
  if (o.gone) {
    throw new KlebbError(
      503,
      'NOT_SAVED',
      'the database file was replaced or removed while the server runs: nothing was saved; restart the server to use the file now in its place',
    );
  }
}

/** Runs `fn` as `db.transaction(fn).immediate()` would (see `runners`). */
function runImmediate<T>(db: Db, fn: () => T): T {
  let r = runners.get(db);
  if (!r) {
    const runner: { tx: Database.Transaction<() => unknown>; fn: (() => unknown) | undefined } = {
      tx: db.transaction(() => {
        const out = (runner.fn as () => unknown)();
        // SQLite rolls a whole transaction back by itself after some failures (a full disk, an
        // I/O error); one caught inside (a card's fill noted as failed) must not pass for a commit
        if (!db.inTransaction) throw notSaved('the database rolled the change back');
        return out;
      }),
      fn: undefined,
    };
    runners.set(db, runner);
    r = runner;
  }
  // a nested call (a savepoint) puts the outer function back when it ends
  const outer = r.fn;
  r.fn = fn;
  try {
    return r.tx.immediate() as T;
  } finally {
    r.fn = outer;
  }
}

/** The group commit of `db` (undefined for a connection opened with `synchronous: 'NORMAL'`). */
export function walSyncOf(db: Db): WalSync | undefined {
  return walSyncs.get(db);
}

/**
 * Runs `fn` in a write transaction taken with BEGIN IMMEDIATE (a savepoint when already inside
 * one). A deferred transaction that reads and then writes cannot wait for a lock another program
 * holds: SQLite answers SQLITE_BUSY at once instead of honouring busy_timeout. Taking the write
 * lock first makes every write wait up to SQLITE_BUSY_TIMEOUT_MS. A throw rolls everything back.
 */
export function writeTransaction<T>(db: Db, fn: () => T): T {
  beforeWrite(db);
  const ws = db.inTransaction ? undefined : walSyncs.get(db);
  const before = ws?.rowsChanged();
  const out = runImmediate(db, fn);
  // synchronous=FULL flushed the WAL at this commit, earlier commits with it: nothing is left for
  // a group commit. Only when it wrote: a commit that changed nothing writes and flushes nothing.
  if (ws && ws.rowsChanged() !== before) ws.markSynced();
  return out;
}

/**
 * writeTransaction whose commit does not wait for the disk (group commit, src/store/wal-sync.ts):
 * the commit is complete and visible at once, and survives a crash of the process, but it is
 * only safe from a power cut once `walSyncOf(db).durable()` resolves. Whoever acknowledges the
 * write must wait for that (HTTP replies do: src/http/durable-replies.ts). Inside another
 * transaction it is a savepoint of that transaction, which keeps its own commit mode.
 */
export function deferredWriteTransaction<T>(db: Db, fn: () => T): T {
  beforeWrite(db);
  const ws = walSyncs.get(db);
  const lv = levels.get(db);
  if (!ws || !lv || db.inTransaction) return runImmediate(db, fn);
  // the level cannot change inside a transaction; it holds for this one only
  lv.normal.run();
  let out: T;
  try {
    out = runImmediate(db, fn);
  } catch (err) {
    lv.full.run();
    throw err;
  }
  // the flush starts now, for this commit and every one made while it runs (a commit that
  // changed nothing is counted too: one flush more, never one less); the level goes back after
  ws.committed();
  ws.durable().catch(() => {});
  lv.full.run();
  return out;
}

/**
 * Opens (creating if needed) the database file and brings its schema up to date.
 * `synchronous` defaults to FULL (card rows: an acknowledged write survives a power cut; the row
 * writes of deferredWriteTransaction get there through the group commit of src/store/wal-sync.ts); the
 * chat transcripts use a second connection with NORMAL, which in WAL mode still survives a
 * crash of the process, so a turn's two commits do not each block on the disk.
 * `steps` are the migrations' steps that live above the store (src/migration-steps.ts).
 * `cacheKiB` bounds SQLite's page cache of this connection (better-sqlite3 builds SQLite with
 * 16 MB; a long-lived server connection takes less, see SERVER_SQLITE_CACHE_KIB).
 * @throws DamagedDatabaseError naming the file and what to do when it is not a database or is
 *   damaged; NewerDatabaseError when a later version of Klebb wrote it; the migration's error when one fails (nothing half-applied: each migration runs in
 *   its own transaction).
 */
export function openDatabase(
  file: string,
  opts: { synchronous?: 'FULL' | 'NORMAL'; steps: MigrationSteps; cacheKiB?: number },
): Db {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  try {
    return openChecked(file, opts);
  } catch (err) {
    throw damagedDatabase(file, err) ?? err;
  }
}

/**
 * A database file SQLite cannot read (not a database, or damaged), named with what to do, as a
 * DamagedDatabaseError; null for any other error.
 */
function damagedDatabase(file: string, err: unknown): DamagedDatabaseError | null {
  const code = (err as { code?: unknown }).code;
  if (typeof code !== 'string' || !(code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT')))
    return null;
  return new DamagedDatabaseError(
    `the database file ${file} is damaged or not a SQLite database (${(err as Error).message}). ` +
      'Nothing was changed. Stop the server, move the file (and its -wal and -shm files beside it) ' +
      'aside, and restore it from a backup: a snapshot in HEALTH_HOME/backups ' +
      '(npm run backups -- --restore NAME --target DIR) or an off-site copy; ' +
      'docs/DEPLOY.md#backups and docs/EXPORT.md say how',
  );
}

/** The database file cannot be read as SQLite: the message names the file and what to do. */
export class DamagedDatabaseError extends Error {
  override name = 'DamagedDatabaseError';
}

/**
 * The database file was last opened by a later version of Klebb (its schema has migrations this
 * one does not know): the message names the file, both schema numbers and what to do.
 */
export class NewerDatabaseError extends Error {
  override name = 'NewerDatabaseError';
}

/**
 * @throws NewerDatabaseError when `db`'s schema is past this version's last migration: a server
 * put back to an older image, or a home copied from a newer one. Read before anything is written,
 * so the file stays as the later version left it; run on, this version would read tables whose
 * meaning it does not know and write rows the later one no longer expects.
 */
function assertKnownSchema(db: Database.Database, file: string): void {
  const schema = db.pragma('user_version', { simple: true }) as number;
  if (schema <= MIGRATIONS.length) return;
  throw new NewerDatabaseError(
    `the database file ${file} was written by a later version of Klebb (schema ${schema}; this ` +
      `version knows schemas up to ${MIGRATIONS.length}). Nothing was changed. Run that later ` +
      'version again, or to go back to this one, restore a backup taken with it ' +
      '(docs/DEPLOY.md#backups)',
  );
}

function openChecked(
  file: string,
  opts: { synchronous?: 'FULL' | 'NORMAL'; steps: MigrationSteps; cacheKiB?: number },
): Db {
  const db = new Database(file);
  try {
    assertKnownSchema(db, file);
  } catch (err) {
    db.close();
    throw err;
  }
  if (opts.cacheKiB !== undefined) db.pragma(`cache_size = -${opts.cacheKiB}`);
  db.pragma('journal_mode = WAL');
  // the file exists from here on (switching to WAL wrote its header)
  opened.set(db, { file, identity: fileIdentity(file), checkedAt: Date.now(), gone: false });
  db.pragma(`synchronous = ${opts.synchronous ?? 'FULL'}`);
  db.pragma('foreign_keys = ON');
  db.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  // a log grown while an outside reader held it is cut back once it is reused
  db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
  migrate(db, opts.steps);
  if ((opts.synchronous ?? 'FULL') === 'FULL') {
    walSyncs.set(db, new WalSync(db, `${file}-wal`));
    levels.set(db, {
      normal: db.prepare('PRAGMA synchronous = NORMAL'),
      full: db.prepare('PRAGMA synchronous = FULL'),
    });
  }
  return db;
}

function migrate(db: Db, steps: MigrationSteps): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  for (let v = current; v < MIGRATIONS.length; v++) {
    db.transaction(() => {
      const step = MIGRATIONS[v];
      if (typeof step === 'string') db.exec(step);
      else step(db, steps);
      db.pragma(`user_version = ${v + 1}`);
    }).immediate();
  }
}

/** How a close went: `complete` when the whole WAL reached the main file. */
export interface CloseResult {
  complete: boolean;
  /** Frames in the WAL and frames copied into the main file (-1 when not known). */
  walFrames: number;
  checkpointed: number;
  /** Why the checkpoint failed (a full disk, an I/O error), when it threw. */
  error?: string;
}

/**
 * Checkpoints the WAL into the main file (TRUNCATE) and closes the handle. Safe to call twice.
 * Never throws: a checkpoint held back by a reader, or one that fails (a full disk), leaves the
 * rest in the WAL, where SQLite finds it on the next open; the result says so for the log.
 */
export function closeDatabase(db: Db): CloseResult {
  if (!db.open) return { complete: true, walFrames: 0, checkpointed: 0 };
  walSyncs.get(db)?.close();
  let result: CloseResult = { complete: false, walFrames: -1, checkpointed: -1 };
  try {
    const rows = db.pragma('wal_checkpoint(TRUNCATE)') as {
      busy: number;
      log: number;
      checkpointed: number;
    }[];
    const r = rows[0];
    result = {
      complete: r?.busy === 0 && r.log === r.checkpointed,
      walFrames: r?.log ?? -1,
      checkpointed: r?.checkpointed ?? -1,
    };
  } catch (err) {
    result = { ...result, error: (err as Error).message };
  }
  try {
    db.close();
  } catch (err) {
    result = { ...result, complete: false, error: result.error ?? (err as Error).message };
  }
  return result;
}
