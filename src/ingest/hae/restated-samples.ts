/**
 * What a push or an import changed in samples stored before it, so that undoing it puts them
 * back. A sample that restates its stored row (Sample.restates: the part before midnight of an
 * Apple Health record an older import stored whole) overwrites that row's values, and the part
 * after midnight is stored beside it. The row belongs to the older import, so undoing the new
 * import (History's Undo) put back the cards' rows but left the samples restated: the next
 * recompute of that day counted the part (50 steps) instead of the whole record (100), and
 * importing the export again counted the part after midnight beside the whole. Each restated row
 * is noted here with its values before and after, and each part after midnight the push added
 * (`hae_restated`); the push notes the change set it filled the cards in (`hae_pushes.change_set`).
 * Undoing that set gives the restated rows their old values and takes the parts split off them
 * away; undoing the undo restates them again. Such a push, with its notes, is kept past the
 * newest HAE_PUSHES_KEEP pushes for as long as History keeps its change set (sample-store.ts).
 */
import type Database from 'better-sqlite3';
import type { Db } from '../../store/database.js';
import type { Sample } from './format/sample.js';

/** One note of `hae_restated`. */
interface Note {
  metric: string;
  date: string;
  key: string;
  at: string;
  span: string;
  source: string | null;
  old_vals: string | null;
  new_vals: string;
  split_of: string | null;
  push_id: number;
}

/** The notes of restated rows and added parts, per push; the undo and redo of them. */
export class RestatedSamples {
  private readonly q: Record<string, Database.Statement>;

  constructor(db: Db) {
    this.q = {
      note: db.prepare(
        `INSERT INTO hae_restated (push_id, metric, date, dedup_key, at, span, source, old_vals, new_vals, split_of)
         VALUES (?, ?, ?, unhex(?), ?, ?, ?, ?, ?, ?)`,
      ),
      link: db.prepare('UPDATE hae_pushes SET change_set = ? WHERE id = ?'),
      undoOf: db.prepare('SELECT undo_of FROM change_sets WHERE id = ?').pluck(),
      pushOf: db.prepare('SELECT id FROM hae_pushes WHERE change_set = ?').pluck(),
      notes: db.prepare(
        `SELECT metric, date, hex(dedup_key) AS key, at, span, source, old_vals, new_vals, split_of, push_id
         FROM hae_restated WHERE push_id = ? ORDER BY id`,
      ),
      setVals: db.prepare(
        'UPDATE hae_samples SET vals = ? WHERE metric = ? AND date = ? AND dedup_key = unhex(?) AND vals = ?',
      ),
      dropPart: db.prepare(
        'DELETE FROM hae_samples WHERE metric = ? AND date = ? AND dedup_key = unhex(?) AND push_id = ?',
      ),
      putPart: db.prepare(
        `INSERT INTO hae_samples (dedup_key, metric, date, at, span, source, vals, push_id)
         VALUES (unhex(?), ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (metric, date, dedup_key) DO NOTHING`,
      ),
      forget: db.prepare('DELETE FROM hae_restated WHERE push_id = ?'),
      forgetPruned: db.prepare('DELETE FROM hae_restated WHERE push_id NOT IN (SELECT id FROM hae_pushes)'),
      memoClear: db.prepare('DELETE FROM hae_block_memo'),
    };
  }

  /** Notes that push `pushId` gave the stored row of `s` its values `vals` (JSON) over `old`. */
  restated(pushId: number, s: Sample, old: string, vals: string): void {
    this.q.note.run(pushId, s.metric, s.date, s.dedupKey, s.at, s.span, s.source, old, vals, null);
  }

  /** Notes that push `pushId` adds `s`, the part after midnight of a record (Sample.splitOf). */
  addedPart(pushId: number, s: Sample): void {
    this.q.note.run(
      pushId,
      s.metric,
      s.date,
      s.dedupKey,
      s.at,
      s.span,
      s.source,
      null,
      JSON.stringify(s.values),
      s.splitOf,
    );
  }

  /** Notes that push `pushId` wrote the cards' rows in change set `setId`. */
  linkChangeSet(pushId: number, setId: number): void {
    this.q.link.run(setId, pushId);
  }

  /** Forgets the notes of push `pushId` (it is removed) and of pushes no longer kept. */
  forget(pushId?: number): void {
    if (pushId !== undefined) this.q.forget.run(pushId);
    this.q.forgetPruned.run();
  }

  /**
   * Called inside the undo of change set `setId`: when it is (or undoes, any number of times) the
   * set of a push that restated rows, gives them back their old values and takes the parts split
   * off them away (an undo of the push), or restates them again (an undo of its undo). A row
   * changed since by another push keeps what it has. The block memos go, so the same data sent
   * again is read again.
   * @returns how many samples changed.
   */
  undoSet(setId: number): number {
    let root = setId;
    let depth = 0;
    for (let up = this.q.undoOf.get(root); typeof up === 'number'; up = this.q.undoOf.get(root)) {
      root = up;
      depth++;
    }
    const pushId = this.q.pushOf.get(root) as number | undefined;
    return pushId === undefined ? 0 : this.undoPush(pushId, depth % 2 === 0);
  }

  /**
   * Drops or puts back what push `pushId` restated: `back` gives the rows their old values and
   * removes the parts split off them; otherwise they are restated and the parts stored again.
   * @returns how many samples changed.
   */
  undoPush(pushId: number, back: boolean): number {
    const notes = this.q.notes.all(pushId) as Note[];
    const restated = notes.filter((n) => n.old_vals !== null);
    if (restated.length === 0) return 0;
    const stamps = new Set(restated.map((n) => `${n.metric}\n${n.source}\n${n.at}`));
    const parts = notes.filter(
      (n) => n.old_vals === null && stamps.has(`${n.metric}\n${n.source}\n${n.split_of}`),
    );
    let changed = 0;
    for (const n of restated) {
      const [to, from] = back ? [n.old_vals, n.new_vals] : [n.new_vals, n.old_vals];
      changed += this.q.setVals.run(to, n.metric, n.date, n.key, from).changes;
    }
    for (const n of parts) {
      changed += back
        ? this.q.dropPart.run(n.metric, n.date, n.key, pushId).changes
        : this.q.putPart.run(n.key, n.metric, n.date, n.at, n.span, n.source, n.new_vals, pushId).changes;
    }
    if (changed > 0) this.q.memoClear.run();
    return changed;
  }
}
