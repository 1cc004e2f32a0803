/**
 * Samples keyed on their source as sent (schema migration 15). A point of several devices names
 * them joined by `|` in no set order (`Watch|iPhone` in one push, `iPhone|Watch` in the next), and
 * its key was made from that text: the same reading sent twice with its sources in two orders
 * was stored twice, and counted twice in a day's average. Keys are now made from the names in one
 * order (format/sources.ts sourceKeyText). Each stored sample whose source lists its names in
 * another order is keyed again so, from its stored values, keeping its row id, push, stamp, date
 * and values; where the same sample is stored already under that key (the other order of the same
 * reading), the copy is dropped. A converted sample was keyed on its values before they were
 * rounded, which are not stored: it is keyed on the rounded ones, and the store looks for a
 * converted sample of several devices under that key too (Sample.roundedKey).
 */
import type Database from 'better-sqlite3';
import { dedupKeyOf, type SampleSpan, type SampleValue } from './format/sample.js';
import { sourceKeyText } from './format/sources.js';
import { parseHaeTimestamp } from './format/timestamps.js';
import { applySampleMoves, type SampleMove } from './sample-moves.js';

interface Row {
  id: number;
  metric: string;
  date: string;
  at: string;
  span: SampleSpan;
  source: string;
  vals: string;
  key: string;
}

/** What rekeySourceOrder did. */
export interface SourceOrderResult {
  /** Samples keyed again on their sources in one order. */
  rekeyed: number;
  /** Samples dropped: the same sample was stored under that key already. */
  merged: number;
}

/**
 * Keys again every stored sample whose source lists its names in another order than its key now
 * takes (module comment). `zone` is the person's IANA zone (undefined: the process's), which
 * stamps written in UTC were read in. Runs inside the migration's transaction; lists the metrics
 * that lost a copy for their cards' rows to be recomputed and empties `hae_block_memo` then.
 */
export function rekeySourceOrder(db: Database.Database, zone?: string): SourceOrderResult {
  const rows = db
    .prepare(
      `SELECT id, metric, date, at, span, source, vals, lower(hex(dedup_key)) AS key FROM hae_samples
       WHERE source LIKE '%|%' ORDER BY id`,
    )
    .all() as Row[];
  const moves: SampleMove[] = [];
  for (const row of rows) {
    if (sourceKeyText(row.source) === row.source) continue;
    const time = parseHaeTimestamp(row.at, zone);
    if (!time) continue;
    const values = JSON.parse(row.vals) as Record<string, SampleValue>;
    const key = dedupKeyOf(row.metric, time, row.span, values, row.source);
    if (key !== row.key) moves.push({ id: row.id, key, metric: row.metric });
  }
  const { changed, merged } = applySampleMoves(db, moves, 'merged');
  return { rekeyed: changed, merged };
}
