/**
 * An Apple Health record of a summed quantity that crosses local midnight (a walk's steps from
 * 23:50 to 00:10) is shared between its two days in proportion to its time in each, as the
 * Health app counts it, instead of counting wholly on the day it started. Importing the same
 * export again adds nothing; importing it over what an import before the split stored (the
 * whole record on its first day) leaves each part once, the whole value never beside them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { exportXml, healthRecord, type IngestServer, startIngestServer } from './helpers.js';
import { WALK_SOURCE as SOURCE, storeWholeRecords, WALK_RECORDS } from './midnight-walk.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const Q = 'HKQuantityTypeIdentifier';

/** The evening walk, a meditation over midnight and a day's total from midnight to midnight. */
const RECORDS = [
  ...WALK_RECORDS,
  // a meditation from 23:40 to 00:20: 20 minutes on each day
  healthRecord({
    type: 'HKCategoryTypeIdentifierMindfulSession',
    value: 'HKCategoryValueNotApplicable',
    source: 'Calm',
    start: '2026-04-17 23:40:00 +0200',
    end: '2026-04-18 00:20:00 +0200',
  }),
  // a daily total an app writes from midnight to midnight stays on its day
  healthRecord({
    type: `${Q}StepCount`,
    unit: 'count',
    value: '5000',
    source: 'Pedometer++',
    start: '2026-04-19 00:00:00 +0200',
    end: '2026-04-20 00:00:00 +0200',
  }),
];
const XML = exportXml(RECORDS, { exportDate: '2026-04-20 08:00:00 +0200' });

async function server(): Promise<IngestServer> {
  return startIngestServer({
    cards: [
      ['steps', 'step_count'],
      ['distance', 'walking_running_distance'],
      ['mindful', 'mindful_minutes'],
    ],
  });
}

async function expectDays(s: IngestServer): Promise<void> {
  expect(await s.rows('steps')).toEqual([
    { date: '2026-04-17', count: 1250 },
    { date: '2026-04-18', count: 350 },
    { date: '2026-04-19', count: 5000 },
  ]);
  // 0.31 mi = 0.4989 km, half before midnight
  expect(await s.rows('distance')).toEqual([
    { date: '2026-04-17', km: 0.25 },
    { date: '2026-04-18', km: 0.25 },
  ]);
  expect(await s.rows('mindful')).toEqual([
    { date: '2026-04-17', minutes: 20 },
    { date: '2026-04-18', minutes: 20 },
  ]);
}

function stored(s: IngestServer): number {
  return s.inst.db.prepare('SELECT count(*) FROM hae_samples').pluck().get() as number;
}

describe('an Apple Health record that crosses midnight', () => {
  it('is shared between its two days; the same export imported again adds nothing', async () => {
    srv = await server();
    await srv.importKnown(XML);
    await expectDays(srv);
    const n = stored(srv);
    expect(n).toBe(9);
    const again = await srv.importKnown(XML);
    expect(again.newSamples).toBe(0);
    expect(stored(srv)).toBe(n);
    await expectDays(srv);
  });

  it('recorded in another zone than the export is written in, is shared at that zone’s midnight', async () => {
    srv = await server();
    // exported in Berlin; the watch recorded the walk in New York, 23:50 to 00:10 there
    const zone = '<MetadataEntry key="HKTimeZone" value="America/New_York"/>';
    const xml = exportXml(
      [
        healthRecord({
          type: `${Q}StepCount`,
          unit: 'count',
          value: '100',
          source: SOURCE,
          start: '2026-04-21 05:50:00 +0200',
          end: '2026-04-21 06:10:00 +0200',
          inner: zone,
        }),
        healthRecord({
          type: `${Q}StepCount`,
          unit: 'count',
          value: '40',
          source: SOURCE,
          start: '2026-04-21 16:00:00 +0200',
          end: '2026-04-21 16:05:00 +0200',
          inner: zone,
        }),
      ],
      { exportDate: '2026-04-22 08:00:00 +0200' },
    );
    await srv.importKnown(xml);
    expect(await srv.rows('steps')).toEqual([
      { date: '2026-04-20', count: 50 },
      { date: '2026-04-21', count: 90 },
    ]);
  });

  it('imported over the whole records an import before the split stored, keeps each part once', async () => {
    srv = await server();
    const s = srv;
    // what that import stored: each record whole on the day it started, keyed as it keyed it
    storeWholeRecords(s, [
      { metric: 'step_count', units: 'count', date: '2026-04-17 23:50:00 +0200', qty: '100' },
      { metric: 'walking_running_distance', units: 'mi', date: '2026-04-17 23:45:00 +0200', qty: '0.31' },
    ]);
    await s.importKnown(XML);
    expect(stored(s)).toBe(9);
    await expectDays(s);
    await s.importKnown(XML);
    expect(stored(s)).toBe(9);
    await expectDays(s);
  });
});
