/**
 * An Apple Health export writes every date on the clock of the zone the phone exported in; a
 * record or workout whose metadata names the zone it was recorded in (`HKTimeZone`) is dated
 * where it happened, through the real upload route: a night slept in Tokyo by a phone living in
 * New York counts on Tokyo's morning with Tokyo's bed and wake times, a run after midnight in
 * Tokyo on that day. The same export imported into a home that filed them on New York's days
 * moves each to its day instead of storing it on both, and takes off the rows it wrote on the days
 * they left.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

function exportXml(body: string[]): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<HealthData locale="en_US">',
    ' <ExportDate value="2024-06-20 09:00:00 -0400"/>',
    ...body,
    '</HealthData>',
  ].join('\n');
}

/** A record with `zone` in its metadata (none when undefined), beside another entry as Apple writes them. */
function record(attrs: string, zone: string | undefined): string[] {
  const meta = zone === undefined ? [] : [`  <MetadataEntry key="HKTimeZone" value="${zone}"/>`];
  return [` <Record ${attrs}>`, ...meta, '  <MetadataEntry key="HKWasUserEntered" value="0"/>', ' </Record>'];
}

/**
 * What a phone living in New York (-0400) exports: a night and a run in Tokyo (+0900, 13 hours
 * ahead), a night at home, and a mindful session in a zone no runtime knows.
 */
function trip(zones: boolean): string {
  const z = (zone: string) => (zones ? zone : undefined);
  return exportXml([
    // 23:00 on 10 June to 07:00 on 11 June in Tokyo
    ...record(
      'type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Watch" startDate="2024-06-10 10:00:00 -0400" endDate="2024-06-10 14:00:00 -0400" value="HKCategoryValueSleepAnalysisAsleepCore"',
      z('Asia/Tokyo'),
    ),
    ...record(
      'type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Watch" startDate="2024-06-10 14:00:00 -0400" endDate="2024-06-10 18:00:00 -0400" value="HKCategoryValueSleepAnalysisAsleepDeep"',
      z('Asia/Tokyo'),
    ),
    // back home: 23:30 on 14 June to 06:30 on 15 June in New York
    ...record(
      'type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Watch" startDate="2024-06-14 23:30:00 -0400" endDate="2024-06-15 06:30:00 -0400" value="HKCategoryValueSleepAnalysisAsleepCore"',
      z('America/New_York'),
    ),
    ...record(
      'type="HKCategoryTypeIdentifierMindfulSession" sourceName="Health" startDate="2024-06-16 21:00:00 -0400" endDate="2024-06-16 21:10:00 -0400"',
      z('Mars/Olympus'),
    ),
    // 00:30 on 13 June in Tokyo
    ' <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" sourceName="Watch" startDate="2024-06-12 11:30:00 -0400" endDate="2024-06-12 12:00:00 -0400">',
    ...(zones ? ['  <MetadataEntry key="HKTimeZone" value="Asia/Tokyo"/>'] : []),
    '  <MetadataEntry key="HKIndoorWorkout" value="0"/>',
    ' </Workout>',
  ]);
}

const CARDS: [string, string][] = [
  ['sleep', 'sleep_analysis'],
  ['workouts', 'workouts'],
  ['mindful', 'mindful_minutes'],
];

const TOKYO_NIGHT = {
  date: '2024-06-11',
  hours: 8,
  core: 4,
  deep: 4,
  bedTime: '23:00',
  wakeTime: '07:00',
  source: 'Watch',
};
const HOME_NIGHT = {
  date: '2024-06-15',
  hours: 7,
  core: 7,
  bedTime: '23:30',
  wakeTime: '06:30',
  source: 'Watch',
};
const TOKYO_RUN = { date: '2024-06-13', trained: true, type: 'Running', durationMin: 30, startTime: '00:30' };

describe('records and workouts whose metadata names their zone', () => {
  it('are dated on the day and clock of where they happened', async () => {
    srv = await startIngestServer({ cards: CARDS });
    const r = await srv.importExport(trip(true));
    expect(r.status, r.text).toBe(200);
    expect(r.body.warnings).toEqual([]);
    expect(r.body).toMatchObject({ records: 4, workouts: 1, samples: 5, newSamples: 5 });
    expect(await srv.rows('sleep')).toEqual([TOKYO_NIGHT, HOME_NIGHT]);
    expect(await srv.rows('workouts')).toEqual([TOKYO_RUN]);
    expect(await srv.rows('mindful')).toEqual([{ date: '2024-06-16', minutes: 10 }]);
  });

  it('imported into a home that filed them on the export’s days, are moved, not counted on both', async () => {
    srv = await startIngestServer({ cards: CARDS });
    // what an import made before such zones were read filed: the night on 10 June, at 10:00
    await srv.importExport(trip(false));
    expect((await srv.rows('sleep'))[0]).toMatchObject({ date: '2024-06-10', bedTime: '10:00' });
    const r = await srv.importExport(trip(true));
    expect(r.status, r.text).toBe(200);
    // the two segments of the Tokyo night and the run are stored on their day, once
    expect(r.body).toMatchObject({ samples: 5, newSamples: 3 });
    const stored = srv.inst.db
      .prepare('SELECT metric, date FROM hae_samples ORDER BY metric, date')
      .all() as { metric: string; date: string }[];
    expect(stored).toEqual([
      { metric: 'mindful_minutes', date: '2024-06-16' },
      { metric: 'sleep_analysis', date: '2024-06-11' },
      { metric: 'sleep_analysis', date: '2024-06-11' },
      { metric: 'sleep_analysis', date: '2024-06-15' },
      { metric: 'workouts', date: '2024-06-13' },
    ]);
    // the days they left hold nothing more: the rows the first import wrote there are taken off
    expect(await srv.rows('sleep')).toEqual([TOKYO_NIGHT, HOME_NIGHT]);
    expect(await srv.rows('workouts')).toEqual([TOKYO_RUN]);
  });
});
