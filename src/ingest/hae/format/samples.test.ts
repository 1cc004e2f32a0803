import { describe, expect, it } from 'vitest';
import { OccurrenceCounter } from './occurrences.js';
import { normalisePayload } from './payload.js';
import { dedupKeyOf, type Sample } from './sample.js';
import { extractSamples } from './samples.js';
import { parseHaeTimestamp } from './timestamps.js';

type Point = Record<string, unknown>;
const block = (name: string, units: string, data: Point[]) => ({ name, units, data });
const extract = (...metrics: ReturnType<typeof block>[]) =>
  extractSamples(normalisePayload({ data: { metrics } }));
const one = (name: string, units: string, point: Point) => {
  const r = extract(block(name, units, [point]));
  expect(r.warnings).toEqual([]);
  expect(r.samples).toHaveLength(1);
  return r.samples[0];
};
const D = '2025-12-07 00:00:00 -0800';

describe('extractSamples: units (docs/HEALTH-AUTO-EXPORT.md "Units" pitfalls)', () => {
  it('converts lb to kg with the exact factor, keeping full precision (hevy-metal 188.70000571768875 lb)', () => {
    // 188.70000571768875 × 0.45359237 = 85.5928828125 kg
    expect(one('weight_body_mass', 'lb', { date: D, qty: 188.70000571768875 }).values).toEqual({
      kg: 85.5928828125,
    });
    expect(one('weight_body_mass', 'kg', { date: D, qty: 70.2 }).values).toEqual({ kg: 70.2 });
  });

  it('converts kJ to kcal per block while kcal next to it stays (minute-level file: kJ basal, kcal active)', () => {
    const r = extract(
      block('active_energy', 'kcal', [{ date: D, qty: 100 }]),
      block('basal_energy_burned', 'kJ', [{ date: D, qty: 418.4 }]),
    );
    expect(r.samples.map((s) => s.metric)).toEqual(['active_energy', 'basal_energy_burned']);
    expect(r.samples[0].values).toEqual({ kcal: 100 });
    // 418.4 kJ / 4.184 = 100 kcal (samples keep full float precision; rows round)
    expect(r.samples[1].values.kcal).toBeCloseTo(100, 10);
  });

  it('turns fractions into percent where a real percentage ≤ 1 is impossible (SpO2 0.97 vs 97.06)', () => {
    expect(one('blood_oxygen_saturation', '%', { date: D, qty: 0.97 }).values).toEqual({ pct: 97 });
    expect(one('blood_oxygen_saturation', '%', { date: D, qty: 97.06 }).values).toEqual({ pct: 97.06 });
    expect(one('body_fat_percentage', '%', { date: D, qty: 0.215 }).values).toEqual({ pct: 21.5 });
    expect(one('walking_double_support_percentage', '%', { date: D, qty: 0.3 }).values).toEqual({ pct: 30 });
  });

  it('keeps small walking-asymmetry and blood-alcohol percentages as sent (spark: 0.105 % is a real mean of 0–1 % days)', () => {
    expect(one('walking_asymmetry_percentage', '%', { date: D, qty: 0.10526315789473684 }).values).toEqual({
      pct: 0.10526315789473684,
    });
    expect(one('blood_alcohol_content', '%', { date: D, qty: 0.08 }).values).toEqual({ pct: 0.08 });
  });

  it.each([
    ['walking_running_distance', 'mi', 1, { km: 1.609344 }],
    ['walking_running_distance', 'km', 5.484679297695868, { km: 5.484679297695868 }],
    // 59.147059125 exactly: a converted value keeps 7 significant digits at least (units.ts)
    ['dietary_water', 'fl_oz_us', 2, { ml: 59.14706 }],
    ['dietary_water', 'mL', 546.5616, { ml: 546.5616 }],
    ['apple_sleeping_wrist_temperature', 'degF', 98.6, { degC: 37 }],
    ['walking_speed', 'mi/hr', 2, { kmh: 3.218688 }],
    ['walking_step_length', 'in', 10, { cm: 25.4 }],
    ['vo2_max', 'ml/(kg·min)', 36.72, { vo2max: 36.72 }],
    ['vo2_max', 'mL/min·kg', 36.72, { vo2max: 36.72 }],
    ['physical_effort', 'kcal/hr·kg', 4.2, { met: 4.2 }],
    ['physical_effort', 'MET', 4.2, { met: 4.2 }],
    ['resting_heart_rate', 'count/min', 55, { bpm: 55 }],
    ['resting_heart_rate', 'bpm', 55, { bpm: 55 }],
    ['mindful_minutes', 'min', 10.761466666062672, { minutes: 10.761466666062672 }],
    ['handwashing', 's', 20, { seconds: 20 }],
  ])('%s in %s: %d → %j', (name, units, qty, values) => {
    const v = one(name, units, { date: D, qty }).values;
    for (const [k, expected] of Object.entries(values)) expect(v[k]).toBeCloseTo(expected, 9);
  });

  it('keeps glucose in the unit it came in, the field naming it (mg/dL vs mmol/L)', () => {
    expect(one('blood_glucose', 'mg/dL', { date: D, qty: 89.8, mealTime: 'Before Meal' }).values).toEqual({
      mgdl: 89.8,
      mealTime: 'Before Meal',
    });
    expect(one('blood_glucose', 'mmol/L', { date: D, qty: 5.4 }).values).toEqual({ mmol: 5.4 });
  });

  it('skips and reports a unit it does not know instead of storing it as kg', () => {
    const r = extract(
      block('weight_body_mass', 'furlongs', [
        { date: D, qty: 1 },
        { date: D, qty: 2 },
      ]),
    );
    expect(r.samples).toEqual([]);
    expect(r.skipped).toBe(2);
    expect(r.warnings).toEqual([
      'weight_body_mass: unknown unit "furlongs" for weight_body_mass (2 points, e.g. 1)',
    ]);
  });
});

describe('extractSamples: shapes', () => {
  it('reads heart_rate Min/Avg/Max in count/min (docs say bpm)', () => {
    expect(
      one('heart_rate', 'count/min', { date: D, Min: 54, Avg: 58.85, Max: 73, source: 'Eight Sleep' }),
    ).toMatchObject({
      metric: 'heart_rate',
      values: { min: 54, avg: 58.85, max: 73 },
      source: 'Eight Sleep',
    });
  });

  it('reads blood_pressure systolic/diastolic; the derived payload names land on blood_pressure', () => {
    expect(one('blood_pressure', 'mmHg', { date: D, systolic: 120, diastolic: 80 }).values).toEqual({
      systolic: 120,
      diastolic: 80,
    });
    expect(one('blood_pressure_systolic', 'mmHg', { date: D, qty: 121 })).toMatchObject({
      metric: 'blood_pressure',
      values: { systolic: 121 },
    });
  });

  it('reads sexual_activity counts and marks it logged', () => {
    expect(one('sexual_activity', '', { date: D, Unspecified: 1, 'Protection Used': 0 }).values).toEqual({
      logged: true,
      unspecified: 1,
      protectionUsed: 0,
    });
  });

  it('files aliases under the canonical key (dietary_caffeine → caffeine, body_mass → weight_body_mass)', () => {
    const r = extract(
      block('dietary_caffeine', 'mg', [{ date: D, qty: 68 }]),
      block('body_mass', 'lb', [{ date: D, qty: 100 }]),
    );
    expect(r.samples.map((s) => s.metric)).toEqual(['caffeine', 'weight_body_mass']);
    expect(r.knownMetrics).toEqual(['caffeine', 'weight_body_mass']);
  });

  it('keeps unknown metrics under their own name with all their values and units (never rejected)', () => {
    const r = extract(block('Mystery_Metric', 'zz', [{ date: D, qty: 3, flag: true, note: 'x', bad: null }]));
    expect(r.unknownMetrics).toEqual(['mystery_metric']);
    expect(r.samples[0]).toMatchObject({
      metric: 'mystery_metric',
      values: { qty: 3, flag: true, note: 'x', units: 'zz' },
    });
  });

  it('lists known metrics whose data is empty (so discovery can show them)', () => {
    const r = extract(block('blood_pressure', 'mmHg', []));
    expect(r.samples).toEqual([]);
    expect(r.knownMetrics).toEqual(['blood_pressure']);
  });
});

describe('extractSamples: bad points are counted, never thrown', () => {
  it('drops non-finite numbers (JSON.parse("1e999") is Infinity)', () => {
    const parsed = JSON.parse(
      '{"data":{"metrics":[{"name":"step_count","units":"count","data":[' +
        '{"date":"2025-12-07 00:00:00 -0800","qty":1e999},{"date":"2025-12-08 00:00:00 -0800","qty":-1e999},' +
        '{"date":"2025-12-09 00:00:00 -0800","qty":5}]}]}}',
    );
    const r = extractSamples(normalisePayload(parsed));
    expect(r.samples.map((s) => s.values)).toEqual([{ count: 5 }]);
    expect(r.skipped).toBe(2);
    expect(r.warnings).toEqual(['step_count: non-finite number (2 points, e.g. Infinity)']);
  });

  it('drops a value that only overflows after conversion', () => {
    const r = extract(block('dietary_water', 'L', [{ date: D, qty: 1e306 }]));
    expect(r.samples).toEqual([]);
    expect(r.warnings[0]).toMatch(/non-finite/);
  });

  it('counts unreadable timestamps and points without a value', () => {
    const r = extract(
      block('step_count', 'count', [
        { date: '2024-13-01 00:00:00 +0000', qty: 1 },
        { date: 'soon', qty: 2 },
        { date: D },
        { date: D, qty: 'many' },
        { date: D, qty: '12' },
      ]),
    );
    expect(r.samples.map((s) => s.values)).toEqual([{ count: 12 }]);
    expect(r.skipped).toBe(4);
    expect(r.warnings).toEqual([
      'step_count: unreadable timestamp (2 points, e.g. "2024-13-01 00:00:00 +0000")',
      'step_count: no value (2 points, e.g. {"date":"2025-12-07 00:00:00 -0800"})',
    ]);
  });
});

describe('extractSamples: dates, span, dedup keys', () => {
  it('dates each sample by the local date written in its own timestamp', () => {
    const r = extract(
      block('step_count', 'count', [
        { date: '2023-03-25 00:00:00 +1100', qty: 1218 },
        { date: '2024-11-03 23:30:00 -0500', qty: 10 },
      ]),
    );
    expect(r.samples.map((s) => s.date)).toEqual(['2023-03-25', '2024-11-03']);
  });

  it('marks a block of one-per-day midnight points as daily and anything else as samples', () => {
    const daily = extract(
      block('step_count', 'count', [
        { date: '2025-08-12 00:00:00 +0100', qty: 8990, source: 'Watch|iPhone' },
        { date: '2025-08-12 00:00:00 +0100', qty: 8000, source: 'Oura' },
        { date: '2025-08-13 00:00:00 +0100', qty: 747 },
      ]),
    );
    expect(daily.samples.map((s) => s.span)).toEqual(['day', 'day', 'day']);
    const minutes = extract(
      block('step_count', 'count', [
        { date: '2025-08-12 00:00:00 +0100', qty: 5 },
        { date: '2025-08-12 00:01:00 +0100', qty: 6 },
      ]),
    );
    expect(minutes.samples.map((s) => s.span)).toEqual(['sample', 'sample']);
    // a (date, source) that repeats makes it samples: the same source, no source, or the first
    // of a date's several sources coming back
    const spans = (points: Record<string, unknown>[]) =>
      extract(block('step_count', 'count', points)).samples.map((s) => s.span);
    const at = '2025-08-12 00:00:00 +0100';
    expect(
      spans([
        { date: at, qty: 1, source: 'Oura' },
        { date: at, qty: 2, source: 'Oura' },
      ]),
    ).toEqual(['sample', 'sample']);
    expect(
      spans([
        { date: at, qty: 1 },
        { date: at, qty: 2, source: null },
      ]),
    ).toEqual(['sample', 'sample']);
    expect(
      spans([
        { date: at, qty: 1, source: 'Oura' },
        { date: at, qty: 2, source: 'Watch' },
        { date: at, qty: 3, source: 'Oura' },
      ]),
    ).toEqual(['sample', 'sample', 'sample']);
    expect(
      spans([
        { date: at, qty: 1, source: 'Oura' },
        { date: at, qty: 2, source: 'Watch' },
        { date: at, qty: 3, source: 'iPhone' },
      ]),
    ).toEqual(['day', 'day', 'day']);
  });

  it('gives equal content equal keys whatever the key order, and 12/24-hour spelling', () => {
    const a = one('step_count', 'count', {
      date: '2024-09-21 7:57:00\u202fpm +1000',
      qty: 5,
      source: 'iPhone',
    });
    const b = one('step_count', 'count', { source: 'iPhone', qty: 5, date: '2024-09-21 19:57:00 +1000' });
    expect(a.dedupKey).toBe(b.dedupKey);
    expect(a.dedupKey).toMatch(/^[0-9a-f]{32}$/);
    expect(a.at).toBe('2024-09-21 7:57:00\u202fpm +1000');
  });

  it('gives different content different keys (value, source, metric, time)', () => {
    const base = { date: D, qty: 5, source: 'iPhone' };
    const keys = new Set([
      one('step_count', 'count', base).dedupKey,
      one('step_count', 'count', { ...base, qty: 6 }).dedupKey,
      one('step_count', 'count', { ...base, source: 'Watch' }).dedupKey,
      one('step_count', 'count', { ...base, source: null }).dedupKey,
      one('flights_climbed', 'count', base).dedupKey,
      one('step_count', 'count', { ...base, date: '2025-12-07 00:00:01 -0800' }).dedupKey,
    ]);
    expect(keys.size).toBe(6);
  });

  it('keeps two distinct points with the same time and source (two foods logged in one minute) apart', () => {
    const r = extract(
      block('protein', 'g', [
        { date: '2023-01-20 10:18:00 +1100', qty: 10, source: null },
        { date: '2023-01-20 10:18:00 +1100', qty: 10, source: null },
      ]),
    );
    expect(r.samples.map((s) => s.values)).toEqual([{ g: 10 }, { g: 10, seq: 1 }]);
    expect(new Set(r.samples.map((s) => s.dedupKey)).size).toBe(2);
  });

  it('keys same-instant points by their content, whatever their order', () => {
    const points = [
      { date: '2023-01-20 10:18:00 +1100', qty: 10, source: 'Watch' },
      { date: '2023-01-20 10:18:00 +1100', qty: 12, source: 'Watch' },
      { date: '2023-01-20 10:18:00 +1100', qty: 10, source: 'Watch' },
      { date: '2023-01-20 10:18:00 +1100', qty: 11, source: 'Watch' },
    ];
    const keys = (data: typeof points) =>
      extract(block('protein', 'g', data))
        .samples.map((s) => s.dedupKey)
        .sort();
    const forward = keys(points);
    expect(new Set(forward).size).toBe(4);
    expect(keys([...points].reverse())).toEqual(forward);
    expect(keys([points[1], points[3], points[0], points[2]])).toEqual(forward);
    // a distinct value never takes a number: the same key alone as in a group
    expect(keys([points[3]])[0]).toBe(extract(block('protein', 'g', points)).samples[3].dedupKey);
  });
});

describe('extraction in pieces (OccurrenceCounter)', () => {
  it('numbers same-instant points across calls as one call over all the points does', () => {
    // 40 points, many sharing an instant and a source, some the same value too
    const points = Array.from({ length: 40 }, (_, i) => ({
      date: `2024-05-01 09:0${i % 4}:00 +0200`,
      qty: i % 3 === 0 ? 100 : i,
      source: i % 5 === 0 ? 'Watch' : 'Phone',
    }));
    const block = (data: typeof points) => ({ name: 'step_count', units: 'count', data });
    const keyAsSample = (s: Sample) => {
      const t = parseHaeTimestamp(s.at);
      if (!t) throw new Error(`unreadable ${s.at}`);
      return dedupKeyOf(s.metric, t, 'sample', s.values, s.source);
    };
    const whole = extractSamples({ metrics: [block(points)], workouts: [], warnings: [] }).samples;
    expect(whole.some((s) => (s.values.seq as number) >= 2)).toBe(true);
    const seqs = new OccurrenceCounter();
    const pieces = [points.slice(0, 7), points.slice(7, 8), points.slice(8, 25), points.slice(25)].flatMap(
      (part) => extractSamples({ metrics: [block(part)], workouts: [], warnings: [] }, seqs).samples,
    );
    expect(pieces.map(keyAsSample)).toEqual(whole.map(keyAsSample));
    expect(pieces.map((s) => s.values)).toEqual(whole.map((s) => s.values));
    // without the counter each call starts again at no seq: other keys
    const fresh = [points.slice(0, 20), points.slice(20)].flatMap(
      (part) => extractSamples({ metrics: [block(part)], workouts: [], warnings: [] }).samples,
    );
    expect(fresh.map(keyAsSample)).not.toEqual(whole.map(keyAsSample));
  });
});
