/**
 * Samples stored under a name the catalogue now reads as one of its metrics (schema migration 9;
 * docs/HEALTH-AUTO-EXPORT.md "The metrics"). A block named in camelCase (`stepCount`), as a
 * display name (`Weight & Body Mass`) or by its HealthKit identifier was once a metric the
 * catalogue did not know: its samples were stored under the name as sent (lower case), with the
 * point's numbers as sent and the block's `units`, and filled no card. The same block sent now is
 * read as the catalogue metric, so those samples are moved there: each stored point is read again
 * as a point of that metric (units converted, keyed under the metric's key, dated on the person's
 * clock), keeping its row id, push, stamp, span and copy number (`seq`). A sample the metric
 * already holds (sent again under the catalogue's name) is kept once. A point the metric cannot
 * read (a unit it does not know) stays under its name.
 */
import type Database from 'better-sqlite3';
import { resolveMetric } from './format/catalogue.js';
import { dedupKeyOf, type SampleValue } from './format/sample.js';
import { type RereadPoint, rereadPoint } from './reread-point.js';

interface Row {
  id: number;
  at: string;
  span: 'day' | 'sample';
  source: string | null;
  vals: string;
  push_id: number;
}

/** What moveRenamedSamples did. */
export interface RenameResult {
  /** Rows now under a catalogue metric. */
  moved: number;
  /** Rows dropped because the metric held the same sample already. */
  merged: number;
  /** Rows left under their name: the metric cannot read them. */
  kept: number;
}

/**
 * Moves the samples of every stored metric name that resolveMetric reads as a catalogue metric
 * other than itself (module comment). `zone` is the person's IANA zone (undefined: the
 * process's), for stamps written in UTC. Runs inside the migration's transaction; strikes the
 * moved names off the metrics seen (the metric is seen instead), lists the metrics for their
 * cards' rows to be recomputed, and empties `hae_block_memo` when anything moved.
 */
export function moveRenamedSamples(db: Database.Database, zone?: string): RenameResult {
  const result: RenameResult = { moved: 0, merged: 0, kept: 0 };
  const names = db.prepare('SELECT DISTINCT metric FROM hae_samples').pluck().all() as string[];
  const rowsOf = db.prepare(
    'SELECT id, at, span, source, vals, push_id FROM hae_samples WHERE metric = ? ORDER BY id',
  );
  const remove = db.prepare('DELETE FROM hae_samples WHERE id = ?');
  const put = db.prepare(
    `INSERT INTO hae_samples (id, dedup_key, metric, date, at, span, source, vals, push_id)
     VALUES (?, unhex(?), ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (metric, date, dedup_key) DO NOTHING`,
  );
  for (const name of names) {
    const entry = resolveMetric(name);
    if (!entry || entry.reads === name || entry.shape === 'workouts') continue;
    let left = 0;
    let moved = 0;
    for (const row of rowsOf.all(name) as Row[]) {
      const sample = readAgain(entry.key, row, zone);
      if (!sample) {
        left++;
        continue;
      }
      moved++;
      remove.run(row.id);
      const span = entry.shape === 'sleep' ? 'sample' : row.span;
      const key = dedupKeyOf(sample.metric, sample.time, span, sample.keyValues, sample.source);
      const vals = JSON.stringify(sample.values);
      const r = put.run(
        row.id,
        key,
        sample.metric,
        sample.date,
        row.at,
        span,
        sample.source,
        vals,
        row.push_id,
      );
      if (r.changes > 0) result.moved++;
      else result.merged++;
    }
    result.kept += left;
    if (moved === 0) continue;
    seen(db, name, entry.reads, left === 0);
    db.prepare('INSERT OR IGNORE INTO hae_recompute (metric) VALUES (?)').run(entry.reads);
  }
  if (result.moved + result.merged > 0) db.exec('DELETE FROM hae_block_memo');
  return result;
}

/** A stored row of a name, read again as a point of the catalogue metric `key`; undefined when it cannot be. */
function readAgain(key: string, row: Row, zone: string | undefined): RereadPoint | undefined {
  const { units, seq, ...sent } = JSON.parse(row.vals) as Record<string, SampleValue>;
  // the stamp the sample was dated by: `date` is never kept among the values, `startDate` is
  const point: Record<string, unknown> = { ...sent };
  if (String(sent.startDate) !== row.at) point.date = row.at;
  if (row.source !== null) point.source = row.source;
  return rereadPoint(key, typeof units === 'string' ? units : '', point, seq, zone);
}

/**
 * The metrics seen after `name`'s samples moved to `metric`: `metric` seen since the earlier of
 * the two first sightings, until the later of the last; `name` struck off when none of its
 * samples is left. A name dismissed while the metric was not seen leaves the metric dismissed.
 */
function seen(db: Database.Database, name: string, metric: string, gone: boolean): void {
  db.prepare(
    `INSERT INTO hae_metrics_seen (metric, first_seen_at, last_seen_at, dismissed_at)
       SELECT ?, first_seen_at, last_seen_at, dismissed_at FROM hae_metrics_seen WHERE metric = ?
     ON CONFLICT (metric) DO UPDATE SET
       first_seen_at = min(first_seen_at, excluded.first_seen_at),
       last_seen_at = max(last_seen_at, excluded.last_seen_at)`,
  ).run(metric, name);
  if (gone) db.prepare('DELETE FROM hae_metrics_seen WHERE metric = ?').run(name);
}
