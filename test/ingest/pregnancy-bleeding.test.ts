/**
 * Bleeding logged in the Health app's cycle tracking while pregnant or after a pregnancy (iOS 18:
 * HKCategoryTypeIdentifierBleedingDuringPregnancy and …BleedingAfterPregnancy, levels named as
 * the flow's, HKCategoryValueVaginalBleedingLight) fills a metric each, `bleeding_during_pregnancy`
 * and `bleeding_after_pregnancy` ({date, logged}), apart from `menstrual_flow`: it is no period.
 * After menopause (iOS 27, …BleedingAfterMenopause) likewise on `bleeding_after_menopause`.
 * A record of no bleeding is no such day. Before, an export's records were counted as types with no
 * metric and not stored, and a push's cycleTracking entries of these kinds were left out.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { exportXml, healthRecord, type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const CARDS: [string, string][] = [
  ['during', 'bleeding_during_pregnancy'],
  ['after', 'bleeding_after_pregnancy'],
  ['menopause', 'bleeding_after_menopause'],
  ['flow', 'menstrual_flow'],
];

function rec(type: string, value: string, day: string): string {
  const start = `${day} 00:00:00 +0100`;
  const end = `${day} 23:59:59 +0100`;
  return healthRecord({
    type: `HKCategoryTypeIdentifier${type}`,
    value,
    start,
    end,
    created: start,
    sourceVersion: '18.1',
  });
}

describe('bleeding during and after a pregnancy', () => {
  it('from an Apple Health export: the days logged, each on its own metric, none on the period', async () => {
    const s = await startIngestServer({ cards: CARDS });
    srv = s;
    const xml = exportXml(
      [
        rec('BleedingDuringPregnancy', 'HKCategoryValueVaginalBleedingLight', '2025-03-10'),
        rec('BleedingDuringPregnancy', 'HKCategoryValueVaginalBleedingNone', '2025-03-11'),
        rec('BleedingAfterPregnancy', 'HKCategoryValueVaginalBleedingHeavy', '2025-11-02'),
        rec('BleedingAfterPregnancy', 'HKCategoryValueVaginalBleedingUnspecified', '2025-11-03'),
        // iOS 27
        rec('BleedingAfterMenopause', 'HKCategoryValueVaginalBleedingLight', '2027-10-04'),
      ],
      { locale: 'en_GB' },
    );
    const r = await s.importExport(xml);
    expect(r.status, r.text).toBe(200);
    expect(r.body.unmappedTypes).toEqual({});
    expect(await s.rows('during')).toEqual([{ date: '2025-03-10', logged: true }]);
    expect(await s.rows('after')).toEqual([
      { date: '2025-11-02', logged: true },
      { date: '2025-11-03', logged: true },
    ]);
    expect(await s.rows('menopause')).toEqual([{ date: '2027-10-04', logged: true }]);
    expect(await s.rows('flow')).toEqual([]);
  });

  it("from a push's cycleTracking section", async () => {
    const s = await startIngestServer({ cards: CARDS });
    srv = s;
    const entry = (name: string, value: string, start: string) => ({ name, value, start, end: start });
    const r = await s.push(
      JSON.stringify({
        data: {
          metrics: [],
          cycleTracking: [
            entry('Bleeding During Pregnancy', 'Light', '2025-03-10 00:00:00 +0100'),
            entry('Bleeding After Pregnancy', 'Medium', '2025-11-02 00:00:00 +0100'),
            entry('Menstrual Flow', 'Medium', '2026-01-05 00:00:00 +0100'),
          ],
        },
      }),
    );
    expect(r.status, r.text).toBe(200);
    expect(r.body.warnings).toBeUndefined();
    expect(await s.rows('during')).toEqual([{ date: '2025-03-10', logged: true }]);
    expect(await s.rows('after')).toEqual([{ date: '2025-11-02', logged: true }]);
    expect(await s.rows('flow')).toEqual([{ date: '2026-01-05', logged: true }]);
  });
});
