/**
 * A card's new list of rows written in slices, so that storing hundreds of thousands of rows (a
 * large card file dropped into the data folder) never holds the event loop, nor the database's
 * write lock, for long: each slice is its own short transaction, and the caller yields to the
 * event loop between slices. The rows become the card's in one last transaction (`commit`), all
 * or nothing; until then no read sees any of them.
 *
 * Where the slices go (the "key" they are stored under in `card_rows`):
 * - the card's own id, when nothing is stored under it yet (a new card): no card is loaded with
 *   that id meanwhile, so nothing reads them, and the commit only writes the card's state;
 * - otherwise a private key no card id can take: the card's current rows stay readable until
 *   the commit replaces them (which then moves the new rows over, in that one transaction).
 * Writes to a key while it is being filled are refused (CardDataStore). A `card_state` row of
 * version 0 marks the key while it is filled (a real version is a change id, never 0): what a
 * crash leaves behind is removed at the next start (`dropUnfinished`).
 */
import { randomBytes } from 'node:crypto';
import type { Image } from './change-log.js';
import { type Db, deferredWriteTransaction, writeTransaction } from './database.js';

/** The `card_state.version` of a key whose rows are still being written. */
export const FILLING_VERSION = 0;

/** Prefix of the private keys (a NUL character: no card file names such an id). */
const PRIVATE_KEY_PREFIX = '\u0000staged-rows:';

/** What the rows need from the store when they are committed. */
export interface StagedRowsHooks {
  /** The change log's image of the card's data before the commit (read first, inside its transaction). */
  beforeImage(cardId: string): Image;
  /** Writes the card's state and records the change, inside the commit's transaction; returns the version. */
  record(cardId: string, rowCount: number, before: Image): number;
  /** The key is no longer being filled. */
  release(key: string): void;
}

/** Whether `cardId` holds no state and no rows (a key the slices can use as it is). */
function isUnused(db: Db, cardId: string): boolean {
  return (
    db.prepare('SELECT 1 FROM card_state WHERE card_id = ?').get(cardId) === undefined &&
    db.prepare('SELECT 1 FROM card_rows WHERE card_id = ? LIMIT 1').get(cardId) === undefined
  );
}

/** Thrown by `add` and `commit` once the rows were committed or discarded. */
export class StagedRowsClosed extends Error {
  override name = 'StagedRowsClosed';
}

/** Rows being written for one card; see the file comment. */
export class StagedRows {
  /** Rows stored so far. */
  count = 0;
  private open = true;
  private readonly insert;

  private constructor(
    private readonly db: Db,
    readonly cardId: string,
    readonly key: string,
    private readonly hooks: StagedRowsHooks,
  ) {
    this.insert = db.prepare('INSERT INTO card_rows (card_id, pos, body) VALUES (?,?,?)');
  }

  /**
   * Starts writing rows for `cardId` (see the file comment for where they go). `busy` says
   * whether a key is already being filled.
   */
  static begin(db: Db, cardId: string, busy: (key: string) => boolean, hooks: StagedRowsHooks): StagedRows {
    const key =
      !busy(cardId) && isUnused(db, cardId)
        ? cardId
        : `${PRIVATE_KEY_PREFIX}${randomBytes(8).toString('hex')}`;
    writeTransaction(db, () => {
      db.prepare(
        "INSERT INTO card_state (card_id, shape, doc, row_count, version, updated_at) VALUES (?, 'none', NULL, 0, ?, ?)",
      ).run(key, FILLING_VERSION, new Date().toISOString());
    });
    return new StagedRows(db, cardId, key, hooks);
  }

  /** Stores the next rows (JSON texts, in order), in one transaction. */
  add(bodies: readonly string[]): void {
    if (!this.open) throw new StagedRowsClosed('these rows were already committed or discarded');
    // not flushed one by one: nothing reads them before the commit, whose flush covers them all
    deferredWriteTransaction(this.db, () => {
      for (const body of bodies) this.insert.run(this.key, this.count++, body);
    });
  }

  /**
   * Makes the rows the card's whole data, in one transaction with the hook's state and change
   * record. A throw leaves everything as it was (the rows can still be discarded).
   * @returns the new data version.
   */
  commit(): number {
    if (!this.open) throw new StagedRowsClosed('these rows were already committed or discarded');
    const version = writeTransaction(this.db, () => {
      // a restore of the whole home meanwhile replaces every row: then these are not all there
      const stored = this.db
        .prepare('SELECT count(*) FROM card_rows WHERE card_id = ?')
        .pluck()
        .get(this.key);
      if (stored !== this.count) throw new Error(`${this.count} rows were stored, ${stored} are left`);
      this.db.prepare('DELETE FROM card_state WHERE card_id = ?').run(this.key);
      const before = this.hooks.beforeImage(this.cardId);
      if (this.key !== this.cardId) {
        this.db.prepare('DELETE FROM card_rows WHERE card_id = ?').run(this.cardId);
        this.db.prepare('UPDATE card_rows SET card_id = ? WHERE card_id = ?').run(this.cardId, this.key);
      }
      return this.hooks.record(this.cardId, this.count, before);
    });
    this.close();
    return version;
  }

  /** Whether rows can still be added and committed. */
  isOpen(): boolean {
    return this.open;
  }

  /** Removes the rows written so far (nothing of them was ever seen). Safe to call twice. */
  discard(): void {
    if (!this.open) return;
    writeTransaction(this.db, () => {
      this.db.prepare('DELETE FROM card_rows WHERE card_id = ?').run(this.key);
      this.db
        .prepare('DELETE FROM card_state WHERE card_id = ? AND version = ?')
        .run(this.key, FILLING_VERSION);
    });
    this.close();
  }

  private close(): void {
    this.open = false;
    this.hooks.release(this.key);
  }
}

/**
 * Removes the rows of keys a crash left half filled (their `card_state` row still has version
 * FILLING_VERSION). Run once at start-up, before anything writes.
 * @returns how many keys were cleared.
 */
export function dropUnfinished(db: Db): number {
  const keys = db
    .prepare('SELECT card_id FROM card_state WHERE version = ?')
    .pluck()
    .all(FILLING_VERSION) as string[];
  if (keys.length === 0) return 0;
  writeTransaction(db, () => {
    for (const key of keys) {
      db.prepare('DELETE FROM card_rows WHERE card_id = ?').run(key);
      db.prepare('DELETE FROM card_state WHERE card_id = ?').run(key);
    }
  });
  return keys.length;
}
