/**
 * The `ecg` section of a Health Auto Export push, through the real webhook: each electrocardiogram
 * recorded with the watch counts once on its day on `ecg`, in the field of its classification
 * (the app's words, HealthKit's names); its voltages are not kept; a classification Klebb does not
 * know is left out with a warning naming it; a re-send adds nothing, and a body streamed for its
 * size (ECG voltages make one easily) reads them the same.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { HAE_INLINE_MAX_BYTES } from '../../src/ingest/hae/env.js';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

/** A recording at `start` classified `classification`, with `n` voltages as the app writes them. */
function recording(start: string, classification: string, n = 20) {
  return {
    start,
    end: start.replace(/:00 /, ':30 '),
    classification,
    severity: 'Not Set',
    averageHeartRate: 72,
    numberOfVoltageMeasurements: n,
    samplingFrequency: 512,
    source: 'Apple Watch',
    voltageMeasurements: Array.from({ length: n }, (_, i) => ({
      date: 1779170400 + i / 512,
      voltage: Math.round(Math.sin(i / 9) * 3e5) / 1e6,
      units: 'V',
    })),
  };
}

const RECORDINGS = (n?: number) => [
  recording('2026-05-19 08:00:00 +0200', 'Sinus Rhythm', n),
  recording('2026-05-19 21:10:00 +0200', 'Atrial Fibrillation', n),
  recording('2026-05-20 07:30:00 +0200', 'Inconclusive Poor Recording', n),
  recording('2026-05-20 07:32:00 +0200', 'sinusRhythm', n),
  recording('2026-05-21 09:00:00 +0200', 'Heart Rate Over 150', n),
  recording('2026-05-21 09:05:00 +0200', 'Not Set', n),
  recording('2026-05-22 09:00:00 +0200', 'Wobbly', n),
];

const ROWS = [
  { date: '2026-05-19', sinusRhythm: 1, atrialFibrillation: 1 },
  { date: '2026-05-20', sinusRhythm: 1, inconclusive: 1 },
  { date: '2026-05-21', inconclusive: 1, unclassified: 1 },
];

const WARNING = 'ecg: unknown result, left out (1 point, e.g. "Wobbly")';

describe('ECG recordings', () => {
  it('count on their day by classification; an unknown one is named; a re-send adds nothing', async () => {
    srv = await startIngestServer({ cards: [['ecg', 'ecg']] });
    const body = JSON.stringify({ data: { metrics: [], workouts: [], ecg: RECORDINGS() } });
    const r = await srv.push(body);
    expect(r.status, r.text).toBe(200);
    expect(r.body.warnings).toEqual([WARNING]);
    expect(r.body.samples).toEqual({ received: 6, new: 6 });
    expect(await srv.rows('ecg')).toEqual(ROWS);
    expect((await srv.push(body)).body.samples).toEqual({ received: 6, new: 0 });
    expect(await srv.rows('ecg')).toEqual(ROWS);
    // the voltages are not stored
    const stored = srv.inst.db
      .prepare("SELECT vals FROM hae_samples WHERE metric = 'ecg'")
      .pluck()
      .all() as string[];
    expect(stored.some((v) => v.includes('voltage'))).toBe(false);
  });

  it('read the same from a body streamed for its size', async () => {
    srv = await startIngestServer({ cards: [['ecg', 'ecg']] });
    const body = JSON.stringify({ data: { ecg: RECORDINGS(15_360), metrics: [] } });
    expect(body.length).toBeGreaterThan(HAE_INLINE_MAX_BYTES);
    const r = await srv.push(body);
    expect(r.status, r.text).toBe(200);
    expect(r.body.warnings).toEqual([WARNING]);
    expect(r.body.samples).toEqual({ received: 6, new: 6 });
    expect(await srv.rows('ecg')).toEqual(ROWS);
  });
});

describe('ECG recordings from a phone in another language', () => {
  it('a heart rate too high or too low to classify, in the phone language, is inconclusive', async () => {
    srv = await startIngestServer({ cards: [['ecg', 'ecg']] });
    const body = JSON.stringify({
      data: {
        metrics: [],
        ecg: [
          recording('2026-05-19 08:00:00 +0200', 'Ritmo Sinusal'),
          recording('2026-05-19 18:00:00 +0200', 'Frecuencia Cardíaca Superior a 150'),
          recording('2026-05-20 08:00:00 +0200', 'Herzfrequenz unter 50'),
          recording('2026-05-20 09:00:00 +0200', 'Fréquence cardiaque supérieure à 150'),
          recording('2026-05-21 09:00:00 +0200', 'Frequenza cardiaca inferiore a 50'),
        ],
      },
    });
    const r = await srv.push(body);
    expect(r.status, r.text).toBe(200);
    expect(r.body.warnings ?? []).toEqual([]);
    expect(await srv.rows('ecg')).toEqual([
      { date: '2026-05-19', sinusRhythm: 1, inconclusive: 1 },
      { date: '2026-05-20', inconclusive: 2 },
      { date: '2026-05-21', inconclusive: 1 },
    ]);
  });
});
