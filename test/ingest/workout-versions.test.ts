/**
 * One workout reaching Klebb in several shapes is one workout: from an Apple Health export (no id,
 * named after its activity type) and then from a v2 push (with an id, named by the app), or from a
 * v1 push and later a v2 push after the export version was changed. The latest version sent is
 * the one shown; another workout of the same day stays apart.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const START = '2026-04-14 06:52:10 +0200';
const END = '2026-04-14 07:33:40 +0200';

const appleExport = [
  '<?xml version="1.0" encoding="UTF-8"?>',
  '<HealthData locale="de_DE">',
  ` <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="41.5" durationUnit="min" sourceName="Apple Watch von Kim" startDate="${START}" endDate="${END}">`,
  '  <WorkoutStatistics type="HKQuantityTypeIdentifierDistanceWalkingRunning" sum="7.12" unit="km"/>',
  '  <WorkoutStatistics type="HKQuantityTypeIdentifierActiveEnergyBurned" sum="455" unit="kcal"/>',
  ' </Workout>',
  '</HealthData>',
].join('\n');

const v2Run = {
  id: '6F0A9C52-1B7E-4D7A-9E51-3C1F2B8A4D10',
  name: 'Outdoor Run',
  start: START,
  end: END,
  duration: 2490,
  distance: { qty: 7.12, units: 'km' },
  activeEnergyBurned: { qty: 455.4, units: 'kcal' },
  heartRate: { avg: { qty: 152, units: 'bpm' }, max: { qty: 171, units: 'bpm' } },
};
const v1Run = {
  name: 'Outdoor Run',
  start: START,
  end: END,
  distance: { qty: 7.12, units: 'km' },
  activeEnergy: { qty: 455.4, units: 'kcal' },
};
const eveningWalk = {
  id: 'A1D3F1E0-0C4B-4F3B-8D8E-2E7A51C0B9F2',
  name: 'Outdoor Walk',
  start: '2026-04-14 19:05:00 +0200',
  end: '2026-04-14 19:35:00 +0200',
  duration: 1800,
};

const RUN_ROW = {
  date: '2026-04-14',
  trained: true,
  type: 'Outdoor Run',
  durationMin: 41.5,
  distanceKm: 7.12,
  calories: 455,
  avgHr: 152,
  maxHr: 171,
  startTime: '06:52',
};

describe('one workout in several shapes', () => {
  it('an exported workout and the same session pushed later with an id count once', async () => {
    srv = await startIngestServer({ cards: [['workouts', 'workouts']] });
    expect((await srv.importExport(appleExport)).status).toBe(200);
    const push = JSON.stringify({ data: { workouts: [v2Run, eveningWalk] } });
    expect((await srv.push(push)).status).toBe(200);
    expect(await srv.rows('workouts')).toEqual([
      { ...RUN_ROW, type: 'Outdoor Run, Outdoor Walk', durationMin: 71.5, startTime: '06:52' },
    ]);
    expect((await srv.push(push)).body.samples).toEqual({ received: 2, new: 0 });
    expect(await srv.rows('workouts')).toHaveLength(1);
  });

  it('a v1 push and then a v2 push of the same session count once', async () => {
    srv = await startIngestServer({ cards: [['workouts', 'workouts']] });
    expect((await srv.push(JSON.stringify({ data: { workouts: [v1Run] } }))).status).toBe(200);
    expect((await srv.push(JSON.stringify({ data: { workouts: [v2Run] } }))).status).toBe(200);
    expect(await srv.rows('workouts')).toEqual([RUN_ROW]);
  });
});
