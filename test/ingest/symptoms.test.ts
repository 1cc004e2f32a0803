/**
 * Symptoms a person logs in the Health app (a headache, fatigue, nausea) fill the `symptoms`
 * metric, one per symptom felt, whether they come from an Apple Health export (each symptom is a
 * category record of its own type) or from a Health Auto Export push (its `symptoms` section).
 * A symptom logged as absent ("Not Present") is not one felt.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { HAE_INLINE_MAX_BYTES } from '../../src/ingest/hae/env.js';
import { exportXml, healthRecord, type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const C = 'HKCategoryTypeIdentifier';

function rec(type: string, value: string, start: string, end = start): string {
  return healthRecord({ type: `${C}${type}`, value, start, end, sourceVersion: '17.4' });
}

describe('symptoms from an Apple Health export', () => {
  it('count the symptoms felt each day; one logged as not present is not counted', async () => {
    const s = await startIngestServer({ cards: [['symptoms', 'symptoms']] });
    srv = s;
    const xml = exportXml(
      [
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
      ],
      { locale: 'en_GB' },
    );
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

describe('symptoms pushed by Health Auto Export', () => {
  const entry = (start: string, name: string, severity: string) => ({
    start,
    end: start,
    name,
    severity,
    userEntered: true,
    source: 'Health',
  });
  const symptoms = [
    entry('2026-05-19 08:00:00 +0100', 'Headache', 'Mild'),
    entry('2026-05-19 13:30:00 +0100', 'Fatigue', 'Present'),
    // logged for the day, at midnight: one symptom, not a daily total
    entry('2026-05-20 00:00:00 +0100', 'Nausea', 'Severe'),
    // a severity in the phone's language is still a symptom felt
    entry('2026-05-20 09:00:00 +0100', 'Coughing', 'Mäßig'),
    entry('2026-05-21 09:00:00 +0100', 'Headache', 'Not Present'),
  ];
  const rows = [
    { date: '2026-05-19', count: 2 },
    { date: '2026-05-20', count: 2 },
  ];

  it('fill the symptoms card from the section beside the metrics, once however often sent', async () => {
    const s = await startIngestServer({ cards: [['symptoms', 'symptoms']] });
    srv = s;
    const r = await s.push(JSON.stringify({ data: { metrics: [], workouts: [], symptoms } }));
    expect(r.status, r.text).toBe(200);
    expect(r.body.samples).toEqual({ received: 4, new: 4 });
    expect(r.body.warnings).toEqual([
      'symptoms: symptom logged as not present, not counted (1 point, e.g. "Not Present")',
    ]);
    expect(await s.rows('symptoms')).toEqual(rows);
    const again = await s.push(JSON.stringify({ symptoms: symptoms.slice(0, 2) }));
    expect(again.body.samples).toEqual({ received: 2, new: 0 });
    expect(again.body.warnings ?? []).toEqual([]);
    expect(await s.rows('symptoms')).toEqual(rows);
  });

  it('fill it the same from a body streamed for its size', async () => {
    const s = await startIngestServer({ cards: [['symptoms', 'symptoms']] });
    srv = s;
    // minute-level steps make the body larger than what is read whole
    const steps = Array.from({ length: 70_000 }, (_, i) => ({
      date: `2026-05-19 ${String(Math.floor(i / 3600) % 24).padStart(2, '0')}:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')} +0100`,
      qty: 1,
      source: `Watch ${Math.floor(i / 86400)}`,
    }));
    const body = JSON.stringify({
      data: { symptoms, metrics: [{ name: 'step_count', units: 'count', data: steps }] },
    });
    expect(body.length).toBeGreaterThan(HAE_INLINE_MAX_BYTES);
    const r = await s.push(body);
    expect(r.status, r.text).toBe(200);
    expect(r.body.ok).toBe(true);
    expect(r.body.warnings).toContain(
      'symptoms: symptom logged as not present, not counted (1 point, e.g. "Not Present")',
    );
    expect(await s.rows('symptoms')).toEqual(rows);
  });
});
