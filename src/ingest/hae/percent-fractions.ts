/**
 * Percentages an Apple Health import stored as the fractions the export writes (schema migration
 * 12). Apple writes every percentage as a share of one with the unit `%` (walking asymmetry 0.05
 * is 5 %); the import read that `%` as percent, so the metrics that may truly be below 1 %
 * (walking asymmetry, atrial fibrillation burden, perfusion index, blood alcohol) were stored a
 * hundred times too small, and the cards showed 0.05 % or 0 %. (Blood oxygen, body fat, double
 * support and walking steadiness were always multiplied: a value ≤ 1 of theirs is a fraction.)
 * Each such sample is read again as a fraction, as the import reads it now, and keyed as it
 * keys it, keeping its row id, push, stamp, span and copy number (`seq`); where the metric holds
 * the same sample already (the same reading pushed by the phone in percent) it is kept once.
 */
import type Database from 'better-sqlite3';
import { CATALOGUE } from './format/catalogue.js';
import { dedupKeyOf, type SampleValue } from './format/sample.js';
import { type RereadPoint, rereadPoint } from './reread-point.js';

/** The percent metrics whose fractions were stored as they were: those not made percent by size. */
const READ_AS_PERCENT = CATALOGUE.filter((e) => e.dimension === 'pct' && !e.fractionToPercent).map(
  (e) => e.key,
);

/** The `origin` of an Apple Health import's push (service.ts's APPLE_HEALTH_ORIGIN, kept in stored rows). */
const APPLE_HEALTH_ORIGIN = 'apple-health';

interface Row {
  id: number;
  metric: string;
  at: string;
  span: 'day' | 'sample';
  source: string | null;
  vals: string;
  push_id: number;
}

/** What rescaleAppleFractions did. */
export interface FractionResult {
  /** Samples now in percent. */
  rescaled: number;
  /** Samples dropped: the metric held the same one already. */
  merged: number;
}

/**
 * Reads again every sample of READ_AS_PERCENT that an Apple Health import stored (module
 * comment). `zone` is the person's IANA zone (undefined: the process's). Runs inside the
 * migration's transaction; lists the metrics changed for their cards' rows to be recomputed and
 * empties `hae_block_memo` when anything changed.
 */
export function rescaleAppleFractions(db: Database.Database, zone?: string): FractionResult {
  const result: FractionResult = { rescaled: 0, merged: 0 };
  const rows = db
    .prepare(
      `SELECT s.id, s.metric, s.at, s.span, s.source, s.vals, s.push_id FROM hae_samples s
       JOIN hae_pushes p ON p.id = s.push_id
       WHERE p.origin = ? AND s.metric IN (SELECT value FROM json_each(?)) ORDER BY s.id`,
    )
    .all(APPLE_HEALTH_ORIGIN, JSON.stringify(READ_AS_PERCENT)) as Row[];
  const remove = db.prepare('DELETE FROM hae_samples WHERE id = ?');
  const put = db.prepare(
    `INSERT INTO hae_samples (id, dedup_key, metric, date, at, span, source, vals, push_id)
     VALUES (?, unhex(?), ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (metric, date, dedup_key) DO NOTHING`,
  );
  const metrics = new Set<string>();
  for (const row of rows) {
    const again = asFraction(row, zone);
    if (!again) continue;
    remove.run(row.id);
    const key = dedupKeyOf(row.metric, again.time, row.span, again.keyValues, row.source);
    const r = put.run(
      row.id,
      key,
      row.metric,
      again.date,
      row.at,
      row.span,
      row.source,
      JSON.stringify(again.values),
      row.push_id,
    );
    if (r.changes > 0) result.rescaled++;
    else result.merged++;
    metrics.add(row.metric);
  }
  const recompute = db.prepare('INSERT OR IGNORE INTO hae_recompute (metric) VALUES (?)');
  for (const m of metrics) recompute.run(m);
  if (metrics.size > 0) db.exec('DELETE FROM hae_block_memo');
  return result;
}

/** A stored sample read again with its value as a fraction; undefined when it cannot be. */
function asFraction(row: Row, zone: string | undefined): RereadPoint | undefined {
  const { seq, pct, ...rest } = JSON.parse(row.vals) as Record<string, SampleValue>;
  if (typeof pct !== 'number') return undefined;
  const point: Record<string, unknown> = { ...rest, date: row.at, qty: pct };
  if (row.source !== null) point.source = row.source;
  return rereadPoint(row.metric, 'fraction', point, seq, zone);
}
