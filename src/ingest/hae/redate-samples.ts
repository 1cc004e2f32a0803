/**
 * Samples timed in UTC (seconds since 1970, a stamp ending in `Z`) stored on their UTC date
 * (schema migration 10; format/instant-zone.ts). Such a sample is now filed on the person's
 * day, so the same sample sent again would be stored a second time on another date: each one is
 * moved to the date its stamp has on the person's clock, keeping its id, key and values; where
 * that date holds it already (sent again since), the stored copy on the UTC date is dropped.
 */
import type Database from 'better-sqlite3';
import { parseHaeTimestamp } from './format/timestamps.js';
import { applySampleMoves, type SampleMove } from './sample-moves.js';

/** What redateUtcSamples did. */
export interface RedateResult {
  /** Rows moved to the person's date. */
  moved: number;
  /** Rows dropped: the person's date held the same sample already. */
  merged: number;
}

/**
 * Moves every sample whose stamp is written in UTC to its date in `zone` (the person's IANA zone;
 * the process's when undefined), as the module comment says. Runs inside the migration's
 * transaction; lists the metrics moved for their cards' rows to be recomputed and empties
 * `hae_block_memo` when anything moved (a memo vouches for the dates of stored samples).
 */
export function redateUtcSamples(db: Database.Database, zone?: string): RedateResult {
  // the stamps that may be written in UTC: digits only, or ending in Z, UTC or GMT (the phone's
  // own `+0200` stamps, nearly every row, are passed over by the index-free scan)
  const rows = db
    .prepare(
      `SELECT id, metric, date, at FROM hae_samples
       WHERE (at NOT GLOB '*[^0-9.]*' AND at GLOB '[0-9]*') OR upper(at) GLOB '*[0-9]Z'
          OR upper(at) GLOB '*UTC' OR upper(at) GLOB '*GMT'`,
    )
    .all() as { id: number; metric: string; date: string; at: string }[];
  const moves: SampleMove[] = [];
  for (const row of rows) {
    const t = parseHaeTimestamp(row.at, zone);
    if (t?.utc && t.date !== row.date) moves.push({ id: row.id, date: t.date, metric: row.metric });
  }
  const { changed, merged } = applySampleMoves(db, moves, 'all');
  return { moved: changed, merged };
}
