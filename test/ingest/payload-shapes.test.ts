/**
 * Shapes of Health Auto Export payloads (and of the relays people put in front of the webhook)
 * beyond the real files in hand, pushed through the real webhook: each fills its cards.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const STEPS = {
  name: 'step_count',
  units: 'count',
  data: [{ date: '2026-05-10 00:00:00 +0200', qty: 8000, source: 'iPhone' }],
};

describe('payload shapes', () => {
  it('a timestamp with a fraction of a second', async () => {
    srv = await startIngestServer({ cards: [['resting', 'resting_heart_rate']] });
    const r = await srv.push(
      JSON.stringify({
        data: {
          metrics: [
            {
              name: 'resting_heart_rate',
              units: 'count/min',
              data: [{ date: '2026-05-10 07:12:05.123 +0200', qty: 55, source: 'Watch' }],
            },
          ],
        },
      }),
    );
    expect(r.body.warnings ?? []).toEqual([]);
    expect(await srv.rows('resting')).toEqual([{ date: '2026-05-10', bpm: 55 }]);
  });

  it('the body sent as a list of payloads (a batch): every one is read', async () => {
    srv = await startIngestServer({
      cards: [
        ['steps', 'step_count'],
        ['workouts', 'workouts'],
      ],
    });
    const walk = {
      id: 'F00D0000-0000-4000-8000-000000000002',
      name: 'Outdoor Walk',
      start: '2026-05-10 18:00:00 +0200',
      end: '2026-05-10 18:30:00 +0200',
      duration: 1800,
    };
    const r = await srv.push(
      JSON.stringify([{ data: { metrics: [STEPS] } }, { data: { workouts: [walk] } }]),
    );
    expect(r.body.warnings ?? []).toEqual([]);
    expect(await srv.rows('steps')).toEqual([{ date: '2026-05-10', count: 8000 }]);
    expect(await srv.rows('workouts')).toMatchObject([{ date: '2026-05-10', type: 'Outdoor Walk' }]);
  });

  it('the payload under payload or body (a relay’s own envelope)', async () => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    for (const key of ['payload', 'body']) {
      const r = await srv.push(JSON.stringify({ [key]: { data: { metrics: [STEPS] } }, receivedAt: 'now' }));
      expect(r.body.warnings ?? [], key).toEqual([]);
    }
    expect(await srv.rows('steps')).toEqual([{ date: '2026-05-10', count: 8000 }]);
  });

  it('the payload as a JSON string inside data (a relay that stringified it)', async () => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    const r = await srv.push(JSON.stringify({ data: JSON.stringify({ metrics: [STEPS] }) }));
    expect(r.body.warnings ?? []).toEqual([]);
    expect(await srv.rows('steps')).toEqual([{ date: '2026-05-10', count: 8000 }]);
  });

  it('the metric blocks alone, as a list or as the list in data', async () => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    for (const body of [[STEPS], { data: [STEPS] }]) {
      const r = await srv.push(JSON.stringify(body));
      expect(r.body.warnings ?? [], JSON.stringify(body)).toEqual([]);
      expect(r.body.samples?.received).toBe(1);
    }
    expect(await srv.rows('steps')).toEqual([{ date: '2026-05-10', count: 8000 }]);
  });

  it('the payload wrapped twice in data', async () => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    const r = await srv.push(JSON.stringify({ data: { data: { metrics: [STEPS] } } }));
    expect(r.body.warnings ?? []).toEqual([]);
    expect(await srv.rows('steps')).toEqual([{ date: '2026-05-10', count: 8000 }]);
  });

  it('a v2 workout with a route, heart-rate series and metadata object', async () => {
    srv = await startIngestServer({ cards: [['workouts', 'workouts']] });
    const r = await srv.push(
      JSON.stringify({
        data: {
          workouts: [
            {
              id: 'F00D0000-0000-4000-8000-000000000001',
              name: 'Outdoor Run',
              start: '2026-05-10 07:00:00 +0200',
              end: '2026-05-10 07:30:00 +0200',
              duration: 1800,
              distance: { qty: 5.1, units: 'km' },
              activeEnergyBurned: { qty: 380, units: 'kcal' },
              heartRate: {
                min: { qty: 100, units: 'bpm' },
                avg: { qty: 150, units: 'bpm' },
                max: { qty: 175, units: 'bpm' },
              },
              heartRateData: [
                {
                  date: '2026-05-10 07:01:00 +0200',
                  Min: 120,
                  Avg: 125,
                  Max: 130,
                  units: 'bpm',
                  source: 'Watch',
                },
              ],
              route: [
                {
                  latitude: 52.52,
                  longitude: 13.405,
                  altitude: 34,
                  course: 90,
                  speed: 2.8,
                  horizontalAccuracy: 3,
                  verticalAccuracy: 2,
                  timestamp: '2026-05-10 07:00:05 +0200',
                },
              ],
              metadata: { HKIndoorWorkout: false },
              elevationUp: { qty: 42, units: 'm' },
              temperature: { qty: 18, units: 'degC' },
              humidity: { qty: 60, units: '%' },
              intensity: { qty: 9.5, units: 'kcal/hr·kg' },
            },
          ],
        },
      }),
    );
    expect(r.body.warnings ?? []).toEqual([]);
    expect(await srv.rows('workouts')).toMatchObject([
      {
        date: '2026-05-10',
        type: 'Outdoor Run',
        durationMin: 30,
        distanceKm: 5.1,
        calories: 380,
        avgHr: 150,
        maxHr: 175,
        elevationM: 42,
      },
    ]);
  });

  it('a heart rate sent as qty only, and heart rate min/avg/max in lower case', async () => {
    srv = await startIngestServer({ cards: [['heart', 'heart_rate']] });
    const r = await srv.push(
      JSON.stringify({
        data: {
          metrics: [
            {
              name: 'heart_rate',
              units: 'count/min',
              data: [
                { date: '2026-05-10 09:00:00 +0200', qty: 70, source: 'Watch' },
                { date: '2026-05-11 00:00:00 +0200', min: 50, avg: 65, max: 120, source: 'Watch' },
              ],
            },
          ],
        },
      }),
    );
    expect(r.body.warnings ?? []).toEqual([]);
    expect(await srv.rows('heart')).toEqual([
      { date: '2026-05-10', min: 70, avg: 70, max: 70 },
      { date: '2026-05-11', min: 50, avg: 65, max: 120 },
    ]);
  });

  it('sections the app sends beside metrics in their newer shapes are named, metrics still stored', async () => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    const r = await srv.push(
      JSON.stringify({
        data: {
          metrics: [STEPS],
          stateOfMind: [
            {
              id: 'x',
              kind: 'dailyMood',
              valence: 0.4,
              labels: ['happy'],
              associations: ['family'],
              start: '2026-05-10 20:00:00 +0200',
              end: '2026-05-10 20:00:00 +0200',
            },
          ],
          medications: [
            { displayText: 'Ibuprofen', start: '2026-05-10 08:00:00 +0200', status: 'taken', dosage: 1 },
          ],
          symptoms: [
            {
              name: 'Headache',
              severity: 'Mild',
              start: '2026-05-10 08:00:00 +0200',
              end: '2026-05-10 10:00:00 +0200',
            },
          ],
          ecg: [
            {
              classification: 'Sinus Rhythm',
              averageHeartRate: 62,
              voltageMeasurements: [{ date: 0, voltage: 0.1 }],
            },
          ],
          cycleTracking: [{ name: 'Menstrual Flow', value: 'Medium', date: '2026-05-10 00:00:00 +0200' }],
          heartRateNotifications: [],
        },
      }),
    );
    expect(r.body.ok).toBe(true);
    expect(await srv.rows('steps')).toEqual([{ date: '2026-05-10', count: 8000 }]);
  });
});
