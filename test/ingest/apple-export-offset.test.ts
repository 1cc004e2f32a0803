/**
 * The Health app writes every date of an export with the offset of the moment it exported: a
 * November record of a phone in Los Angeles exported in July reads `-0700`, an hour ahead of the
 * clocks there (PST, -0800). Through the real upload route: a record that names no zone is read
 * on the clock of the person's zone when the export was made there (its offset then is the
 * export's), so a late-evening walk stays on its day, a winter night keeps its bed and wake times,
 * and an export made in winter of the same records counts nothing twice; an export made in
 * another zone is read as written; a home that filed such records on the written day has them
 * moved, not counted on both.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

/** An export made at `exportDate`, every stamp written with `offset`. */
function exportXml(exportDate: string, body: string[]): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<HealthData locale="en_US">',
    ` <ExportDate value="${exportDate}"/>`,
    ...body,
    '</HealthData>',
  ].join('\n');
}

/** `local` (`YYYY-MM-DD HH:MM` on a clock `localOffsetH` hours from UTC) as a stamp written with `offsetH`. */
function stamp(local: string, localOffsetH: number, offsetH: number): string {
  const ms = Date.parse(`${local.replace(' ', 'T')}:00Z`) - localOffsetH * 3_600_000 + offsetH * 3_600_000;
  const d = new Date(ms).toISOString();
  const o =
    offsetH < 0 ? `-${String(-offsetH).padStart(2, '0')}00` : `+${String(offsetH).padStart(2, '0')}00`;
  return `${d.slice(0, 10)} ${d.slice(11, 19)} ${o}`;
}

/**
 * The same records as an export made with `offsetH` writes them: two winter walks (06:25 and
 * 23:30 on 14 November), a summer walk at 23:30, a winter night 22:00 to 06:00, a run at 23:30 on
 * 19 November; none names its zone.
 */
function records(offsetH: number): string[] {
  const w = (local: string) => stamp(local, -8, offsetH);
  const s = (local: string) => stamp(local, -7, offsetH);
  const steps = (from: string, to: string, n: number) =>
    ` <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" unit="count" creationDate="${to}" startDate="${from}" endDate="${to}" value="${n}"/>`;
  return [
    steps(w('2016-11-14 06:25'), w('2016-11-14 06:35'), 500),
    steps(w('2016-11-14 23:30'), w('2016-11-14 23:40'), 70),
    steps(s('2016-07-10 23:30'), s('2016-07-10 23:40'), 40),
    ` <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Watch" startDate="${w('2016-11-14 22:00')}" endDate="${w('2016-11-15 06:00')}" value="HKCategoryValueSleepAnalysisAsleepCore"/>`,
    ` <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" sourceName="Watch" startDate="${w('2016-11-19 23:30')}" endDate="${w('2016-11-20 00:00')}">`,
    '  <MetadataEntry key="HKIndoorWorkout" value="0"/>',
    ' </Workout>',
  ];
}

const SUMMER_EXPORT = exportXml('2019-07-19 10:36:11 -0700', records(-7));
const WINTER_EXPORT = exportXml('2019-12-19 10:36:11 -0800', records(-8));

const CARDS: [string, string][] = [
  ['steps', 'step_count'],
  ['sleep', 'sleep_analysis'],
  ['workouts', 'workouts'],
];

const STEPS = [
  { date: '2016-07-10', count: 40 },
  { date: '2016-11-14', count: 570 },
];
const NIGHT = { date: '2016-11-15', hours: 8, core: 8, bedTime: '22:00', wakeTime: '06:00', source: 'Watch' };
const RUN = { date: '2016-11-19', trained: true, type: 'Running', durationMin: 30, startTime: '23:30' };

async function laServer(): Promise<IngestServer> {
  const s = await startIngestServer({ cards: CARDS });
  expect((await s.api('/api/user/tz', { json: { tz: 'America/Los_Angeles' } })).status).toBe(200);
  return s;
}

describe('an export written with the offset of the day it was made', () => {
  it('dates records of the other season on the clock of the zone it was made in', async () => {
    srv = await laServer();
    const r = await srv.importExport(SUMMER_EXPORT);
    expect(r.status, r.text).toBe(200);
    expect(r.body.warnings).toEqual([]);
    expect(await srv.rows('steps')).toEqual(STEPS);
    expect(await srv.rows('sleep')).toEqual([NIGHT]);
    expect(await srv.rows('workouts')).toEqual([RUN]);
  });

  it('an export of the same records made in the other season counts nothing twice', async () => {
    srv = await laServer();
    await srv.importExport(SUMMER_EXPORT);
    const r = await srv.importExport(WINTER_EXPORT);
    expect(r.status, r.text).toBe(200);
    expect(await srv.rows('steps')).toEqual(STEPS);
    expect(await srv.rows('sleep')).toEqual([NIGHT]);
    expect(await srv.rows('workouts')).toEqual([RUN]);
    // and the other way round
    srv = await (async () => {
      await srv?.close();
      return laServer();
    })();
    await srv.importExport(WINTER_EXPORT);
    await srv.importExport(SUMMER_EXPORT);
    expect(await srv.rows('steps')).toEqual(STEPS);
    expect(await srv.rows('sleep')).toEqual([NIGHT]);
    expect(await srv.rows('workouts')).toEqual([RUN]);
  });

  it('made in another zone than the person’s, is read as written', async () => {
    srv = await startIngestServer({ cards: CARDS });
    expect((await srv.api('/api/user/tz', { json: { tz: 'Europe/Paris' } })).status).toBe(200);
    await srv.importExport(SUMMER_EXPORT);
    expect(await srv.rows('steps')).toEqual([
      { date: '2016-07-10', count: 40 },
      { date: '2016-11-14', count: 500 },
      { date: '2016-11-15', count: 70 },
    ]);
  });

  it('imported into a home that filed them on the written day, are moved, not counted on both', async () => {
    srv = await startIngestServer({ cards: CARDS });
    expect((await srv.api('/api/user/tz', { json: { tz: 'Europe/Paris' } })).status).toBe(200);
    // read as written, as before: the late walk on 15 November
    await srv.importExport(SUMMER_EXPORT);
    expect((await srv.api('/api/user/tz', { json: { tz: 'America/Los_Angeles' } })).status).toBe(200);
    const r = await srv.importExport(SUMMER_EXPORT);
    expect(r.status, r.text).toBe(200);
    const steps = await srv.rows('steps');
    expect(steps.find((row) => row.date === '2016-11-14')).toEqual({ date: '2016-11-14', count: 570 });
    const stored = srv.inst.db
      .prepare("SELECT date FROM hae_samples WHERE metric = 'step_count' ORDER BY date")
      .pluck()
      .all();
    expect(stored).toEqual(['2016-07-10', '2016-11-14', '2016-11-14']);
  });
});
