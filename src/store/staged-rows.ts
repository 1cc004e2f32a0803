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
 *   the commit replaces them (which then moves the new rows over, in that one transaction, run
 *   on a worker thread's connection: staged-commit.ts).
 * Writes to a key while it is being filled are refused (CardDataStore). A `card_state` row of
 * version 0 marks the key while it is filled (a real version is a change id, never 0): what a
 * crash leaves behind is removed at the next start (`dropUnfinished`).
 */
import { randomBytes } from 'node:crypto';
import { type Db, deferredWriteTransaction, writeTransaction } from './database.js';

/** The `card_state.version` of a key whose rows are still being written. */
export const FILLING_VERSION = 0;

/** Prefix of the private keys (a NUL character: no card file names such an id). */
const PRIVATE_KEY_PREFIX = '\u0000staged-rows:';

/** What a commit needs to know: it can run on the server's connection or on a worker's. */
export interface StagedCommit {
  cardId: string;
  key: string;
  /** Rows stored under `key`. */
  count: number;
  actor: string;
  op: string;
  /** The change's after image (the whole list's JSON); undefined when too large to keep. */
  after: string | undefined;
}

/** What the rows need from the store. */
export interface StagedRowsHooks {
  /** Commits on the server's connection (see CardDataStore.commitStagedRows); returns the version. */
  commit(job: StagedCommit): number;
  /** Commits on a worker thread's own connection; resolves with the version. */
  commitElsewhere(job: StagedCommit): Promise<number>;
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
  /** A commit is under way (discarding then would race it). */
  private committing = false;
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
   * Makes the rows the card's whole data, in one transaction with its state and change record
   * (recorded as `op` by `actor`, `after` its after image). Under the card's own id that is a few
   * small writes, made at once; under a private key the card's old rows give way to these in one
   * statement each, which on hundreds of thousands of rows takes seconds: that transaction runs
   * on a worker thread's connection, so the event loop keeps answering (reads see the old rows
   * until it commits). A throw or rejection leaves everything as it was (the rows can still be
   * discarded).
   * @returns the new data version.
   */
  async finish(actor: string, op: string, after: string | undefined): Promise<number> {
    if (!this.open) throw new StagedRowsClosed('these rows were already committed or discarded');
    const job: StagedCommit = { cardId: this.cardId, key: this.key, count: this.count, actor, op, after };
    this.committing = true;
    try {
      const version =
        this.key === this.cardId ? this.hooks.commit(job) : await this.hooks.commitElsewhere(job);
      this.close();
      return version;
    } finally {
      this.committing = false;
    }
  }

  /** Whether rows can still be added and committed. */
  isOpen(): boolean {
    return this.open;
  }

  /** Removes the rows written so far (nothing of them was ever seen). Safe to call twice. */
  discard(): void {
    if (!this.open || this.committing) return;
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
