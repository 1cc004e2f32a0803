/**
 * Metric blocks named by their HealthKit identifier (`HKQuantityTypeIdentifierStepCount`,
 * `HKCategoryTypeIdentifierSleepAnalysis`, or the identifier without its prefix), as scripts and
 * exporters that read HealthKit name them, fill the cards of the metrics the Apple Health import
 * maps the same identifiers to, and are stored under the catalogue's key, so the same sample sent
 * under either name is stored once.
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

describe('blocks named by HealthKit identifiers', () => {
  it('fill the cards of their metrics, in the units they are sent in', async () => {
    srv = await startIngestServer({
      cards: [
        ['steps', 'step_count'],
        ['weight', 'weight_body_mass'],
        ['heart', 'heart_rate'],
        ['energy', 'active_energy'],
        ['oxygen', 'blood_oxygen_saturation'],
        ['sleep', 'sleep_analysis'],
        ['mindful', 'mindful_minutes'],
      ],
    });
    const r = await srv.push(
      push([
        {
          name: 'HKQuantityTypeIdentifierStepCount',
          units: 'count',
          data: [
            { date: '2026-05-10 09:00:00 +0200', qty: 1200, source: 'iPhone' },
            { date: '2026-05-10 18:00:00 +0200', qty: 800, source: 'iPhone' },
          ],
        },
        {
          name: 'HKQuantityTypeIdentifierBodyMass',
          units: 'lb',
          data: [{ date: '2026-05-10 07:00:00 +0200', qty: 155, source: 'Scale' }],
        },
        {
          name: 'HKQuantityTypeIdentifierHeartRate',
          units: 'count/min',
          data: [
            { date: '2026-05-10 09:00:00 +0200', qty: 60, source: 'Watch' },
            { date: '2026-05-10 10:00:00 +0200', qty: 80, source: 'Watch' },
          ],
        },
        {
          name: 'ActiveEnergyBurned',
          units: 'kcal',
          data: [{ date: '2026-05-10 09:00:00 +0200', qty: 250, source: 'Watch' }],
        },
        {
          name: 'hkquantitytypeidentifieroxygensaturation',
          units: '%',
          data: [{ date: '2026-05-10 03:00:00 +0200', qty: 0.97, source: 'Watch' }],
        },
        {
          name: 'HKCategoryTypeIdentifierSleepAnalysis',
          units: 'hr',
          data: [
            {
              startDate: '2026-05-09 23:00:00 +0200',
              endDate: '2026-05-10 03:00:00 +0200',
              value: 'HKCategoryValueSleepAnalysisAsleepCore',
              source: 'Watch',
            },
            {
              startDate: '2026-05-10 03:00:00 +0200',
              endDate: '2026-05-10 04:30:00 +0200',
              value: 'HKCategoryValueSleepAnalysisAsleepDeep',
              source: 'Watch',
            },
          ],
        },
        {
          name: 'HKCategoryTypeIdentifierMindfulSession',
          units: 'min',
          data: [
            { date: '2026-05-10 12:00:00 +0200', qty: 10, source: 'Breathe' },
            // a category sample: a span with no quantity counts its length
            {
              startDate: '2026-05-10 21:00:00 +0200',
              endDate: '2026-05-10 21:05:30 +0200',
              value: 'HKCategoryValueNotApplicable',
              source: 'Breathe',
            },
          ],
        },
      ]),
    );
    expect(r.status).toBe(200);
    expect(r.body.warnings ?? []).toEqual([]);
    expect(r.body.availableUnsubscribed).toEqual([]);
    expect(await srv.rows('steps')).toEqual([{ date: '2026-05-10', count: 2000 }]);
    expect(await srv.rows('weight')).toEqual([{ date: '2026-05-10', kg: 70.31 }]);
    expect(await srv.rows('heart')).toEqual([{ date: '2026-05-10', min: 60, avg: 70, max: 80 }]);
    expect(await srv.rows('energy')).toEqual([{ date: '2026-05-10', kcal: 250 }]);
    expect(await srv.rows('oxygen')).toEqual([{ date: '2026-05-10', pct: 97 }]);
    expect(await srv.rows('sleep')).toMatchObject([{ date: '2026-05-10', hours: 5.5, core: 4, deep: 1.5 }]);
    expect(await srv.rows('mindful')).toEqual([{ date: '2026-05-10', minutes: 15.5 }]);
  });

  it('the halves of blood pressure fill one reading', async () => {
    srv = await startIngestServer({ cards: [['bp', 'blood_pressure']] });
    const at = '2026-05-10 08:00:00 +0200';
    const r = await srv.push(
      push([
        {
          name: 'HKQuantityTypeIdentifierBloodPressureSystolic',
          units: 'mmHg',
          data: [{ date: at, qty: 121, source: 'Omron' }],
        },
        {
          name: 'HKQuantityTypeIdentifierBloodPressureDiastolic',
          units: 'mmHg',
          data: [{ date: at, qty: 79, source: 'Omron' }],
        },
      ]),
    );
    expect(r.status).toBe(200);
    expect(r.body.warnings ?? []).toEqual([]);
    expect(await srv.rows('bp')).toEqual([{ date: '2026-05-10', systolic: 121, diastolic: 79 }]);
  });

  it('a sample sent under the identifier and under the key is stored once; the identifier is no discovery', async () => {
    srv = await startIngestServer();
    const point = { date: '2026-05-11 09:00:00 +0200', qty: 4321, source: 'iPhone' };
    const first = await srv.push(push([{ name: 'step_count', units: 'count', data: [point] }]));
    expect(first.body.samples).toEqual({ received: 1, new: 1 });
    const again = await srv.push(
      push([{ name: 'HKQuantityTypeIdentifierStepCount', units: 'count', data: [point] }]),
    );
    expect(again.body.samples).toEqual({ received: 1, new: 0 });
    expect(again.body.availableUnsubscribed).toEqual(['step_count']);
    const d = await srv.api('/api/health-auto-export/discoveries');
    expect(JSON.stringify(d.body)).not.toMatch(/hkquantity/i);
  });

  it('a card may name its metric by the identifier', async () => {
    srv = await startIngestServer();
    await srv.createCard({
      $schema: 'klebb.datafile.v1',
      meta: {
        id: 'steps',
        label: 'Steps',
        ingest: { source: 'hae', metric: 'HKQuantityTypeIdentifierStepCount' },
        writeable: { fromWebapp: false },
      },
    });
    await srv.push(
      push([
        {
          name: 'step_count',
          units: 'count',
          data: [{ date: '2026-05-12 00:00:00 +0200', qty: 9000, source: 'iPhone' }],
        },
      ]),
    );
    expect(await srv.rows('steps')).toEqual([{ date: '2026-05-12', count: 9000 }]);
  });
});
