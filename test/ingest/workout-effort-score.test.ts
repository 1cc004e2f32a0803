/**
 * The workout effort score of iOS 18 (HKQuantityTypeIdentifierWorkoutEffortScore, rated by the
 * person after a workout, and …EstimatedWorkoutEffortScore, the watch's own estimate; both 1 to
 * 10, in HealthKit's unit `appleEffortScore`) fills a metric each: the day's hardest workout.
 * It was counted as a type with no metric.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { exportXml, healthRecord, type IngestServer, metricsPush, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const Q = 'HKQuantityTypeIdentifier';

function rec(type: string, value: string, start: string, end: string): string {
  return healthRecord({
    type: `${Q}${type}`,
    value,
    start,
    end,
    unit: 'appleEffortScore',
    source: 'Apple Watch',
  });
}

describe('the workout effort score', () => {
  it('from an Apple Health export: the hardest workout of each day, rated and estimated apart', async () => {
    const s = await startIngestServer({
      cards: [
        ['effort', 'workout_effort_score'],
        ['estimated', 'estimated_workout_effort_score'],
      ],
    });
    srv = s;
    const xml = exportXml([
      rec('WorkoutEffortScore', '5', '2026-04-02 07:00:00 -0700', '2026-04-02 07:45:00 -0700'),
      rec('WorkoutEffortScore', '8', '2026-04-02 18:00:00 -0700', '2026-04-02 19:00:00 -0700'),
      rec('EstimatedWorkoutEffortScore', '6.3', '2026-04-02 18:00:00 -0700', '2026-04-02 19:00:00 -0700'),
      // no effort score is above 10: a value in another unit or a glitch
      rec('WorkoutEffortScore', '42', '2026-04-03 07:00:00 -0700', '2026-04-03 07:45:00 -0700'),
    ]);
    const r = await s.importExport(xml);
    expect(r.status, r.text).toBe(200);
    expect(r.body.unmappedTypes).toEqual({});
    expect(await s.rows('effort')).toEqual([{ date: '2026-04-02', score: 8 }]);
    expect(await s.rows('estimated')).toEqual([{ date: '2026-04-02', score: 6.3 }]);
    expect((r.body.warnings as string[]).join('\n')).toMatch(
      /workout_effort_score: workout effort score above 10/,
    );
  });

  it('pushed under its HealthKit name or its own', async () => {
    const s = await startIngestServer({ cards: [['effort', 'workout_effort_score']] });
    srv = s;
    const block = (name: string, qty: number, date: string) => ({
      name,
      units: 'appleEffortScore',
      data: [{ date, qty, source: 'Apple Watch' }],
    });
    const r = await s.push(
      metricsPush([
        block(`${Q}WorkoutEffortScore`, 7, '2026-04-04 18:00:00 -0700'),
        block('workout_effort_score', 4, '2026-04-05 18:00:00 -0700'),
      ]),
    );
    expect(r.status, r.text).toBe(200);
    expect(await s.rows('effort')).toEqual([
      { date: '2026-04-04', score: 7 },
      { date: '2026-04-05', score: 4 },
    ]);
  });
});
