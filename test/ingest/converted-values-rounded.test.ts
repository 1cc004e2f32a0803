/**
 * Values converted into their metric's unit are stored without binary float tails: rounded to the
 * digits the value as sent had plus a few (lb → kg, °F → °C, in → cm, kJ → kcal, a fraction made a
 * percent), while a value in the metric's own unit is stored exactly as sent. The dedup key stays
 * the one of the unrounded value, so a point stored before values were rounded, sent again, is not
 * stored twice.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { dedupKeyOf } from '../../src/ingest/hae/format/sample.js';
import { extractSamples } from '../../src/ingest/hae/format/samples.js';
import { parseHaeTimestamp } from '../../src/ingest/hae/format/timestamps.js';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

/** One `<Record>` of `type` (without its prefix) on `day` of March 2026. */
function record(type: string, unit: string, value: string, day: number): string {
  const at = `2026-03-${String(day).padStart(2, '0')} 08:00:00 +0100`;
  return ` <Record type="HKQuantityTypeIdentifier${type}" sourceName="Scale" unit="${unit}" creationDate="${at}" startDate="${at}" endDate="${at}" value="${value}"/>`;
}

describe('converted values', () => {
  it('are stored rounded, per unit; values in the canonical unit exactly as sent', async () => {
    const s = await startIngestServer();
    srv = s;
    const xml = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<HealthData locale="en_US">',
      record('BodyMass', 'lb', '143.3', 1),
      record('BodyMass', 'lb', '155', 2),
      record('BodyMass', 'kg', '70.123456789', 3),
      record('BodyTemperature', 'degF', '100.4', 1),
      record('BodyTemperature', 'degF', '98.2', 2),
      record('Height', 'in', '65.1', 1),
      record('OxygenSaturation', '%', '0.57', 1),
      record('OxygenSaturation', '%', '0.07', 2),
      record('ActiveEnergyBurned', 'kJ', '1.5', 1),
      '</HealthData>',
      '',
    ].join('\n');
    const r = await s.importExport(xml);
    expect(r.status, r.text).toBe(200);
    const stored = (metric: string) =>
      (
        s.inst.db
          .prepare('SELECT vals FROM hae_samples WHERE metric = ? ORDER BY date')
          .pluck()
          .all(metric) as string[]
      ).map((v) => JSON.parse(v));
    // 143.3 lb = 64.99978662100001 kg, 155 lb = 70.30681735 kg
    expect(stored('weight_body_mass')).toEqual([{ kg: 64.99979 }, { kg: 70.30682 }, { kg: 70.123456789 }]);
    // 100.4 °F = 38.00000000000001 °C; 98.2 °F = 36.77777777777778 °C
    expect(stored('body_temperature')).toEqual([{ degC: 38 }, { degC: 36.77778 }]);
    // 65.1 in = 165.35399999999998 cm
    expect(stored('height')).toEqual([{ cm: 165.354 }]);
    // 0.57 = 56.99999999999999 %, 0.07 = 7.000000000000001 %
    expect(stored('blood_oxygen_saturation')).toEqual([{ pct: 57 }, { pct: 7 }]);
    // 1.5 kJ = 0.35850860420650094 kcal
    expect(stored('active_energy').map((v) => v.kcal)).toEqual([0.3585086]);
  });

  it('keep the dedup key of the unrounded value, so a point sent again is stored once', () => {
    const payload = {
      metrics: [
        { name: 'weight_body_mass', units: 'lb', data: [{ date: '2026-03-01 08:00:00 +0100', qty: 143.3 }] },
      ],
      workouts: [],
      warnings: [],
    };
    const [sample] = extractSamples(payload).samples;
    expect(sample.values).toEqual({ kg: 64.99979 });
    const time = parseHaeTimestamp('2026-03-01 08:00:00 +0100');
    if (!time) throw new Error('unreadable stamp');
    // the key samples stored before rounding were given
    expect(sample.dedupKey).toBe(
      dedupKeyOf('weight_body_mass', time, sample.span, { kg: 143.3 * 0.45359237 }, null),
    );
  });
});

describe('converted sleep and workout values', () => {
  it('are rounded like the others, and keyed on the exact values', () => {
    const payload = {
      metrics: [
        {
          name: 'sleep_analysis',
          units: 'min',
          data: [
            {
              date: '2026-03-02 00:00:00 +0100',
              sleepStart: '2026-03-01 23:10:00 +0100',
              sleepEnd: '2026-03-02 06:37:00 +0100',
              core: 247,
              deep: 61,
              rem: 89,
              awake: 7,
              totalSleep: 397,
            },
          ],
        },
      ],
      workouts: [
        {
          id: 'w-1',
          name: 'Outdoor Walk',
          start: '2026-03-03 07:00:00 +0100',
          end: '2026-03-03 07:20:34 +0100',
          duration: 1234,
          distance: { qty: 1.3, units: 'mi' },
          activeEnergyBurned: { qty: 310, units: 'kJ' },
        },
      ],
      warnings: [],
    };
    const samples = extractSamples(payload).samples;
    const sleep = samples.find((s) => s.metric === 'sleep_analysis');
    const walk = samples.find((s) => s.metric === 'workouts');
    // 397 min = 6.616666666666666 h, 7 min = 0.11666666666666667 h
    expect(sleep?.values).toMatchObject({
      hours: 6.616667,
      totalSleep: 6.616667,
      awake: 0.1166667,
      core: 4.116667,
    });
    expect(sleep?.keyValues).toMatchObject({ hours: 397 / 60, awake: 7 / 60 });
    // 1234 s = 20.566666666666666 min; 1.3 mi = 2.0921472 km; 310 kJ = 74.09178 kcal
    expect(walk?.values).toMatchObject({ durationMin: 20.56667, distanceKm: 2.092147, calories: 74.09178 });
    expect(walk?.keyValues).toMatchObject({ durationMin: 1234 / 60, distanceKm: 1.3 * 1.609344 });
    const time = parseHaeTimestamp('2026-03-03 07:00:00 +0100');
    if (!time || !walk?.keyValues) throw new Error('no workout read');
    expect(walk.dedupKey).toBe(dedupKeyOf('workouts', time, walk.span, walk.keyValues, walk.source));
  });
});
