/**
 * Change sets (STYLE "Writes as change sets", after Actual Budget's undo): every mutation of a
 * card's data is recorded with its actor, operation, row path and before/after images. The id
 * of a card's latest change is its data version (the ETag of `GET /api/manifests/:id/data`).
 */
import { MAX_CHANGE_IMAGE_BYTES } from '../limits.js';
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

function cap(json: string | undefined): { text: string | null; omitted: boolean } {
  if (json === undefined) return { text: null, omitted: false };
  return json.length > MAX_CHANGE_IMAGE_BYTES ? { text: null, omitted: true } : { text: json, omitted: false };
}

/** Appends and reads change sets. All methods are synchronous and join the caller's transaction. */
export class ChangeLog {
  private readonly insert;
  private readonly byCard;

  constructor(private readonly db: Db) {
    this.insert = db.prepare(
      'INSERT INTO changes (ts, actor, card_id, op, path, before, after, image_omitted) VALUES (?,?,?,?,?,?,?,?)',
    );
    this.byCard = db.prepare('SELECT * FROM changes WHERE card_id = ? ORDER BY id DESC LIMIT ?');
  }

  /**
   * Records one change and returns its id (strictly increasing across the instance).
   * @param before JSON text of what the path held before (undefined: nothing), capped at MAX_CHANGE_IMAGE_BYTES.
   * @param after JSON text of what it holds now.
   */
  record(cardId: string, actor: Actor, op: string, path: string | null, before?: string, after?: string): number {
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
    return Number(info.lastInsertRowid);
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
