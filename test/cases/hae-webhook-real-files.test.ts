/**
 * Every real HAE payload of the cases folder (real-data/hae/) posted to the real server: 200, cards for steps, sleep, weight, heart rate and workouts filled with exactly the
 * rows the pure pipeline computes from the file; posting the same file twice gives the same rows
 * and no new samples; a payload split across two posts gives the same rows as one post.
 *
 * Values checked by hand (three dates per family) come from the raw files; how each was computed
 * is written beside it (conversions: 1 lb = 0.45359237 kg, 1 mi = 1.609344 km; rounding per the
 * catalogue: count 0, kg 2, bpm 1, heart_rate min/max 0, sleep hours 2, workout minutes 1, half
 * away from zero). The same figures are checked on the pure pipeline in test/cases/hae-real-files.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { aggregateRows } from '../../src/ingest/hae/format/aggregate.js';
import { normalisePayload } from '../../src/ingest/hae/format/payload.js';
import { extractSamples } from '../../src/ingest/hae/format/samples.js';
import { halvePayload } from '../helpers/hae-halves.js';
import { FAMILY_CARDS, type IngestServer, startIngestServer } from '../ingest/helpers.js';
import { HAE_FILES, haeBytes } from './hae-files.js';

/** "Apple Watch" as these files write it, with U+00A0. */
const W = 'User’s Apple\u00a0Watch';

const F = {
  mar2023: 'apple-health-data_HealthAutoExport-2022-12-25-2023-03-25.json',
  hevy: 'hevy-metal_HealthAutoExport-2023-06-17-2025-04-26.json',
  life: 'life-platform_HealthAutoExport-2025-12-07-2026-03-07.json',
  sparkWorkouts: 'spark_demofiles_workouts_2025-08-12_13.json',
};

/** The rows the pure pipeline (normalise → extract → aggregate) gives for `metric` over `bodies` in order. */
function expectedRows(metric: string, ...bodies: Buffer[]) {
  const samples = bodies.flatMap(
    (b) => extractSamples(normalisePayload(JSON.parse(b.toString('utf8')))).samples,
  );
  return aggregateRows(metric, samples);
}

/** A body cut in two (halvePayload), each half as JSON bytes. */
function halves(bytes: Buffer): [Buffer, Buffer] {
  const [a, b] = halvePayload(JSON.parse(bytes.toString('utf8')));
  return [Buffer.from(JSON.stringify(a)), Buffer.from(JSON.stringify(b))];
}

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

describe.each(HAE_FILES)('real file %s through the webhook', (file) => {
  const bytes = haeBytes(file);

  it('posts with 200, fills every subscribed card with the pipeline rows, and a re-send changes nothing', async () => {
    srv = await startIngestServer({ cards: FAMILY_CARDS });
    const first = await srv.push(bytes);
    expect(first.status).toBe(200);
    expect(first.body.ok).toBe(true);
    expect(first.body.warning).toBeUndefined();
    // real nights whose sleep or time in bed overruns their own window are adjusted and named
    expect(
      ((first.body.warnings ?? []) as string[]).filter(
        (w) => !/^sleep_analysis: (sleep|time in bed) (longer than its night|over )/.test(w),
      ),
    ).toEqual([]);
    let filled = 0;
    for (const [id, metric] of FAMILY_CARDS) {
      const want = expectedRows(metric, bytes);
      expect(await srv.rows(id), `${id} (${metric})`).toEqual(want);
      if (want.length) {
        expect(first.body.ingested[id], id).toBe(want.length);
        filled++;
      }
    }
    expect(filled).toBeGreaterThan(0);
    const stored = srv.inst.hae.samples.count();
    expect(stored).toBe(first.body.samples.new);

    const before = await Promise.all(FAMILY_CARDS.map(([id]) => srv?.rows(id)));
    const again = await srv.push(bytes);
    expect(again.status).toBe(200);
    expect(again.body.ok).toBe(true);
    expect(again.body.samples).toEqual({ received: first.body.samples.received, new: 0 });
    for (const n of Object.values(again.body.ingested)) expect(n).toBe(0);
    expect(srv.inst.hae.samples.count()).toBe(stored);
    expect(await Promise.all(FAMILY_CARDS.map(([id]) => srv?.rows(id)))).toEqual(before);
  });

  it('gives the same rows when split across two posts as in one', async () => {
    srv = await startIngestServer({ cards: FAMILY_CARDS });
    const [a, b] = halves(bytes);
    for (const half of [a, b]) {
      const r = await srv.push(half);
      expect(r.status).toBe(200);
      expect(r.body.ok).toBe(true);
    }
    for (const [id, metric] of FAMILY_CARDS) {
      expect(await srv.rows(id), `${id} (${metric})`).toEqual(expectedRows(metric, bytes));
    }
  });
});

describe('hand-checked rows after real posts', () => {
  it(`${F.mar2023}: steps, sleep, weight, heart rate, workouts (+1100, kg, v1 workouts)`, async () => {
    srv = await startIngestServer({ cards: FAMILY_CARDS });
    expect((await srv.push(haeBytes(F.mar2023))).status).toBe(200);
    const on = async (id: string, date: string) => (await srv?.rows(id))?.find((r) => r.date === date);
    // step_count "2022-12-25 00:00:00 +1100" qty 15291; "2023-01-22" 17028.01208452914 → 17028;
    // "2023-03-25 00:00:00 +1100" 1218 (24 March in UTC, 25 March as written)
    expect(await on('steps', '2022-12-25')).toEqual({ date: '2022-12-25', count: 15291 });
    expect(await on('steps', '2023-01-22')).toEqual({ date: '2023-01-22', count: 17028 });
    expect(await on('steps', '2023-03-25')).toEqual({ date: '2023-03-25', count: 1218 });
    // weight_body_mass kg: 69.2998422886 → 69.3; 72.40000000000002 → 72.4; 71.2
    expect(await on('weight', '2022-12-26')).toEqual({ date: '2022-12-26', kg: 69.3 });
    expect(await on('weight', '2023-03-24')).toEqual({ date: '2023-03-24', kg: 72.4 });
    expect(await on('weight', '2023-03-25')).toEqual({ date: '2023-03-25', kg: 71.2 });
    // walking_heart_rate_average count/min: 89.5, 94, 97
    expect(await on('walking-heart', '2022-12-25')).toEqual({ date: '2022-12-25', bpm: 89.5 });
    expect(await on('walking-heart', '2023-02-08')).toEqual({ date: '2023-02-08', bpm: 94 });
    expect(await on('walking-heart', '2023-03-24')).toEqual({ date: '2023-03-24', bpm: 97 });
    // sleep night 2022-12-24 22:41:08 → 2022-12-25 07:18:00: core 3.98333 + deep 0.81667 + rem 1.60833 = 6.40833 → 6.41
    expect(await on('sleep', '2022-12-25')).toMatchObject({
      hours: 6.41,
      bedTime: '22:41',
      wakeTime: '07:18',
    });
    // night ending 2022-12-28 07:03:42: 4.2 + 0.96667 + 1.725 = 6.89167 → 6.89
    expect(await on('sleep', '2022-12-28')).toMatchObject({
      hours: 6.89,
      bedTime: '22:34',
      wakeTime: '07:03',
    });
    // night ending 2023-01-05 06:29:00, stages all 0 → asleep 6.73333 → 6.73
    expect(await on('sleep', '2023-01-05')).toMatchObject({
      hours: 6.73,
      asleep: 6.73,
      source: 'AutoSleep|iPhone',
    });
    // v1 Walking 08:55:40 → 09:41:32 = 45.867 → 45.9 min, 3.66819 km → 3.67, 174.953 kcal → 175, avg 86.62 → 87, max 112
    expect(await on('workouts', '2023-03-18')).toEqual({
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
    // Strength 21:25:58 → 21:26:20 = 22 s → 0.4 min; 0.663 kcal → 1; distance 0 → absent
    expect(await on('workouts', '2023-01-06')).toMatchObject({
      durationMin: 0.4,
      calories: 1,
      avgHr: 53,
      maxHr: 54,
    });
    // Strength 08:48:36 → 09:44:20 = 55.733 → 55.7 min; 50.122 kcal → 50
    expect(await on('workouts', '2022-12-27')).toMatchObject({
      durationMin: 55.7,
      calories: 50,
      startTime: '08:48',
    });
  });

  it(`${F.hevy}: lb to kg across DST, heart rate Min/Avg/Max, DST night`, async () => {
    srv = await startIngestServer({ cards: FAMILY_CARDS });
    expect((await srv.push(haeBytes(F.hevy))).status).toBe(200);
    const on = async (id: string, date: string) => (await srv?.rows(id))?.find((r) => r.date === date);
    // 175.39999970127363 lb × 0.45359237 = 79.5601 → 79.56 (-0400); 167.99999441128165 lb = 76.2035 → 76.2 (-0500);
    // 168.99999745366085 lb = 76.6571 → 76.66
    expect(await on('weight', '2023-11-05')).toEqual({ date: '2023-11-05', kg: 79.56 });
    expect(await on('weight', '2024-03-10')).toEqual({ date: '2024-03-10', kg: 76.2 });
    expect(await on('weight', '2024-11-03')).toEqual({ date: '2024-11-03', kg: 76.66 });
    // heart_rate: Min 55 / Avg 79.8347 / Max 128; 42 / 86.801 / 174; 53 / 69.2855 / 130
    expect(await on('heart', '2023-11-05')).toEqual({ date: '2023-11-05', min: 55, avg: 79.8, max: 128 });
    expect(await on('heart', '2024-03-10')).toEqual({ date: '2024-03-10', min: 42, avg: 86.8, max: 174 });
    expect(await on('heart', '2024-11-03')).toEqual({ date: '2024-11-03', min: 53, avg: 69.3, max: 130 });
    // DST night 2024-11-02 23:48:54 -0400 → 2024-11-03 07:59:24 -0500: 6.55 + 0.45833 + 1.91667 = 8.925 → 8.93
    expect(await on('sleep', '2024-11-03')).toMatchObject({
      hours: 8.93,
      bedTime: '23:48',
      wakeTime: '07:59',
      source: W,
    });
    // "User’s iPhone|User’s Apple Watch": 4.88333 + 0.40833 + 1.45833 = 6.75
    expect(await on('sleep', '2024-05-13')).toMatchObject({
      hours: 6.75,
      bedTime: '22:29',
      wakeTime: '05:28',
    });
    // two naps ending 2025-02-10: asleep 0.99167 + 0.10833 = 1.1
    expect(await on('sleep', '2025-02-10')).toMatchObject({ hours: 1.1, asleep: 1.1 });
    expect(await srv.rows('steps')).toEqual([]);
    expect(await srv.rows('workouts')).toEqual([]);
  });

  it(`${F.life} and ${F.sparkWorkouts}: steps, v2 workouts, 27 h night scaled`, async () => {
    srv = await startIngestServer({ cards: FAMILY_CARDS });
    expect((await srv.push(haeBytes(F.life))).status).toBe(200);
    const on = async (id: string, date: string) => (await srv?.rows(id))?.find((r) => r.date === date);
    // step_count 1248 (User 17), 6887 (User 17|Connect), 193
    expect(await on('steps', '2025-12-07')).toEqual({ date: '2025-12-07', count: 1248 });
    expect(await on('steps', '2026-01-19')).toEqual({ date: '2026-01-19', count: 6887 });
    expect(await on('steps', '2026-03-07')).toEqual({ date: '2026-03-07', count: 193 });
    // 299.40035606205305 lb = 135.8057 → 135.81; 295.5869915279225 lb = 134.0760 → 134.08; 287.69225191326865 lb → 130.5
    expect(await on('weight', '2026-01-19')).toEqual({ date: '2026-01-19', kg: 135.81 });
    expect(await on('weight', '2026-02-02')).toEqual({ date: '2026-02-02', kg: 134.08 });
    expect(await on('weight', '2026-03-07')).toEqual({ date: '2026-03-07', kg: 130.5 });
    // totalSleep 27 + awake 10.2 in a 12.4 h window: scaled by 1/3 → 9 h
    expect(await on('sleep', '2025-12-07')).toMatchObject({ hours: 9, inBed: 12.4, source: 'Eight Sleep' });
    // Strength 17005 s + Flexibility 1404.15 s = 306.82 → 306.8 min, 253 kcal
    expect(await on('workouts', '2026-03-04')).toMatchObject({
      durationMin: 306.8,
      calories: 253,
      startTime: '15:07',
    });
    // Strength 4439 s + Flexibility 1336.42 s = 96.26 → 96.3 min, 210.875 → 211 kcal
    expect(await on('workouts', '2026-03-06')).toMatchObject({ durationMin: 96.3, calories: 211 });
    // Other 4139 s = 68.98 → 69 min, 668 kcal
    expect(await on('workouts', '2025-12-07')).toMatchObject({
      type: 'Other',
      durationMin: 69,
      calories: 668,
    });
    // the spark file (no data wrapper, v2 summaries) adds its own dates to the same card
    const r = await srv.push(haeBytes(F.sparkWorkouts));
    expect(r.status).toBe(200);
    expect(r.body.ingested.workouts).toBe(2);
    const dates = (await srv.rows('workouts')).map((x) => x.date);
    expect(dates).toEqual([...dates].sort());
    expect(dates).toEqual(expect.arrayContaining(['2025-08-12', '2025-08-13', '2026-03-04']));
  });
});
