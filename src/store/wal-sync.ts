/**
 * Group commit for the instance's main database connection. That connection runs with
 * `synchronous = FULL` (each COMMIT flushes the WAL, blocking the event loop) except for the
 * row writes of deferredWriteTransaction (src/store/database.ts), which commit with `NORMAL`:
 * the COMMIT only writes its frames to the WAL (the operating system keeps them through a crash
 * of the process), and this module makes them survive a power cut by flushing the WAL file
 * (fdatasync) itself, which is all FULL adds in WAL mode.
 *
 * The flush runs on the libuv thread pool and is shared: every commit made while a flush is
 * running waits for the next one, so eight clients appending at once cost about one flush per
 * round instead of eight, and the event loop keeps serving requests while the disk works. A
 * request is answered only after the flush that covers its commit (src/http/durable-replies.ts).
 *
 * What needs a flush is counted here: deferredWriteTransaction calls `committed()` after each
 * commit made with `NORMAL`, the only commits of this connection that SQLite does not flush
 * itself (every other commit runs with FULL, and a FULL commit flushes the whole WAL, so it
 * covers the earlier ones: `markSynced()`). A flush covers every commit counted when it starts.
 * A counter, not a query: every reply asks `pending()`, and an append asks a few times. A failed
 * flush rejects everyone waiting on it (each gets the error; their commits are each whole or
 * absent, never half-applied), and the next flush covers their commits again.
 */
import fs from 'node:fs';
import type Database from 'better-sqlite3';

/** Flushes the WAL of one connection; see the module comment. */
export class WalSync {
  private fd: number | undefined;
  /** Commits made with synchronous=NORMAL so far (see the module comment). */
  private commits = 0;
  /** Commits covered by the last completed flush (or by a FULL commit). */
  private synced = 0;
  /** The flush on the thread pool, with the count it covers. */
  private running: { upTo: number; done: Promise<void> } | undefined;
  /** The flush that starts when the running one ends (everyone who came meanwhile). */
  private next: Promise<void> | undefined;
  private closed = false;

  private readonly changes: Database.Statement;

  constructor(
    db: Database.Database,
    private readonly walFile: string,
  ) {
    this.changes = db.prepare('SELECT total_changes()').pluck();
  }

  /** SQLite's `total_changes()`: rows changed by this connection so far (to see whether a commit wrote). */
  rowsChanged(): number {
    return this.changes.get() as number;
  }

  /** Counts a commit made with synchronous=NORMAL: it is not durable until a flush covers it. */
  committed(): void {
    this.commits++;
  }

  /** True when commits were made that no completed flush covers yet (a reply must wait). */
  pending(): boolean {
    return !this.closed && this.commits > this.synced;
  }

  /**
   * Records that the WAL was just flushed by SQLite itself (a commit with synchronous=FULL that
   * wrote something), which covers every earlier commit too.
   */
  markSynced(): void {
    this.synced = this.commits;
  }

  /**
   * Resolves once every change made so far is on disk: joins the running flush when it covers
   * them, else the next one (started as soon as the running one ends).
   * @throws (rejects with) the file system's error when that flush fails.
   */
  durable(): Promise<void> {
    if (!this.pending()) return Promise.resolve();
    if (this.running && this.running.upTo >= this.commits) return this.running.done;
    if (!this.running) return this.start();
    if (!this.next) {
      const after = this.running.done.catch(() => {});
      this.next = after.then(() => {
        this.next = undefined;
        return this.pending() ? this.start() : undefined;
      });
    }
    return this.next;
  }

  /** Closes the WAL file descriptor (the database is closing; its checkpoint flushes the rest). */
  close(): void {
    this.closed = true;
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
  }

  private start(): Promise<void> {
    const upTo = this.commits;
    let fd: number;
    try {
      fd = this.walFd();
    } catch (err) {
      return Promise.reject(err);
    }
    const done = new Promise<void>((resolve, reject) => {
      fs.fdatasync(fd, (err) => {
        this.running = undefined;
        if (err) return reject(err);
        this.synced = Math.max(this.synced, upTo);
        resolve();
      });
    });
    this.running = { upTo, done };
    return done;
  }

  private walFd(): number {
    // the WAL file exists from the first write on and stays (same inode) while the connection is open
    if (this.fd === undefined) this.fd = fs.openSync(this.walFile, 'r');
    return this.fd;
  }
}
