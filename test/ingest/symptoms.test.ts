/**
 * Symptoms a person logs in the Health app (a headache, fatigue, nausea) fill the `symptoms`
 * metric, one per symptom felt, whether they come from an Apple Health export (each symptom is a
 * category record of its own type) or from a Health Auto Export push (its `symptoms` section).
 * A symptom logged as absent ("Not Present") is not one felt.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const C = 'HKCategoryTypeIdentifier';

function rec(type: string, value: string, start: string, end = start): string {
  return ` <Record type="${C}${type}" sourceName="Health" sourceVersion="17.4" creationDate="${end}" startDate="${start}" endDate="${end}" value="${value}"/>`;
}

describe('symptoms from an Apple Health export', () => {
  it('count the symptoms felt each day; one logged as not present is not counted', async () => {
    const s = await startIngestServer({ cards: [['symptoms', 'symptoms']] });
    srv = s;
    const xml = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<HealthData locale="en_GB">',
      rec(
        'Headache',
        'HKCategoryValueSeverityModerate',
        '2026-03-04 08:15:00 +0000',
        '2026-03-04 11:00:00 +0000',
      ),
      rec('Fatigue', 'HKCategoryValueSeverityMild', '2026-03-04 14:00:00 +0000'),
      // logged for the whole day, from midnight: still one symptom, not a daily total
      rec(
        'Nausea',
        'HKCategoryValueSeverityUnspecified',
        '2026-03-05 00:00:00 +0000',
        '2026-03-05 23:59:59 +0000',
      ),
      rec('LowerBackPain', 'HKCategoryValueSeveritySevere', '2026-03-05 09:00:00 +0000'),
      rec('MoodChanges', 'HKCategoryValuePresencePresent', '2026-03-05 20:00:00 +0000'),
      // the person recorded that they had no headache that day
      rec('Headache', 'HKCategoryValueSeverityNotPresent', '2026-03-06 09:00:00 +0000'),
      rec('AppetiteChanges', 'HKCategoryValueAppetiteChangesNoChange', '2026-03-06 09:00:00 +0000'),
      rec('Coughing', 'HKCategoryValueSeverityExtreme', '2026-03-06 10:00:00 +0000'),
      '</HealthData>',
      '',
    ].join('\n');
    const r = await s.importExport(xml);
    expect(r.status, r.text).toBe(200);
    expect(r.body.unmappedTypes).toEqual({});
    expect(await s.rows('symptoms')).toEqual([
      { date: '2026-03-04', count: 2 },
      { date: '2026-03-05', count: 3 },
    ]);
    expect((r.body.warnings as string[]).join('\n')).toMatch(
      /symptoms: unknown symptom value "HKCategoryValueSeverityExtreme" \(1 point/,
    );
  });
});
