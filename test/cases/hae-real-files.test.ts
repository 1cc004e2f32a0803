/**
 * Every real HAE payload of the cases folder (real-data/hae/) through normalise → extract → aggregate.
 * Expected values were computed by hand from the raw file: the comment above
 * each says which entries and which arithmetic. Conversions: 1 lb = 0.45359237 kg,
 * 1 kcal = 4.184 kJ, 1 mi = 1.609344 km, 1 US fl oz = 29.5735295625 ml. Rounding: the catalogue's
 * decimals per field (count 0, kcal 0, kg 2, minutes 1, bpm 1 (heart_rate min/max 0, workouts 0),
 * sleep hours 2, km 2, ml 0), half away from zero.
 */
import { describe, expect, it } from 'vitest';
import { aggregateRows } from '../../src/ingest/hae/format/aggregate.js';
import { payloadInvariantsSuite } from '../hae/payload-invariants.js';
import { HAE_FILES, ingestFile, readHae } from './hae-files.js';

/** "Apple Watch" as these files write it: with U+00A0 (no-break space), kept as sent. */
const W = 'User’s Apple\u00a0Watch';

const F = {
  mar2023: 'apple-health-data_HealthAutoExport-2022-12-25-2023-03-25.json',
  day2023: 'apple-health-data_HealthAutoExport-2023-01-16-2023-01-16.json',
  minutes: 'apple-health-data_HealthAutoExport-2023-01-20_minute-level.json',
  jan2023: 'apple-health-data_HealthAutoExport-2023-01-22-2023-01-29.json',
  hevy: 'hevy-metal_HealthAutoExport-2023-06-17-2025-04-26.json',
  life: 'life-platform_HealthAutoExport-2025-12-07-2026-03-07.json',
  sparkMetrics: 'spark_demofiles_metrics_2025-08-11_13.json',
  sparkWorkouts: 'spark_demofiles_workouts_2025-08-12_13.json',
};

payloadInvariantsSuite('real file', HAE_FILES, readHae);

describe(`hand-checked: ${F.mar2023} (Mar 2023 export, +1100, source null, kg, v1 workouts)`, () => {
  const { on, rows } = ingestFile(F.mar2023);

  it('steps: one daily point per date, rounded to whole steps', () => {
    // step_count "2022-12-25 00:00:00 +1100" qty 15291 → 15291
    expect(on('step_count', '2022-12-25')).toEqual({ date: '2022-12-25', count: 15291 });
    // "2023-01-22 00:00:00 +1100" qty 17028.01208452914 → 17028
    expect(on('step_count', '2023-01-22')).toEqual({ date: '2023-01-22', count: 17028 });
    // "2023-03-25 00:00:00 +1100" qty 1218: 24 March in UTC, but 25 March as written
    expect(on('step_count', '2023-03-25')).toEqual({ date: '2023-03-25', count: 1218 });
    expect(rows('step_count')).toHaveLength(91);
  });

  it('weight in kg, float noise rounded away', () => {
    // "2022-12-26 00:00:00 +1100" qty 69.2998422886 kg → 69.30 → 69.3
    expect(on('weight_body_mass', '2022-12-26')).toEqual({ date: '2022-12-26', kg: 69.3 });
    // "2023-03-24 …" qty 72.40000000000002 → 72.4
    expect(on('weight_body_mass', '2023-03-24')).toEqual({ date: '2023-03-24', kg: 72.4 });
    // "2023-03-25 …" qty 71.2
    expect(on('weight_body_mass', '2023-03-25')).toEqual({ date: '2023-03-25', kg: 71.2 });
    // 37 points on 37 distinct dates
    expect(rows('weight_body_mass')).toHaveLength(37);
  });

  it('heart rate (walking_heart_rate_average is this file’s heart metric)', () => {
    // qty 89.5 on 2022-12-25, 94 on 2023-02-08, 97 on 2023-03-24 (count/min)
    expect(on('walking_heart_rate_average', '2022-12-25')).toEqual({ date: '2022-12-25', bpm: 89.5 });
    expect(on('walking_heart_rate_average', '2023-02-08')).toEqual({ date: '2023-02-08', bpm: 94 });
    expect(on('walking_heart_rate_average', '2023-03-24')).toEqual({ date: '2023-03-24', bpm: 97 });
  });

  it('sleep: stages summed, night dated by sleepEnd', () => {
    // sleepStart 2022-12-24 22:41:08 → sleepEnd 2022-12-25 07:18:00; core 3.98333 + deep 0.81667 + rem 1.60833
    // = 6.40833 → 6.41 (asleep 6.53333 is kept apart); inBed 6.96742 (window 8.61 h, not capped) → 6.97
    expect(on('sleep_analysis', '2022-12-25')).toEqual({
      date: '2022-12-25',
      hours: 6.41,
      asleep: 6.53,
      inBed: 6.97,
      deep: 0.82,
      rem: 1.61,
      core: 3.98,
      awake: 0.13,
      bedTime: '22:41',
      wakeTime: '07:18',
      source: `AutoSleep|${W}|iPhone`,
    });
    // the row with `date` 2022-12-28 23:09:41 ends 2022-12-29 05:58:04 → 29 Dec;
    // 3.85833 + 1.025 + 1.65833 = 6.54167 → 6.54
    expect(on('sleep_analysis', '2022-12-29')).toMatchObject({
      hours: 6.54,
      bedTime: '23:09',
      wakeTime: '05:58',
    });
    // 28 Dec gets only the night ending 2022-12-28 07:03:42: 4.2 + 0.96667 + 1.725 = 6.89167 → 6.89
    expect(on('sleep_analysis', '2022-12-28')).toMatchObject({
      hours: 6.89,
      bedTime: '22:34',
      wakeTime: '07:03',
    });
    // night ending 2023-01-05 06:29:00 has core/deep/rem all 0 → asleep 6.73333 → 6.73
    expect(on('sleep_analysis', '2023-01-05')).toEqual({
      date: '2023-01-05',
      hours: 6.73,
      asleep: 6.73,
      inBed: 10.16,
      bedTime: '20:16',
      wakeTime: '06:29',
      source: 'AutoSleep|iPhone',
    });
    // 91 rows, 91 distinct sleepEnd dates
    expect(rows('sleep_analysis')).toHaveLength(91);
  });

  it('v1 workouts', () => {
    // Walking 08:55:40 → 09:41:32 = 45 min 52 s = 45.867 → 45.9 min; distance 3.66819 km → 3.67;
    // activeEnergy 174.953 kcal → 175; avgHeartRate 86.624 → 87; maxHeartRate 112; elevation ascent 0 → absent
    expect(on('workouts', '2023-03-18')).toEqual({
      date: '2023-03-18',
      trained: true,
      type: 'Walking',
      durationMin: 45.9,
      distanceKm: 3.67,
      calories: 175,
      avgHr: 87,
      maxHr: 112,
      startTime: '08:55',
    });
    // Strength 21:25:58 → 21:26:20 = 22 s = 0.367 → 0.4 min; activeEnergy 0.663 → 1; avg 53.48 → 53; max 54; distance 0 → absent
    expect(on('workouts', '2023-01-06')).toEqual({
      date: '2023-01-06',
      trained: true,
      type: 'Traditional Strength Training',
      durationMin: 0.4,
      calories: 1,
      avgHr: 53,
      maxHr: 54,
      startTime: '21:25',
    });
    // Strength 08:48:36 → 09:44:20 = 55 min 44 s = 55.733 → 55.7; activeEnergy 50.122 → 50; avg 83.89 → 84; max 96
    expect(on('workouts', '2022-12-27')).toEqual({
      date: '2022-12-27',
      trained: true,
      type: 'Traditional Strength Training',
      durationMin: 55.7,
      calories: 50,
      avgHr: 84,
      maxHr: 96,
      startTime: '08:48',
    });
    // 7 workouts on 7 dates
    expect(rows('workouts')).toHaveLength(7);
  });

  it('the only mindful session and an exercise day', () => {
    // mindful_minutes "2023-03-07 …" qty 10.761466666062672 → 10.8
    expect(rows('mindful_minutes')).toEqual([{ date: '2023-03-07', minutes: 10.8 }]);
    // apple_exercise_time 2022-12-25 qty 53
    expect(on('apple_exercise_time', '2022-12-25')).toEqual({ date: '2022-12-25', minutes: 53 });
  });

  it('lists blood_pressure and swimming_distance (empty data) as known metrics without rows', () => {
    const { extracted } = ingestFile(F.mar2023);
    expect(extracted.knownMetrics).toEqual(expect.arrayContaining(['blood_pressure', 'swimming_distance']));
    expect(rows('blood_pressure')).toEqual([]);
  });
});

describe(`hand-checked: ${F.day2023} (one day only: each family has a single date)`, () => {
  const { on, rows } = ingestFile(F.day2023);

  it('steps, weight, heart rate, sleep of 2023-01-16; no workouts ("workouts": [])', () => {
    // step_count qty 16676
    expect(rows('step_count')).toEqual([{ date: '2023-01-16', count: 16676 }]);
    // weight_body_mass qty 70.2 kg
    expect(rows('weight_body_mass')).toEqual([{ date: '2023-01-16', kg: 70.2 }]);
    // walking_heart_rate_average qty 84.5
    expect(rows('walking_heart_rate_average')).toEqual([{ date: '2023-01-16', bpm: 84.5 }]);
    // Jan 2023 sleep shape: asleep 7.21667 → 7.22; inBed 14.80833 in the 23:40:22 → 07:19:22 window (7.65 h) → 7.65;
    // source from sleepSource
    expect(rows('sleep_analysis')).toEqual([
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
    // active_energy 854.7099999999991 → 855
    expect(on('active_energy', '2023-01-16')).toEqual({ date: '2023-01-16', kcal: 855 });
    expect(rows('workouts')).toEqual([]);
  });
});

describe(`hand-checked: ${F.minutes} (minute/second samples of one day, kJ next to kcal)`, () => {
  const { rows } = ingestFile(F.minutes);

  it('heart rate over 636 samples with Min = Avg = Max', () => {
    // smallest Min 41, largest Max 116, mean of the 636 Avg values 71.5809 → 71.6
    // (sum of Avg / 636, computed from the file with a one-off script)
    expect(rows('heart_rate')).toEqual([{ date: '2023-01-20', min: 41, avg: 71.6, max: 116 }]);
  });

  it('energy: kcal summed as is, kJ converted before summing', () => {
    // active_energy (kcal): sum of 835 points = 801.266 → 801
    expect(rows('active_energy')).toEqual([{ date: '2023-01-20', kcal: 801 }]);
    // basal_energy_burned (kJ): sum of 1422 points = 7479.2958 kJ / 4.184 = 1787.59 → 1788 kcal
    expect(rows('basal_energy_burned')).toEqual([{ date: '2023-01-20', kcal: 1788 }]);
    // dietary_energy (kJ): 7 points, 9204.6114 kJ / 4.184 = 2199.95 → 2200 kcal
    expect(rows('dietary_energy')).toEqual([{ date: '2023-01-20', kcal: 2200 }]);
  });

  it('sums fractional minutes without float noise and never per-sample rounding', () => {
    // apple_stand_time: 340 points like 0.6000000000000001, 0.5999999999999999 sum to 215.99999999999994 → 216
    expect(rows('apple_stand_time')).toEqual([{ date: '2023-01-20', minutes: 216 }]);
    // apple_exercise_time: 84 points of 1 min
    expect(rows('apple_exercise_time')).toEqual([{ date: '2023-01-20', minutes: 84 }]);
    // flights_climbed: 13 fractional points (0.41, 2.59, ...) = 11.28 → 11
    expect(rows('flights_climbed')).toEqual([{ date: '2023-01-20', count: 11 }]);
    // dietary_water (mL): 0.492 + 546.5616 + 6.495 + 273.2808 = 826.83 → 827
    expect(rows('dietary_water')).toEqual([{ date: '2023-01-20', ml: 827 }]);
  });

  it('SpO2 mean in percent', () => {
    // 14 readings 99,99,97,97,98,96,97,97,99,99,96,96,96,100 → 1366 / 14 = 97.571 → 97.6
    expect(rows('blood_oxygen_saturation')).toEqual([{ date: '2023-01-20', pct: 97.6 }]);
  });

  it('marks every block as sub-daily samples', () => {
    expect(new Set(ingestFile(F.minutes).samples.map((s) => s.span))).toEqual(new Set(['sample']));
  });
});

describe(`hand-checked: ${F.jan2023} (oldest sleep shape, one v1 workout)`, () => {
  const { on, rows, samples } = ingestFile(F.jan2023);

  it('steps with fractional daily totals', () => {
    // "2023-01-22 …" qty 17022.917041443572 → 17023; "2023-01-26 …" 12410.937740179908 → 12411; "2023-01-29 …" 71
    expect(on('step_count', '2023-01-22')).toEqual({ date: '2023-01-22', count: 17023 });
    expect(on('step_count', '2023-01-26')).toEqual({ date: '2023-01-26', count: 12411 });
    expect(on('step_count', '2023-01-29')).toEqual({ date: '2023-01-29', count: 71 });
  });

  it('weight', () => {
    // 70.59999999999998 → 70.6; 69.90000000000002 → 69.9 (25th and 27th)
    expect(on('weight_body_mass', '2023-01-24')).toEqual({ date: '2023-01-24', kg: 70.6 });
    expect(on('weight_body_mass', '2023-01-25')).toEqual({ date: '2023-01-25', kg: 69.9 });
    expect(on('weight_body_mass', '2023-01-27')).toEqual({ date: '2023-01-27', kg: 69.9 });
  });

  it('heart rate', () => {
    // walking_heart_rate_average 88 (22nd), 81 (25th), 81.5 (28th)
    expect(on('walking_heart_rate_average', '2023-01-22')).toEqual({ date: '2023-01-22', bpm: 88 });
    expect(on('walking_heart_rate_average', '2023-01-25')).toEqual({ date: '2023-01-25', bpm: 81 });
    expect(on('walking_heart_rate_average', '2023-01-28')).toEqual({ date: '2023-01-28', bpm: 81.5 });
  });

  it('sleep: asleep only; inBed (summed over overlapping sources) capped at the in-bed window', () => {
    // 00:16 → 07:16, asleep 7; inBed 13.94167 > window 00:17:54 → 07:16:54 = 6.98333, then raised
    // to the night's sleep, 7 (in bed is never less than asleep: sleep-nights.ts rule 4)
    expect(on('sleep_analysis', '2023-01-22')).toEqual({
      date: '2023-01-22',
      hours: 7,
      asleep: 7,
      inBed: 7,
      bedTime: '00:16',
      wakeTime: '07:16',
      source: 'AutoSleep',
    });
    // `date` 2023-01-24 21:13:41 but the night ends 2023-01-25 06:36 → 25 Jan; asleep 8.25;
    // inBed 16.50833 capped at 22:16:35 → 06:36:05 = 8.325 → 8.33
    expect(on('sleep_analysis', '2023-01-25')).toEqual({
      date: '2023-01-25',
      hours: 8.25,
      asleep: 8.25,
      inBed: 8.33,
      bedTime: '22:15',
      wakeTime: '06:36',
      source: 'AutoSleep',
    });
    // watch-only night ending 2023-01-29 05:37:26 with asleep 0: no hours (not 0); inBed capped at 6.625 → 6.63
    expect(on('sleep_analysis', '2023-01-29')).toEqual({
      date: '2023-01-29',
      inBed: 6.63,
      bedTime: '22:59',
      wakeTime: '05:37',
      source: W,
    });
  });

  it('the one workout (a single date in this file)', () => {
    // Walking 11:34:52 → 11:55:31 = 20 min 39 s = 20.65 → 20.7; 1.52425 km → 1.52; active 87.217 → 87; avg 86.12 → 86; max 106
    expect(rows('workouts')).toEqual([
      {
        date: '2023-01-22',
        trained: true,
        type: 'Walking',
        durationMin: 20.7,
        distanceKm: 1.52,
        calories: 87,
        avgHr: 86,
        maxHr: 106,
        startTime: '11:34',
      },
    ]);
  });

  it('overlaps the Mar 2023 export: the same v1 workout has the same dedup key; a re-sent day total takes the larger value', () => {
    const mar = ingestFile(F.mar2023).samples;
    const walk = (s: typeof samples) =>
      s.find((x) => x.metric === 'workouts' && x.at === '2023-01-22 11:34:52 +1100')?.dedupKey;
    expect(walk(samples)).toBeDefined();
    expect(walk(samples)).toBe(walk(mar));
    // step_count 2023-01-22: 17022.917 in this (January) export, 17028.012 in the March one → the
    // larger (the day seen later) in either arrival order (versions.ts)
    expect(aggregateRows('step_count', [...samples, ...mar]).find((r) => r.date === '2023-01-22')).toEqual({
      date: '2023-01-22',
      count: 17028,
    });
    expect(aggregateRows('step_count', [...mar, ...samples]).find((r) => r.date === '2023-01-22')).toEqual({
      date: '2023-01-22',
      count: 17028,
    });
  });
});

describe(`hand-checked: ${F.hevy} (22 months daily, lb, fl oz, degF, DST -0400/-0500; no steps, no workouts)`, () => {
  const { on, rows, samples } = ingestFile(F.hevy);

  it('has no step_count and no workouts in the file', () => {
    expect(samples.some((s) => s.metric === 'step_count' || s.metric === 'workouts')).toBe(false);
  });

  it('weight converted from lb, on both sides of DST', () => {
    // "2023-11-05 00:00:00 -0400" 175.39999970127363 lb × 0.45359237 = 79.5601 → 79.56
    expect(on('weight_body_mass', '2023-11-05')).toEqual({ date: '2023-11-05', kg: 79.56 });
    // "2024-03-10 00:00:00 -0500" 167.99999441128165 lb = 76.2035 → 76.2
    expect(on('weight_body_mass', '2024-03-10')).toEqual({ date: '2024-03-10', kg: 76.2 });
    // "2024-11-03 00:00:00 -0400" 168.99999745366085 lb = 76.6571 → 76.66
    expect(on('weight_body_mass', '2024-11-03')).toEqual({ date: '2024-11-03', kg: 76.66 });
    // 606 points, 606 dates, 385 at -0400 and 221 at -0500: none moves to another day
    expect(rows('weight_body_mass')).toHaveLength(606);
  });

  it('heart rate Min/Avg/Max', () => {
    // 2023-11-05: Min 55, Avg 79.8347 → 79.8, Max 128
    expect(on('heart_rate', '2023-11-05')).toEqual({ date: '2023-11-05', min: 55, avg: 79.8, max: 128 });
    // 2024-03-10: Min 42, Avg 86.801 → 86.8, Max 174
    expect(on('heart_rate', '2024-03-10')).toEqual({ date: '2024-03-10', min: 42, avg: 86.8, max: 174 });
    // 2024-11-03 (source "User’s Apple Watch|User’s Apple Watch"): Min 53, Avg 69.2855 → 69.3, Max 130
    expect(on('heart_rate', '2024-11-03')).toEqual({ date: '2024-11-03', min: 53, avg: 69.3, max: 130 });
  });

  it('sleep: DST night, combined sources, two naps, a scaled Sleep++ nap', () => {
    // 2024-11-02 23:48:54 -0400 → 2024-11-03 07:59:24 -0500 (9.175 h real); core 6.55 + deep 0.45833 + rem 1.91667
    // = 8.925 → 8.93; inBed 8.925 → 8.93; awake 0.175 → 0.18
    expect(on('sleep_analysis', '2024-11-03')).toEqual({
      date: '2024-11-03',
      hours: 8.93,
      inBed: 8.93,
      deep: 0.46,
      rem: 1.92,
      core: 6.55,
      awake: 0.18,
      bedTime: '23:48',
      wakeTime: '07:59',
      source: W,
    });
    // "User’s iPhone|User’s Apple Watch": 4.88333 + 0.40833 + 1.45833 = 6.75; inBed 7.41444 → 7.41
    expect(on('sleep_analysis', '2024-05-13')).toEqual({
      date: '2024-05-13',
      hours: 6.75,
      inBed: 7.41,
      deep: 0.41,
      rem: 1.46,
      core: 4.88,
      awake: 0.23,
      bedTime: '22:29',
      wakeTime: '05:28',
      source: `User’s iPhone|${W}`,
    });
    // two rows end on 2025-02-10 (15:59:24 → 17:28:24 asleep 0.99167; 17:28:24 → 18:26:24 asleep 0.10833):
    // hours 1.1, awake 0.49167 + 0.85833 = 1.35, inBed 0 + 0 → absent; times of the longer one
    expect(on('sleep_analysis', '2025-02-10')).toEqual({
      date: '2025-02-10',
      hours: 1.1,
      asleep: 1.1,
      awake: 1.35,
      bedTime: '15:59',
      wakeTime: '17:28',
      source: W,
    });
    // Sleep++ 12:28:22 → 14:32:04 (2.06167 h) claims asleep 2.57154: scaled by 2.06167 / 2.57154 → 2.06;
    // inBed 2.06177 fits its window → 2.06
    expect(on('sleep_analysis', '2025-03-28')).toEqual({
      date: '2025-03-28',
      hours: 2.06,
      asleep: 2.06,
      inBed: 2.06,
      bedTime: '12:28',
      wakeTime: '14:32',
      source: 'Sleep++',
    });
    // 288 rows end on 287 distinct dates (the 2025-02-10 naps share one)
    expect(rows('sleep_analysis')).toHaveLength(287);
  });

  it('other units of this user', () => {
    // dietary_water 2024-03-10: 73.99992602759858 fl oz × 29.5735295625 = 2188.44 → 2188 ml
    expect(on('dietary_water', '2024-03-10')).toEqual({ date: '2024-03-10', ml: 2188 });
    // apple_sleeping_wrist_temperature 2024-11-03: (96.39345779418939 − 32) × 5/9 = 35.7741 → 35.77 °C
    expect(on('apple_sleeping_wrist_temperature', '2024-11-03')).toEqual({ date: '2024-11-03', degC: 35.77 });
    // dietary_caffeine (old name) files under caffeine: 2024-03-10 qty 218 mg
    expect(on('caffeine', '2024-03-10')).toEqual({ date: '2024-03-10', mg: 218 });
    expect(on('dietary_caffeine', '2024-03-10')).toEqual({ date: '2024-03-10', mg: 218 });
    // heart_rate_variability 2024-03-10 47.07797 → 47.1; resting_heart_rate 64
    expect(on('heart_rate_variability', '2024-03-10')).toEqual({ date: '2024-03-10', ms: 47.1 });
    expect(on('resting_heart_rate', '2024-03-10')).toEqual({ date: '2024-03-10', bpm: 64 });
  });
});

describe(`hand-checked: ${F.life} (2026 export, lb, mi, fl oz, mg/dL, totalSleep, v2 workouts, multi-source)`, () => {
  const { on, rows } = ingestFile(F.life);

  it('steps from single and combined sources', () => {
    // "2025-12-07 00:00:00 -0800" qty 1248 (User 17); "2026-01-19" 6887 (User 17|Connect); "2026-03-07" 193
    expect(on('step_count', '2025-12-07')).toEqual({ date: '2025-12-07', count: 1248 });
    expect(on('step_count', '2026-01-19')).toEqual({ date: '2026-01-19', count: 6887 });
    expect(on('step_count', '2026-03-07')).toEqual({ date: '2026-03-07', count: 193 });
    expect(rows('step_count')).toHaveLength(91);
  });

  it('weight from lb', () => {
    // 299.40035606205305 lb × 0.45359237 = 135.8057 → 135.81
    expect(on('weight_body_mass', '2026-01-19')).toEqual({ date: '2026-01-19', kg: 135.81 });
    // 295.5869915279225 lb = 134.0760 → 134.08
    expect(on('weight_body_mass', '2026-02-02')).toEqual({ date: '2026-02-02', kg: 134.08 });
    // 287.69225191326865 lb = 130.4950 → 130.5
    expect(on('weight_body_mass', '2026-03-07')).toEqual({ date: '2026-03-07', kg: 130.5 });
  });

  it('heart rate (Eight Sleep, fractional Min/Max)', () => {
    // Min 54, Avg 58.8527 → 58.9, Max 73
    expect(on('heart_rate', '2025-12-07')).toEqual({ date: '2025-12-07', min: 54, avg: 58.9, max: 73 });
    // Min 54.3333 → 54, Avg 59.6833 → 59.7, Max 68
    expect(on('heart_rate', '2026-01-19')).toEqual({ date: '2026-01-19', min: 54, avg: 59.7, max: 68 });
    // Min 57.6667 → 58, Avg 61.2889 → 61.3, Max 67.3333 → 67
    expect(on('heart_rate', '2026-02-02')).toEqual({ date: '2026-02-02', min: 58, avg: 61.3, max: 67 });
  });

  it('sleep: totalSleep, WHOOP without stages, and the 27 h overlapped night scaled into its window', () => {
    // totalSleep 27.000000000000004 and awake 10.2 in a 21:52 → 10:16 (12.4 h) window: factor 12.4 / 37.2 = 1/3
    // → hours 9, core 15.55/3 = 5.18, deep 4.175/3 = 1.39, rem 7.275/3 = 2.43, awake 3.4; inBed 34.05 → window 12.4
    expect(on('sleep_analysis', '2025-12-07')).toEqual({
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
    // WHOOP: totalSleep 6.04246 → 6.04 (= asleep), stages 0 → absent, awake 0.32528 → 0.33,
    // inBed 6.36774 within the 00:35:30 → 06:57:33 window (+1 min slack) → 6.37
    expect(on('sleep_analysis', '2025-12-13')).toEqual({
      date: '2025-12-13',
      hours: 6.04,
      asleep: 6.04,
      inBed: 6.37,
      awake: 0.33,
      bedTime: '00:35',
      wakeTime: '06:57',
      source: 'WHOOP',
    });
    // consistent Eight Sleep night: totalSleep 8.925 → 8.93; inBed 10.31667 → 10.32 in a 10.55 h window
    expect(on('sleep_analysis', '2026-03-04')).toEqual({
      date: '2026-03-04',
      hours: 8.93,
      inBed: 10.32,
      deep: 1.3,
      rem: 2.49,
      core: 5.13,
      awake: 1.63,
      bedTime: '21:00',
      wakeTime: '07:33',
      source: 'Eight Sleep',
    });
    // no night is ever longer than 24 h after scaling
    for (const r of rows('sleep_analysis')) expect((r.hours as number) ?? 0).toBeLessThan(24);
  });

  it('v2 workouts merged per date', () => {
    // Strength 15:07:33 (17005 s, 253.445 kcal) + Flexibility 16:49:26 (1404.15 s, no energy):
    // (17005 + 1404.15) / 60 = 306.82 → 306.8 min; calories 253
    expect(on('workouts', '2026-03-04')).toEqual({
      date: '2026-03-04',
      trained: true,
      type: 'Traditional Strength Training, Flexibility',
      durationMin: 306.8,
      calories: 253,
      startTime: '15:07',
    });
    // Strength 15:27:03 (4439 s, 210.875 kcal) + Flexibility 16:41:12 (1336.42 s): 5775.42 / 60 = 96.26 → 96.3; 211 kcal
    expect(on('workouts', '2026-03-06')).toEqual({
      date: '2026-03-06',
      trained: true,
      type: 'Traditional Strength Training, Flexibility',
      durationMin: 96.3,
      calories: 211,
      startTime: '15:27',
    });
    // Other 12:46:30, 4139 s = 68.98 → 69 min, 668 kcal
    expect(on('workouts', '2025-12-07')).toEqual({
      date: '2025-12-07',
      trained: true,
      type: 'Other',
      durationMin: 69,
      calories: 668,
      startTime: '12:46',
    });
    // 19 workouts on 10 dates
    expect(rows('workouts')).toHaveLength(10);
  });

  it('other units and the renamed nutrition metrics', () => {
    // walking_running_distance 2026-01-19: 3.823284518413617 mi × 1.609344 = 6.15298 → 6.15 km
    expect(on('walking_running_distance', '2026-01-19')).toEqual({ date: '2026-01-19', km: 6.15 });
    // dietary_water 2026-03-04: 107.5962202372644 fl oz × 29.5735295625 = 3182.00 → 3182 ml
    expect(on('dietary_water', '2026-03-04')).toEqual({ date: '2026-03-04', ml: 3182 });
    // blood_glucose 2026-03-04: 89.8 mg/dL → 90
    expect(on('blood_glucose', '2026-03-04')).toEqual({ date: '2026-03-04', mgdl: 90 });
    // caffeine (new name) 2026-03-04 175.1999969482422 mg ("MacroFactor|My Water") → 175.2 (mg: 1 decimal)
    expect(on('caffeine', '2026-03-04')).toEqual({ date: '2026-03-04', mg: 175.2 });
  });
});

describe(`hand-checked: ${F.sparkMetrics} (no data wrapper; two dates per family)`, () => {
  const { on, rows } = ingestFile(F.sparkMetrics);

  it('steps and heart rate on both dates the file has; no sleep, weight or workouts in it', () => {
    // step_count "2025-08-12 00:00:00 +0100" 8990 and "2025-08-13" 747 (source "User’s Apple Watch|iPhone|Oura")
    expect(rows('step_count')).toEqual([
      { date: '2025-08-12', count: 8990 },
      { date: '2025-08-13', count: 747 },
    ]);
    // heart_rate 08-12: Min 59, Avg 90.5003 → 90.5, Max 180; 08-13: Min 55, Avg 76.0088 → 76, Max 138
    expect(rows('heart_rate')).toEqual([
      { date: '2025-08-12', min: 59, avg: 90.5, max: 180 },
      { date: '2025-08-13', min: 55, avg: 76, max: 138 },
    ]);
    expect(rows('sleep_analysis')).toEqual([]);
    expect(rows('weight_body_mass')).toEqual([]);
  });

  it('other metrics', () => {
    // walking_running_distance 08-12 5.484679 km → 5.48; SpO2 08-12 97.0625 → 97.1
    expect(on('walking_running_distance', '2025-08-12')).toEqual({ date: '2025-08-12', km: 5.48 });
    expect(on('blood_oxygen_saturation', '2025-08-12')).toEqual({ date: '2025-08-12', pct: 97.1 });
    // walking asymmetry 0.10526 % is kept (not taken for a fraction) → 0.1
    expect(on('walking_asymmetry_percentage', '2025-08-12')).toEqual({ date: '2025-08-12', pct: 0.1 });
    // vo2_max ml/(kg·min) 36.72 → 36.7; physical_effort kcal/hr·kg is read
    expect(on('vo2_max', '2025-08-12')).toEqual({ date: '2025-08-12', vo2max: 36.7 });
    expect(rows('physical_effort')).toHaveLength(3);
  });
});

describe(`hand-checked: ${F.sparkWorkouts} (no data wrapper; v2 workouts on the two dates the file has)`, () => {
  const { rows } = ingestFile(F.sparkWorkouts);

  it('merges each day', () => {
    // 08-12: Indoor Walk 08:17:51 (1143.286 s, 1.58279 km, 155.831 kcal), Walk 12:12 (1260 s, 78.951 kcal),
    // Outdoor Walk 17:04:30 (1684.019 s, 1.83108 km, 102.930 kcal), Mind & Body 21:58:58 (2775.014 s, 201.719 kcal):
    // 6862.319 s / 60 = 114.37 → 114.4 min; 3.41387 → 3.41 km; 539.43 → 539 kcal
    // 08-13: Indoor Walk 08:15:03 (1107.982 s, 1.63855 km, 129.884), Walk 12:12 (960 s, 59.157),
    // Outdoor Walk 19:37:47 (1130.080 s, 1.82517 km, 77.318): 3198.062 / 60 = 53.30 → 53.3; 3.46372 → 3.46; 266.36 → 266
    expect(rows('workouts')).toEqual([
      {
        date: '2025-08-12',
        trained: true,
        type: 'Indoor Walk, Walk, Outdoor Walk, Mind & Body',
        durationMin: 114.4,
        distanceKm: 3.41,
        calories: 539,
        startTime: '08:17',
      },
      {
        date: '2025-08-13',
        trained: true,
        type: 'Indoor Walk, Walk, Outdoor Walk',
        durationMin: 53.3,
        distanceKm: 3.46,
        calories: 266,
        startTime: '08:15',
      },
    ]);
  });
});
