/**
 * Workouts through the real upload route and webhook: the ascent Apple writes as metadata
 * (`HKElevationAscended`, with its unit) becomes `elevationM`, as a phone push's `elevationUp`
 * does; a workout whose end is before its start or whose duration is negative is refused with a
 * warning, and a field in a unit Klebb does not know is left out with a warning.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { graphemeLength, MAX_UNITS_PER_CHARACTER } from '../../src/common/graphemes.js';
import { MAX_WORKOUT_NAME_CHARS } from '../../src/ingest/hae/format/limits.js';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

/** One `<Workout>` on `day` (October 2026, -0500) from 10:00, `attrs` over the defaults, with metadata. */
function workout(day: number, attrs: Record<string, string>, meta: Record<string, string> = {}): string {
  const d = `2026-10-${String(day).padStart(2, '0')}`;
  const a: Record<string, string> = {
    workoutActivityType: 'HKWorkoutActivityTypeHiking',
    duration: '120',
    durationUnit: 'min',
    sourceName: 'Watch',
    startDate: `${d} 10:00:00 -0500`,
    endDate: `${d} 12:00:00 -0500`,
    ...attrs,
  };
  const attrText = Object.entries(a)
    .map(([k, v]) => `${k}="${v}"`)
    .join(' ');
  const children = Object.entries(meta).map(([k, v]) => `  <MetadataEntry key="${k}" value="${v}"/>`);
  return [` <Workout ${attrText}>`, ...children, ' </Workout>'].join('\n');
}

function exportXml(body: string[]): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<HealthData locale="en_US">',
    ...body,
    '</HealthData>',
  ].join('\n');
}

const HIKE = { date: '', trained: true, type: 'Hiking', durationMin: 120, startTime: '10:00' };

describe('Apple Health workouts', () => {
  it('the ascent in cm, m and ft becomes elevationM', async () => {
    srv = await startIngestServer({ cards: [['workouts', 'workouts']] });
    const r = await srv.api('/api/apple-health/import', {
      method: 'POST',
      body: exportXml([
        workout(21, {}, { HKElevationAscended: '4523 cm', HKIndoorWorkout: '0' }),
        workout(22, {}, { HKElevationAscended: '120 m' }),
        workout(23, {}, { HKElevationAscended: '1000 ft' }),
      ]),
    });
    expect(r.status).toBe(200);
    expect(r.body.warnings).toEqual([]);
    expect(await srv.rows('workouts')).toEqual([
      { ...HIKE, date: '2026-10-21', elevationM: 45 },
      { ...HIKE, date: '2026-10-22', elevationM: 120 },
      { ...HIKE, date: '2026-10-23', elevationM: 305 },
    ]);
  });

  it('end before start and a negative duration are refused; a field in an unknown unit is left out; each is said', async () => {
    srv = await startIngestServer({ cards: [['workouts', 'workouts']] });
    const r = await srv.api('/api/apple-health/import', {
      method: 'POST',
      body: exportXml([
        workout(21, { endDate: '2026-10-21 09:00:00 -0500' }),
        workout(22, { duration: '-30' }),
        workout(23, { totalDistance: '4', totalDistanceUnit: 'parsec' }),
        workout(24, { durationUnit: 'parsec' }),
        workout(25, {}),
      ]),
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ workouts: 5, samples: 3, skipped: 2 });
    expect([...r.body.warnings].sort()).toEqual([
      'workouts: distance in an unknown unit, left out (1 point, e.g. "parsec")',
      'workouts: duration in an unknown unit, left out (1 point, e.g. "parsec")',
      'workouts: end before start (1 point, e.g. "2026-10-21 10:00:00 -0500 to 2026-10-21 09:00:00 -0500")',
      'workouts: negative duration (1 point, e.g. -1800)',
    ]);
    // the 24th: the duration from its start and end (120 min)
    expect(await srv.rows('workouts')).toEqual([
      { ...HIKE, date: '2026-10-23' },
      { ...HIKE, date: '2026-10-24' },
      { ...HIKE, date: '2026-10-25' },
    ]);
  });
});

describe('Apple Health workouts with activities (iOS 16 and later)', () => {
  const stat = (type: string, attrs: string) =>
    `  <WorkoutStatistics type="HKQuantityTypeIdentifier${type}" startDate="2026-10-21 10:00:00 -0500" endDate="2026-10-21 12:00:00 -0500" ${attrs}/>`;
  const activity = (uuid: string, children: string[]) => [
    `  <WorkoutActivity uuid="${uuid}" startDate="2026-10-21 10:00:00 -0500" endDate="2026-10-21 12:00:00 -0500" duration="60" durationUnit="min">`,
    ...children.map((c) => `  ${c}`),
    '  </WorkoutActivity>',
  ];
  const open = (type: string) =>
    ` <Workout workoutActivityType="HKWorkoutActivityType${type}" duration="120" durationUnit="min" sourceName="Watch" startDate="2026-10-21 10:00:00 -0500" endDate="2026-10-21 12:00:00 -0500">`;

  it('the ascent written only in the activities is summed; a multisport distance is the sum of its distance types', async () => {
    srv = await startIngestServer({ cards: [['workouts', 'workouts']] });
    const r = await srv.api('/api/apple-health/import', {
      method: 'POST',
      body: exportXml([
        open('Running'),
        '  <MetadataEntry key="HKIndoorWorkout" value="0"/>',
        ...activity('A', [
          stat('StepCount', 'sum="9000" unit="count"'),
          '<MetadataEntry key="HKElevationAscended" value="4500 cm"/>',
        ]),
        stat('DistanceWalkingRunning', 'sum="8.5" unit="km"'),
        ' </Workout>',
        open('SwimBikeRun').replace(/21/g, '22'),
        ...activity('B', [
          stat('DistanceSwimming', 'sum="750" unit="m"'),
          '<MetadataEntry key="HKElevationAscended" value="0 m"/>',
        ]),
        ...activity('C', [
          stat('DistanceCycling', 'sum="20" unit="km"'),
          '<MetadataEntry key="HKElevationAscended" value="150 m"/>',
        ]),
        ...activity('D', [
          stat('DistanceWalkingRunning', 'sum="5" unit="km"'),
          '<MetadataEntry key="HKElevationAscended" value="1000 cm"/>',
        ]),
        stat('DistanceSwimming', 'sum="750" unit="m"'),
        stat('DistanceCycling', 'sum="20" unit="km"'),
        stat('DistanceWalkingRunning', 'sum="5" unit="km"'),
        stat('ActiveEnergyBurned', 'sum="900" unit="kcal"'),
        ' </Workout>',
      ]),
    });
    expect(r.status).toBe(200);
    expect(r.body.warnings).toEqual([]);
    const rows = await srv.rows('workouts');
    // the run: 45 m from the activity; the triathlon: 0.75 + 20 + 5 km, 0 + 150 + 10 m
    expect(rows).toEqual([
      { ...HIKE, date: '2026-10-21', type: 'Running', distanceKm: 8.5, elevationM: 45 },
      {
        ...HIKE,
        date: '2026-10-22',
        type: 'Swim Bike Run',
        distanceKm: 25.75,
        calories: 900,
        elevationM: 160,
      },
    ]);
  });

  it('a summed distance carries no binary tail', async () => {
    srv = await startIngestServer({ cards: [['workouts', 'workouts']] });
    const r = await srv.api('/api/apple-health/import', {
      method: 'POST',
      body: exportXml([
        open('SwimBikeRun'),
        stat('DistanceSwimming', 'sum="0.1" unit="km"'),
        stat('DistanceCycling', 'sum="0.2" unit="km"'),
        ' </Workout>',
      ]),
    });
    expect(r.status).toBe(200);
    const rows = await srv.rows('workouts');
    expect(rows.map((w: { distanceKm?: number }) => w.distanceKm)).toEqual([0.3]);
  });
});

describe('Apple Health workouts with totals written as 0', () => {
  it('take the distance and energy from their statistics', async () => {
    srv = await startIngestServer({ cards: [['workouts', 'workouts']] });
    const r = await srv.api('/api/apple-health/import', {
      method: 'POST',
      body: exportXml([
        ' <Workout workoutActivityType="HKWorkoutActivityTypeHiking" duration="120" durationUnit="min" totalDistance="0" totalDistanceUnit="km" totalEnergyBurned="0" totalEnergyBurnedUnit="kcal" sourceName="Watch" startDate="2026-10-21 10:00:00 -0500" endDate="2026-10-21 12:00:00 -0500">',
        '  <WorkoutStatistics type="HKQuantityTypeIdentifierDistanceWalkingRunning" startDate="2026-10-21 10:00:00 -0500" endDate="2026-10-21 12:00:00 -0500" sum="7.25" unit="km"/>',
        '  <WorkoutStatistics type="HKQuantityTypeIdentifierActiveEnergyBurned" startDate="2026-10-21 10:00:00 -0500" endDate="2026-10-21 12:00:00 -0500" sum="610" unit="kcal"/>',
        ' </Workout>',
        workout(22, { totalDistance: '0', totalEnergyBurned: '0' }),
      ]),
    });
    expect(r.status).toBe(200);
    expect(r.body.warnings).toEqual([]);
    expect(await srv.rows('workouts')).toEqual([
      { ...HIKE, date: '2026-10-21', distanceKm: 7.25, calories: 610 },
      { ...HIKE, date: '2026-10-22' },
    ]);
  });
});

describe('Health Auto Export workouts', () => {
  it('the same rules for a push', async () => {
    srv = await startIngestServer({ cards: [['workouts', 'workouts']] });
    const w = (day: number, extra: Record<string, unknown>) => ({
      name: 'Hiking',
      start: `2026-10-${day} 10:00:00 -0500`,
      end: `2026-10-${day} 12:00:00 -0500`,
      duration: 7200,
      ...extra,
    });
    const r = await srv.push(
      JSON.stringify({
        data: {
          workouts: [
            w(21, { end: '2026-10-21 09:00:00 -0500' }),
            w(22, { duration: -60 }),
            w(23, { distance: { qty: 4, units: 'parsec' }, elevationUp: { qty: 120, units: 'm' } }),
          ],
        },
      }),
    );
    expect(r.status).toBe(200);
    expect([...r.body.warnings].sort()).toEqual([
      'workouts: distance in an unknown unit, left out (1 point, e.g. "parsec")',
      'workouts: end before start (1 point, e.g. "2026-10-21 10:00:00 -0500 to 2026-10-21 09:00:00 -0500")',
      'workouts: negative duration (1 point, e.g. -60)',
    ]);
    expect(await srv.rows('workouts')).toEqual([{ ...HIKE, date: '2026-10-23', elevationM: 120 }]);
  });

  it('a heart-rate series that is the recovery after the workout leaves its heart rate out, with a warning', async () => {
    srv = await startIngestServer({ cards: [['workouts', 'workouts']] });
    // the app sometimes sends the minutes after the workout (instantaneous, decaying samples from
    // its end) in heartRateData, and its summary heart rate is worked out from them
    const beat = (time: string, bpm: number) => ({
      date: `2026-10-21 ${time} -0400`,
      Avg: bpm,
      Min: bpm,
      Max: bpm,
      units: 'bpm',
      source: 'Watch',
    });
    const workout = (id: string, day: number, series: Record<string, unknown>[]) => ({
      id,
      name: 'Elliptical',
      start: `2026-10-${day} 16:26:30 -0400`,
      end: `2026-10-${day} 16:51:02 -0400`,
      duration: 1472,
      heartRate: {
        min: { qty: 100, units: 'bpm' },
        avg: { qty: 114.8, units: 'bpm' },
        max: { qty: 133, units: 'bpm' },
      },
      heartRateData: series,
    });
    const r = await srv.push(
      JSON.stringify({
        data: {
          workouts: [
            workout('A', 21, [beat('16:51:02', 133), beat('16:51:11', 132), beat('16:52:30', 101)]),
            workout('B', 22, [
              { ...beat('16:30:00', 125), date: '2026-10-22 16:30:00 -0400' },
              { ...beat('16:50:00', 133), date: '2026-10-22 16:50:00 -0400' },
            ]),
          ],
        },
      }),
    );
    expect(r.status).toBe(200);
    expect(r.body.warnings).toEqual([
      'workouts: heart rate sent is the recovery after the workout, left out (1 point, e.g. "2026-10-21 16:51:02 -0400")',
    ]);
    const elliptical = {
      date: '',
      trained: true,
      type: 'Elliptical',
      durationMin: 24.5,
      startTime: '16:26',
    };
    expect(await srv.rows('workouts')).toEqual([
      { ...elliptical, date: '2026-10-21' },
      { ...elliptical, date: '2026-10-22', avgHr: 115, maxHr: 133 },
    ]);
  });
});

describe('workout names and ids are bounded', () => {
  const session = (day: number, name: unknown, id?: string) => ({
    ...(id === undefined ? {} : { id }),
    name,
    start: `2026-10-${day} 07:00:00 +0200`,
    end: `2026-10-${day} 07:30:00 +0200`,
    duration: 1800,
  });
  const units = MAX_WORKOUT_NAME_CHARS * MAX_UNITS_PER_CHARACTER;

  it('a phone push: a name far too long is cut, a name of several lines is one line, an id far too long is left out', async () => {
    srv = await startIngestServer({ cards: [['workouts', 'workouts']] });
    const r = await srv.push(
      JSON.stringify({
        data: {
          workouts: [
            session(21, `Run ${'x'.repeat(100_000)}`),
            session(22, `Yoga${'\u0301'.repeat(10_000)}`),
            session(23, 'Outdoor\nRun\u0007'),
            session(24, 'Walk', `id-${'z'.repeat(100_000)}`),
          ],
        },
      }),
    );
    expect(r.status).toBe(200);
    expect(r.body.warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^workouts: name longer than 100 characters, cut \(2 points/),
        expect.stringMatching(/^workouts: id longer than 100 characters, left out \(1 point/),
      ]),
    );
    const rows = await srv.rows('workouts');
    expect(rows.map((w) => w.date)).toEqual(['2026-10-21', '2026-10-22', '2026-10-23', '2026-10-24']);
    for (const w of rows) {
      expect(String(w.type).length).toBeLessThanOrEqual(units);
      expect(graphemeLength(String(w.type))).toBeLessThanOrEqual(MAX_WORKOUT_NAME_CHARS);
    }
    expect(String(rows[0].type).startsWith('Run xxx')).toBe(true);
    expect(rows[2].type).toBe('Outdoor Run');
    expect(rows[3]).not.toHaveProperty('id');
    expect(r.text.length).toBeLessThan(5000);
  });

  it('an Apple Health export: an activity type far too long is cut', async () => {
    srv = await startIngestServer({ cards: [['workouts', 'workouts']] });
    const r = await srv.api('/api/apple-health/import', {
      method: 'POST',
      body: exportXml([workout(21, { workoutActivityType: `HKWorkoutActivityType${'Z'.repeat(1000)}` })]),
    });
    expect(r.status).toBe(200);
    const [row] = await srv.rows('workouts');
    expect(graphemeLength(String(row.type))).toBe(MAX_WORKOUT_NAME_CHARS);
  });
});

describe('a pushed workout’s energy', () => {
  /** A 30-minute v2 workout on `day` of May 2026 with `extra` fields. */
  const run = (day: number, extra: Record<string, unknown>) => {
    const d = `2026-05-${String(day).padStart(2, '0')}`;
    return {
      id: `RUN-${day}`,
      name: 'Outdoor Run',
      start: `${d} 07:00:00 +0200`,
      end: `${d} 07:30:00 +0200`,
      duration: 1800,
      ...extra,
    };
  };
  const RUN = { trained: true, type: 'Outdoor Run', durationMin: 30, startTime: '07:00' };

  it('is read in kJ or kcal, never taken from totalEnergy; what is missing or absurd is left out with a warning, the workout kept', async () => {
    srv = await startIngestServer({ cards: [['workouts', 'workouts']] });
    const workouts = [
      run(1, { activeEnergyBurned: { qty: 1200, units: 'kJ' } }),
      run(2, { activeEnergyBurned: { qty: 300, units: 'kcal' }, totalEnergy: { qty: 1e12, units: 'kJ' } }),
      run(3, {}),
      run(4, { totalEnergy: { qty: 400, units: 'kcal' } }), // active plus resting: not the calories
      run(5, { activeEnergyBurned: { qty: -50, units: 'kcal' } }),
      run(6, { activeEnergyBurned: { qty: 'NaN', units: 'kcal' } }),
      run(7, { activeEnergyBurned: { qty: 1e12, units: 'kcal' } }),
      run(8, { activeEnergyBurned: { qty: 5e8, units: 'kJ' } }),
      run(9, { activeEnergyBurned: { qty: 250 } }), // kcal or kJ?
      run(10, { activeEnergyBurned: { qty: 250, units: 'parsec' } }),
      run(11, { activeEnergyBurned: { qty: { qty: 250, units: 'kcal' } } }), // wrapped twice by a relay
      run(12, { activeEnergyBurned: '1046 kJ' }),
      run(13, { activeEnergyBurned: { qty: '1.046,0', units: 'kJ' } }),
      run(14, { activeEnergy: { qty: 250, units: 'Cal' } }), // v1
      run(15, { activeEnergyBurned: null, distance: { qty: 1e12, units: 'km' } }),
    ];
    const r = await srv.push(JSON.stringify({ data: { workouts } }));
    expect(r.status).toBe(200);
    expect(r.body.samples).toEqual({ received: 15, new: 15 });
    expect([...r.body.warnings].sort()).toEqual([
      'workouts: distance beyond ±1e+9, left out (1 point, e.g. 1000000000000)',
      'workouts: energy (kcal) above 30000, left out (1 point, e.g. 119502868.069)',
      'workouts: energy beyond ±1e+9, left out (1 point, e.g. 1000000000000)',
      'workouts: energy in an unknown unit, left out (1 point, e.g. "parsec")',
      'workouts: energy negative, left out (1 point, e.g. "-50")',
      'workouts: energy not a number, left out (1 point, e.g. "NaN")',
      'workouts: energy without a unit, left out (1 point, e.g. "{\\"qty\\":250}")',
    ]);
    const calories: Record<number, number> = { 1: 287, 2: 300, 11: 250, 12: 250, 13: 250, 14: 250 };
    expect(await srv.rows('workouts')).toEqual(
      Array.from({ length: 15 }, (_, i) => ({
        date: `2026-05-${String(i + 1).padStart(2, '0')}`,
        ...RUN,
        ...(calories[i + 1] !== undefined ? { calories: calories[i + 1] } : {}),
      })),
    );
  });
});
