/**
 * Stored dedup keys never change: the same sample must give the same key whatever the extraction
 * code looks like (a changed key stores a re-sent sample twice). The keys below were written by
 * the extraction as it stood when they were pinned; every shape the webhook reads is here (a
 * daily total, a minute-level min/avg/max point, a 12-hour stamp converted from pounds, a sleep
 * night, a workout), with a curly apostrophe in a source.
 */
import { describe, expect, it } from 'vitest';
import { normalisePayload } from '../../src/ingest/hae/format/payload.js';
import { extractSamples } from '../../src/ingest/hae/format/samples.js';

const WATCH = 'Jo’s Apple Watch';

const body = {
  data: {
    metrics: [
      {
        name: 'step_count',
        units: 'count',
        data: [
          { date: '2024-03-10 00:00:00 -0500', qty: 8123, source: `${WATCH}|iPhone` },
          { date: '2024-03-11 00:00:00 -0400', qty: 12.5, source: 'iPhone' },
        ],
      },
      {
        name: 'heart_rate',
        units: 'count/min',
        data: [{ date: '2024-03-10 07:15:00 -0500', Min: 52, Avg: 61.4, Max: 97, source: WATCH }],
      },
      { name: 'weight_body_mass', units: 'lb', data: [{ date: '2024-09-21 7:57:00 am +1000', qty: 185.2 }] },
      {
        name: 'sleep_analysis',
        units: 'hr',
        data: [
          {
            date: '2024-03-11 00:00:00 -0400',
            sleepStart: '2024-03-10 23:05:00 -0400',
            sleepEnd: '2024-03-11 06:40:00 -0400',
            inBedStart: '2024-03-10 22:50:00 -0400',
            inBedEnd: '2024-03-11 06:45:00 -0400',
            totalSleep: 7.1,
            core: 4.2,
            deep: 1.1,
            rem: 1.8,
            awake: 0.4,
            inBed: 7.9,
            source: WATCH,
          },
        ],
      },
    ],
    workouts: [
      {
        name: 'Outdoor Run',
        start: '2024-03-10 17:00:00 -0500',
        end: '2024-03-10 17:42:30 -0500',
        duration: 2550,
        distance: { qty: 5.1, units: 'km' },
        activeEnergyBurned: { qty: 410, units: 'kcal' },
      },
    ],
  },
};

const PINNED: [metric: string, span: string, key: string][] = [
  ['step_count', 'day', 'a61876bb8e4e75fdf97943d6e41ba986'],
  ['step_count', 'day', '0adc9dd8ed23be83b20c543a26354ff6'],
  ['heart_rate', 'sample', '685320dce33728b811cae313cfb28d9a'],
  ['weight_body_mass', 'sample', '8fde058d88ba95a671f3c4d68c56344c'],
  ['sleep_analysis', 'sample', '6ce5e7a2df316e2ede9b8ef751aa9df6'],
  ['workouts', 'sample', 'bd354cb9004ed2bf239b2db14b9ce73c'],
];

describe('stored dedup keys', () => {
  it('are the pinned keys for one sample of every shape, read whole', () => {
    const r = extractSamples(normalisePayload(body));
    expect(r.warnings).toEqual([]);
    expect(r.samples.map((s) => [s.metric, s.span, s.dedupKey])).toEqual(PINNED);
  });

  it('are the same keys when each block is read on its own (as a push stores them)', () => {
    const payload = normalisePayload(body);
    const keys: string[] = [];
    for (const block of payload.metrics) {
      for (const s of extractSamples({ metrics: [block], workouts: [], warnings: [] }).samples)
        keys.push(s.dedupKey);
    }
    for (const s of extractSamples({ metrics: [], workouts: payload.workouts, warnings: [] }).samples)
      keys.push(s.dedupKey);
    expect(keys).toEqual(PINNED.map((p) => p[2]));
  });

  it('keep the values the keys were made from (stored as such, or as keyValues beside a rounded value)', () => {
    const [steps, , heart, weight] = extractSamples(normalisePayload(body)).samples;
    expect(steps.values).toEqual({ count: 8123 });
    expect(steps.keyValues).toBeUndefined();
    expect(heart.values).toEqual({ min: 52, avg: 61.4, max: 97 });
    // converted from pounds: stored rounded, keyed on the exact product as before rounding
    expect(weight.values).toEqual({ kg: 84.00531 });
    expect(weight.keyValues).toEqual({ kg: 84.005306924 });
  });
});
