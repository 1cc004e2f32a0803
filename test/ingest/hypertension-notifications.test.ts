/**
 * The hypertension notifications of Apple Watch (iOS 26.2: HKCategoryTypeIdentifierHypertensionEvent,
 * one record per notification the watch gave) are counted per day on
 * `hypertension_notifications`, as the watch's other screening notifications (high or low heart
 * rate, sleep apnea) are. Before, an export's records were counted as a type with no metric and
 * not stored, and a push naming the type filled no card.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { exportXml, healthRecord, type IngestServer, metricsPush, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const TYPE = 'HKCategoryTypeIdentifierHypertensionEvent';

function event(start: string, end: string): string {
  return healthRecord({
    type: TYPE,
    value: 'HKCategoryValueNotApplicable',
    start,
    end,
    source: 'Apple Watch',
    sourceVersion: '26.2',
  });
}

describe('hypertension notifications', () => {
  it('from an Apple Health export: one each, on its day', async () => {
    const s = await startIngestServer({ cards: [['pressure-alerts', 'hypertension_notifications']] });
    srv = s;
    const xml = exportXml(
      [
        event('2026-12-02 08:15:00 +0100', '2026-12-02 08:15:00 +0100'),
        event('2026-12-16 19:40:00 +0100', '2026-12-16 19:40:00 +0100'),
        event('2026-12-16 21:05:00 +0100', '2026-12-16 21:05:00 +0100'),
      ],
      { exportDate: '2026-12-20 10:00:00 +0100' },
    );
    const r = await s.importExport(xml);
    expect(r.status, r.text).toBe(200);
    expect(r.body.unmappedTypes).toEqual({});
    expect(r.body.warnings).toEqual([]);
    expect(await s.rows('pressure-alerts')).toEqual([
      { date: '2026-12-02', count: 1 },
      { date: '2026-12-16', count: 2 },
    ]);
    // the same export again adds nothing
    const again = await s.importExport(xml);
    expect(again.body.newSamples).toBe(0);
    expect(await s.rows('pressure-alerts')).toHaveLength(2);
  });

  it('pushed as a block named by its HealthKit type or its own name', async () => {
    const s = await startIngestServer({ cards: [['pressure-alerts', 'hypertension_notifications']] });
    srv = s;
    const block = (name: string, date: string) => ({
      name,
      units: 'count',
      data: [{ date, qty: 1, source: 'Apple Watch' }],
    });
    const r = await s.push(
      metricsPush([
        block(TYPE, '2026-12-02 08:15:00 +0100'),
        block('hypertension_notifications', '2026-12-03 09:00:00 +0100'),
      ]),
    );
    expect(r.status, r.text).toBe(200);
    expect(await s.rows('pressure-alerts')).toEqual([
      { date: '2026-12-02', count: 1 },
      { date: '2026-12-03', count: 1 },
    ]);
  });
});
