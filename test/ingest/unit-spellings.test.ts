/**
 * Unit strings as phones and people really write them, pushed through the real webhook: `ºF` typed
 * with the masculine ordinal instead of the degree sign, `fl oz` and a drink's bare `oz`, a stone
 * weight, Apple's blood-glucose unit with a molar mass of other digits, a heart rate in
 * `count·min⁻¹`. Each is read in the unit it names; a unit that cannot be converted (a weight in
 * furlongs, an HbA1c-style `mmol/mol` glucose) is named in the push's warnings and stores nothing,
 * never a number taken as if it were the card's unit; nor is a weight sent with no unit at all.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const DAY = '2026-05-19';
const AT = `${DAY} 00:00:00 -0700`;

function block(name: string, units: string, point: Record<string, unknown>) {
  return { name, units, data: [{ date: AT, source: 'iPhone', ...point }] };
}

describe('unit spellings in a push', () => {
  it('reads ºF, fl oz, oz of water, stone, count·min⁻¹ and any Apple glucose molar mass', async () => {
    srv = await startIngestServer({
      cards: [
        ['temperature', 'body_temperature'],
        ['water', 'dietary_water'],
        ['weight', 'weight_body_mass'],
        ['glucose', 'blood_glucose'],
        ['breathing', 'respiratory_rate'],
        ['sugar', 'dietary_sugar'],
      ],
    });
    const body = {
      data: {
        metrics: [
          block('body_temperature', 'ºF', { qty: 100.4 }),
          block('dietary_water', 'fl oz', { qty: 16 }),
          block('weight_body_mass', 'st', { qty: 11 }),
          block('blood_glucose', 'mmol<180.15588000005408>/L', { qty: 5.6 }),
          block('respiratory_rate', 'count·min⁻¹', { qty: 14.5 }),
          // food: an ounce is a mass
          block('dietary_sugar', 'oz', { qty: 1 }),
        ],
      },
    };
    const r = await srv.push(JSON.stringify(body));
    expect(r.status).toBe(200);
    expect(r.body.warnings ?? []).toEqual([]);
    expect(await srv.rows('temperature')).toEqual([{ date: DAY, degC: 38 }]);
    expect(await srv.rows('water')).toEqual([{ date: DAY, ml: 473 }]);
    expect(await srv.rows('weight')).toEqual([{ date: DAY, kg: 69.85 }]);
    expect(await srv.rows('glucose')).toEqual([{ date: DAY, mmol: 5.6 }]);
    expect(await srv.rows('breathing')).toEqual([{ date: DAY, breathsPerMin: 14.5 }]);
    expect(await srv.rows('sugar')).toEqual([{ date: DAY, g: 28.3 }]);
  });

  it('a drink in a bare oz is US fluid ounces; imperial ones only when named so', async () => {
    srv = await startIngestServer({ cards: [['water', 'dietary_water']] });
    const us = { data: { metrics: [block('dietary_water', 'oz', { qty: 8 })] } };
    expect((await srv.push(JSON.stringify(us))).status).toBe(200);
    expect(await srv.rows('water')).toEqual([{ date: DAY, ml: 237 }]);
    const imperial = {
      data: {
        metrics: [
          {
            ...block('dietary_water', 'fl oz (imp)', { qty: 10 }),
            data: [{ date: `2026-05-20 00:00:00 +0100`, qty: 10 }],
          },
        ],
      },
    };
    expect((await srv.push(JSON.stringify(imperial))).status).toBe(200);
    expect(await srv.rows('water')).toEqual([
      { date: DAY, ml: 237 },
      { date: '2026-05-20', ml: 284 },
    ]);
  });

  it('a unit it cannot convert is named in a warning and stores nothing', async () => {
    srv = await startIngestServer({
      cards: [
        ['weight', 'weight_body_mass'],
        ['glucose', 'blood_glucose'],
      ],
    });
    const body = {
      data: {
        metrics: [
          block('weight_body_mass', 'furlong', { qty: 70 }),
          block('blood_glucose', 'mmol/mol', { qty: 42 }),
        ],
      },
    };
    const r = await srv.push(JSON.stringify(body));
    expect(r.status).toBe(200);
    const warnings = (r.body.warnings ?? []) as string[];
    expect(warnings.some((w) => w.includes('"furlong"'))).toBe(true);
    expect(warnings.some((w) => w.includes('"mmol/mol"'))).toBe(true);
    expect(await srv.rows('weight')).toEqual([]);
    expect(await srv.rows('glucose')).toEqual([]);
  });

  it('reads a heart rate sent in count, count/s, Hz, beats/min or bpm as beats per minute', async () => {
    srv = await startIngestServer({
      cards: [
        ['heart', 'heart_rate'],
        ['resting', 'resting_heart_rate'],
        ['walking', 'walking_heart_rate_average'],
        ['breathing', 'respiratory_rate'],
        ['workouts', 'workouts'],
      ],
    });
    const body = {
      data: {
        metrics: [
          // a rate written as a plain count (the app's older documentation)
          block('heart_rate', 'count', { Min: 52, Avg: 61, Max: 88 }),
          // HealthKit's own unit for a heart rate read per second: 1.1 beats a second
          block('resting_heart_rate', 'count/s', { qty: 1.1 }),
          block('walking_heart_rate_average', 'Hz', { qty: 1.5 }),
          block('respiratory_rate', 'breaths per minute', { qty: 15 }),
        ],
        workouts: [
          {
            id: 'A1B2C3D4-0000-4000-8000-000000000001',
            name: 'Outdoor Run',
            start: `${DAY} 07:00:00 -0700`,
            end: `${DAY} 07:30:00 -0700`,
            duration: 1800,
            avgHeartRate: { qty: 142, units: 'count' },
            maxHeartRate: { qty: 2.9, units: 'count/s' },
          },
        ],
      },
    };
    const r = await srv.push(JSON.stringify(body));
    expect(r.status).toBe(200);
    expect(r.body.warnings ?? []).toEqual([]);
    expect(await srv.rows('heart')).toEqual([{ date: DAY, min: 52, avg: 61, max: 88 }]);
    expect(await srv.rows('resting')).toEqual([{ date: DAY, bpm: 66 }]);
    expect(await srv.rows('walking')).toEqual([{ date: DAY, bpm: 90 }]);
    expect(await srv.rows('breathing')).toEqual([{ date: DAY, breathsPerMin: 15 }]);
    const [workout] = await srv.rows('workouts');
    expect(workout).toMatchObject({ date: DAY, avgHr: 142, maxHr: 174 });
  });

  it('a block with no units is stored only where no other unit exists', async () => {
    srv = await startIngestServer({
      cards: [
        ['weight', 'weight_body_mass'],
        ['resting', 'resting_heart_rate'],
      ],
    });
    const weight = { name: 'weight_body_mass', data: [{ date: AT, qty: 170 }] };
    const resting = { name: 'resting_heart_rate', data: [{ date: AT, qty: 58 }] };
    const r = await srv.push(JSON.stringify({ data: { metrics: [weight, resting] } }));
    expect(r.status).toBe(200);
    // 170 of what: kg or lb cannot be told, so it is not stored as kg
    expect(r.body.warnings).toEqual([
      'weight_body_mass: no units sent for weight_body_mass, kg or another unit cannot be told (1 point, e.g. 170)',
    ]);
    expect(await srv.rows('weight')).toEqual([]);
    expect(await srv.rows('resting')).toEqual([{ date: DAY, bpm: 58 }]);
  });
});

describe('a nutrient in another mass unit than its own', () => {
  it('is read in the unit it names: vitamins in g or mg, minerals in g, from an Apple Health export', async () => {
    srv = await startIngestServer({
      cards: [
        ['b12', 'vitamin_b12'],
        ['d', 'vitamin_d'],
        ['iron', 'iron'],
      ],
    });
    const rec = (type: string, unit: string, value: string) =>
      ` <Record type="HKQuantityTypeIdentifier${type}" sourceName="Food app" unit="${unit}" startDate="${AT}" endDate="${AT}" value="${value}"/>`;
    const r = await srv.importExport(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<HealthData locale="en_US">',
        // HealthKit keeps a mass in any mass unit: an app may write micrograms as grams
        rec('DietaryVitaminB12', 'g', '2.4e-06'),
        rec('DietaryVitaminD', 'mg', '0.015'),
        rec('DietaryIron', 'g', '0.008'),
        '</HealthData>',
      ].join('\n'),
    );
    expect(r.status, r.text).toBe(200);
    expect(r.body.warnings).toEqual([]);
    expect(await srv.rows('b12')).toEqual([{ date: DAY, mcg: 2.4 }]);
    expect(await srv.rows('d')).toEqual([{ date: DAY, mcg: 15 }]);
    expect(await srv.rows('iron')).toEqual([{ date: DAY, mg: 8 }]);
  });
});
