/**
 * Re-keying stored samples to content-only keys (schema migration 6; docs/HEALTH-AUTO-EXPORT.md
 * "Same-instant samples").
 *
 * Before, the 2nd, 3rd ... sample with one instant and source took a `seq` by its position in the
 * file (counted within windows of 5,000 points), whatever its values: a newer export, with
 * records before and between, or same-instant records in another order, gave the same sample
 * another key, and it was stored again. Now `seq` numbers only identical copies of a sample.
 * Every stored group of identical samples (same metric, instant, span, source and values, `seq`
 * aside) is kept as many times as one push held it at most (copies one file or payload held are
 * real; the same sample stored by two pushes is one sample stored twice) and numbered 0, 1, ...
 * in arrival order, each row keeping its id, push and `at`.
 */
import type Database from 'better-sqlite3';
import { dedupKeyOf, type SampleSpan, type SampleValue } from './format/sample.js';
import { canonicalTimestamp, type HaeTime, parseHaeTimestamp } from './format/timestamps.js';

interface Row {
  id: number;
  metric: string;
  date: string;
  at: string;
  span: SampleSpan;
  source: string | null;
  vals: string;
  push_id: number;
}

/**
 * Re-keys every sample of a (metric, date, span, source) that holds a numbered (`seq`) sample and
 * merges the copies older keys stored twice. Runs inside the migration's transaction; empties
 * `hae_block_memo` when it deleted anything (a memo vouches for stored samples).
 * @returns how many rows were re-keyed and how many duplicates deleted.
 */
export function rekeySamples(db: Database.Database): { rekeyed: number; deleted: number } {
  const groups = db
    .prepare(
      `SELECT DISTINCT metric, date, span, source FROM hae_samples
       WHERE json_extract(vals, '$.seq') IS NOT NULL`,
    )
    .all() as Pick<Row, 'metric' | 'date' | 'span' | 'source'>[];
  const rowsOf = db.prepare(
    `SELECT id, metric, date, at, span, source, vals, push_id FROM hae_samples
     WHERE metric = ? AND date = ? AND span = ? AND source IS ? ORDER BY id`,
  );
  const remove = db.prepare('DELETE FROM hae_samples WHERE id = ?');
  const put = db.prepare(
    `INSERT INTO hae_samples (id, dedup_key, metric, date, at, span, source, vals, push_id)
     VALUES (?, unhex(?), ?, ?, ?, ?, ?, ?, ?)`,
  );
  let rekeyed = 0;
  let deleted = 0;
  for (const g of groups) {
    const copies = new Map<string, { rows: Row[]; time: HaeTime; values: Record<string, SampleValue> }>();
    for (const r of rowsOf.all(g.metric, g.date, g.span, g.source) as Row[]) {
      const time = parseHaeTimestamp(r.at);
      if (!time) continue; // never stored so (its key was made from this timestamp): left as it is
      const { seq: _seq, ...values } = JSON.parse(r.vals) as Record<string, SampleValue>;
      const content = JSON.stringify([canonicalTimestamp(time), Object.entries(values).sort()]);
      const c = copies.get(content);
      if (c) c.rows.push(r);
      else copies.set(content, { rows: [r], time, values });
    }
    for (const { rows, time, values } of copies.values()) {
      if (rows.length === 1 && !('seq' in JSON.parse(rows[0].vals))) continue;
      const perPush = new Map<number, number>();
      for (const r of rows) perPush.set(r.push_id, (perPush.get(r.push_id) ?? 0) + 1);
      const keep = Math.max(...perPush.values());
      for (const r of rows) remove.run(r.id);
      deleted += rows.length - keep;
      rows.slice(0, keep).forEach((r, n) => {
        const vals = n > 0 ? { ...values, seq: n } : values;
        const key = dedupKeyOf(r.metric, time, r.span, vals, r.source);
        put.run(r.id, key, r.metric, r.date, r.at, r.span, r.source, JSON.stringify(vals), r.push_id);
        rekeyed++;
      });
    }
  }
  if (deleted) db.exec('DELETE FROM hae_block_memo');
  return { rekeyed, deleted };
}
