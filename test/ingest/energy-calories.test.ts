/**
 * Energy in each unit HealthKit writes, pushed through the real webhook and imported from a real
 * Apple Health export: `kcal`; `Cal` (the large calorie, what the Health app calls Calories) is
 * the same; `kJ` is a 4.184th of it; and `cal`, the small calorie, a thousandth of a kcal, never
 * read as if it were one.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { exportXml, healthRecord, type IngestServer, metricsPush, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

/** One day's food energy in `units`, logged at noon on `day`. */
function eaten(day: string, units: string, qty: number) {
  return { name: 'dietary_energy', units, data: [{ date: `${day} 12:00:00 +0200`, qty, source: 'Food' }] };
}

describe('energy units', () => {
  it('a push in kcal, Cal, kJ and cal is read in kcal each', async () => {
    srv = await startIngestServer({ cards: [['food', 'dietary_energy']] });
    const r = await srv.push(
      metricsPush([
        eaten('2026-05-01', 'kcal', 2100),
        eaten('2026-05-02', 'Cal', 2100),
        eaten('2026-05-03', 'kJ', 8786.4),
        eaten('2026-05-04', 'cal', 2_100_000),
      ]),
    );
    expect(r.status).toBe(200);
    expect(r.body.warnings ?? []).toEqual([]);
    expect(await srv.rows('food')).toEqual([
      { date: '2026-05-01', kcal: 2100 },
      { date: '2026-05-02', kcal: 2100 },
      { date: '2026-05-03', kcal: 2100 },
      { date: '2026-05-04', kcal: 2100 },
    ]);
  });

  it('an export’s records in Cal and cal are read as large and small calories', async () => {
    srv = await startIngestServer({ cards: [['burned', 'active_energy']] });
    const at = (day: string, time: string) => `${day} ${time} +0200`;
    const record = (day: string, unit: string, value: string) =>
      healthRecord({
        type: 'HKQuantityTypeIdentifierActiveEnergyBurned',
        source: 'Watch',
        unit,
        start: at(day, '09:00:00'),
        end: at(day, '09:30:00'),
        value,
      });
    const r = await srv.importExport(
      exportXml([record('2026-05-05', 'Cal', '250'), record('2026-05-06', 'cal', '250000')]),
    );
    expect(r.status).toBe(200);
    expect(await srv.rows('burned')).toEqual([
      { date: '2026-05-05', kcal: 250 },
      { date: '2026-05-06', kcal: 250 },
    ]);
  });
});
