/**
 * Readings no body or sensor gives (a heart rate of 2500 bpm or 0, blood oxygen over 100 %, a
 * respiratory rate of 250, 98.6 sent as °C) are left out with a warning naming the metric, what
 * is wrong and the value; the push is kept with its other points, the day's row is made from
 * the plausible ones. The same in a push, in a workout (only its heart rate is left out) and in
 * an Apple Health import.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

function body(metrics: Record<string, unknown>[], workouts?: Record<string, unknown>[]): string {
  return JSON.stringify({ data: { metrics, ...(workouts ? { workouts } : {}) } });
}

const AT = (h: number) => `2026-05-10 ${String(h).padStart(2, '0')}:00:00 +0200`;

describe('implausible readings are left out with a warning', () => {
  it('in a push: each metric keeps its plausible points', async () => {
    srv = await startIngestServer({
      cards: [
        ['heart', 'heart_rate'],
        ['resting', 'resting_heart_rate'],
        ['oxygen', 'blood_oxygen_saturation'],
        ['breaths', 'respiratory_rate'],
        ['temp', 'body_temperature'],
        ['bp', 'blood_pressure'],
      ],
    });
    const r = await srv.push(
      body([
        {
          name: 'heart_rate',
          units: 'count/min',
          data: [
            { date: AT(9), Min: 60, Avg: 2500, Max: 2500, source: 'Watch' },
            { date: AT(10), Min: 70, Avg: 75, Max: 80, source: 'Watch' },
          ],
        },
        {
          name: 'resting_heart_rate',
          units: 'count/min',
          data: [
            { date: AT(6), qty: 0, source: 'Watch' },
            { date: AT(7), qty: 58, source: 'Watch' },
          ],
        },
        {
          name: 'blood_oxygen_saturation',
          units: '%',
          data: [
            { date: AT(3), qty: 105, source: 'Watch' },
            { date: AT(4), qty: 0.97, source: 'Watch' },
          ],
        },
        {
          name: 'respiratory_rate',
          units: 'count/min',
          data: [
            { date: AT(3), qty: 250, source: 'Watch' },
            { date: AT(4), qty: 14, source: 'Watch' },
          ],
        },
        {
          name: 'body_temperature',
          units: 'degC',
          data: [
            { date: AT(8), qty: 98.6, source: 'Thermometer' },
            { date: AT(20), qty: 37.1, source: 'Thermometer' },
          ],
        },
        {
          name: 'blood_pressure',
          units: 'mmHg',
          data: [
            { date: AT(8), systolic: 1200, diastolic: 80, source: 'Cuff' },
            { date: AT(9), systolic: 120, diastolic: 80, source: 'Cuff' },
          ],
        },
      ]),
    );
    expect(r.status).toBe(200);
    expect(r.body.ok).toBe(true);
    expect(r.body.warnings).toEqual([
      'heart_rate: heart rate above 300 count/min (1 point, e.g. 2500)',
      'resting_heart_rate: heart rate below 20 count/min (1 point, e.g. 0)',
      'blood_oxygen_saturation: blood oxygen above 100 % (1 point, e.g. 105)',
      'respiratory_rate: respiratory rate above 100 count/min (1 point, e.g. 250)',
      'body_temperature: body temperature above 45 degC (1 point, e.g. 98.6)',
      'blood_pressure: systolic pressure above 300 mmHg (1 point, e.g. 1200)',
    ]);
    expect(r.body.samples).toEqual({ received: 6, new: 6 });
    expect(await srv.rows('heart')).toEqual([{ date: '2026-05-10', min: 70, avg: 75, max: 80 }]);
    expect(await srv.rows('resting')).toEqual([{ date: '2026-05-10', bpm: 58 }]);
    expect(await srv.rows('oxygen')).toEqual([{ date: '2026-05-10', pct: 97 }]);
    expect(await srv.rows('breaths')).toEqual([{ date: '2026-05-10', breathsPerMin: 14 }]);
    expect(await srv.rows('temp')).toEqual([{ date: '2026-05-10', degC: 37.1 }]);
    expect(await srv.rows('bp')).toEqual([{ date: '2026-05-10', systolic: 120, diastolic: 80 }]);
  });

  it('a workout keeps everything but an impossible heart rate', async () => {
    srv = await startIngestServer({ cards: [['workouts', 'workouts']] });
    const r = await srv.push(
      body(
        [],
        [
          {
            id: 'A1B2C3D4-0000-4000-8000-000000000009',
            name: 'Outdoor Run',
            start: AT(7),
            end: '2026-05-10 07:30:00 +0200',
            duration: 1800,
            avgHeartRate: { qty: 2500, units: 'bpm' },
            maxHeartRate: { qty: 171, units: 'bpm' },
          },
        ],
      ),
    );
    expect(r.status).toBe(200);
    expect(r.body.warnings).toEqual(['workouts: heart rate above 300, left out (1 point, e.g. 2500)']);
    const rows = await srv.rows('workouts');
    expect(rows).toMatchObject([{ date: '2026-05-10', type: 'Outdoor Run', durationMin: 30, maxHr: 171 }]);
    expect(rows[0]).not.toHaveProperty('avgHr');
  });

  it('in an Apple Health import too', async () => {
    srv = await startIngestServer({ cards: [['heart', 'heart_rate']] });
    const record = (value: string, h: number) =>
      `<Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Watch" unit="count/min" startDate="${AT(h)}" endDate="${AT(h)}" value="${value}"/>`;
    const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<HealthData locale="en_US">\n${record('2500', 9)}\n${record('64', 10)}\n</HealthData>\n`;
    const r = await srv.importExport(xml);
    expect(r.status).toBe(200);
    expect(r.body.warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^heart_rate: heart rate above 300 count\/min \(1 point, e\.g\. 2500\)/),
      ]),
    );
    expect(await srv.rows('heart')).toEqual([{ date: '2026-05-10', min: 64, avg: 64, max: 64 }]);
  });
});
