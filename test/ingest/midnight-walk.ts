/**
 * An evening walk whose records cross midnight, for the tests of records shared between two days,
 * and a way to store what an import made before that split stored: each record whole on the day
 * it started, keyed as that import keyed it.
 */
import { expect } from 'vitest';
import { extractSamples } from '../../src/ingest/hae/format/samples.js';
import { healthRecord, type IngestServer } from './helpers.js';

const Q = 'HKQuantityTypeIdentifier';

/** The device that recorded the walk. */
export const WALK_SOURCE = 'Lena’s Apple Watch';

/**
 * 1200 steps at 18:00 on 17 April, 100 steps from 23:50 to 00:10, 300 steps at 09:00 on the
 * 18th, and 0.31 mi from 23:45 to 00:15 (all +0200).
 */
export const WALK_RECORDS: string[] = [
  healthRecord({
    type: `${Q}StepCount`,
    unit: 'count',
    value: '1200',
    source: WALK_SOURCE,
    start: '2026-04-17 18:00:00 +0200',
    end: '2026-04-17 18:30:00 +0200',
  }),
  healthRecord({
    type: `${Q}StepCount`,
    unit: 'count',
    value: '100',
    source: WALK_SOURCE,
    start: '2026-04-17 23:50:00 +0200',
    end: '2026-04-18 00:10:00 +0200',
  }),
  healthRecord({
    type: `${Q}StepCount`,
    unit: 'count',
    value: '300',
    source: WALK_SOURCE,
    start: '2026-04-18 09:00:00 +0200',
    end: '2026-04-18 09:05:00 +0200',
  }),
  healthRecord({
    type: `${Q}DistanceWalkingRunning`,
    unit: 'mi',
    value: '0.31',
    source: WALK_SOURCE,
    start: '2026-04-17 23:45:00 +0200',
    end: '2026-04-18 00:15:00 +0200',
  }),
];

/** One record as an import before the split stored it: its start time, its value and unit. */
export interface WholeRecord {
  metric: 'step_count' | 'walking_running_distance';
  units: string;
  date: string;
  qty: string;
}

/**
 * Writes the given records into `hae_samples` as an import made before records were split
 * stored them (whole, on the day they started, under push 900), as that code keyed them.
 */
export function storeWholeRecords(s: IngestServer, records: readonly WholeRecord[]): void {
  const metrics = ['step_count', 'walking_running_distance'].map((name) => {
    const own = records.filter((r) => r.metric === name);
    return {
      name,
      units: own[0]?.units ?? 'count',
      data: own.map((r) => ({ date: r.date, qty: r.qty, source: WALK_SOURCE })),
    };
  });
  const old = extractSamples({ metrics, workouts: [], warnings: [] }).samples;
  expect(old).toHaveLength(records.length);
  s.inst.db
    .prepare(
      "INSERT INTO hae_pushes (id, received_at, origin, bytes) VALUES (900, '2026-04-19T08:00:00Z', 'apple-health', 1)",
    )
    .run();
  const put = s.inst.db.prepare(
    `INSERT INTO hae_samples (dedup_key, metric, date, at, span, source, vals, push_id)
     VALUES (unhex(?), ?, ?, ?, 'sample', ?, ?, 900)`,
  );
  for (const o of old) put.run(o.dedupKey, o.metric, o.date, o.at, o.source, JSON.stringify(o.values));
}
