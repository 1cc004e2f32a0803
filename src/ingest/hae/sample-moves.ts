/**
 * The common last step of the schema migrations that file stored samples again (a new key, a
 * new date, values without a mark): each sample is changed in place, keeping its row id, push and
 * stamp; where the table holds the same sample already under what it would become (the unique
 * metric, date and key), the copy is dropped instead. The metrics whose rows changed are listed
 * for their cards' rows to be recomputed, and `hae_block_memo` (which vouches for the keys and
 * dates of stored samples) is emptied when anything changed.
 */
import type Database from 'better-sqlite3';

/** One stored sample to file again; a field left out keeps its stored value. */
export interface SampleMove {
  /** `hae_samples.id`. */
  id: number;
  /** The sample's metric, listed for recomputing. */
  metric: string;
  /** The new dedup key, as lower-case hex. */
  key?: string;
  /** The new values, as JSON text. */
  vals?: string;
  /** The new date, `YYYY-MM-DD`. */
  date?: string;
}

/** What applySampleMoves did. */
export interface SampleMovesResult {
  /** Samples changed in place. */
  changed: number;
  /** Samples dropped: the same sample was stored under what they would become. */
  merged: number;
}

/**
 * Applies `moves` in order inside the caller's transaction (module comment). `recompute` says
 * which metrics are listed in `hae_recompute`: those that lost a copy (`merged`: a re-keyed
 * sample counts the same as before), or those of every sample changed too (`all`: a sample moved
 * to another date changes two days).
 */
export function applySampleMoves(
  db: Database.Database,
  moves: Iterable<SampleMove>,
  recompute: 'merged' | 'all',
): SampleMovesResult {
  const result: SampleMovesResult = { changed: 0, merged: 0 };
  const update = db.prepare(
    `UPDATE OR IGNORE hae_samples SET dedup_key = coalesce(unhex(?), dedup_key),
       vals = coalesce(?, vals), date = coalesce(?, date) WHERE id = ?`,
  );
  const remove = db.prepare('DELETE FROM hae_samples WHERE id = ?');
  const metrics = new Set<string>();
  for (const m of moves) {
    if (update.run(m.key ?? null, m.vals ?? null, m.date ?? null, m.id).changes > 0) {
      result.changed++;
      if (recompute === 'all') metrics.add(m.metric);
    } else {
      remove.run(m.id);
      result.merged++;
      metrics.add(m.metric);
    }
  }
  const list = db.prepare('INSERT OR IGNORE INTO hae_recompute (metric) VALUES (?)');
  for (const metric of metrics) list.run(metric);
  if (result.changed + result.merged > 0) db.exec('DELETE FROM hae_block_memo');
  return result;
}
