/**
 * Menstrual flow logged in the Health app, in an Apple Health export: a day with bleeding is
 * `logged` on `menstrual_flow`, whether the export names its level as iOS 17 and earlier did
 * (HKCategoryValueMenstrualFlowLight) or as iOS 18 does (HKCategoryValueVaginalBleedingLight); a
 * record of no flow is not such a day. The records were counted as a type with no metric.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { exportXml, healthRecord, type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

function rec(value: string, day: string): string {
  const start = `${day} 00:00:00 +0100`;
  const end = `${day} 23:59:59 +0100`;
  return healthRecord({
    type: 'HKCategoryTypeIdentifierMenstrualFlow',
    value,
    start,
    end,
    created: start,
    inner: '<MetadataEntry key="HKMenstrualCycleStart" value="0"/>',
  });
}

describe('menstrual flow from an Apple Health export', () => {
  it('logs the days with bleeding, in both names of its levels; a day of no flow is not one', async () => {
    const s = await startIngestServer({ cards: [['flow', 'menstrual_flow']] });
    srv = s;
    const xml = exportXml(
      [
        rec('HKCategoryValueMenstrualFlowMedium', '2024-02-01'),
        rec('HKCategoryValueMenstrualFlowUnspecified', '2024-02-02'),
        rec('HKCategoryValueMenstrualFlowNone', '2024-02-03'),
        rec('HKCategoryValueVaginalBleedingHeavy', '2025-03-10'),
        rec('HKCategoryValueVaginalBleedingNone', '2025-03-11'),
        rec('HKCategoryValueVaginalBleedingTorrential', '2025-03-12'),
      ],
      { locale: 'en_GB' },
    );
    const r = await s.importExport(xml);
    expect(r.status, r.text).toBe(200);
    expect(r.body.unmappedTypes).toEqual({});
    expect(await s.rows('flow')).toEqual([
      { date: '2024-02-01', logged: true },
      { date: '2024-02-02', logged: true },
      { date: '2025-03-10', logged: true },
    ]);
    expect((r.body.warnings as string[]).join('\n')).toMatch(
      /menstrual_flow: unknown menstrual flow value "HKCategoryValueVaginalBleedingTorrential"/,
    );
  });
});
