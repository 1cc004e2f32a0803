/**
 * The sections Health Auto Export v2 sends beside `metrics` and `workouts` (any later one;
 * `symptoms`, `medications`, `stateOfMind`, `heartRateNotifications`, `cycleTracking` and `ecg`
 * are read, and only counted here), pushed through the real webhook: Klebb does not read them, so the answer says, section by
 * section, what was received and not ingested, whether the body is read whole or, over 4 MB,
 * streamed (a push with ECG voltage readings easily is); the metrics and workouts beside them are
 * stored as always.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { HAE_INLINE_MAX_BYTES } from '../../src/ingest/hae/env.js';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const DAY = '2026-05-19';
const AT = `${DAY} 00:00:00 +0100`;
const steps = { name: 'step_count', units: 'count', data: [{ date: AT, qty: 4321, source: 'iPhone' }] };

/** One ECG reading with `n` voltage samples (their dates are seconds, as the app writes them), at 08:`minute`. */
function ecg(n: number, minute = 0) {
  const voltageMeasurements = Array.from({ length: n }, (_, i) => ({
    date: 1779145200 + i / 512,
    voltage: Math.round(Math.sin(i / 9) * 3e5) / 1000,
    units: 'mcV',
  }));
  return {
    start: `${DAY} 08:${String(minute).padStart(2, '0')}:00 +0100`,
    end: `${DAY} 08:${String(minute).padStart(2, '0')}:30 +0100`,
    classification: 'Sinus Rhythm',
    averageHeartRate: 64,
    numberOfVoltageMeasurements: n,
    samplingFrequency: 512,
    voltageMeasurements,
    source: 'Watch',
  };
}

const OTHERS = {
  symptoms: [
    { start: AT, end: AT, name: 'Headache', severity: 'Mild', userEntered: true, source: 'Health' },
    { start: AT, end: AT, name: 'Fatigue', severity: 'Present', userEntered: true, source: 'Health' },
  ],
  medications: [
    { displayText: 'Ibuprofen', start: AT, status: 'Taken', isArchived: false, dosage: 1, codings: [] },
  ],
  heartRateNotifications: [{ start: AT, end: AT, threshold: 120, heartRate: [], heartRateVariation: [] }],
  cycleTracking: [{ start: AT, end: AT, name: 'Menstrual Flow', value: 'Medium' }],
};

// symptoms, medications, heart-rate notifications and menstrual flows in OTHERS are read as metrics
// of their own (symptoms.test.ts, medications.test.ts, heart-rate-notifications.test.ts,
// cycle-tracking.test.ts), and so are ECG recordings (ecg.test.ts): only the later section is
// named as not ingested

describe('sections Klebb does not read', () => {
  it('are named in the answer; the metrics beside them are stored', async () => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    const body = {
      data: {
        metrics: [steps],
        ...OTHERS,
        ecg: [ecg(10)],
        // an object instead of a list, and a section of a later version of the app
        heartRateNotifications: { start: AT, end: AT, threshold: 120, heartRate: [], heartRateVariation: [] },
        sleepSessions: [{ start: AT, end: AT }],
        exportVersion: 2,
      },
    };
    const r = await srv.push(JSON.stringify(body));
    expect(r.status).toBe(200);
    expect(r.body.ok).toBe(true);
    expect(r.body.samples).toEqual({ received: 7, new: 7 });
    expect(r.body.warnings).toEqual(['1 sleepSessions entr(ies) received, not ingested']);
    expect(await srv.rows('steps')).toEqual([{ date: DAY, count: 4321 }]);
    const status = await srv.api('/api/health-auto-export/status');
    expect(status.body.lastPush.warnings).toEqual(r.body.warnings);
  });

  it('are named in the answer of a body streamed for its size', async () => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    const readings = [ecg(15_000, 0), ecg(15_000, 1), ecg(15_000, 2), ecg(15_000, 3), ecg(15_000, 4)];
    const body = JSON.stringify({
      data: { ecg: readings, ...OTHERS, metrics: [steps], stateOfMind: [], sleepSessions: [{ start: AT }] },
    });
    expect(body.length).toBeGreaterThan(HAE_INLINE_MAX_BYTES);
    const r = await srv.push(body);
    expect(r.status).toBe(200);
    expect(r.body.ok).toBe(true);
    expect(r.body.samples).toEqual({ received: 11, new: 11 });
    expect(r.body.warnings).toEqual(['1 sleepSessions entr(ies) received, not ingested']);
    expect(await srv.rows('steps')).toEqual([{ date: DAY, count: 4321 }]);
  });
});
