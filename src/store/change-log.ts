/**
 * Change sets (STYLE "Writes as change sets", after Actual Budget's undo): every mutation of a
 * card's data or manifest is recorded with its actor, operation, row path and before/after
 * images, and belongs to one change set (one chat turn, REST request, push, import or hand
 * edit: see change-scope.ts). The id of a card's latest data change is its data version (the
 * ETag of `GET /api/manifests/:id/data`). Undo is built on this log (src/cards/undo.ts).
 */
import { CHANGE_LOG_KEEP_COUNT, CHANGE_LOG_KEEP_DAYS, MAX_CHANGE_IMAGE_BYTES } from '../limits.js';
import { currentChangeScope } from './change-scope.js';
import { type Db, writeTransaction } from './database.js';

/**
 * Who made a change: `web` (a signed-in browser), `token:<name>` (a named API token),
 * `agent-token` (the AGENT_TOKEN bearer), `chat:<turn id>`, `mcp:<token or stdio>`, `hae`,
 * `import`, `file` (a hand edit picked up by the watcher), `local` (no sign-in configured),
 * `system` (the server itself).
 */
export type Actor = string;

/** The op of a manifest change (the file's text before and after; either may be absent). */
export const MANIFEST_OP = 'manifest';

/** One recorded change. `before`/`after` are JSON text, or null when absent or too large to keep. */
export interface ChangeRecord {
  id: number;
  /** The change set it belongs to (null: recorded before change sets existed). */
  setId: number | null;
  ts: string;
  actor: Actor;
  cardId: string;
  op: string;
  path: string | null;
  before: string | null;
  after: string | null;
  imageOmitted: boolean;
  /** Store row id of the one array element a row-level change touched; null for whole-block changes. */
  rowId: number | null;
  /** That element's position when it was removed (to put it back in place). */
  pos: number | null;
}

/** One change set. `undoOf`: the set this one undid; `undoneBy`: the set that undid this one. */
export interface ChangeSetRecord {
  id: number;
  ts: string;
  actor: Actor;
  undoOf: number | null;
  undoneBy: number | null;
}

/** What a change set did to one card, counted (for its human summary). */
export interface ChangeTally {
  cardId: string;
  op: string;
  /** A row-level change (one array element) rather than the whole block or the manifest. */
  row: boolean;
  /** Nothing was there before (an insert or a created manifest). */
  created: boolean;
  /** Nothing is there after (a removal or a deleted manifest). */
  removed: boolean;
  /** The same text before and after: a manifest whose file moved without a change (see foldDeletion). */
  unchanged: boolean;
  count: number;
}

/** Filters and cursor of a change set listing. */
export interface SetQuery {
  /** At most this many sets (newest first). */
  limit: number;
  /** Only sets with an id below this (the cursor of the next page). */
  before?: number;
  /** Only sets that touched this card. */
  cardId?: string;
  /** Only sets of this actor; a bare kind (`chat`, `token`, `mcp`) matches every `<kind>:…`. */
  actor?: string;
  /** Only sets whose actor starts with this text (one conversation's turns: `chat:<id>/`). */
  actorPrefix?: string;
}

/** Stands for an image too large to copy into the log (recorded as omitted, not as text). */
export const OMITTED_IMAGE = Symbol('omitted image');

/** JSON text of an image, undefined for "nothing there", or OMITTED_IMAGE. */
export type Image = string | undefined | typeof OMITTED_IMAGE;

function cap(json: Image): { text: string | null; omitted: boolean } {
  if (json === undefined) return { text: null, omitted: false };
  if (json === OMITTED_IMAGE) return { text: null, omitted: true };
  return json.length > MAX_CHANGE_IMAGE_BYTES
    ? { text: null, omitted: true }
    : { text: json, omitted: false };
}

function toChange(r: Record<string, unknown>): ChangeRecord {
  return {
    id: r.id as number,
    setId: (r.set_id as number | null) ?? null,
    ts: r.ts as string,
    actor: r.actor as string,
    cardId: r.card_id as string,
    op: r.op as string,
    path: (r.path as string | null) ?? null,
    before: (r.before as string | null) ?? null,
    after: (r.after as string | null) ?? null,
    imageOmitted: r.image_omitted === 1,
    rowId: (r.row_id as number | null) ?? null,
    pos: (r.pos as number | null) ?? null,
  };
}

function toSet(r: Record<string, unknown>): ChangeSetRecord {
  return {
    id: r.id as number,
    ts: r.ts as string,
    actor: r.actor as string,
    undoOf: (r.undo_of as number | null) ?? null,
    undoneBy: (r.undone_by as number | null) ?? null,
  };
}

/** Appends and reads change sets. All methods are synchronous and join the caller's transaction. */
export class ChangeLog {
  private readonly insert;
  private readonly insertSet;
  private readonly byCard;
  private readonly newestManifest;
  /** Id of the newest change recorded by this process (grows with every mutation; for caches). */
  lastId = 0;
  /**
   * False only in benchmarks that measure the log's own cost: ids still grow (they are data
   * versions) but nothing is written.
   */
  enabled = true;

  constructor(private readonly db: Db) {
    this.insert = db.prepare(
      'INSERT INTO changes (ts, actor, card_id, op, path, before, after, image_omitted, set_id, row_id, pos) VALUES (?,?,?,?,?,?,?,?,?,?,?)',
    );
    this.insertSet = db.prepare('INSERT INTO change_sets (ts, actor, undo_of) VALUES (?,?,?)');
    this.byCard = db.prepare(
      `SELECT * FROM changes WHERE card_id = ? AND op <> '${MANIFEST_OP}' ORDER BY id DESC LIMIT ?`,
    );
    // the partial index changes_card_manifest answers this without walking the card's row changes
    this.newestManifest = db
      .prepare(`SELECT max(id) FROM changes WHERE card_id = ? AND op = '${MANIFEST_OP}'`)
      .pluck();
    this.lastId = (db.prepare('SELECT max(id) FROM changes').pluck().get() as number | null) ?? 0;
  }

  /**
   * The id of the newest recorded change of card `cardId`'s manifest file (its creation, a
   * patch, a hand edit, a reorder, an undo), 0 when none is kept. With the data version it makes
   * the card's ETag (card-etag.ts).
   */
  newestManifestChange(cardId: string): number {
    return (this.newestManifest.get(cardId) as number | null) ?? 0;
  }

  /** The set the running unit of work records into (opened at its first change), or a new one. */
  private setFor(actor: Actor, ts: string): number {
    const scope = currentChangeScope();
    const open = scope?.sets.get(this);
    if (open !== undefined) return open;
    const info = this.insertSet.run(ts, scope?.actor ?? actor, scope?.undoOf ?? null);
    const id = Number(info.lastInsertRowid);
    scope?.sets.set(this, id);
    return id;
  }

  /**
   * Records one change in the current change set and returns its id (strictly increasing
   * across the instance).
   * @param before JSON text of what the path held before (undefined: nothing; OMITTED_IMAGE: too
   *   large to copy), capped at MAX_CHANGE_IMAGE_BYTES.
   * @param after JSON text of what it holds now.
   * @param at the store row a row-level change touched, and its position.
   */
  record(
    cardId: string,
    actor: Actor,
    op: string,
    path: string | null,
    before?: Image,
    after?: Image,
    at: { rowId?: number; pos?: number } = {},
  ): number {
    if (!this.enabled) return ++this.lastId;
    const b = cap(before);
    const a = cap(after);
    const ts = new Date().toISOString();
    const info = this.insert.run(
      ts,
      actor,
      cardId,
      op,
      path,
      b.text,
      a.text,
      b.omitted || a.omitted ? 1 : 0,
      this.setFor(actor, ts),
      at.rowId ?? null,
      at.pos ?? null,
    );
    this.lastId = Number(info.lastInsertRowid);
    return this.lastId;
  }

  /**
   * Records a change of a card's manifest file: its text before (undefined: the file was
   * created) and after (undefined: deleted). The actor is the running unit of work's.
   */
  recordManifest(
    cardId: string,
    fileName: string,
    before: string | undefined,
    after: string | undefined,
  ): number {
    const actor = currentChangeScope()?.actor ?? 'system';
    return this.record(cardId, actor, MANIFEST_OP, fileName, before, after);
  }

  /**
   * Turns the recorded deletion of a card's manifest (change `changeId`) into the change the
   * card's return made: its text is now `after`, in the file `fileName`. A card whose file
   * vanished and came back (a rename whose old name went first, a folder moved away and back)
   * is then one change in History, not a deletion and a creation, and undoing it undoes that
   * change. Only while that deletion is still the card's newest manifest change, the only change
   * of its set, and not undone; otherwise nothing changes and false is returned.
   */
  foldDeletion(changeId: number, cardId: string, fileName: string, after: string): boolean {
    const r = this.db
      .prepare(
        `SELECT c.set_id, s.undone_by,
           (SELECT count(*) FROM changes WHERE set_id = c.set_id) AS n,
           (SELECT max(id) FROM changes WHERE card_id = c.card_id AND op = '${MANIFEST_OP}') AS newest
         FROM changes c JOIN change_sets s ON s.id = c.set_id
         WHERE c.id = ? AND c.card_id = ? AND c.op = '${MANIFEST_OP}' AND c.after IS NULL AND c.image_omitted = 0`,
      )
      .get(changeId, cardId) as { undone_by: number | null; n: number; newest: number } | undefined;
    if (!r || r.undone_by !== null || r.n !== 1 || r.newest !== changeId) return false;
    const a = cap(after);
    this.db
      .prepare('UPDATE changes SET path = ?, after = ?, image_omitted = ? WHERE id = ?')
      .run(fileName, a.text, a.omitted ? 1 : 0, changeId);
    return true;
  }

  /**
   * Forgets old change sets: those older than `keepDays` days, except the newest `keepCount`
   * changes (so a quiet instance keeps its recent history however old). Returns how many
   * changes were removed.
   */
  prune(keepDays = CHANGE_LOG_KEEP_DAYS, keepCount = CHANGE_LOG_KEEP_COUNT): number {
    const cutoff = new Date(Date.now() - keepDays * 86_400_000).toISOString();
    const old = 'ts < ? AND id <= (SELECT max(id) FROM changes) - ?';
    return writeTransaction(this.db, () => {
      // a set that loses a change can no longer be undone whole: the rest of it goes too
      const sets = this.db
        .prepare(`SELECT DISTINCT set_id FROM changes WHERE ${old} AND set_id IS NOT NULL`)
        .pluck()
        .all(cutoff, keepCount);
      let removed = this.db.prepare(`DELETE FROM changes WHERE ${old}`).run(cutoff, keepCount).changes;
      // (never the newest change: ids must keep growing, they are data versions)
      const bySet = this.db.prepare(
        'DELETE FROM changes WHERE set_id = ? AND id < (SELECT max(id) FROM changes)',
      );
      const set = this.db.prepare('DELETE FROM change_sets WHERE id = ?');
      for (const id of sets) {
        removed += bySet.run(id).changes;
        set.run(id);
      }
      return removed;
    });
  }

  /** The newest `limit` data changes of one card, newest first. */
  recent(cardId: string, limit = 50): ChangeRecord[] {
    return (this.byCard.all(cardId, limit) as Record<string, unknown>[]).map(toChange);
  }

  /** One change set, or undefined. */
  getSet(id: number): ChangeSetRecord | undefined {
    const r = this.db.prepare('SELECT * FROM change_sets WHERE id = ?').get(id) as
      | Record<string, unknown>
      | undefined;
    return r ? toSet(r) : undefined;
  }

  /** Change sets, newest first, filtered (see SetQuery). */
  listSets(q: SetQuery): ChangeSetRecord[] {
    const where: string[] = [];
    const args: unknown[] = [];
    if (q.before !== undefined) {
      where.push('s.id < ?');
      args.push(q.before);
    }
    if (q.cardId !== undefined) {
      where.push('EXISTS (SELECT 1 FROM changes c WHERE c.set_id = s.id AND c.card_id = ?)');
      args.push(q.cardId);
    }
    if (q.actor !== undefined) {
      if (q.actor.includes(':')) {
        where.push('s.actor = ?');
        args.push(q.actor);
      } else {
        where.push("(s.actor = ? OR substr(s.actor, 1, length(?) + 1) = ? || ':')");
        args.push(q.actor, q.actor, q.actor);
      }
    }
    if (q.actorPrefix !== undefined) {
      where.push('substr(s.actor, 1, length(?)) = ?');
      args.push(q.actorPrefix, q.actorPrefix);
    }
    const sql = `SELECT s.* FROM change_sets s ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY s.id DESC LIMIT ?`;
    return (this.db.prepare(sql).all(...args, q.limit) as Record<string, unknown>[]).map(toSet);
  }

  /** The changes of one set, oldest first. */
  changesOf(setId: number): ChangeRecord[] {
    return (
      this.db.prepare('SELECT * FROM changes WHERE set_id = ? ORDER BY id').all(setId) as Record<
        string,
        unknown
      >[]
    ).map(toChange);
  }

  /** What a set did, counted per card and kind of change (for its summary). */
  tally(setId: number): ChangeTally[] {
    const rows = this.db
      .prepare(
        `SELECT card_id, op, row_id IS NOT NULL AS row, (before IS NULL AND image_omitted = 0) AS created,
           (after IS NULL AND image_omitted = 0) AS removed, coalesce(before = after, 0) AS unchanged, count(*) AS n
         FROM changes WHERE set_id = ? GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY min(id)`,
      )
      .all(setId) as Record<string, unknown>[];
    return rows.map((r) => ({
      cardId: r.card_id as string,
      op: r.op as string,
      row: r.row === 1,
      created: r.created === 1,
      removed: r.removed === 1,
      unchanged: r.unchanged === 1,
      count: r.n as number,
    }));
  }

  /**
   * Changes of other sets, made after the first change of `setId` to the same cards, that undo
   * could collide with (the caller decides which really touch the same rows or fields). Pairs of
   * a later set and the undo that took it back (not itself undone) cancel out and are left out.
   */
  laterChanges(setId: number): ChangeRecord[] {
    return (
      this.db
        .prepare(
          `WITH mine AS (SELECT card_id, min(id) AS first FROM changes WHERE set_id = ? GROUP BY card_id),
           cancelled AS (
             SELECT x.id FROM change_sets x JOIN change_sets y ON y.id = x.undone_by
               WHERE x.id > ? AND y.undone_by IS NULL
             UNION
             SELECT y.id FROM change_sets y WHERE y.undo_of > ? AND y.undone_by IS NULL)
           SELECT d.* FROM changes d JOIN mine m ON d.card_id = m.card_id AND d.id > m.first
           WHERE d.set_id IS NOT ? AND (d.set_id IS NULL OR d.set_id NOT IN (SELECT id FROM cancelled))
           ORDER BY d.id`,
        )
        .all(setId, setId, setId, setId) as Record<string, unknown>[]
    ).map(toChange);
  }

  /**
   * The deletions of a card's manifest made by set `setId` or after its first change to the card,
   * oldest first: the set that deleted it and the manifest text it deleted. A set's summary names
   * the card as it was when it was deleted, not a later card made with the same id.
   */
  manifestDeletionsFrom(cardId: string, setId: number): { setId: number | null; before: string }[] {
    return (
      this.db
        .prepare(
          `SELECT set_id, before FROM changes WHERE card_id = ? AND op = '${MANIFEST_OP}' AND after IS NULL
             AND before IS NOT NULL
             AND id >= (SELECT coalesce(min(id), 0) FROM changes WHERE set_id = ? AND card_id = ?)
           ORDER BY id`,
        )
        .all(cardId, setId, cardId) as { set_id: number | null; before: string }[]
    ).map((r) => ({ setId: r.set_id, before: r.before }));
  }

  /** The newest manifest text the log holds for a card (before or after image), for naming a deleted card. */
  lastManifestText(cardId: string): string | undefined {
    const r = this.db
      .prepare(
        `SELECT coalesce(after, before) FROM changes WHERE card_id = ? AND op = '${MANIFEST_OP}' AND coalesce(after, before) IS NOT NULL ORDER BY id DESC LIMIT 1`,
      )
      .pluck()
      .get(cardId);
    return typeof r === 'string' ? r : undefined;
  }

  /**
   * The newest manifest change recorded for the file `fileName` (its name in the data folder):
   * the card it was for and the text it left (`after`, undefined when that change deleted the
   * card). Undefined when the log holds none (a file dropped in by hand and never changed since,
   * or changes pruned by age).
   */
  latestManifestOfFile(fileName: string): { cardId: string; after: string | undefined } | undefined {
    const r = this.db
      .prepare(
        `SELECT card_id, after FROM changes WHERE path = ? AND op = '${MANIFEST_OP}' ORDER BY id DESC LIMIT 1`,
      )
      .get(fileName) as { card_id: string; after: string | null } | undefined;
    return r ? { cardId: r.card_id, after: r.after ?? undefined } : undefined;
  }

  /**
   * Whether the newest manifest change recorded for `cardId` (by any process on this home) left
   * the manifest as `after` (its text; undefined: deleted). The file watcher asks this so that a
   * file written by another Klebb process (the stdio MCP server beside the web server), which
   * that process already recorded, is not recorded again as a hand edit.
   */
  isLatestManifest(cardId: string, after: string | undefined): boolean {
    const r = this.newestManifestImage(cardId);
    if (!r) return false;
    return after === undefined ? r.after === null && r.image_omitted === 0 : r.after === after;
  }

  /**
   * The newest recorded manifest change of card `cardId`: its text after the change (null for a
   * deletion, or when `image_omitted` says the text was too large to keep), undefined when none.
   */
  newestManifestImage(cardId: string): { after: string | null; image_omitted: number } | undefined {
    return this.db
      .prepare(
        `SELECT after, image_omitted FROM changes WHERE card_id = ? AND op = '${MANIFEST_OP}' ORDER BY id DESC LIMIT 1`,
      )
      .get(cardId) as { after: string | null; image_omitted: number } | undefined;
  }

  /** Marks `setId` as undone by `undoSetId`. */
  markUndone(setId: number, undoSetId: number): void {
    this.db.prepare('UPDATE change_sets SET undone_by = ? WHERE id = ?').run(undoSetId, setId);
  }

  /** The set the running unit of work has opened in this log, if it has recorded anything yet. */
  openSetId(): number | undefined {
    return currentChangeScope()?.sets.get(this);
  }
}
