/**
 * Payload shapes people reported from real Health Auto Export pushes, through the real webhook:
 * a night from a band that records no stages (stages and time in bed written as 0), points
 * carrying their own `units` with times in UTC, a heart rate with only its average, a workout
 * with a localised name and no source, a second HRV metric that must not be taken for the first,
 * and the app's other sections in the shapes it really sends them (a notification
 * whose source is an object and whose samples are timed in seconds since 2001, ECG voltages timed
 * as fractions of seconds, a state of mind classified in words, medications and symptoms in the
 * phone's language with a dose written for a skipped one).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

describe('shapes reported from real pushes', () => {
  it('a band’s night without stages counts its hours asleep; zeros are not readings', async () => {
    srv = await startIngestServer({ cards: [['sleep', 'sleep_analysis']] });
    const r = await srv.push(
      JSON.stringify({
        data: {
          metrics: [
            {
              name: 'sleep_analysis',
              units: 'hr',
              data: [
                {
                  sleepStart: '2026-05-14 03:30:01 -0700',
                  sleepEnd: '2026-05-14 08:14:04 -0700',
                  asleep: 4.733,
                  awake: 0.017,
                  rem: 0,
                  deep: 0,
                  core: 0,
                  inBed: 0,
                  source: 'Hume',
                },
              ],
            },
          ],
        },
      }),
    );
    expect(r.body.warnings).toBeUndefined();
    expect(await srv.rows('sleep')).toEqual([
      {
        date: '2026-05-14',
        hours: 4.73,
        asleep: 4.73,
        awake: 0.02,
        bedTime: '03:30',
        wakeTime: '08:14',
        source: 'Hume',
      },
    ]);
  });

  it('a night of zeros, or whose only figure is an absurd time in bed, is left out with a warning, never a row without sleep', async () => {
    srv = await startIngestServer({ cards: [['sleep', 'sleep_analysis']] });
    const zeros = { asleep: 0, core: 0, deep: 0, rem: 0, source: 'iPhone' };
    const r = await srv.push(
      JSON.stringify({
        data: {
          metrics: [
            {
              name: 'sleep_analysis',
              units: 'hr',
              data: [
                { date: '2026-05-16 00:00:00 -0700', inBed: 808742334249947, ...zeros },
                { date: '2026-05-17 00:00:00 -0700', inBed: 0, ...zeros },
                { date: '2026-05-18 00:00:00 -0700', inBed: 8, ...zeros },
              ],
            },
          ],
        },
      }),
    );
    expect(r.status).toBe(200);
    expect(r.body.warnings).toEqual([
      'sleep_analysis: no sleep duration, and a time in bed over 24 h with no start/end (1 point, e.g. "night ending 2026-05-16 00:00:00 -0700: 808742334249947 h in bed")',
      'sleep_analysis: no sleep duration (1 point, e.g. "2026-05-17 00:00:00 -0700")',
    ]);
    // time in bed alone is a night (the Clock app's Bedtime records only that)
    expect(await srv.rows('sleep')).toEqual([{ date: '2026-05-18', inBed: 8, source: 'iPhone' }]);
  });

  it('points with their own units and UTC times (on the person’s clock), an average-only heart rate, a workout with a localised name and no source', async () => {
    srv = await startIngestServer({
      cards: [
        ['hr', 'heart_rate'],
        ['steps', 'step_count'],
        ['workouts', 'workouts'],
      ],
    });
    // times in UTC are on the person's clock
    expect((await srv.api('/api/user/tz', { json: { tz: 'Europe/Berlin' } })).status).toBe(200);
    const r = await srv.push(
      JSON.stringify({
        data: {
          metrics: [
            {
              name: 'heart_rate',
              units: 'count/min',
              data: [{ date: '2026-08-16T12:03:49Z', Avg: 71.28, units: 'count/min', source: 'AWU Stefan' }],
            },
            {
              name: 'step_count',
              units: 'count',
              data: [{ date: '2026-08-17T02:55:00Z', qty: 12.53, units: 'count', source: 'AWU Stefan' }],
            },
          ],
          workouts: [
            {
              workoutId: '7595F72C-0000-4000-8000-000000000001',
              id: '7595F72C-0000-4000-8000-000000000001',
              name: 'Funktionales Krafttraining',
              start: '2026-08-20T06:53:10Z',
              end: '2026-08-20T07:33:10Z',
              duration: 2400,
              metadata: {},
              effortScore: 4,
            },
          ],
        },
      }),
    );
    expect(r.status).toBe(200);
    expect(r.body.warnings).toBeUndefined();
    expect(r.body.samples).toEqual({ received: 3, new: 3 });
    expect(await srv.rows('hr')).toEqual([{ date: '2026-08-16', avg: 71.3 }]);
    expect(await srv.rows('steps')).toEqual([{ date: '2026-08-17', count: 13 }]);
    expect(await srv.rows('workouts')).toEqual([
      {
        date: '2026-08-20',
        trained: true,
        type: 'Funktionales Krafttraining',
        durationMin: 40,
        startTime: '08:53',
      },
    ]);
  });

  it('a second HRV metric is a metric of its own, never taken for the one a card follows', async () => {
    srv = await startIngestServer({ cards: [['hrv', 'heart_rate_variability']] });
    const at = '2026-08-17 07:00:00 +0200';
    const r = await srv.push(
      JSON.stringify({
        data: {
          metrics: [
            {
              name: 'heart_rate_variability_rmssd',
              units: 'ms',
              data: [{ date: at, qty: 41, source: 'Watch' }],
            },
            { name: 'heart_rate_variability', units: 'ms', data: [{ date: at, qty: 55, source: 'Watch' }] },
          ],
        },
      }),
    );
    expect(r.body.availableUnsubscribed).toEqual(['heart_rate_variability_rmssd']);
    expect(await srv.rows('hrv')).toEqual([{ date: '2026-08-17', ms: 55 }]);
  });

  it('the sections of the app in the shapes it sends are read or counted; the metrics beside them are stored', async () => {
    srv = await startIngestServer({
      cards: [
        ['steps', 'step_count'],
        ['meds', 'medications'],
        ['symptoms', 'symptoms'],
        ['low', 'low_heart_rate_notifications'],
        ['ecg', 'ecg'],
      ],
    });
    const at = '2026-08-20 09:00:00 +0200';
    const r = await srv.push(
      JSON.stringify({
        data: {
          metrics: [
            { name: 'step_count', units: 'count', data: [{ date: '2026-08-20 00:00:00 +0200', qty: 5000 }] },
          ],
          heartRateNotifications: [
            {
              heartNotification: 'low_heart_rate_notification',
              threshold: 45,
              start: '2026-08-20 06:48:37 +0200',
              end: '2026-08-20 06:58:37 +0200',
              source: { name: 'Watch', bundleIdentifier: 'com.apple.health.1' },
              heartRateData: [{ date: 777279517.5, qty: 42, units: 'count/min' }],
            },
          ],
          ecg: [
            {
              start: '2026-08-20 00:29:13 +0100',
              end: '2026-08-20 00:29:43 +0100',
              classification: 'Ritmo sinusal',
              voltageMeasurements: [{ date: 1188745353.994098, voltage: 23.084741592407227, units: 'mcV' }],
            },
          ],
          stateOfMind: [
            {
              id: 'A',
              start: at,
              end: at,
              kind: 'momentaryEmotion',
              valence: 0.4,
              valenceClassification: 'slightly_pleasant',
              labels: ['calm'],
              associations: ['work'],
            },
          ],
          medications: [
            {
              displayText: 'Dexketoprofeno ',
              start: at,
              scheduledDate: '2026-08-20 08:16:00 +0200',
              status: 'Omitida',
              dosage: 1,
              codings: [],
              isArchived: false,
            },
            { displayText: 'Medicamento A', start: at, status: 'Tomada', dosage: 1, codings: [] },
            { displayText: 'Medicamento A', start: at, status: 'No registrada', codings: [] },
          ],
          symptoms: [
            {
              start: at,
              end: at,
              name: 'Dolor de cabeza',
              severity: 'Leve',
              userEntered: true,
              source: 'Salud',
            },
          ],
        },
      }),
    );
    expect(r.status).toBe(200);
    expect(r.body.ok).toBe(true);
    // the symptom, the doses taken and skipped, the state of mind and the low heart-rate
    // notification and the ECG recording are read (symptoms.test.ts, medications.test.ts,
    // state-of-mind.test.ts, heart-rate-notifications.test.ts, ecg.test.ts)
    expect(r.body.samples).toEqual({ received: 7, new: 7 });
    expect([...r.body.warnings].sort()).toEqual([
      'medications: dose neither taken nor skipped, left out (1 point, e.g. "No registrada")',
    ]);
    expect(await srv.rows('steps')).toEqual([{ date: '2026-08-20', count: 5000 }]);
    expect(await srv.rows('meds')).toEqual([{ date: '2026-08-20', taken: 1, skipped: 1 }]);
    expect(await srv.rows('symptoms')).toEqual([{ date: '2026-08-20', count: 1 }]);
    expect(await srv.rows('low')).toEqual([{ date: '2026-08-20', count: 1 }]);
    // a recording classified in the phone's language
    expect(await srv.rows('ecg')).toEqual([{ date: '2026-08-20', sinusRhythm: 1 }]);
  });
});
