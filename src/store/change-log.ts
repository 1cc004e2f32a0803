/**
 * Change sets (STYLE "Writes as change sets", after Actual Budget's undo): every mutation of a
 * card's data is recorded with its actor, operation, row path and before/after images. The id
 * of a card's latest change is its data version (the ETag of `GET /api/manifests/:id/data`).
 */
import { CHANGE_LOG_KEEP_COUNT, CHANGE_LOG_KEEP_DAYS, MAX_CHANGE_IMAGE_BYTES } from '../limits.js';
import type { Db } from './database.js';

/** Who made a change: `web`, `agent-token`, `chat:<turn id>`, `hae`, `file` (a hand-edited manifest), `system`. */
export type Actor = string;

/** One recorded change. `before`/`after` are JSON text, or null when absent or too large to keep. */
export interface ChangeRecord {
  id: number;
  ts: string;
  actor: Actor;
  cardId: string;
  op: string;
  path: string | null;
  before: string | null;
  after: string | null;
  imageOmitted: boolean;
}

/** Stands for an image too large to copy into the log (recorded as omitted, not as text). */
export const OMITTED_IMAGE = Symbol('omitted image');

/** JSON text of an image, undefined for "nothing there", or OMITTED_IMAGE. */
export type Image = string | undefined | typeof OMITTED_IMAGE;

function cap(json: Image): { text: string | null; omitted: boolean } {
  if (json === undefined) return { text: null, omitted: false };
  if (json === OMITTED_IMAGE) return { text: null, omitted: true };
  return json.length > MAX_CHANGE_IMAGE_BYTES ? { text: null, omitted: true } : { text: json, omitted: false };
}

/** Appends and reads change sets. All methods are synchronous and join the caller's transaction. */
export class ChangeLog {
  private readonly insert;
  private readonly byCard;
  /** Id of the newest change recorded by this process (grows with every mutation; for caches). */
  lastId = 0;

  constructor(private readonly db: Db) {
    this.insert = db.prepare(
      'INSERT INTO changes (ts, actor, card_id, op, path, before, after, image_omitted) VALUES (?,?,?,?,?,?,?,?)',
    );
    this.byCard = db.prepare('SELECT * FROM changes WHERE card_id = ? ORDER BY id DESC LIMIT ?');
  }

  /**
   * Records one change and returns its id (strictly increasing across the instance).
   * @param before JSON text of what the path held before (undefined: nothing; OMITTED_IMAGE: too
   *   large to copy), capped at MAX_CHANGE_IMAGE_BYTES.
   * @param after JSON text of what it holds now.
   */
  record(cardId: string, actor: Actor, op: string, path: string | null, before?: Image, after?: Image): number {
    const b = cap(before);
    const a = cap(after);
    const info = this.insert.run(
      new Date().toISOString(),
      actor,
      cardId,
      op,
      path,
      b.text,
      a.text,
      b.omitted || a.omitted ? 1 : 0,
    );
    this.lastId = Number(info.lastInsertRowid);
    return this.lastId;
  }

  /**
   * Forgets old change sets: those older than `keepDays` days, except the newest `keepCount`
   * (so a quiet instance keeps its recent history however old). Returns how many were removed.
   */
  prune(keepDays = CHANGE_LOG_KEEP_DAYS, keepCount = CHANGE_LOG_KEEP_COUNT): number {
    const cutoff = new Date(Date.now() - keepDays * 86_400_000).toISOString();
    const info = this.db
      .prepare('DELETE FROM changes WHERE ts < ? AND id <= (SELECT max(id) FROM changes) - ?')
      .run(cutoff, keepCount);
    return info.changes;
  }

  /** The newest `limit` changes of one card, newest first. */
  recent(cardId: string, limit = 50): ChangeRecord[] {
    return (this.byCard.all(cardId, limit) as Record<string, unknown>[]).map((r) => ({
      id: r.id as number,
      ts: r.ts as string,
      actor: r.actor as string,
      cardId: r.card_id as string,
      op: r.op as string,
      path: (r.path as string | null) ?? null,
      before: (r.before as string | null) ?? null,
      after: (r.after as string | null) ?? null,
      imageOmitted: r.image_omitted === 1,
    }));
  }
}
