import { describe, expect, it } from 'vitest';
import { aggregateRows } from './aggregate.js';
import { CATALOGUE } from './catalogue.js';
import { normalisePayload } from './payload.js';
import type { Sample } from './sample.js';
import { extractSamples } from './samples.js';

type Point = Record<string, unknown>;
/** Samples of one metric block, as one payload would give them. */
const samplesOf = (name: string, units: string, data: Point[]): Sample[] => {
  const r = extractSamples(normalisePayload({ data: { metrics: [{ name, units, data }] } }));
  expect(r.warnings).toEqual([]);
  return r.samples;
};
const at = (hhmm: string, day = '2026-03-04') => `${day} ${hhmm}:00 -0800`;

describe('aggregateRows: sum', () => {
  it('rounds only the total: 47 × 0.4 min is 18.8, not 0', () => {
    const data = Array.from({ length: 47 }, (_, i) => ({
      date: at(`07:${String(i + 10).padStart(2, '0')}`),
      qty: 0.4,
    }));
    expect(aggregateRows('apple_exercise_time', samplesOf('apple_exercise_time', 'min', data))).toEqual([
      { date: '2026-03-04', minutes: 18.8 },
    ]);
    expect(aggregateRows('mindful_minutes', samplesOf('mindful_minutes', 'min', data))).toEqual([
      { date: '2026-03-04', minutes: 18.8 },
    ]);
  });

  it('never shows float artefacts (0.7 + 0.1, 0.1 + 0.2 L)', () => {
    const rows = aggregateRows(
      'dietary_water',
      samplesOf('dietary_water', 'L', [
        { date: at('08:00'), qty: 0.7 },
        { date: at('09:00'), qty: 0.1 },
        { date: at('08:00', '2026-03-05'), qty: 0.1 },
        { date: at('09:00', '2026-03-05'), qty: 0.2 },
      ]),
    );
    expect(rows).toEqual([
      { date: '2026-03-04', ml: 800 },
      { date: '2026-03-05', ml: 300 },
    ]);
    expect(JSON.stringify(rows)).not.toMatch(/\d\.\d{6,}/);
  });

  it('sums minute samples per local date and sorts rows by date', () => {
    const rows = aggregateRows(
      'step_count',
      samplesOf('step_count', 'count', [
        { date: at('23:59', '2026-03-05'), qty: 7 },
        { date: at('00:01', '2026-03-05'), qty: 3 },
        { date: at('23:59'), qty: 5 },
        { date: at('00:00'), qty: 2 },
      ]),
    );
    expect(rows).toEqual([
      { date: '2026-03-04', count: 7 },
      { date: '2026-03-05', count: 10 },
    ]);
  });

  describe('overlapping sources are not double counted', () => {
    it('prefers the combined a|b daily row over the single-device rows it contains', () => {
      const s = samplesOf('step_count', 'count', [
        { date: at('00:00'), qty: 9000, source: 'User’s Apple Watch|iPhone' },
        { date: at('00:00'), qty: 9500, source: 'iPhone' },
        { date: at('00:00'), qty: 7000, source: 'User’s Apple Watch' },
      ]);
      expect(aggregateRows('step_count', s)).toEqual([{ date: '2026-03-04', count: 9000 }]);
    });

    it('takes the largest of independent devices instead of adding them', () => {
      const s = samplesOf('step_count', 'count', [
        { date: at('00:00'), qty: 8000, source: 'User’s Apple Watch' },
        { date: at('00:00'), qty: 7600, source: 'Oura' },
      ]);
      expect(aggregateRows('step_count', s)).toEqual([{ date: '2026-03-04', count: 8000 }]);
    });

    it('treats pipe order, repeats and U+00A0 in device names as the same set', () => {
      const s = [
        ...samplesOf('step_count', 'count', [
          { date: at('00:00'), qty: 100, source: 'Oura|User’s Apple\u00a0Watch|iPhone' },
        ]),
        ...samplesOf('step_count', 'count', [
          { date: at('00:00'), qty: 100, source: 'iPhone|User’s Apple Watch|Oura|iPhone' },
        ]),
      ];
      expect(aggregateRows('step_count', s)).toEqual([{ date: '2026-03-04', count: 100 }]);
    });

    it('sums minute buckets whose combined sources vary minute to minute (one family of devices)', () => {
      const s = samplesOf('step_count', 'count', [
        { date: at('10:00'), qty: 50, source: 'Watch|iPhone' },
        { date: at('10:01'), qty: 40, source: 'Watch' },
        { date: at('10:02'), qty: 30, source: 'iPhone' },
      ]);
      expect(aggregateRows('step_count', s)).toEqual([{ date: '2026-03-04', count: 120 }]);
    });

    it('counts one point per instant when a combined point and its parts share a minute', () => {
      const s = samplesOf('step_count', 'count', [
        { date: at('10:00'), qty: 50, source: 'Watch|iPhone' },
        { date: at('10:00'), qty: 45, source: 'Watch' },
        { date: at('10:01'), qty: 10, source: 'Watch' },
      ]);
      expect(aggregateRows('step_count', s)).toEqual([{ date: '2026-03-04', count: 60 }]);
    });

    it('never adds a daily total to the same day’s hourly rows (FreeReps: 32,361 vs 16,652 steps)', () => {
      const daily = samplesOf('step_count', 'count', [{ date: at('00:00'), qty: 16652, source: 'iPhone' }]);
      const hourly = samplesOf(
        'step_count',
        'count',
        Array.from({ length: 16 }, (_, h) => ({
          date: at(`${String(h + 6).padStart(2, '0')}:00`),
          qty: 1000,
          source: 'Oura',
        })),
      );
      expect(aggregateRows('step_count', [...daily, ...hourly])).toEqual([
        { date: '2026-03-04', count: 16652 },
      ]);
      // the same source both ways (Summarize ON and OFF sent under the same name): still not added
      const hourlySame = samplesOf(
        'step_count',
        'count',
        Array.from({ length: 16 }, (_, h) => ({
          date: at(`${String(h + 6).padStart(2, '0')}:00`),
          qty: 1000,
          source: 'iPhone',
        })),
      );
      expect(aggregateRows('step_count', [...daily, ...hourlySame])).toEqual([
        { date: '2026-03-04', count: 16652 },
      ]);
    });

    it('takes the larger of unknown-source and sourced readings of one day', () => {
      const s = [
        ...samplesOf('step_count', 'count', [{ date: at('00:00'), qty: 15291, source: null }]),
        ...samplesOf('step_count', 'count', [{ date: at('00:00'), qty: 15000, source: 'iPhone' }]),
      ];
      expect(aggregateRows('step_count', s)).toEqual([{ date: '2026-03-04', count: 15291 }]);
    });
  });

  it('lets a later version of the same bucket replace the partial one (FreeReps: 230.94 then 413)', () => {
    const partial = samplesOf('step_count', 'count', [{ date: at('14:00'), qty: 230.94, source: 'iPhone' }]);
    const complete = samplesOf('step_count', 'count', [{ date: at('14:00'), qty: 413, source: 'iPhone' }]);
    expect(aggregateRows('step_count', [...partial, ...complete])).toEqual([
      { date: '2026-03-04', count: 413 },
    ]);
    // a re-send of the partial one has the partial's dedup key: the store ignores it, and so does aggregation
    expect(aggregateRows('step_count', [...partial, ...complete, ...partial])).toEqual([
      { date: '2026-03-04', count: 413 },
    ]);
  });

  it('counts identical samples once (a payload posted twice)', () => {
    const s = samplesOf('active_energy', 'kcal', [
      { date: at('00:00'), qty: 517.2964293307563, source: 'User 17|Strava' },
    ]);
    expect(aggregateRows('active_energy', [...s, ...s])).toEqual(aggregateRows('active_energy', s));
  });
});

describe('aggregateRows: last, mean, max, any', () => {
  it('last: the latest timestamp of the day wins, whatever the arrival order', () => {
    const s = samplesOf('weight_body_mass', 'kg', [
      { date: at('21:00'), qty: 85.1 },
      { date: at('07:00'), qty: 85.9 },
      { date: at('07:00', '2026-03-03'), qty: 86 },
    ]);
    expect(aggregateRows('weight_body_mass', s)).toEqual([
      { date: '2026-03-03', kg: 86 },
      { date: '2026-03-04', kg: 85.1 },
    ]);
    expect(aggregateRows('body_mass', s)).toEqual(aggregateRows('weight_body_mass', s));
  });

  it('last: a late-arriving older sample lands on its own date and does not override newer ones', () => {
    const newer = samplesOf('resting_heart_rate', 'count/min', [
      { date: at('00:00', '2026-03-05'), qty: 58 },
    ]);
    const late = samplesOf('resting_heart_rate', 'count/min', [{ date: at('00:00'), qty: 61 }]);
    expect(aggregateRows('resting_heart_rate', [...newer, ...late])).toEqual([
      { date: '2026-03-04', bpm: 61 },
      { date: '2026-03-05', bpm: 58 },
    ]);
  });

  it('last: systolic and diastolic come from the same reading; derived keys read one field each', () => {
    const s = samplesOf('blood_pressure', 'mmHg', [
      { date: at('08:00'), systolic: 131, diastolic: 85 },
      { date: at('20:00'), systolic: 120, diastolic: 79 },
    ]);
    expect(aggregateRows('blood_pressure', s)).toEqual([
      { date: '2026-03-04', systolic: 120, diastolic: 79 },
    ]);
    expect(aggregateRows('blood_pressure_systolic', s)).toEqual([{ date: '2026-03-04', systolic: 120 }]);
    expect(aggregateRows('blood_pressure_diastolic', s)).toEqual([{ date: '2026-03-04', diastolic: 79 }]);
  });

  it('mean with per-field min/max for heart rate', () => {
    const s = samplesOf('heart_rate', 'count/min', [
      { date: at('00:04'), Min: 49, Avg: 49, Max: 49 },
      { date: at('00:14'), Min: 48.51763153076172, Avg: 48.51763153076172, Max: 48.51763153076172 },
      { date: at('12:00'), Min: 90, Avg: 100, Max: 116 },
    ]);
    // min 48.5176 → 49 (0 dp); avg (49 + 48.5176 + 100) / 3 = 65.8392 → 65.8; max 116
    expect(aggregateRows('heart_rate', s)).toEqual([{ date: '2026-03-04', min: 49, avg: 65.8, max: 116 }]);
  });

  it('mean ignores points covered by a combined point at the same instant', () => {
    const s = samplesOf('heart_rate_variability', 'ms', [
      { date: at('00:00'), qty: 50, source: 'Watch|Oura' },
      { date: at('00:00'), qty: 80, source: 'Oura' },
    ]);
    expect(aggregateRows('heart_rate_variability', s)).toEqual([{ date: '2026-03-04', ms: 50 }]);
  });

  it('mean of SpO2 given as fractions and percents together (FreeReps: 0.94 next to 94.5)', () => {
    const s = samplesOf('blood_oxygen_saturation', '%', [
      { date: at('01:00'), qty: 0.94 },
      { date: at('02:00'), qty: 94.5 },
    ]);
    expect(aggregateRows('blood_oxygen_saturation', s)).toEqual([{ date: '2026-03-04', pct: 94.3 }]);
  });

  it('max and any', () => {
    expect(
      aggregateRows(
        'uv_exposure',
        samplesOf('uv_exposure', '', [
          { date: at('10:00'), qty: 3 },
          { date: at('13:00'), qty: 7.4 },
        ]),
      ),
    ).toEqual([{ date: '2026-03-04', index: 7.4 }]);
    // pitfall: sexual_activity is always stamped at local midnight, several per day
    const s = samplesOf('sexual_activity', '', [
      { date: at('00:00'), Unspecified: 1 },
      { date: at('00:00'), 'Protection Used': 1 },
    ]);
    expect(s.map((x) => x.span)).toEqual(['sample', 'sample']);
    expect(aggregateRows('sexual_activity', s)).toEqual([{ date: '2026-03-04', logged: true }]);
  });

  it('keeps glucose units apart', () => {
    const s = [
      ...samplesOf('blood_glucose', 'mg/dL', [
        { date: at('08:00'), qty: 89.8 },
        { date: at('12:00'), qty: 101.4186046511628 },
      ]),
      ...samplesOf('blood_glucose', 'mmol/L', [{ date: at('09:00'), qty: 5.4 }]),
    ];
    // (89.8 + 101.4186) / 2 = 95.6093 → 96 mg/dL; 5.4 mmol/L
    expect(aggregateRows('blood_glucose', s)).toEqual([{ date: '2026-03-04', mgdl: 96, mmol: 5.4 }]);
  });
});

describe('aggregateRows: robustness', () => {
  it('returns [] for an unknown metric and for no samples', () => {
    expect(aggregateRows('nope', [])).toEqual([]);
    expect(aggregateRows('step_count', [])).toEqual([]);
  });

  it('ignores other metrics’ samples', () => {
    const s = [
      ...samplesOf('step_count', 'count', [{ date: at('00:00'), qty: 1 }]),
      ...samplesOf('flights_climbed', 'count', [{ date: at('00:00'), qty: 2 }]),
    ];
    expect(aggregateRows('flights_climbed', s)).toEqual([{ date: '2026-03-04', count: 2 }]);
  });

  it('drops non-finite values that reach it from a store and never writes NaN, Infinity or null', () => {
    const [good] = samplesOf('heart_rate_variability', 'ms', [{ date: at('00:00'), qty: 40 }]);
    const bad: Sample = { ...good, values: { ms: Number.POSITIVE_INFINITY }, dedupKey: 'x'.repeat(32) };
    const nan: Sample = { ...good, date: '2026-03-05', values: { ms: Number.NaN }, dedupKey: 'y'.repeat(32) };
    const rows = aggregateRows('heart_rate_variability', [good, bad, nan]);
    expect(rows).toEqual([{ date: '2026-03-04', ms: 40 }]);
    expect(JSON.stringify(rows)).not.toMatch(/null|NaN|Infinity/);
  });

  it('leaves a date out when its sum overflows rather than writing Infinity', () => {
    // extraction refuses such values (plausible.ts); samples stored before that rule still must not make Infinity
    const [base] = samplesOf('step_count', 'count', [{ date: at('01:00'), qty: 1 }]);
    const s: Sample[] = [
      { ...base, values: { count: 1e308 }, dedupKey: 'a'.repeat(32) },
      { ...base, at: at('02:00'), values: { count: 1e308 }, dedupKey: 'b'.repeat(32) },
    ];
    expect(aggregateRows('step_count', s)).toEqual([]);
  });
});

describe('aggregateRows: a function of the set of samples', () => {
  /** Every order of `s` (all permutations up to 5 items), reversed copies otherwise. */
  const orders = (s: Sample[]): Sample[][] => {
    if (s.length > 5) return [s, [...s].reverse()];
    if (s.length <= 1) return [s];
    return s.flatMap((x, i) => orders([...s.slice(0, i), ...s.slice(i + 1)]).map((rest) => [x, ...rest]));
  };
  /** The samples of `points` sent one block per point (each its own push) and all in one block. */
  const batched = (name: string, units: string, points: Point[]) => ({
    together: samplesOf(name, units, points),
    apart: points.flatMap((p) => samplesOf(name, units, [p])),
  });

  it('device samples and the combined total: the combined total, whatever the order or batching', () => {
    const { together, apart } = batched('step_count', 'count', [
      { date: at('09:00'), qty: 5000, source: 'iPhone' },
      { date: at('10:00'), qty: 1000, source: 'Apple Watch' },
      { date: at('00:00'), qty: 6000, source: 'iPhone|Apple Watch' },
    ]);
    // apart, the midnight point was stored as a daily block, together as a sample: same row
    expect(apart.map((s) => s.span)).toContain('day');
    for (const s of [...orders(together), ...orders(apart), [...together, ...apart]])
      expect(aggregateRows('step_count', s)).toEqual([{ date: '2026-03-04', count: 6000 }]);
  });

  it('a midnight bucket smaller than its source’s other buckets is the first hour, not the day', () => {
    const { together, apart } = batched('step_count', 'count', [
      { date: at('00:00'), qty: 400, source: 'iPhone' },
      { date: at('09:00'), qty: 3000, source: 'iPhone' },
      { date: at('11:00'), qty: 2000, source: 'iPhone' },
      { date: at('10:00'), qty: 1000, source: 'Watch' },
    ]);
    for (const s of [...orders(together), ...orders(apart)])
      expect(aggregateRows('step_count', s)).toEqual([{ date: '2026-03-04', count: 5400 }]);
  });

  it('daily totals of each device next to minute samples: the largest daily total', () => {
    const { together, apart } = batched('step_count', 'count', [
      { date: at('00:00'), qty: 5200, source: 'iPhone' },
      { date: at('00:00'), qty: 4100, source: 'Watch' },
      { date: at('09:00'), qty: 100, source: 'iPhone' },
      { date: at('09:01'), qty: 200, source: 'iPhone' },
      { date: at('09:00'), qty: 150, source: 'Watch' },
    ]);
    for (const s of [...orders(together), ...orders(apart)])
      expect(aggregateRows('step_count', s)).toEqual([{ date: '2026-03-04', count: 5200 }]);
  });

  it('copies of one sample (one payload held it twice) count twice, at midnight too', () => {
    const water = samplesOf('dietary_water', 'mL', [
      { date: at('09:00'), qty: 250, source: 'WaterMinder' },
      { date: at('09:00'), qty: 250, source: 'WaterMinder' },
      { date: at('12:00'), qty: 100, source: 'WaterMinder' },
    ]);
    expect(water.map((s) => s.values.seq)).toEqual([undefined, 1, undefined]);
    for (const s of orders(water))
      expect(aggregateRows('dietary_water', s)).toEqual([{ date: '2026-03-04', ml: 600 }]);
    const midnight = samplesOf('dietary_water', 'mL', [
      { date: at('00:00'), qty: 250, source: 'WaterMinder' },
      { date: at('00:00'), qty: 250, source: 'WaterMinder' },
    ]);
    expect(aggregateRows('dietary_water', midnight)).toEqual([{ date: '2026-03-04', ml: 500 }]);
    // a copy next to a combined point of the same instant: the combined point still covers the device
    const steps = samplesOf('step_count', 'count', [
      { date: at('10:00'), qty: 30, source: 'iPhone' },
      { date: at('10:00'), qty: 30, source: 'iPhone' },
      { date: at('10:00'), qty: 50, source: 'iPhone|Watch' },
    ]);
    expect(aggregateRows('step_count', steps)).toEqual([{ date: '2026-03-04', count: 50 }]);
  });

  it('copies count in means; the latest of same-instant readings does not depend on the order', () => {
    const hrv = samplesOf('heart_rate_variability', 'ms', [
      { date: at('08:00'), qty: 60, source: 'Watch' },
      { date: at('08:00'), qty: 60, source: 'Watch' },
      { date: at('09:00'), qty: 90, source: 'Watch' },
    ]);
    expect(aggregateRows('heart_rate_variability', hrv)).toEqual([{ date: '2026-03-04', ms: 70 }]);
    const weight = samplesOf('weight_body_mass', 'kg', [
      { date: at('07:00'), qty: 80.2, source: 'Scale' },
      { date: at('07:00'), qty: 80.6, source: 'App' },
    ]);
    const rows = aggregateRows('weight_body_mass', weight);
    for (const s of orders(weight)) expect(aggregateRows('weight_body_mass', s)).toEqual(rows);
  });
});

describe('aggregateRows: a date with one sample', () => {
  // the lone sample is read directly; the same date with a second sample that carries no number
  // (which no kind counts) goes through the general rules: both must give the same row
  const kinds = CATALOGUE.filter((e) => e.kind !== 'sleep' && e.kind !== 'workouts');
  const sample = (key: string, stamp: string, values: Sample['values'], source: string | null): Sample => ({
    metric: key,
    date: stamp.slice(0, 10),
    at: stamp,
    values,
    source,
    span: 'sample',
    dedupKey: `${key}|${stamp}|${JSON.stringify(values)}`,
  });
  for (const stamp of ['2026-03-04 00:00:00 -0800', '2026-03-04 07:31:00 -0800']) {
    it(`gives the row the general rules give, for every kind (${stamp.slice(11, 16)})`, () => {
      for (const entry of kinds) {
        const values: Sample['values'] = {};
        entry.fields.forEach((f, i) => {
          values[f.name] = 12.3456 * (i + 1);
        });
        const lone = sample(entry.reads, stamp, values, 'Watch|iPhone');
        const blank = sample(entry.reads, '2026-03-04 23:59:00 -0800', { note: 'x' }, 'Watch');
        const rows = aggregateRows(entry.key, [lone]);
        expect(rows.length, entry.key).toBe(1);
        expect(rows, entry.key).toEqual(aggregateRows(entry.key, [lone, blank]));
      }
    });
  }
});
