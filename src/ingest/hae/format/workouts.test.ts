import { describe, expect, it } from 'vitest';
import { aggregateRows } from './aggregate.js';
import { normalisePayload } from './payload.js';
import type { Sample } from './sample.js';
import { extractSamples } from './samples.js';

const samplesOf = (workouts: Record<string, unknown>[]): Sample[] =>
  extractSamples(normalisePayload({ workouts })).samples;
const rows = (workouts: Record<string, unknown>[]) => aggregateRows('workouts', samplesOf(workouts));

/** A v1 workout as the Mar 2023 export writes it (zeros for what was not measured). */
const v1 = {
  name: 'Traditional Strength Training',
  start: '2023-01-10 09:34:33 +1100',
  end: '2023-01-10 10:03:07 +1100',
  activeEnergy: { units: 'kcal', qty: 182.96463935351372 },
  totalEnergy: { qty: 225.79463935351356, units: 'kcal' },
  distance: { units: 'km', qty: 0 },
  speed: { units: 'km/hr', qty: 0 },
  avgHeartRate: { qty: 110.30380794618108, units: 'bpm' },
  maxHeartRate: { qty: 144, units: 'bpm' },
  elevation: { ascent: 0, descent: 0, units: 'm' },
  heartRateData: [{ date: '2023-01-10 09:35:00 +1100', qty: 100, units: 'bpm' }],
  route: [],
  isIndoor: false,
};

/** A v2 workout as the 2025 spark export writes it. */
const v2 = {
  distance: { qty: 1.8251686498265018, units: 'km' },
  end: '2025-08-13 19:56:37 +0100',
  metadata: [],
  intensity: { qty: 4.335439755992295, units: 'kcal/hr·kg' },
  start: '2025-08-13 19:37:47 +0100',
  duration: 1130.0801928043365,
  name: 'Outdoor Walk',
  activeEnergyBurned: { qty: 77.31842723339633, units: 'kcal' },
  id: '1F088C46-09AD-4259-A78F-6CBE9F90BD94',
  location: 'Outdoor',
};

describe('workouts (docs/HEALTH-AUTO-EXPORT.md)', () => {
  it('v1: duration from start/end, active energy, HR objects; zero distance and ascent left out', () => {
    // 09:34:33 → 10:03:07 = 28 min 34 s = 28.57 min; active 182.96 kcal (not the 225.79 total)
    expect(rows([v1])).toEqual([
      {
        date: '2023-01-10',
        trained: true,
        type: 'Traditional Strength Training',
        durationMin: 28.6,
        calories: 183,
        avgHr: 110,
        maxHr: 144,
        startTime: '09:34',
      },
    ]);
  });

  it('v2: duration in seconds, activeEnergyBurned, distance; metadata [] is fine', () => {
    // 1130.08 s = 18.83 min
    expect(rows([v2])).toEqual([
      {
        date: '2025-08-13',
        trained: true,
        type: 'Outdoor Walk',
        durationMin: 18.8,
        distanceKm: 1.83,
        calories: 77,
        startTime: '19:37',
      },
    ]);
  });

  it('v2: converts mi, kJ, ft and reads heartRateData {Min, Avg, Max}', () => {
    const [row] = rows([
      {
        id: 'A',
        name: 'Radfahren', // localised name kept as sent (FreeReps incident)
        start: '2025-06-01 10:00:00 +0200',
        end: '2025-06-01 11:00:00 +0200',
        duration: 3600,
        distance: { qty: 10, units: 'mi' },
        activeEnergyBurned: { qty: 2092, units: 'kJ' },
        elevationUp: { qty: 328.084, units: 'ft' },
        heartRateData: [
          { date: '2025-06-01 10:00:00 +0200', Min: 90, Avg: 100, Max: 120, units: 'count/min' },
          { date: '2025-06-01 10:01:00 +0200', Min: 120, Avg: 140, Max: 165, units: 'count/min' },
        ],
      },
    ]);
    // 10 mi = 16.09 km; 2092 kJ / 4.184 = 500 kcal; 328.084 ft = 100 m; HR avg (100 + 140) / 2 = 120, max 165
    expect(row).toEqual({
      date: '2025-06-01',
      trained: true,
      type: 'Radfahren',
      durationMin: 60,
      distanceKm: 16.09,
      calories: 500,
      avgHr: 120,
      maxHr: 165,
      elevationM: 100,
      startTime: '10:00',
    });
  });

  it('never takes the partial per-minute activeEnergy[] series as the workout’s calories', () => {
    const [row] = rows([
      {
        id: 'B',
        name: 'Flexibility',
        start: '2026-03-05 16:51:45 -0800',
        end: '2026-03-05 17:13:51 -0800',
        duration: 1420.5,
        activeEnergy: [{ date: '2026-03-05 17:12:45 -0800', qty: 2.2, units: 'kcal', source: 'Workouts' }],
      },
    ]);
    expect(row).toEqual({
      date: '2026-03-05',
      trained: true,
      type: 'Flexibility',
      durationMin: 23.7,
      startTime: '16:51',
    });
  });

  it('merges the workouts of one date; absent fields stay absent', () => {
    const r = rows([
      {
        ...v2,
        id: 'X1',
        start: '2025-08-13 08:00:00 +0100',
        duration: 600,
        name: 'Walk',
        activeEnergyBurned: undefined,
        distance: undefined,
      },
      { ...v2, id: 'X2', start: '2025-08-13 12:00:00 +0100', duration: 1200, name: 'Walk' },
      {
        ...v2,
        id: 'X3',
        start: '2025-08-13 18:00:00 +0100',
        duration: 1800,
        name: 'Yoga',
        distance: undefined,
      },
    ]);
    // 10 + 20 + 30 min; distance 1.83 (only X2); calories 77.32 + 77.32 = 154.6 → 155
    expect(r).toEqual([
      {
        date: '2025-08-13',
        trained: true,
        type: 'Walk, Yoga',
        durationMin: 60,
        distanceKm: 1.83,
        calories: 155,
        startTime: '08:00',
      },
    ]);
  });

  it('weights the day’s average heart rate by duration', () => {
    const r = rows([
      {
        ...v1,
        start: '2023-01-10 08:00:00 +1100',
        end: '2023-01-10 08:10:00 +1100',
        avgHeartRate: { qty: 100 },
      },
      {
        ...v1,
        start: '2023-01-10 09:00:00 +1100',
        end: '2023-01-10 09:30:00 +1100',
        avgHeartRate: { qty: 140 },
      },
    ]);
    // (100 × 10 + 140 × 30) / 40 = 130
    expect(r[0]).toMatchObject({ durationMin: 40, avgHr: 130 });
  });

  it('a workout re-sent with more detail is one workout (same id; v1: same start and name)', () => {
    const first = samplesOf([{ ...v2, distance: undefined }]);
    const second = samplesOf([v2]);
    expect(first[0].dedupKey).not.toBe(second[0].dedupKey);
    expect(aggregateRows('workouts', [...first, ...second])).toEqual(aggregateRows('workouts', second));
    const v1a = samplesOf([{ ...v1, maxHeartRate: { qty: 140, units: 'bpm' } }]);
    const v1b = samplesOf([v1]);
    expect(v1a[0].dedupKey).not.toBe(v1b[0].dedupKey);
    expect(aggregateRows('workouts', [...v1a, ...v1b])).toEqual(aggregateRows('workouts', v1b));
  });

  it('dates a workout by the local day it starts, even when it ends after midnight', () => {
    expect(
      rows([{ name: 'Run', start: '2025-08-13 23:30:00 +0100', end: '2025-08-14 00:30:00 +0100' }]),
    ).toEqual([{ date: '2025-08-13', trained: true, type: 'Run', durationMin: 60, startTime: '23:30' }]);
  });

  it('skips and counts a workout without a readable start', () => {
    const r = extractSamples(normalisePayload({ workouts: [{ name: 'Run', start: 'today' }, v2] }));
    expect(r.samples).toHaveLength(1);
    expect(r.warnings).toEqual(['workouts: unreadable start (1 point, e.g. "today")']);
  });
});
