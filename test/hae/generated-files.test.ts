/**
 * The generated HAE payloads (test/fixtures/hae-payloads.ts) through normalise → extract →
 * aggregate: the invariants every payload must meet, and the rows of chosen days, worked out from
 * the formulas the generator writes (1 lb = 0.45359237 kg, 1 mi = 1.609344 km, 1 kJ = 1/4.184 kcal;
 * rounding per the catalogue's decimals).
 */
import { describe, expect, it } from 'vitest';
import { kgOn, restingHrOn, stagesOn, stepsOn, walkingHrOn } from '../fixtures/hae-payloads.js';
import { HAE_FILES, ingestFile, readHae } from './hae-files.js';
import { payloadInvariantsSuite } from './payload-invariants.js';

payloadInvariantsSuite('generated payload', HAE_FILES, readHae);

describe('2023, +1100, source null, kg, v1 workouts', () => {
  const { on, rows } = ingestFile('generated-2023-v1-kg.json');

  it('steps: one row per local date, whatever the date in UTC', () => {
    // "2023-03-01 00:00:00 +1100" is 28 February in UTC, but 1 March as written
    expect(on('step_count', '2023-03-01')).toEqual({ date: '2023-03-01', count: stepsOn(0) });
    expect(on('step_count', '2023-03-30')).toEqual({ date: '2023-03-30', count: stepsOn(29) });
    expect(rows('step_count')).toHaveLength(30);
  });

  it('weight every third day in kg; walking heart rate per day', () => {
    expect(rows('weight_body_mass').map((r) => r.date)).toHaveLength(10);
    expect(on('weight_body_mass', '2023-03-04')).toMatchObject({ kg: kgOn(3) });
    expect(on('walking_heart_rate_average', '2023-03-05')).toMatchObject({ bpm: walkingHrOn(4) });
  });

  it('sleep: the night belongs to the day it ends, total = core + deep + rem', () => {
    const s = stagesOn(5);
    const row = on('sleep_analysis', '2023-03-06');
    expect(row?.hours).toBeCloseTo(s.core + s.deep + s.rem, 2);
  });

  it('workouts: a v1 run on every other day', () => {
    const w = rows('workouts');
    expect(w).toHaveLength(15);
    expect(w[0]).toMatchObject({ date: '2023-03-01', trained: true });
  });
});

describe('2025: a daylight-saving change inside the file, pounds, v2 workouts in kJ and miles', () => {
  const { on, rows } = ingestFile('generated-2025-v2-dst.json');

  it('every local date once, across the change from -0400 to -0500', () => {
    expect(rows('step_count').map((r) => r.date)).toEqual(
      Array.from({ length: 14 }, (_, i) => new Date(Date.UTC(2025, 9, 25 + i)).toISOString().slice(0, 10)),
    );
    expect(on('resting_heart_rate', '2025-11-03')).toMatchObject({ bpm: restingHrOn(9) });
  });

  it('pounds become kilograms', () => {
    expect(on('weight_body_mass', '2025-10-25')?.kg).toBeCloseTo(kgOn(0), 2);
  });
});

describe('an unaggregated export', () => {
  const { rows, samples } = ingestFile('generated-minute-level.json');

  it('adds up minute samples into the day, and keeps them as samples', () => {
    // 30 minutes of 40 … 69 steps
    expect(rows('step_count')).toEqual([{ date: '2023-01-20', count: (40 + 69) * 15 }]);
    expect(new Set(samples.map((s) => s.span))).toEqual(new Set(['sample']));
  });
});
