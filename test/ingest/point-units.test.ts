/**
 * A value that carries its own unit, as scripts and other exporters write it, pushed through the
 * real webhook: a block sent without `units` whose points each name theirs, a point whose unit
 * differs from its block's, and a quantity written as `{qty, units}` (the shape of a workout's
 * quantities). Each is converted from the unit it names.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

function push(metrics: Record<string, unknown>[]): string {
  return JSON.stringify({ data: { metrics } });
}

describe('a value with its own unit', () => {
  it('units on each point of a block without units', async () => {
    srv = await startIngestServer({
      cards: [
        ['weight', 'weight_body_mass'],
        ['glucose', 'blood_glucose'],
      ],
    });
    const r = await srv.push(
      push([
        {
          name: 'weight_body_mass',
          data: [
            { date: '2026-05-10 07:00:00 +0200', qty: 155, units: 'lb', source: 'Scale' },
            { date: '2026-05-11 07:00:00 +0200', qty: 70.5, units: 'kg', source: 'Scale' },
          ],
        },
        {
          name: 'blood_glucose',
          units: '',
          data: [{ date: '2026-05-10 08:00:00 +0200', qty: 5.4, units: 'mmol/L', source: 'Meter' }],
        },
      ]),
    );
    expect(r.status).toBe(200);
    expect(r.body.warnings ?? []).toEqual([]);
    expect(await srv.rows('weight')).toEqual([
      { date: '2026-05-10', kg: 70.31 },
      { date: '2026-05-11', kg: 70.5 },
    ]);
    expect(await srv.rows('glucose')).toEqual([{ date: '2026-05-10', mmol: 5.4 }]);
  });

  it('a point naming another unit than its block is read in its own', async () => {
    srv = await startIngestServer({ cards: [['water', 'dietary_water']] });
    const r = await srv.push(
      push([
        {
          name: 'dietary_water',
          units: 'mL',
          data: [
            { date: '2026-05-10 08:00:00 +0200', qty: 250, source: 'App' },
            { date: '2026-05-10 12:00:00 +0200', qty: 0.5, units: 'L', source: 'App' },
          ],
        },
      ]),
    );
    expect(r.body.warnings ?? []).toEqual([]);
    expect(await srv.rows('water')).toEqual([{ date: '2026-05-10', ml: 750 }]);
  });

  it('a quantity written as {qty, units}', async () => {
    srv = await startIngestServer({
      cards: [
        ['weight', 'weight_body_mass'],
        ['steps', 'step_count'],
      ],
    });
    const r = await srv.push(
      push([
        {
          name: 'weight_body_mass',
          units: 'lb',
          data: [{ date: '2026-05-10 07:00:00 +0200', qty: { qty: 155, units: 'lb' }, source: 'Scale' }],
        },
        {
          name: 'step_count',
          units: 'count',
          data: [{ date: '2026-05-10 00:00:00 +0200', qty: { qty: '8000' }, source: 'iPhone' }],
        },
      ]),
    );
    expect(r.body.warnings ?? []).toEqual([]);
    expect(await srv.rows('weight')).toEqual([{ date: '2026-05-10', kg: 70.31 }]);
    expect(await srv.rows('steps')).toEqual([{ date: '2026-05-10', count: 8000 }]);
  });

  it('the parts of a reading written as {qty, units}: a blood pressure, a heart rate', async () => {
    srv = await startIngestServer({
      cards: [
        ['bp', 'blood_pressure'],
        ['heart', 'heart_rate'],
      ],
    });
    const r = await srv.push(
      push([
        {
          name: 'blood_pressure',
          units: 'mmHg',
          data: [
            {
              date: '2026-05-10 07:00:00 +0200',
              systolic: { qty: 120, units: 'mmHg' },
              diastolic: { qty: 80, units: 'mmHg' },
              source: 'Cuff',
            },
            // in kPa: read in the unit the parts name
            {
              date: '2026-05-11 07:00:00 +0200',
              systolic: { value: 16, unit: 'kPa' },
              diastolic: { value: 10.7, unit: 'kPa' },
              source: 'Cuff',
            },
          ],
        },
        {
          name: 'heart_rate',
          units: 'count/min',
          data: [
            {
              date: '2026-05-10 09:00:00 +0200',
              Min: { qty: 52, units: 'count/min' },
              Avg: { qty: 61, units: 'count/min' },
              Max: { qty: 97, units: 'count/min' },
            },
          ],
        },
      ]),
    );
    expect(r.status).toBe(200);
    expect(r.body.warnings ?? []).toEqual([]);
    expect(await srv.rows('bp')).toEqual([
      { date: '2026-05-10', systolic: 120, diastolic: 80 },
      { date: '2026-05-11', systolic: 120, diastolic: 80 },
    ]);
    expect(await srv.rows('heart')).toEqual([{ date: '2026-05-10', min: 52, avg: 61, max: 97 }]);
  });

  it('a quantity named value, as HealthKit readers name it; a value that is a word is no quantity', async () => {
    srv = await startIngestServer({
      cards: [
        ['resting', 'resting_heart_rate'],
        ['weight', 'weight_body_mass'],
        ['hands', 'handwashing'],
      ],
    });
    const r = await srv.push(
      push([
        {
          name: 'resting_heart_rate',
          units: 'count/min',
          data: [
            { date: '2026-05-10 07:00:00 +0200', value: 55 },
            { date: '2026-05-11 07:00:00 +0200', value: '54' },
          ],
        },
        {
          name: 'weight_body_mass',
          data: [
            { date: '2026-05-10 07:00:00 +0200', value: '155 lb' },
            { date: '2026-05-11 07:00:00 +0200', qty: { value: 70.5, unit: 'kg' } },
          ],
        },
        {
          name: 'handwashing',
          units: 's',
          data: [
            // the app's own shape: the seconds in qty, how it went in value
            { date: '2026-05-10 08:00:00 +0200', qty: 25, value: 'Complete' },
          ],
        },
      ]),
    );
    expect(r.status).toBe(200);
    expect(r.body.warnings ?? []).toEqual([]);
    expect(await srv.rows('resting')).toEqual([
      { date: '2026-05-10', bpm: 55 },
      { date: '2026-05-11', bpm: 54 },
    ]);
    expect(await srv.rows('weight')).toEqual([
      { date: '2026-05-10', kg: 70.31 },
      { date: '2026-05-11', kg: 70.5 },
    ]);
    expect(await srv.rows('hands')).toEqual([{ date: '2026-05-10', seconds: 25 }]);
  });
});
