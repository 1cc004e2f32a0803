/**
 * Samples keyed with the mark of an automation's grouping within the day (schema migration 16).
 * A push whose automation-aggregation header said Hours, Minutes or Seconds marked every point of
 * a summed metric `partOfDay` and keyed it with the mark, so the same measurement sent again
 * with no header (or Days) had another key and was stored a second time. The mark is now kept
 * out of keys and only put on points at local midnight, where it says the point is the midnight
 * hour rather than the day's total (format/samples.ts withPartKey). Each stored sample of a
 * summed metric marked so at another time of day (no Apple Health record or app entry is: their
 * marks are kept) is keyed again without the mark, keeping its row id, push, stamp and date; a
 * copy the same measurement has already under that key is dropped. A converted sample was keyed
 * on its values before they were rounded, which are not stored: its key cannot be made again and
 * it is left as it is (the store still finds it under Sample.partKey when a grouped push sends
 * it again).
 */
import type Database from 'better-sqlite3';
import { resolveMetric } from './format/catalogue.js';
import { dedupKeyOf, type SampleSpan, type SampleValue } from './format/sample.js';
import { parseHaeTimestamp } from './format/timestamps.js';
import { applySampleMoves, type SampleMove } from './sample-moves.js';

interface Row {
  id: number;
  metric: string;
  at: string;
  span: SampleSpan;
  source: string | null;
  vals: string;
  key: string;
}

/** What unmarkGroupedParts did. */
export interface PartOfDayKeysResult {
  /** Samples keyed again without the mark. */
  rekeyed: number;
  /** Samples dropped: the same measurement was stored under that key already. */
  merged: number;
}

/**
 * Keys again, without the mark, every stored sample a grouping within the day marked `partOfDay`
 * away from midnight (module comment). `zone` is the person's IANA zone (undefined: the
 * process's), which stamps written in UTC were read in. Runs inside the migration's transaction;
 * lists the metrics that lost a copy for their cards' rows to be recomputed and empties
 * `hae_block_memo` when anything changed.
 */
export function unmarkGroupedParts(db: Database.Database, zone?: string): PartOfDayKeysResult {
  const rows = db
    .prepare(
      `SELECT id, metric, at, span, source, vals, lower(hex(dedup_key)) AS key FROM hae_samples
       WHERE json_extract(vals, '$.partOfDay') = 1 ORDER BY id`,
    )
    .iterate() as IterableIterator<Row>;
  const moves: SampleMove[] = [];
  for (const row of rows) {
    const entry = resolveMetric(row.metric);
    if (entry?.key !== row.metric || entry.kind !== 'sum' || entry.shape !== 'qty') continue;
    const time = parseHaeTimestamp(row.at, zone);
    if (!time || time.time === '00:00:00') continue;
    const values = JSON.parse(row.vals) as Record<string, SampleValue>;
    if (dedupKeyOf(row.metric, time, row.span, values, row.source) !== row.key) continue;
    const { partOfDay: _mark, ...plain } = values;
    const key = dedupKeyOf(row.metric, time, row.span, plain, row.source);
    moves.push({ id: row.id, key, vals: JSON.stringify(plain), metric: row.metric });
  }
  const { changed, merged } = applySampleMoves(db, moves, 'merged');
  return { rekeyed: changed, merged };
}
