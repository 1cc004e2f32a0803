/**
 * Where card data (the manifest's `data` block) lives: SQLite, one store row per element of a
 * top-level array, so appending or updating one row costs the same on a card of ten rows and of
 * a million. Object, primitive and null data are kept as one JSON
 * document. Every mutation runs in one transaction and is recorded in the change log; the
 * change id becomes the card's data version.
 *
 * All methods are synchronous (better-sqlite3), so two mutations of one card never interleave.
 * The row writes (append, update, removeRow, reorder, replace) commit without waiting for the
 * disk (group commit): whoever acknowledges one awaits `durable()` first.
 */

import { isIsoDate, isoDateSpelling } from '../common/dates.js';
import { handSpellingsOf, startingWith, type TextRange } from '../common/day-spellings.js';
import { conflict, RowError } from '../errors.js';
import { DEFAULT_ROW_WINDOW, MAX_CHANGE_IMAGE_ROWS, MAX_ROW_WINDOW } from '../limits.js';
import { type Actor, ChangeLog, type Image, OMITTED_IMAGE } from './change-log.js';
import { currentChangeScope } from './change-scope.js';
import { type Db, deferredWriteTransaction, walSyncOf, writeTransaction } from './database.js';
import { handDatedRows, handDateValues, ISO_GLOB } from './hand-dates.js';
import * as ops from './row-ops.js';
import type { Literal, Segment } from './row-path.js';
import { commitInWorker } from './staged-commit.js';
import { dropUnfinished, type StagedCommit, StagedRows } from './staged-rows.js';

/** How a card's data is held: a top-level array, one JSON document, or nothing at all. */
export type DataShape = 'array' | 'value' | 'none';

/** Summary of one card's data, without reading its rows. */
export interface DataState {
  shape: DataShape;
  /** Array: element count; object or primitive: 1; null or none: 0. */
  rowCount: number;
  /** Id of the latest change (0 when never written). */
  version: number;
  /** ISO time of the latest change, or null. */
  updatedAt: string | null;
}

/** Result of a mutation: the new data version plus operation-specific fields. */
export type Mutation<T> = T & { version: number };

/** Options of a windowed read (see readRows in row-ops). */
export interface WindowOptions {
  order?: 'asc' | 'desc';
  limit?: number;
  offset?: number;
}

const DATE_EXPR = "json_extract(body, '$.date')";

function countOf(value: unknown): number {
  if (Array.isArray(value)) return value.length;
  return value === null || value === undefined ? 0 : 1;
}

/** One element of a top-level array as stored: its row id, position and JSON text. */
interface StoredRow {
  id: number;
  pos: number;
  body: string;
}

interface StateRow {
  shape: DataShape;
  doc: string | null;
  row_count: number;
  version: number;
  updated_at: string;
}

/** A path starting with a key on a card whose data is an array. */
function rootKeyOnArray(pathText: string, cardId: string): RowError {
  return new RowError(
    'WRONG_TYPE',
    'the card data is an array: start the path with a [key=value] filter',
    pathText,
    cardId,
  );
}

/** The day (`YYYY-MM-DD`) a stored row's `field` (default `date`) starts with, or undefined. */
function dayOfRow(body: string, field = 'date'): string | undefined {
  const row = JSON.parse(body) as unknown;
  if (row === null || typeof row !== 'object' || Array.isArray(row)) return undefined;
  const d = (row as Record<string, unknown>)[field];
  return typeof d === 'string' && isIsoDate(d.slice(0, 10)) ? d.slice(0, 10) : undefined;
}

/** The data store of one instance. */
export class CardDataStore {
  readonly changes: ChangeLog;
  private readonly q;
  /** Card ids (and private keys) whose rows are being written in slices (stageRows). */
  private readonly filling = new Set<string>();

  constructor(private readonly db: Db) {
    this.changes = new ChangeLog(db);
    this.q = {
      state: db.prepare(
        'SELECT shape, doc, row_count, version, updated_at FROM card_state WHERE card_id = ?',
      ),
      allStates: db.prepare('SELECT card_id, shape, row_count, version, updated_at FROM card_state'),
      upsertState: db.prepare(
        `INSERT INTO card_state (card_id, shape, doc, row_count, version, updated_at) VALUES (?,?,?,?,?,?)
         ON CONFLICT(card_id) DO UPDATE SET shape=excluded.shape, doc=excluded.doc,
           row_count=excluded.row_count, version=excluded.version, updated_at=excluded.updated_at`,
      ),
      bump: db.prepare('UPDATE card_state SET row_count = ?, version = ?, updated_at = ? WHERE card_id = ?'),
      deleteState: db.prepare('DELETE FROM card_state WHERE card_id = ?'),
      rowsAsc: db.prepare('SELECT body FROM card_rows WHERE card_id = ? ORDER BY pos').pluck(),
      rowsWindowAsc: db
        .prepare('SELECT body FROM card_rows WHERE card_id = ? ORDER BY pos LIMIT ? OFFSET ?')
        .pluck(),
      rowsWindowDesc: db
        .prepare('SELECT body FROM card_rows WHERE card_id = ? ORDER BY pos DESC LIMIT ? OFFSET ?')
        .pluck(),
      maxPos: db.prepare('SELECT max(pos) FROM card_rows WHERE card_id = ?').pluck(),
      insertRow: db.prepare('INSERT INTO card_rows (card_id, pos, body) VALUES (?,?,?)'),
      updateRow: db.prepare('UPDATE card_rows SET body = ? WHERE id = ?'),
      deleteRow: db.prepare('DELETE FROM card_rows WHERE id = ?'),
      deleteRows: db.prepare('DELETE FROM card_rows WHERE card_id = ?'),
      deleteFrom: db.prepare('DELETE FROM card_rows WHERE card_id = ? AND pos >= ?'),
      rowById: db.prepare('SELECT id, pos, body FROM card_rows WHERE id = ? AND card_id = ?'),
      rowIdTaken: db.prepare('SELECT 1 FROM card_rows WHERE id = ?'),
      posTaken: db.prepare('SELECT 1 FROM card_rows WHERE card_id = ? AND pos = ?'),
      firstLaterPos: db
        .prepare(
          "SELECT pos FROM card_rows WHERE card_id = ? AND json_type(body, ?) = 'text' AND json_extract(body, ?) >= ? ORDER BY pos LIMIT 1",
        )
        .pluck(),
      insertRowWithId: db.prepare('INSERT INTO card_rows (id, card_id, pos, body) VALUES (?,?,?,?)'),
      shiftOut: db.prepare('UPDATE card_rows SET pos = -pos - 1 WHERE card_id = ? AND pos >= ?'),
      shiftBack: db.prepare('UPDATE card_rows SET pos = -pos WHERE card_id = ? AND pos < 0'),
      maxDate: db
        .prepare(
          `SELECT ${DATE_EXPR} FROM card_rows WHERE card_id = ? AND ${DATE_EXPR} <= ? AND ${DATE_EXPR} GLOB '${ISO_GLOB}' ORDER BY ${DATE_EXPR} DESC LIMIT 1`,
        )
        .pluck(),
      // the field is a parameter, so one statement serves every field (never prepared per call)
      maxDateOf: db
        .prepare(
          `SELECT max(v) FROM (SELECT json_extract(body, ?) AS v FROM card_rows WHERE card_id = ?) WHERE v <= ? AND v GLOB '${ISO_GLOB}'`,
        )
        .pluck(),
      countDated: db
        .prepare(
          `SELECT count(*) FROM (SELECT 1 FROM card_rows WHERE card_id = ? AND json_extract(body, ?) GLOB '${ISO_GLOB}' LIMIT ?)`,
        )
        .pluck(),
      byField: db.prepare(
        'SELECT id, pos, body FROM card_rows WHERE card_id = ? AND json_extract(body, ?) = ? ORDER BY pos',
      ),
      anyHas: db.prepare(
        'SELECT 1 FROM card_rows WHERE card_id = ? AND json_type(body, ?) IS NOT NULL LIMIT 1',
      ),
      datesBetween: db
        .prepare(
          `SELECT DISTINCT ${DATE_EXPR} FROM card_rows WHERE card_id = ? AND ${DATE_EXPR} BETWEEN ? AND ?`,
        )
        .pluck(),
      byDate: db.prepare(
        `SELECT id, pos, body FROM card_rows WHERE card_id = ? AND ${DATE_EXPR} = ? ORDER BY pos`,
      ),
      byIndexAsc: db.prepare(
        'SELECT id, pos, body FROM card_rows WHERE card_id = ? ORDER BY pos LIMIT 1 OFFSET ?',
      ),
      byIndexDesc: db.prepare(
        'SELECT id, pos, body FROM card_rows WHERE card_id = ? ORDER BY pos DESC LIMIT 1 OFFSET ?',
      ),
      // rows whose day (the first 10 characters of the date field) is missing, not a text that
      // starts like YYYY-MM-DD, or earlier than the row before it
      dayOrderBreaks: db
        .prepare(
          `SELECT count(*) FROM (
             SELECT d, lag(d) OVER (ORDER BY pos) AS p FROM (
               SELECT pos, CASE WHEN json_type(body, ?) = 'text' THEN substr(json_extract(body, ?), 1, 10) END AS d
               FROM card_rows WHERE card_id = ?))
           WHERE d IS NULL OR d NOT GLOB '${ISO_GLOB}' OR (p IS NOT NULL AND d < p)`,
        )
        .pluck(),
    };
  }

  /** Runs `fn` in one transaction (nested calls become savepoints); a throw rolls everything back. */
  transaction<T>(fn: () => T): T {
    return writeTransaction(this.db, fn);
  }

  /**
   * Runs `fn` in one transaction whose commit does not wait for the disk (group commit, like the
   * row writes): for a read followed by a write that must see nothing change in between (the
   * writes inside become savepoints of it). Whoever acknowledges it awaits `durable()` first.
   */
  groupCommitTransaction<T>(fn: () => T): T {
    return deferredWriteTransaction(this.db, fn);
  }

  /**
   * Resolves once every write made so far is flushed to disk (one shared flush for all the
   * writes made while the previous one ran; src/store/wal-sync.ts).
   * @throws (rejects with) the file system's error when the flush fails.
   */
  durable(): Promise<void> {
    return walSyncOf(this.db)?.durable() ?? Promise.resolve();
  }

  /** The data state of a card, or a 'none' state when it has never held data. */
  state(cardId: string): DataState {
    const row = this.q.state.get(cardId) as StateRow | undefined;
    if (!row) return { shape: 'none', rowCount: 0, version: 0, updatedAt: null };
    return { shape: row.shape, rowCount: row.row_count, version: row.version, updatedAt: row.updated_at };
  }

  /** States of every card with stored data, by card id (one query, for listings). */
  allStates(): Map<string, DataState> {
    const out = new Map<string, DataState>();
    for (const r of this.q.allStates.all() as (StateRow & { card_id: string })[]) {
      out.set(r.card_id, {
        shape: r.shape,
        rowCount: r.row_count,
        version: r.version,
        updatedAt: r.updated_at,
      });
    }
    return out;
  }

  /**
   * The card's whole data block as JSON text, built without parsing the rows; undefined when the
   * card holds no data (shape 'none').
   */
  readJson(cardId: string): string | undefined {
    const row = this.q.state.get(cardId) as StateRow | undefined;
    if (!row || row.shape === 'none') return undefined;
    if (row.shape === 'value') return row.doc ?? 'null';
    return `[${(this.q.rowsAsc.all(cardId) as string[]).join(',')}]`;
  }

  /**
   * The last `n` rows of an array card as JSON texts, in array order (all of them when it has
   * fewer); [] for any other shape.
   */
  readTailJson(cardId: string, n: number): string[] {
    return (this.q.rowsWindowDesc.all(cardId, n, 0) as string[]).reverse();
  }

  /**
   * True when every row of an array card is an object whose `field` is a text starting with a
   * `YYYY-MM-DD` day and the days never go back in array order (so the last rows are the latest
   * days, and a tail holds every row of each of its days after the first). `field` must be a
   * plain key (letters, digits, `_`); anything else answers false.
   */
  rowsInDayOrder(cardId: string, field: string): boolean {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(field)) return false;
    const path = `$.${field}`;
    return (this.q.dayOrderBreaks.get(path, path, cardId) as number) === 0;
  }

  /** The card's data block as a value (undefined when none). */
  read(cardId: string): unknown {
    const json = this.readJson(cardId);
    return json === undefined ? undefined : JSON.parse(json);
  }

  /**
   * Replaces the whole data block (undefined removes it) in one transaction.
   * @param unchanged how many leading elements of `data` (an array) are the card's current first
   *   elements as they are (the caller read them in this transaction): only the elements after
   *   them are written (an append to a long list costs the new rows, not the list). The change
   *   is recorded exactly as a whole replace. 0 (default): every element is written.
   * @param current the card's data as readJson gave it in the caller's transaction, when the
   *   caller read it: the change log's before image, so the rows are not read a second time.
   * @returns the new version.
   */
  replace(
    cardId: string,
    data: unknown,
    actor: Actor,
    op = 'replace',
    unchanged = 0,
    current?: string,
  ): number {
    this.assertNotFilling(cardId);
    return deferredWriteTransaction(this.db, () => {
      const before = this.beforeImage(cardId, current);
      const same = this.sameAsStored(cardId, data, before);
      if (same !== undefined) return same;
      return this.writeWhole(cardId, data, actor, op, '', before, unchanged);
    });
  }

  /**
   * The card's version when `data` is exactly what it holds (same shape, same JSON text as
   * `before`), else undefined: a replace by the block just read writes and records nothing, so
   * another writer's If-Match still holds and History has no entry whose undo does nothing.
   */
  private sameAsStored(cardId: string, data: unknown, before: Image): number | undefined {
    if (typeof before !== 'string' || data === undefined) return undefined;
    const st = this.q.state.get(cardId) as StateRow | undefined;
    if (!st || st.shape !== (Array.isArray(data) ? 'array' : 'value')) return undefined;
    const text = Array.isArray(data)
      ? `[${Array.from(data, (el) => JSON.stringify(el ?? null) ?? 'null').join(',')}]`
      : JSON.stringify(data);
    return text === before ? st.version : undefined;
  }

  /** Removes a card's data entirely (the card is being deleted). Recorded as a change. */
  remove(cardId: string, actor: Actor): void {
    this.assertNotFilling(cardId);
    writeTransaction(this.db, () => {
      const before = this.beforeImage(cardId);
      this.q.deleteRows.run(cardId);
      this.q.deleteState.run(cardId);
      this.changes.record(cardId, actor, 'delete-card', null, before, undefined);
    });
  }

  /**
   * Appends `value` to the array at `segs` (docs/CHAT-AGENT.md append_row). With `dayOrder` (a
   * row of `day`, `YYYY-MM-DD`, dated by `field`, appended at the top of the card) the row goes
   * to its day's place instead when the card's rows are in day order and one of them is of a
   * later day: before the first such row (after the rows of its own day), so a back-filled day
   * never reads as the newest row. Recorded as a plain append of that row either way.
   */
  append(
    cardId: string,
    segs: Segment[],
    pathText: string,
    value: unknown,
    actor: Actor,
    dayOrder?: { field: string; day: string },
  ) {
    return this.mutate(cardId, segs, pathText, actor, 'append', {
      whole: (doc) => {
        const r = ops.appendRow(doc, segs, value, pathText, cardId);
        return { doc: r.doc, result: { added: 1, totalAfter: r.totalAfter } };
      },
      rootArrayAppend: () => value,
      rootArrayPlace: dayOrder
        ? () => {
            const to = this.dayRange(cardId, dayOrder.field, dayOrder.day, true)?.to;
            return typeof to === 'number' ? to : undefined;
          }
        : undefined,
      element: (el, rest) => {
        const r = ops.appendRow(el, rest, value, pathText, cardId);
        return { el: r.doc, result: { added: 1, totalAfter: r.totalAfter } };
      },
    });
  }

  /**
   * Merges `changes` (RFC 7396) into the object at `segs` (docs/CHAT-AGENT.md update_row). With
   * `dayField` (the card's date field), a row of the top-level array whose day in that field
   * changes to another real day moves to that day's place, by append's rule: after the rows of
   * its day when the other rows are in day order; elsewhere it stays where it is. The change
   * records the row's position before the update, where undo puts it back.
   */
  update(
    cardId: string,
    segs: Segment[],
    pathText: string,
    changes: unknown,
    actor: Actor,
    dayField?: string,
  ) {
    return this.mutate(cardId, segs, pathText, actor, 'update', {
      dayField,
      whole: (doc) => {
        const r = ops.updateRow(doc, segs, changes, pathText, cardId);
        return { doc: r.doc, result: { after: r.after } };
      },
      element: (el, rest) => {
        const r = ops.updateRow(el, rest, changes, pathText, cardId);
        return { el: r.doc, result: { after: r.after } };
      },
    });
  }

  /** Removes the one array element that `segs` selects (docs/CHAT-AGENT.md remove_row). */
  removeRow(cardId: string, segs: Segment[], pathText: string, actor: Actor) {
    return this.mutate(cardId, segs, pathText, actor, 'remove', {
      whole: (doc) => {
        const r = ops.removeRow(doc, segs, pathText, cardId);
        return { doc: r.doc, result: { removed: r.removed, row: r.row, totalAfter: r.totalAfter } };
      },
      element: (el, rest) => {
        const r = ops.removeRow(el, rest, pathText, cardId);
        return { el: r.doc, result: { removed: r.removed, row: r.row, totalAfter: r.totalAfter } };
      },
      removeElement: true,
    });
  }

  /**
   * Throws what `removeRow` would throw for `segs` (WRONG_TYPE, NO_MATCH, AMBIGUOUS), writing
   * nothing: for a caller that must know a removal can be made before asking the person to
   * approve it.
   */
  checkRemoveRow(cardId: string, segs: Segment[], pathText: string): void {
    const st = this.q.state.get(cardId) as StateRow | undefined;
    if (st?.shape !== 'array') {
      const doc = st?.shape === 'value' ? JSON.parse(st.doc ?? 'null') : undefined;
      ops.removeRow(doc, segs, pathText, cardId);
      return;
    }
    // the empty path: removeRow's own refusal, without reading the rows
    if (segs.length === 0) ops.removeRow([], segs, pathText, cardId);
    const { root, rest } = ops.splitRootFilter(segs);
    if (!root) throw rootKeyOnArray(pathText, cardId);
    const hit = this.findRootElement(cardId, root, pathText);
    if (rest.length > 0) ops.removeRow(JSON.parse(hit.body), rest, pathText, cardId);
  }

  /** Rearranges the array at `segs` by the values of `key` (docs/CHAT-AGENT.md reorder_rows). */
  reorder(cardId: string, segs: Segment[], pathText: string, key: string, order: unknown[], actor: Actor) {
    return this.mutate(cardId, segs, pathText, actor, 'reorder', {
      whole: (doc) => {
        const r = ops.reorderRows(doc, segs, key, order as Literal[], pathText, cardId);
        return { doc: r.doc, result: { reordered: r.reordered } };
      },
      element: (el, rest) => {
        const r = ops.reorderRows(el, rest, key, order as Literal[], pathText, cardId);
        return { el: r.doc, result: { reordered: r.reordered } };
      },
      noop: (r) => r.reordered === 0,
    });
  }

  /**
   * Windowed read at a row path (docs/CHAT-AGENT.md read_manifest_rows). A top-level array is
   * windowed in SQL; anything else is read whole and windowed in memory.
   */
  readRows(cardId: string, segs: Segment[], pathText: string, opts: WindowOptions) {
    const st = this.q.state.get(cardId) as StateRow | undefined;
    const limit = Math.min(Math.max(0, opts.limit ?? DEFAULT_ROW_WINDOW), MAX_ROW_WINDOW);
    const offset = Math.max(0, opts.offset ?? 0);
    const order = opts.order ?? 'desc';
    if (st?.shape === 'array') {
      if (segs.length === 0) {
        const stmt = order === 'asc' ? this.q.rowsWindowAsc : this.q.rowsWindowDesc;
        const rows = (stmt.all(cardId, limit, offset) as string[]).map((b) => JSON.parse(b));
        return {
          rows,
          total: st.row_count,
          truncated: rows.length < st.row_count,
          window: { order, offset, limit },
        };
      }
      const { root, rest } = ops.splitRootFilter(segs);
      if (!root)
        throw new RowError(
          'WRONG_TYPE',
          'the card data is an array: start the path with a [key=value] filter',
          pathText,
          cardId,
        );
      const hit = this.findRootElement(cardId, root, pathText);
      return ops.readRows(JSON.parse(hit.body), rest, pathText, { order, limit, offset }, cardId);
    }
    // a card that never held data reads as null, not as an absent value
    const doc = st && st.shape === 'value' ? JSON.parse(st.doc ?? 'null') : null;
    return ops.readRows(doc, segs, pathText, { order, limit, offset }, cardId);
  }

  /**
   * The positions between which a row of `day` keeps rows in day order by `field`
   * (rowsInDayOrder): `from`, that of the first row of its day or later, and `to`, that of the
   * first row of a later day (`end`: none); undefined when the rows are not in day order (their
   * order is left as it is). With `quick`, a row later than every row is `{to: 'end'}` at once,
   * without reading the rows (an append, which goes last anyway). Reads the date index first.
   */
  private dayRange(
    cardId: string,
    field: string,
    day: string,
    quick = false,
  ): { from: number | 'end'; to: number | 'end' } | undefined {
    const afterDay = `${day}~`; // every value of the day itself ('YYYY-MM-DDT…') sorts before it
    const latest = this.maxDate(cardId, field);
    const noneLater = latest === null || latest < afterDay;
    if (noneLater && quick) return { from: 'end', to: 'end' };
    if (!this.rowsInDayOrder(cardId, field)) return undefined;
    const path = `$.${field}`;
    const first = (bound: string) =>
      (this.q.firstLaterPos.get(cardId, path, path, bound) as number | undefined) ?? 'end';
    return { from: first(day), to: noneLater ? 'end' : first(afterDay) };
  }

  /** The newest `n` elements of a top-level array, newest first (empty for other shapes). */
  newestRows(cardId: string, n: number): unknown[] {
    return (this.q.rowsWindowDesc.all(cardId, n, 0) as string[]).map((b) => JSON.parse(b));
  }

  /**
   * The greatest ISO-date-shaped (`YYYY-MM-DD…`) value of `field` over the elements of a
   * top-level array that sorts at or before `upTo` as text (default: any), or null; values that
   * are not dates never hide the real ones. Walks the date index backwards for `date`; other
   * fields scan the card's rows.
   */
  maxDate(cardId: string, field: string, upTo = '\u{10FFFF}'): string | null {
    const v =
      field === 'date'
        ? this.q.maxDate.get(cardId, upTo)
        : this.q.maxDateOf.get(`$."${field}"`, cardId, upTo);
    return typeof v === 'string' ? v : null;
  }

  /**
   * The distinct ISO-date-shaped (`YYYY-MM-DD…`) values of `field` over the elements of a
   * top-level array that sort at or after `from` as text. Reads the date index for `date`;
   * other fields scan the card's rows.
   */
  datesFrom(cardId: string, field: string, from: string): string[] {
    const all =
      field === 'date'
        ? [...this.datesBetween(cardId, from, '9999-99-99~')]
        : (this.db
            .prepare(
              `SELECT DISTINCT v FROM (SELECT json_extract(body, ?) AS v FROM card_rows WHERE card_id = ?) WHERE v >= ?`,
            )
            .pluck()
            .all(`$."${field}"`, cardId, from) as unknown[]);
    return all.filter((v): v is string => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}/.test(v));
  }

  /** How many elements carry an ISO-date-shaped `field`, counting at most `atMost`. */
  countDated(cardId: string, field: string, atMost: number): number {
    return this.q.countDated.get(cardId, `$."${field}"`, atMost) as number;
  }

  /**
   * The distinct `date` values from `first` to `last` (text order, both included) of the card's
   * top-level array rows, read from the date index alone (no row is read or parsed).
   */
  datesBetween(cardId: string, first: string, last: string): Set<string> {
    return new Set(this.q.datesBetween.all(cardId, first, last) as string[]);
  }

  /**
   * The distinct values of `field` (a plain key) of a top-level array's rows that lie in one of
   * `ranges` and are not written `YYYY-MM-DD…`: dates written by hand another way (hand-dates.ts).
   */
  handDateValues(cardId: string, field: string, ranges: readonly TextRange[]): string[] {
    return handDateValues(this.db, cardId, field, ranges);
  }

  /** Whether any element of a top-level array has `key` (stops at the first hit). */
  anyRowHas(cardId: string, key: string): boolean {
    return this.q.anyHas.get(cardId, `$."${key}"`) !== undefined;
  }

  /**
   * Puts one element of a top-level array back the way a change found it (undo): `body`
   * undefined removes row `rowId`; otherwise the row holds `body` again, re-inserted at `pos`
   * (later rows move up one) when it is gone, or moved back to `pos` when its day in `dayField`
   * differs from the one it holds now (an update that changed its date moved it). On rows kept
   * in day order a re-inserted or moved dated row goes among the rows of its day, at `pos` if
   * that is there. Recorded as op `revert` with the row and the position it had before, so it
   * can be undone in turn.
   * @returns the new data version.
   * @throws Error when the card's data is not an array any more (callers check for later changes first).
   */
  revertRow(
    cardId: string,
    rowId: number,
    pos: number | null,
    body: string | undefined,
    path: string | null,
    actor: Actor,
    dayField = 'date',
  ): number {
    this.assertNotFilling(cardId);
    return writeTransaction(this.db, () => {
      const st = this.q.state.get(cardId) as StateRow | undefined;
      if (st?.shape !== 'array') throw new Error(`the data of card "${cardId}" is not a list any more`);
      const cur = this.q.rowById.get(rowId, cardId) as StoredRow | undefined;
      let count = st.row_count;
      let id = rowId;
      let at = cur?.pos ?? pos ?? 0;
      if (body === undefined) {
        if (cur) {
          this.q.deleteRow.run(rowId);
          count--;
        }
      } else if (cur && dayOfRow(cur.body, dayField) === dayOfRow(body, dayField)) {
        this.q.updateRow.run(body, rowId);
      } else {
        if (cur) {
          // its day changes back: taken out and put back where it was before it moved
          this.q.deleteRow.run(rowId);
          at = pos ?? cur.pos;
        } else count++;
        const max = this.q.maxPos.get(cardId) as number | null;
        // a dated row of rows kept in day order goes back among the rows of its day, where it
        // was if it can: the position recorded may have moved since, as back-filled days were
        // put in before it
        const day = dayOfRow(body, dayField);
        const range = day === undefined ? undefined : this.dayRange(cardId, dayField, day);
        if (range) {
          const end = (max ?? -1) + 1;
          const [from, to] = [range.from, range.to].map((p) => (p === 'end' ? end : p));
          at = Math.min(Math.max(at, from), to);
        }
        if (at > (max ?? -1)) at = (max ?? -1) + 1;
        else if (this.q.posTaken.get(cardId, at)) {
          this.q.shiftOut.run(cardId, at);
          this.q.shiftBack.run(cardId);
        }
        // the row's old id, unless a later row took it (SQLite reuses the top id after a delete)
        const free = this.q.rowIdTaken.get(rowId) === undefined;
        id = Number(this.q.insertRowWithId.run(free ? rowId : null, cardId, at, body).lastInsertRowid);
      }
      const version = this.changes.record(cardId, actor, 'revert', path, cur?.body, body, {
        rowId: id,
        pos: cur?.pos ?? at,
      });
      this.q.bump.run(count, version, new Date().toISOString(), cardId);
      return version;
    });
  }

  /**
   * Puts a card's whole data block back to `json` (undefined: no data), for undo. Recorded as
   * op `revert`.
   * @returns the new data version.
   */
  restoreWhole(cardId: string, json: string | undefined, actor: Actor): number {
    this.assertNotFilling(cardId);
    return writeTransaction(this.db, () => {
      const before = this.beforeImage(cardId);
      return this.writeWhole(
        cardId,
        json === undefined ? undefined : JSON.parse(json),
        actor,
        'revert',
        '',
        before,
      );
    });
  }

  /**
   * Starts writing a whole new list of rows for `cardId` in slices (staged-rows.ts): `add` them
   * a slice at a time, then `finish` replaces the card's data with them in one transaction.
   * Until then every other write to the card is refused (409 CARD_LOADING).
   */
  stageRows(cardId: string): StagedRows {
    const staged = StagedRows.begin(this.db, cardId, (key) => this.filling.has(key), {
      commit: (job) => this.commitStagedRows(job),
      commitElsewhere: async (job) => {
        const { version, setId } = await commitInWorker(this.db.name, job);
        // the worker's change is this process's newest, in the unit of work's change set
        this.changes.lastId = Math.max(this.changes.lastId, version);
        currentChangeScope()?.sets.set(this.changes, setId);
        return version;
      },
      release: (key) => {
        this.filling.delete(key);
        if (key !== cardId) this.filling.delete(cardId);
      },
    });
    this.filling.add(staged.key);
    this.filling.add(cardId);
    return staged;
  }

  /**
   * Makes the rows stored under `job.key` (stageRows) the whole data of `job.cardId`, in one
   * transaction: the card's old rows go, its state and a change record are written.
   * @returns the new data version.
   * @throws Error when the rows stored are not all there any more (nothing changes then).
   */
  commitStagedRows(job: StagedCommit): number {
    const { cardId, key, count } = job;
    return writeTransaction(this.db, () => {
      // a restore of the whole home meanwhile replaces every row: then these are not all there
      const stored = this.db.prepare('SELECT count(*) FROM card_rows WHERE card_id = ?').pluck().get(key);
      if (stored !== count) throw new Error(`${count} rows were stored, ${stored} are left`);
      this.q.deleteState.run(key);
      const before = this.beforeImage(cardId);
      if (key !== cardId) {
        this.q.deleteRows.run(cardId);
        this.db.prepare('UPDATE card_rows SET card_id = ? WHERE card_id = ?').run(cardId, key);
      }
      const after = job.after ?? OMITTED_IMAGE;
      const version = this.changes.record(cardId, job.actor, job.op, '', before, after);
      this.q.upsertState.run(cardId, 'array', null, count, version, new Date().toISOString());
      return version;
    });
  }

  /** Removes what a crash left of rows being written in slices (staged-rows.ts). Call once at start-up. */
  dropUnfinishedStaging(): number {
    return dropUnfinished(this.db);
  }

  // ---- internals ----

  /** A card whose rows are being written in slices takes no other write meanwhile. */
  private assertNotFilling(cardId: string): void {
    if (this.filling.has(cardId)) {
      throw conflict(
        `card "${cardId}" is being loaded from its file; nothing was changed, try again in a moment`,
        'CARD_LOADING',
      );
    }
  }

  /** The change log's image of the card's data now; `current`: its readJson text, when already read. */
  private beforeImage(cardId: string, current?: string): Image {
    const st = this.q.state.get(cardId) as StateRow | undefined;
    if (!st || st.shape === 'none') return undefined;
    if (st.shape === 'value') return st.doc ?? 'null';
    // a very large array is not even read for the change log (MAX_CHANGE_IMAGE_BYTES would drop it)
    if (st.row_count > MAX_CHANGE_IMAGE_ROWS) return OMITTED_IMAGE;
    return current ?? this.readJson(cardId);
  }

  private writeWhole(
    cardId: string,
    data: unknown,
    actor: Actor,
    op: string,
    path: string,
    before?: Image,
    unchanged = 0,
  ): number {
    const kept = Array.isArray(data) ? this.keepHead(cardId, Math.min(unchanged, data.length)) : 0;
    if (kept === 0) this.q.deleteRows.run(cardId);
    // an array's rows are serialised once: each for its own row, joined for the change log
    const rowTexts = Array.isArray(data)
      ? Array.from(data, (el) => JSON.stringify(el ?? null) ?? 'null')
      : undefined;
    const after =
      data === undefined ? undefined : rowTexts ? `[${rowTexts.join(',')}]` : JSON.stringify(data);
    const version = this.changes.record(cardId, actor, op, path, before, after);
    const now = new Date().toISOString();
    if (data === undefined) {
      this.q.upsertState.run(cardId, 'none', null, 0, version, now);
    } else if (Array.isArray(data)) {
      // after the kept rows: positions go on from the last kept one (positions may have gaps)
      let pos = kept === 0 ? 0 : ((this.q.maxPos.get(cardId) as number | null) ?? -1) + 1;
      for (let i = kept; i < data.length; i++) this.q.insertRow.run(cardId, pos++, (rowTexts as string[])[i]);
      this.q.upsertState.run(cardId, 'array', null, data.length, version, now);
    } else {
      this.q.upsertState.run(cardId, 'value', after, countOf(data), version, now);
    }
    return version;
  }

  /**
   * Keeps the first `n` rows of an array card and deletes the rest (writeWhole writes the rest).
   * @returns the rows kept: `n`, or 0 (nothing deleted) when the card holds no array of at least `n` rows.
   */
  private keepHead(cardId: string, n: number): number {
    if (n <= 0) return 0;
    const st = this.q.state.get(cardId) as StateRow | undefined;
    if (st?.shape !== 'array' || st.row_count < n) return 0;
    const first = this.q.byIndexAsc.get(cardId, n) as StoredRow | undefined;
    if (first) this.q.deleteFrom.run(cardId, first.pos);
    return n;
  }

  /**
   * Writes `body` into top-level row `row`. When its day in `field` becomes another real day, the
   * row moves to that day's place by append's rule, judged on the other rows: after the rows of
   * its day (last when no later day) if they are in day order, else it stays where it was.
   */
  private placeByDay(cardId: string, row: StoredRow, body: string, field: string): void {
    const day = dayOfRow(body, field);
    if (day === undefined || day === dayOfRow(row.body, field)) {
      this.q.updateRow.run(body, row.id);
      return;
    }
    this.q.deleteRow.run(row.id);
    const to = this.dayRange(cardId, field, day)?.to;
    let at = row.pos;
    if (to === 'end') at = ((this.q.maxPos.get(cardId) as number | null) ?? -1) + 1;
    else if (to !== undefined) at = to;
    if (this.q.posTaken.get(cardId, at)) {
      this.q.shiftOut.run(cardId, at);
      this.q.shiftBack.run(cardId);
    }
    this.q.insertRowWithId.run(row.id, cardId, at, body);
  }

  private findRootElement(cardId: string, root: Segment, pathText: string): StoredRow {
    if (root.kind === 'index') {
      const hit =
        root.index >= 0
          ? (this.q.byIndexAsc.get(cardId, root.index) as StoredRow | undefined)
          : (this.q.byIndexDesc.get(cardId, -root.index - 1) as StoredRow | undefined);
      if (!hit) throw new RowError('NO_MATCH', `no row at index ${root.index}`, pathText, cardId);
      return hit;
    }
    if (root.kind !== 'filter') {
      throw new RowError(
        'WRONG_TYPE',
        `"${root.key}" names a field, but the card data is an array`,
        pathText,
        cardId,
      );
    }
    const candidates =
      root.key === 'date'
        ? (this.q.byDate.all(
            cardId,
            typeof root.value === 'boolean' ? Number(root.value) : root.value,
          ) as StoredRow[])
        : (this.q.byField.all(
            cardId,
            `$."${root.key}"`,
            typeof root.value === 'boolean' ? Number(root.value) : root.value,
          ) as StoredRow[]);
    const seen = new Set(candidates.map((c) => c.id));
    for (const c of this.spelledAlike(cardId, root.key, root.value)) if (!seen.has(c.id)) candidates.push(c);
    const hits = candidates.filter((c) => ops.matchesFilter(JSON.parse(c.body), root.key, root.value));
    if (hits.length === 0) {
      throw new RowError(
        'NO_MATCH',
        `no row has ${root.key} = ${JSON.stringify(root.value)}`,
        pathText,
        cardId,
      );
    }
    if (hits.length > 1) {
      throw new RowError(
        'AMBIGUOUS',
        `${hits.length} rows have ${root.key} = ${JSON.stringify(root.value)}; add a filter that picks one`,
        pathText,
        cardId,
      );
    }
    return hits[0];
  }

  /**
   * The rows whose `key` is the date `value` names written by hand another way (`2026/04/06` for
   * `2026-04-06`, and the other way round), so a filter on a date finds the row a person wrote;
   * none when `value` names no date.
   */
  private spelledAlike(cardId: string, key: string, value: Literal): StoredRow[] {
    if (typeof value !== 'string') return [];
    const iso = isoDateSpelling(value);
    const day = iso.slice(0, 10);
    if (!isIsoDate(day)) return [];
    const rows = handDatedRows(this.db, cardId, key, handSpellingsOf(day).map(startingWith));
    if (iso === value) return rows;
    // the filter was written by hand: the rows written YYYY-MM-DD too
    const exact =
      key === 'date' ? this.q.byDate.all(cardId, iso) : this.q.byField.all(cardId, `$."${key}"`, iso);
    return [...rows, ...(exact as StoredRow[])];
  }

  private mutate<R extends object>(
    cardId: string,
    segs: Segment[],
    pathText: string,
    actor: Actor,
    op: string,
    how: {
      whole: (doc: unknown) => { doc: unknown; result: R };
      element: (el: unknown, rest: Segment[]) => { el: unknown; result: R };
      /** Append to the root array without reading it: returns the value to append. */
      rootArrayAppend?: () => unknown;
      /** With rootArrayAppend: the position to insert at instead of the end (later rows move down), or undefined. */
      rootArrayPlace?: () => number | undefined;
      /** A root filter with nothing after it removes the element itself. */
      removeElement?: boolean;
      /** The card's date field: a top-level row whose day changes moves to its day (placeByDay). */
      dayField?: string;
      /** True when the operation's result changed nothing: then nothing is written or recorded. */
      noop?: (result: R) => boolean;
    },
  ): Mutation<R> {
    this.assertNotFilling(cardId);
    return deferredWriteTransaction(this.db, (): Mutation<R> => {
      const st = this.q.state.get(cardId) as StateRow | undefined;
      const now = new Date().toISOString();
      if (st?.shape === 'array') {
        if (segs.length === 0) {
          if (how.rootArrayAppend) {
            const body = JSON.stringify(how.rootArrayAppend() ?? null);
            const max = this.q.maxPos.get(cardId) as number | null;
            let pos = (max ?? -1) + 1;
            const at = how.rootArrayPlace?.();
            if (at !== undefined) {
              this.q.shiftOut.run(cardId, at);
              this.q.shiftBack.run(cardId);
              pos = at;
            }
            const rowId = Number(this.q.insertRow.run(cardId, pos, body).lastInsertRowid);
            const total = st.row_count + 1;
            const version = this.changes.record(cardId, actor, op, pathText, undefined, body, { rowId, pos });
            this.q.bump.run(total, version, now, cardId);
            return { added: 1, totalAfter: total, version } as unknown as Mutation<R>;
          }
          // whole-array operations (reorder at the root, or an op that will fail on type)
          const doc = this.read(cardId);
          const r = how.whole(doc);
          if (how.noop?.(r.result)) return { ...r.result, version: st.version };
          const version = this.writeWhole(cardId, r.doc, actor, op, pathText, JSON.stringify(doc));
          return { ...r.result, version };
        }
        const { root, rest } = ops.splitRootFilter(segs);
        if (!root) throw rootKeyOnArray(pathText, cardId);
        const hit = this.findRootElement(cardId, root, pathText);
        if (how.removeElement && rest.length === 0) {
          this.q.deleteRow.run(hit.id);
          const total = st.row_count - 1;
          const version = this.changes.record(cardId, actor, op, pathText, hit.body, undefined, {
            rowId: hit.id,
            pos: hit.pos,
          });
          this.q.bump.run(total, version, now, cardId);
          return {
            removed: 1,
            row: JSON.parse(hit.body),
            totalAfter: total,
            version,
          } as unknown as Mutation<R>;
        }
        const r = how.element(JSON.parse(hit.body), rest);
        if (how.noop?.(r.result)) return { ...r.result, version: st.version };
        const body = JSON.stringify(r.el ?? null);
        // an update to the values the row already holds writes and records nothing
        if (op === 'update' && body === hit.body) return { ...r.result, version: st.version };
        if (how.dayField !== undefined && rest.length === 0) this.placeByDay(cardId, hit, body, how.dayField);
        else this.q.updateRow.run(body, hit.id);
        const version = this.changes.record(cardId, actor, op, pathText, hit.body, body, {
          rowId: hit.id,
          pos: hit.pos,
        });
        this.q.bump.run(st.row_count, version, now, cardId);
        return { ...r.result, version };
      }
      const doc = st && st.shape === 'value' ? JSON.parse(st.doc ?? 'null') : undefined;
      const r = how.whole(doc);
      if (how.noop?.(r.result) && st) return { ...r.result, version: st.version };
      const before = st && st.shape === 'value' ? (st.doc ?? 'null') : undefined;
      if (op === 'update' && st && before !== undefined && JSON.stringify(r.doc ?? null) === before) {
        return { ...r.result, version: st.version };
      }
      const version = this.writeWhole(cardId, r.doc, actor, op, pathText, before);
      return { ...r.result, version };
    });
  }
}
