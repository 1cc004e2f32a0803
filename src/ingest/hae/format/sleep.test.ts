import { describe, expect, it } from 'vitest';
import { aggregateRows } from './aggregate.js';
import { normalisePayload } from './payload.js';
import type { Sample } from './sample.js';
import { extractSamples } from './samples.js';

type Point = Record<string, unknown>;
const sleep = (data: Point[], units = 'hr') => {
  const r = extractSamples(
    normalisePayload({ data: { metrics: [{ name: 'sleep_analysis', units, data }] } }),
  );
  return r;
};
const samples = (data: Point[]): Sample[] => {
  const r = sleep(data);
  // a night adjusted to its window is named in a warning (test/ingest/sleep-night-adjusted-warning)
  expect(
    r.warnings.filter((w) => !/^sleep_analysis: (sleep|time in bed) (longer than its night|over )/.test(w)),
  ).toEqual([]);
  return r.samples;
};
const rows = (data: Point[]) => aggregateRows('sleep_analysis', samples(data));

describe('sleep: the four generations of the aggregated row (docs/HEALTH-AUTO-EXPORT.md)', () => {
  it('Jan 2023: asleep only, source from sleepSource, inBed capped at its own window', () => {
    // real row of apple-health-data_…2023-01-16: inBed 14.81 h in a 23:40:22 → 07:19:22 (7.65 h) window
    expect(
      rows([
        {
          sleepStart: '2023-01-15 23:46:00 +1100',
          sleepSource: 'AutoSleep',
          inBedEnd: '2023-01-16 07:19:22 +1100',
          date: '2023-01-16 06:37:52 +1100',
          inBedStart: '2023-01-15 23:40:22 +1100',
          asleep: 7.216666666666667,
          inBedSource: 'User’s Apple Watch',
          inBed: 14.808333333333334,
          sleepEnd: '2023-01-16 07:18:00 +1100',
        },
      ]),
    ).toEqual([
      {
        date: '2023-01-16',
        hours: 7.22,
        asleep: 7.22,
        inBed: 7.65,
        bedTime: '23:46',
        wakeTime: '07:18',
        source: 'AutoSleep',
      },
    ]);
  });

  it('Mar 2023: stages win over asleep; `date` near sleep start does not decide the day', () => {
    // real row: date 2022-12-28 23:09:41, night ends 2022-12-29 05:58:04 → 29 Dec;
    // hours = core 3.8583 + deep 1.025 + rem 1.6583 = 6.5417 → 6.54 (asleep says 6.68)
    expect(
      rows([
        {
          deep: 1.0250000000000001,
          rem: 1.6583333333333334,
          sleepStart: '2022-12-28 23:09:41 +1100',
          asleep: 6.683333333333334,
          inBed: 6.806388888888889,
          awake: 0.09166666666666666,
          source: 'User’s Apple Watch|iPhone|AutoSleep',
          date: '2022-12-28 23:09:41 +1100',
          sleepEnd: '2022-12-29 05:58:04 +1100',
          core: 3.8583333333333334,
        },
      ]),
    ).toEqual([
      {
        date: '2022-12-29',
        hours: 6.54,
        asleep: 6.68,
        inBed: 6.81,
        deep: 1.03,
        rem: 1.66,
        core: 3.86,
        awake: 0.09,
        bedTime: '23:09',
        wakeTime: '05:58',
        source: 'User’s Apple Watch|iPhone|AutoSleep',
      },
    ]);
  });

  it('Apr 2025: asleep 0 with stages filled → stages; the 0 is left out of the row', () => {
    const [row] = rows([
      {
        source: 'User’s Apple Watch',
        asleep: 0,
        inBedEnd: '2024-05-10 08:03:47 -0400',
        awake: 0.34166666666666673,
        rem: 1.8166666666666669,
        sleepStart: '2024-05-09 23:23:47 -0400',
        sleepEnd: '2024-05-10 08:03:47 -0400',
        inBed: 8.316666666666666,
        inBedStart: '2024-05-09 23:23:47 -0400',
        deep: 1.2666666666666666,
        core: 5.233333333333334,
        date: '2024-05-10 07:59:47 -0400',
      },
    ]);
    // 5.2333 + 1.2667 + 1.8167 = 8.3167 → 8.32
    expect(row).toEqual({
      date: '2024-05-10',
      hours: 8.32,
      inBed: 8.32,
      deep: 1.27,
      rem: 1.82,
      core: 5.23,
      awake: 0.34,
      bedTime: '23:23',
      wakeTime: '08:03',
      source: 'User’s Apple Watch',
    });
  });

  it('Mar 2026: totalSleep wins; `date` at local midnight of the wake day', () => {
    const [row] = rows([
      {
        inBedStart: '2026-03-03 21:00:00 -0800',
        core: 5.133333333333334,
        date: '2026-03-04 00:00:00 -0800',
        deep: 1.3,
        inBed: 10.316666666666666,
        totalSleep: 8.925,
        source: 'Eight Sleep',
        sleepStart: '2026-03-03 21:00:00 -0800',
        rem: 2.4916666666666667,
        inBedEnd: '2026-03-04 07:33:00 -0800',
        awake: 1.625,
        asleep: 0,
        sleepEnd: '2026-03-04 07:33:00 -0800',
      },
    ]);
    expect(row).toMatchObject({
      date: '2026-03-04',
      hours: 8.93,
      inBed: 10.32,
      awake: 1.63,
      bedTime: '21:00',
      wakeTime: '07:33',
    });
  });

  it('stage fields all 0 → asleep', () => {
    const [row] = rows([
      {
        asleep: 6.733333333333333,
        awake: 0,
        sleepStart: '2023-01-04 20:16:10 +1100',
        deep: 0,
        core: 0,
        inBed: 10.162222222222223,
        source: 'AutoSleep|iPhone',
        rem: 0,
        sleepEnd: '2023-01-05 06:29:00 +1100',
      },
    ]);
    expect(row).toEqual({
      date: '2023-01-05',
      hours: 6.73,
      asleep: 6.73,
      inBed: 10.16,
      bedTime: '20:16',
      wakeTime: '06:29',
      source: 'AutoSleep|iPhone',
    });
  });

  it('a night with no sleep recorded (Jan 2023 shape, asleep 0) has no hours rather than 0', () => {
    expect(
      rows([
        {
          inBedEnd: '2023-01-29 05:37:26 +1100',
          inBed: 13.09166666666667,
          sleepStart: '2023-01-28 22:59:56 +1100',
          asleep: 0,
          sleepSource: 'User’s Apple Watch',
          sleepEnd: '2023-01-29 05:37:26 +1100',
          inBedStart: '2023-01-28 22:59:56 +1100',
        },
      ]),
    ).toEqual([
      { date: '2023-01-29', inBed: 6.63, bedTime: '22:59', wakeTime: '05:37', source: 'User’s Apple Watch' },
    ]);
  });

  it('missing inBedStart/inBedEnd (app 8.2.12) does not fail', () => {
    expect(
      rows([
        {
          asleep: 7,
          inBed: 7.5,
          sleepStart: '2024-03-01 23:00:00 +0000',
          sleepEnd: '2024-03-02 06:30:00 +0000',
        },
      ]),
    ).toEqual([{ date: '2024-03-02', hours: 7, asleep: 7, inBed: 7.5, bedTime: '23:00', wakeTime: '06:30' }]);
  });

  it('with no end time at all, the documented date-only `date` dates the night', () => {
    expect(rows([{ date: '2024-03-02', asleep: 7 }])).toEqual([{ date: '2024-03-02', hours: 7, asleep: 7 }]);
  });

  it('converts minutes when the block says so', () => {
    const r = sleep(
      [{ asleep: 420, sleepStart: '2024-03-01 23:00:00 +0000', sleepEnd: '2024-03-02 06:30:00 +0000' }],
      'min',
    );
    expect(aggregateRows('sleep_analysis', r.samples)).toMatchObject([{ date: '2024-03-02', hours: 7 }]);
  });
});

describe('sleep: a night sent as a plain point', () => {
  it('{date, qty}: the qty is the hours asleep; a row with no duration at all is skipped and said', () => {
    const r = sleep([
      { date: '2026-10-21 23:30:00 -0800', qty: 6.8, source: 'Watch' },
      { date: '2026-10-23', qty: 6.5 },
      { date: '2026-10-24 07:00:00 -0800', source: 'Watch' },
    ]);
    expect(r.warnings).toEqual([
      'sleep_analysis: no sleep duration (1 point, e.g. "2026-10-24 07:00:00 -0800")',
    ]);
    expect(aggregateRows('sleep_analysis', r.samples)).toEqual([
      { date: '2026-10-21', hours: 6.8, asleep: 6.8, wakeTime: '23:30', source: 'Watch' },
      { date: '2026-10-23', hours: 6.5, asleep: 6.5 },
    ]);
  });
});

describe('sleep: overlapping sources inside one row', () => {
  it('scales a 27 h night back into its 12.4 h window (life-platform 2025-12-07, Eight Sleep)', () => {
    const [row] = rows([
      {
        date: '2025-12-07 00:00:00 -0800',
        source: 'Eight Sleep',
        inBed: 34.050000000000004,
        sleepStart: '2025-12-06 21:52:00 -0800',
        inBedStart: '2025-12-06 21:52:00 -0800',
        awake: 10.2,
        asleep: 0,
        deep: 4.174999999999999,
        totalSleep: 27.000000000000004,
        sleepEnd: '2025-12-07 10:16:00 -0800',
        inBedEnd: '2025-12-07 10:16:00 -0800',
        core: 15.550000000000006,
        rem: 7.274999999999999,
      },
    ]);
    // window 21:52 → 10:16 = 12.4 h; factor 12.4 / (27 + 10.2) = 1/3:
    // hours 9, core 15.55/3 = 5.18, deep 4.175/3 = 1.39, rem 7.275/3 = 2.425 → 2.43, awake 3.4; inBed capped at 12.4
    expect(row).toEqual({
      date: '2025-12-07',
      hours: 9,
      inBed: 12.4,
      deep: 1.39,
      rem: 2.43,
      core: 5.18,
      awake: 3.4,
      bedTime: '21:52',
      wakeTime: '10:16',
      source: 'Eight Sleep',
    });
    expect(row.hours as number).toBeLessThanOrEqual(12.4);
  });

  it('records the factor in the sample', () => {
    const [s] = samples([
      {
        asleep: 10,
        awake: 0,
        sleepStart: '2024-03-02 01:00:00 +0000',
        sleepEnd: '2024-03-02 06:00:00 +0000',
      },
    ]);
    expect(s.values.overlapScale).toBe(0.5);
    expect(s.values.hours).toBe(5);
  });

  it('uses real elapsed time across a DST change, so a consistent night is not scaled (hevy-metal 2024-11-03)', () => {
    // 23:48:54 -0400 → 07:59:24 -0500 is 9.175 h of real time (8.175 h of wall clock);
    // hours 6.55 + 0.4583 + 1.9167 = 8.925 → 8.93 fits, so nothing is scaled
    const [row] = rows([
      {
        awake: 0.175,
        sleepEnd: '2024-11-03 07:59:24 -0500',
        deep: 0.4583333333333333,
        sleepStart: '2024-11-02 23:48:54 -0400',
        inBedStart: '2024-11-02 23:48:54 -0400',
        rem: 1.9166666666666663,
        asleep: 0,
        source: 'User’s Apple Watch',
        inBed: 8.925,
        core: 6.550000000000001,
        inBedEnd: '2024-11-03 07:59:24 -0500',
        date: '2024-11-03 06:53:24 -0500',
      },
    ]);
    expect(row).toMatchObject({
      date: '2024-11-03',
      hours: 8.93,
      inBed: 8.93,
      awake: 0.18,
      bedTime: '23:48',
      wakeTime: '07:59',
    });
  });

  it('drops an implausible night over 24 h that has no window, and an implausible inBed', () => {
    const r = sleep([{ date: '2024-03-02', asleep: 30 }]);
    expect(r.samples).toEqual([]);
    expect(r.warnings[0]).toMatch(/implausible sleep over 24 h/);
    expect(rows([{ date: '2024-03-03', asleep: 7, inBed: 300_000_000 }])).toEqual([
      { date: '2024-03-03', hours: 7, asleep: 7 },
    ]);
    expect(
      rows([
        {
          asleep: 0,
          inBed: 300_000_000,
          inBedStart: '2024-03-03 23:00:00 +0000',
          inBedEnd: '2024-03-04 07:00:00 +0000',
          sleepEnd: '2024-03-04 07:00:00 +0000',
        },
      ]),
    ).toEqual([{ date: '2024-03-04', inBed: 8, bedTime: '23:00', wakeTime: '07:00' }]);
  });

  it('skips a row without any readable end and counts it', () => {
    const r = sleep([{ asleep: 7, sleepEnd: 'later' }]);
    expect(r.samples).toEqual([]);
    expect(r.skipped).toBe(1);
  });
});

describe('sleep: nights across rows and payloads', () => {
  const night = (start: string, end: string, asleep: number, source?: string) => ({
    sleepStart: start,
    sleepEnd: end,
    asleep,
    ...(source ? { source } : {}),
  });

  it('sums a night and the naps of the same wake day; times from the longest (hevy-metal 2025-02-10 naps)', () => {
    const r = rows([
      night('2025-02-09 23:00:00 -0500', '2025-02-10 06:30:00 -0500', 7, 'Watch'),
      night('2025-02-10 15:59:24 -0500', '2025-02-10 17:28:24 -0500', 0.9916666666666667, 'Watch'),
      night('2025-02-10 17:28:24 -0500', '2025-02-10 18:26:24 -0500', 0.10833333333333334, 'Watch'),
    ]);
    // 7 + 0.9917 + 0.1083 = 8.1
    expect(r).toEqual([
      { date: '2025-02-10', hours: 8.1, asleep: 8.1, bedTime: '23:00', wakeTime: '06:30', source: 'Watch' },
    ]);
  });

  it('a partial night re-sent complete counts once: the later end wins', () => {
    const partial = samples([night('2025-02-09 23:00:00 -0500', '2025-02-10 03:00:00 -0500', 4, 'Watch')]);
    const complete = samples([night('2025-02-09 23:00:00 -0500', '2025-02-10 06:30:00 -0500', 7.2, 'Watch')]);
    const expected = [
      { date: '2025-02-10', hours: 7.2, asleep: 7.2, bedTime: '23:00', wakeTime: '06:30', source: 'Watch' },
    ];
    expect(aggregateRows('sleep_analysis', [...partial, ...complete])).toEqual(expected);
    expect(aggregateRows('sleep_analysis', [...complete, ...partial])).toEqual(expected);
  });

  it('a partial night that ended before midnight does not leave a row on the previous day', () => {
    const partial = samples([night('2025-02-09 22:00:00 -0500', '2025-02-09 23:30:00 -0500', 1.4, 'Watch')]);
    const complete = samples([night('2025-02-09 22:00:00 -0500', '2025-02-10 06:00:00 -0500', 7.5, 'Watch')]);
    expect(aggregateRows('sleep_analysis', [...partial, ...complete]).map((r) => r.date)).toEqual([
      '2025-02-10',
    ]);
  });

  it('one night from two devices: the combined row wins over its parts, else the longer one', () => {
    const a = night('2025-02-09 23:00:00 -0500', '2025-02-10 06:30:00 -0500', 7, 'Watch');
    const b = night('2025-02-09 23:10:00 -0500', '2025-02-10 06:40:00 -0500', 6.5, 'Oura');
    const ab = night('2025-02-09 23:00:00 -0500', '2025-02-10 06:40:00 -0500', 6.9, 'Oura|Watch');
    expect(rows([a, b])[0]).toMatchObject({ hours: 7, source: 'Watch' });
    expect(rows([a, b, ab])[0]).toMatchObject({ hours: 6.9, source: 'Oura|Watch' });
  });

  it('the same night twice from the same device (FreeReps: stages stored twice) counts once', () => {
    const row = night('2025-02-09 23:00:00 -0500', '2025-02-10 06:30:00 -0500', 7, 'Watch');
    const s = samples([row]);
    expect(aggregateRows('sleep_analysis', [...s, ...samples([row])])).toEqual(
      aggregateRows('sleep_analysis', s),
    );
  });
});

describe('sleep: unaggregated segments (startDate / endDate / value)', () => {
  const seg = (value: string, start: string, end: string, source = 'Watch', qty?: number) => ({
    startDate: `2025-02-${start} -0500`,
    endDate: `2025-02-${end} -0500`,
    value,
    source,
    ...(qty !== undefined ? { qty } : {}),
  });

  it('joins the stages of one night, dated by the end, each stage once even if sent twice', () => {
    const data = [
      seg('In Bed', '09 22:50:00', '10 06:40:00'),
      seg('Core', '09 23:00:00', '10 01:00:00'),
      seg('Deep', '10 01:00:00', '10 02:00:00'),
      seg('Awake', '10 02:00:00', '10 02:15:00'),
      seg('REM', '10 02:15:00', '10 03:15:00'),
      seg('Core', '10 03:15:00', '10 06:30:00'),
      seg('Core', '10 03:15:00', '10 06:30:00'), // duplicate segment
    ];
    // core 2 h + 3.25 h = 5.25, deep 1, rem 1 → 7.25 h; awake 0.25; inBed 7.83
    expect(rows(data)).toEqual([
      {
        date: '2025-02-10',
        hours: 7.25,
        inBed: 7.83,
        deep: 1,
        rem: 1,
        core: 5.25,
        awake: 0.25,
        bedTime: '23:00',
        wakeTime: '06:30',
        source: 'Watch',
      },
    ]);
  });

  it('uses Asleep when a source has no stages, and splits sessions on gaps over an hour', () => {
    const data = [
      seg('Asleep', '09 23:00:00', '10 03:00:00', 'Phone'),
      seg('Asleep', '10 03:30:00', '10 06:00:00', 'Phone'),
      seg('Asleep', '10 14:00:00', '10 15:00:00', 'Phone'),
    ];
    // night 4 h + 2.5 h = 6.5, nap 1 h (a separate session, same wake day) → 7.5
    expect(rows(data)).toEqual([
      { date: '2025-02-10', hours: 7.5, asleep: 7.5, bedTime: '23:00', wakeTime: '06:00', source: 'Phone' },
    ]);
  });

  it('does not add a second device’s segments of the same night', () => {
    const data = [
      seg('Core', '09 23:00:00', '10 06:00:00', 'Watch'),
      seg('Asleep', '09 23:30:00', '10 06:15:00', 'Phone'),
    ];
    expect(rows(data)).toMatchObject([{ date: '2025-02-10', hours: 7, source: 'Watch' }]);
  });

  it('skips segments with an unknown stage or unreadable times', () => {
    const r = sleep([
      seg('Dreaming', '09 23:00:00', '10 06:00:00'),
      { startDate: 'x', endDate: 'y', value: 'Core' },
    ]);
    expect(r.samples).toEqual([]);
    expect(r.skipped).toBe(2);
  });
});
