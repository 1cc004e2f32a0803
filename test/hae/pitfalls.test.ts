/**
 * Known Health Auto Export pitfalls (bug reports and incidents), one test per pitfall that applies to the
 * pure ingestion core (payload → samples → rows), in the list's order and under its headings.
 *
 * Not tested here, because they are not this layer's to fix:
 * - `Since Last Sync` missing samples written later with an older timestamp: the
 *   phone never sends them. What this layer owes is that a late one still lands on its own date
 *   (tested under "Duplicates").
 * - `Previous 7 Days` ending yesterday: an automation setting.
 * - Medications `form`/`dosage`: medications are not ingested (the payload warning says so).
 * - Payload size / timeouts: the webhook and the benchmark.
 */
import { describe, expect, it } from 'vitest';
import { aggregateRows } from '../../src/ingest/hae/format/aggregate.js';
import { isKnownMetric } from '../../src/ingest/hae/format/catalogue.js';
import { normalisePayload } from '../../src/ingest/hae/format/payload.js';
import type { Sample } from '../../src/ingest/hae/format/sample.js';
import { extractSamples } from '../../src/ingest/hae/format/samples.js';
import { ingestFile } from './hae-files.js';

type Point = Record<string, unknown>;
const samplesOf = (name: string, units: string, data: Point[]): Sample[] =>
  extractSamples(normalisePayload({ data: { metrics: [{ name, units, data }] } })).samples;

describe('Timestamps / time zones', () => {
  it('12-hour region timestamps with U+202F before am/pm are read, not rejected', () => {
    const s = samplesOf('step_count', 'count', [{ date: '2024-09-21 7:57:00\u202fam +1000', qty: 10 }]);
    expect(s).toHaveLength(1);
    expect(aggregateRows('step_count', s)).toEqual([{ date: '2024-09-21', count: 10 }]);
  });

  it('sexual_activity stamped at local midnight, several a day, is neither merged nor dropped', () => {
    const s = samplesOf('sexual_activity', '', [
      { date: '2024-09-21 00:00:00 +1000', Unspecified: 1 },
      { date: '2024-09-21 00:00:00 +1000', Unspecified: 1 },
    ]);
    expect(new Set(s.map((x) => x.dedupKey)).size).toBe(2);
    expect(aggregateRows('sexual_activity', s)).toEqual([{ date: '2024-09-21', logged: true }]);
  });

  it('local-midnight buckets keep their date across a DST offset change and at +1100', () => {
    const s = samplesOf('resting_heart_rate', 'count/min', [
      { date: '2024-11-03 00:00:00 -0400', qty: 61 },
      { date: '2024-11-04 00:00:00 -0500', qty: 60 },
      { date: '2023-03-25 00:00:00 +1100', qty: 55 },
    ]);
    expect(aggregateRows('resting_heart_rate', s).map((r) => r.date)).toEqual([
      '2023-03-25',
      '2024-11-03',
      '2024-11-04',
    ]);
  });

  it('zone-less times are not shifted by the server time zone (no double import)', () => {
    const saved = process.env.TZ;
    try {
      process.env.TZ = 'Pacific/Auckland';
      const a = samplesOf('step_count', 'count', [{ date: '2024-09-21 23:30:00', qty: 5 }]);
      process.env.TZ = 'America/Los_Angeles';
      const b = samplesOf('step_count', 'count', [{ date: '2024-09-21 23:30:00', qty: 5 }]);
      expect(a[0].date).toBe('2024-09-21');
      expect(a[0].dedupKey).toBe(b[0].dedupKey);
    } finally {
      process.env.TZ = saved;
    }
  });
});

describe('Duplicates / re-sends / idempotency', () => {
  it('an overlapping re-send adds nothing; a partial bucket is replaced by its complete version (230.94 vs 413)', () => {
    const day1 = samplesOf('step_count', 'count', [
      { date: '2026-09-24 00:00:00 +0200', qty: 9000, source: 'iPhone' },
      { date: '2026-09-25 00:00:00 +0200', qty: 230.94, source: 'iPhone' },
    ]);
    const day2 = samplesOf('step_count', 'count', [
      { date: '2026-09-24 00:00:00 +0200', qty: 9000, source: 'iPhone' },
      { date: '2026-09-25 00:00:00 +0200', qty: 413, source: 'iPhone' },
    ]);
    expect(day2[0].dedupKey).toBe(day1[0].dedupKey);
    expect(aggregateRows('step_count', [...day1, ...day2])).toEqual([
      { date: '2026-09-24', count: 9000 },
      { date: '2026-09-25', count: 413 },
    ]);
  });

  it('a sample written later with an older timestamp lands on its own date (Since Last Sync)', () => {
    const later = samplesOf('resting_heart_rate', 'count/min', [
      { date: '2026-09-20 00:00:00 +0200', qty: 52 },
    ]);
    const rows = aggregateRows('resting_heart_rate', [
      ...samplesOf('resting_heart_rate', 'count/min', [{ date: '2026-09-21 00:00:00 +0200', qty: 50 }]),
      ...later,
    ]);
    expect(rows).toEqual([
      { date: '2026-09-20', bpm: 52 },
      { date: '2026-09-21', bpm: 50 },
    ]);
  });

  it('the same device data arriving twice under the same source name is not summed (sleep 17–22 h)', () => {
    const segs = [
      {
        startDate: '2026-09-19 23:00:00 +0200',
        endDate: '2026-09-20 03:00:00 +0200',
        value: 'Core',
        qty: 4,
        source: 'Watch',
      },
      {
        startDate: '2026-09-20 03:00:00 +0200',
        endDate: '2026-09-20 04:00:00 +0200',
        value: 'Deep',
        qty: 1,
        source: 'Watch',
      },
      {
        startDate: '2026-09-20 04:00:00 +0200',
        endDate: '2026-09-20 06:30:00 +0200',
        value: 'REM',
        qty: 2.5,
        source: 'Watch',
      },
    ];
    // the second copy differs in float noise only, so its dedup keys differ; the union of intervals still counts once
    const again = segs.map((g) => ({ ...g, qty: g.qty + 1e-9 }));
    const s = [...samplesOf('sleep_analysis', 'hr', segs), ...samplesOf('sleep_analysis', 'hr', again)];
    expect(aggregateRows('sleep_analysis', s)).toMatchObject([{ date: '2026-09-20', hours: 7.5 }]);
  });
});

describe('Multiple sources / aggregation', () => {
  it('multi-device days are not double counted; pipe-joined sources in random order are one set', () => {
    const s = samplesOf('step_count', 'count', [
      { date: '2025-08-12 00:00:00 +0100', qty: 8990, source: 'User’s Apple Watch|iPhone|Oura' },
      { date: '2025-08-12 00:00:00 +0100', qty: 6000, source: 'Oura' },
      { date: '2025-08-12 00:00:00 +0100', qty: 8500, source: 'iPhone|User’s Apple\u00a0Watch' },
    ]);
    expect(aggregateRows('step_count', s)).toEqual([{ date: '2025-08-12', count: 8990 }]);
  });

  it('aggregated sleep of 16.5 h / in bed 19.5 h from overlapping sources is brought back into its window', () => {
    const row = aggregateRows(
      'sleep_analysis',
      samplesOf('sleep_analysis', 'hr', [
        {
          date: '2026-01-11 00:00:00 -0800',
          source: 'Eight Sleep|Sam’s Apple\u00a0Watch',
          totalSleep: 16.5,
          asleep: 0,
          core: 10,
          deep: 2.5,
          rem: 4,
          awake: 3,
          inBed: 19.5,
          sleepStart: '2026-01-10 22:00:00 -0800',
          sleepEnd: '2026-01-11 07:00:00 -0800',
          inBedStart: '2026-01-10 21:45:00 -0800',
          inBedEnd: '2026-01-11 07:15:00 -0800',
        },
      ]),
    )[0];
    // the sleep window is 9 h and the in-bed window 9.5 h: neither total may exceed its window
    expect(row).toMatchObject({ date: '2026-01-11', hours: 7.62, inBed: 9.5 });
    expect(row.hours as number).toBeLessThanOrEqual(9);
    expect(row.inBed as number).toBeLessThanOrEqual(9.5);
  });

  it('a daily-row source next to an hourly-block source does not double the total (32,361 vs 16,652)', () => {
    const daily = samplesOf('step_count', 'count', [
      { date: '2026-09-20 00:00:00 +0200', qty: 16652, source: 'iPhone' },
    ]);
    const hourly = samplesOf(
      'step_count',
      'count',
      Array.from({ length: 12 }, (_, h) => ({
        date: `2026-09-20 ${String(h + 8).padStart(2, '0')}:00:00 +0200`,
        qty: 1309,
        source: 'Connect',
      })),
    );
    expect(aggregateRows('step_count', [...daily, ...hourly])).toEqual([
      { date: '2026-09-20', count: 16652 },
    ]);
  });

  it('daily sums and minute samples under the same name are never added together (Summarize ON vs OFF)', () => {
    const daily = samplesOf('active_energy', 'kcal', [{ date: '2023-01-20 00:00:00 +1100', qty: 800 }]);
    // the minute samples add up to 60 kcal; the day's own sum is kept, not 860
    const minutes = ingestFile('generated-minute-level.json').samples;
    expect(aggregateRows('active_energy', [...daily, ...minutes])).toEqual([
      { date: '2023-01-20', kcal: 800 },
    ]);
  });
});

describe('Sleep', () => {
  const night = { asleep: 7, sleepStart: '2024-03-01 23:00:00 +0000', sleepEnd: '2024-03-02 06:30:00 +0000' };

  it('rows without inBedStart/inBedEnd (app 8.2.12) are read', () => {
    expect(aggregateRows('sleep_analysis', samplesOf('sleep_analysis', 'hr', [night]))).toMatchObject([
      { date: '2024-03-02', hours: 7 },
    ]);
  });

  it('implausible In Bed in the hundreds of millions is not reported', () => {
    // no inBedStart/inBedEnd: a time in bed over 24 h is left out (the sleep window is not its own)
    const rows = aggregateRows(
      'sleep_analysis',
      samplesOf('sleep_analysis', 'hr', [{ ...night, inBed: 312_000_000, core: 0, deep: 0, rem: 0 }]),
    );
    expect(rows).toEqual([{ date: '2024-03-02', hours: 7, asleep: 7, bedTime: '23:00', wakeTime: '06:30' }]);
  });

  it('stage fields all 0 → asleep; asleep 0 with stages → stages', () => {
    const a = aggregateRows(
      'sleep_analysis',
      samplesOf('sleep_analysis', 'hr', [{ ...night, core: 0, deep: 0, rem: 0 }]),
    );
    const b = aggregateRows(
      'sleep_analysis',
      samplesOf('sleep_analysis', 'hr', [{ ...night, asleep: 0, core: 4, deep: 1, rem: 1.5 }]),
    );
    expect(a[0].hours).toBe(7);
    expect(b[0].hours).toBe(6.5);
  });

  it('a night with its stage segments dropped (aggregateSleep) shows no hours rather than 0', () => {
    const rows = aggregateRows(
      'sleep_analysis',
      samplesOf('sleep_analysis', 'hr', [{ ...night, asleep: 0, inBed: 7.5 }]),
    );
    expect(rows[0]).not.toHaveProperty('hours');
    expect(rows[0].inBed).toBe(7.5);
  });

  it('nights span midnight and the meaning of `date` changed: the wake day decides', () => {
    const rows = aggregateRows(
      'sleep_analysis',
      samplesOf('sleep_analysis', 'hr', [
        { ...night, date: '2024-03-01 23:05:00 +0000' }, // 2023 style: near sleep start
        {
          ...night,
          asleep: 6,
          sleepStart: '2024-03-02 23:00:00 +0000',
          sleepEnd: '2024-03-03 05:00:00 +0000',
          date: '2024-03-03 00:00:00 +0000',
        }, // 2026 style
      ]),
    );
    expect(rows.map((r) => [r.date, r.hours])).toEqual([
      ['2024-03-02', 7],
      ['2024-03-03', 6],
    ]);
  });
});

describe('Units', () => {
  it('converts per metric inside one payload: kJ next to kcal, lb, mi, fl_oz_us, degF; mg/dL and mmol/L kept apart', () => {
    const r = extractSamples(
      normalisePayload({
        data: {
          metrics: [
            {
              name: 'basal_energy_burned',
              units: 'kJ',
              data: [{ date: '2023-01-20 00:00:00 +1100', qty: 8368 }],
            },
            { name: 'active_energy', units: 'kcal', data: [{ date: '2023-01-20 00:00:00 +1100', qty: 500 }] },
            {
              name: 'weight_body_mass',
              units: 'lb',
              data: [{ date: '2023-01-20 00:00:00 +1100', qty: 176 }],
            },
            {
              name: 'walking_running_distance',
              units: 'mi',
              data: [{ date: '2023-01-20 00:00:00 +1100', qty: 5 }],
            },
            {
              name: 'dietary_water',
              units: 'fl_oz_us',
              data: [{ date: '2023-01-20 00:00:00 +1100', qty: 64 }],
            },
            {
              name: 'apple_sleeping_wrist_temperature',
              units: 'degF',
              data: [{ date: '2023-01-20 00:00:00 +1100', qty: 97.7 }],
            },
            {
              name: 'blood_glucose',
              units: 'mmol/L',
              data: [{ date: '2023-01-20 00:00:00 +1100', qty: 5.5 }],
            },
          ],
        },
      }),
    ).samples;
    const row = (m: string) => aggregateRows(m, r)[0];
    expect(row('basal_energy_burned')).toEqual({ date: '2023-01-20', kcal: 2000 }); // 8368 / 4.184
    expect(row('active_energy')).toEqual({ date: '2023-01-20', kcal: 500 });
    expect(row('weight_body_mass')).toEqual({ date: '2023-01-20', kg: 79.83 }); // 176 lb is not "176 kg"
    expect(row('walking_running_distance')).toEqual({ date: '2023-01-20', km: 8.05 });
    expect(row('dietary_water')).toEqual({ date: '2023-01-20', ml: 1893 });
    expect(row('apple_sleeping_wrist_temperature')).toEqual({ date: '2023-01-20', degC: 36.5 });
    expect(row('blood_glucose')).toEqual({ date: '2023-01-20', mmol: 5.5 });
  });

  it('float noise from the app’s own conversion never shows (188.70000571768875 lb)', () => {
    const s = samplesOf('weight_body_mass', 'lb', [
      { date: '2023-06-17 00:00:00 -0400', qty: 188.70000571768875 },
    ]);
    expect(aggregateRows('weight_body_mass', s)).toEqual([{ date: '2023-06-17', kg: 85.59 }]);
  });

  it('count/min as well as bpm, kcal/hr·kg as well as MET', () => {
    expect(
      samplesOf('heart_rate', 'count/min', [
        { date: '2025-08-12 00:00:00 +0100', Min: 59, Avg: 90, Max: 180 },
      ]),
    ).toHaveLength(1);
    expect(
      samplesOf('heart_rate', 'bpm', [{ date: '2025-08-12 00:00:00 +0100', Min: 59, Avg: 90, Max: 180 }]),
    ).toHaveLength(1);
    expect(
      samplesOf('physical_effort', 'kcal/hr·kg', [{ date: '2025-08-12 00:00:00 +0100', qty: 3 }]),
    ).toHaveLength(1);
    expect(samplesOf('physical_effort', 'MET', [{ date: '2025-08-12 00:00:00 +0100', qty: 3 }])).toHaveLength(
      1,
    );
  });

  it('SpO2 as a fraction next to percent does not give 0.94 next to 94.5', () => {
    const s = samplesOf('blood_oxygen_saturation', '%', [
      { date: '2026-03-25 00:00:00 +0000', qty: 0.94 },
      { date: '2026-03-26 00:00:00 +0000', qty: 94.5 },
    ]);
    expect(aggregateRows('blood_oxygen_saturation', s)).toEqual([
      { date: '2026-03-25', pct: 94 },
      { date: '2026-03-26', pct: 94.5 },
    ]);
  });
});

describe('Names / schema drift', () => {
  it('renamed metrics feed one series (dietary_caffeine → caffeine); enum spellings are known; unknown names are kept', () => {
    const s = [
      ...samplesOf('dietary_caffeine', 'mg', [{ date: '2025-04-26 00:00:00 -0400', qty: 100 }]),
      ...samplesOf('caffeine', 'mg', [{ date: '2026-03-07 00:00:00 -0800', qty: 175.2 }]),
    ];
    expect(aggregateRows('caffeine', s)).toEqual([
      { date: '2025-04-26', mg: 100 },
      { date: '2026-03-07', mg: 175.2 },
    ]);
    for (const n of [
      'walking_heart_rate',
      'headphone_audio',
      'environmental_audio',
      'downhill_snow_sports',
      'forced_expiratory_volume',
      'number_of_alcoholic_beverages',
      'number_of_time_fallen',
      'monosaturated_fat',
    ]) {
      expect(isKnownMetric(n), n).toBe(true);
    }
    const unknown = extractSamples(
      normalisePayload({
        metrics: [
          { name: 'brand_new_metric', units: 'x', data: [{ date: '2026-03-07 00:00:00 -0800', qty: 1 }] },
        ],
      }),
    );
    expect(unknown.unknownMetrics).toEqual(['brand_new_metric']);
    expect(unknown.samples).toHaveLength(1);
  });

  it('localised workout names are kept as sent', () => {
    const s = extractSamples(
      normalisePayload({
        workouts: [{ id: 'R', name: 'Radfahren', start: '2026-09-20 10:00:00 +0200', duration: 1800 }],
      }),
    ).samples;
    expect(aggregateRows('workouts', s)).toEqual([
      { date: '2026-09-20', trained: true, type: 'Radfahren', durationMin: 30, startTime: '10:00' },
    ]);
  });

  it('source null or missing, metadata {} or [], empty arrays, no data wrapper', () => {
    const body = {
      metrics: [
        {
          name: 'step_count',
          units: 'count',
          data: [
            { date: '2026-03-07 00:00:00 -0800', qty: 1, source: null },
            { date: '2026-03-08 00:00:00 -0800', qty: 2 },
          ],
        },
        { name: 'blood_pressure', units: 'mmHg', data: [] },
      ],
      workouts: [
        { id: 'A', name: 'Walk', start: '2026-03-07 10:00:00 -0800', duration: 600, metadata: {} },
        { id: 'B', name: 'Walk', start: '2026-03-08 10:00:00 -0800', duration: 600, metadata: [] },
      ],
      symptoms: [],
    };
    const r = extractSamples(normalisePayload(body));
    expect(r.warnings).toEqual([]);
    expect(r.samples.map((s) => s.source)).toEqual([null, null, null, null]);
    expect(aggregateRows('step_count', r.samples)).toHaveLength(2);
    expect(aggregateRows('workouts', r.samples)).toHaveLength(2);
  });
});
