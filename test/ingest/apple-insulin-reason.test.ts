/**
 * Insulin a pump delivers, in an Apple Health export: a basal and a bolus given at one instant
 * (HKQuantityTypeIdentifierInsulinDelivery records with the same times, told apart by their
 * HKInsulinDeliveryReason metadata, 1 basal, 2 bolus) are two doses, both counted, as a push naming
 * their `reason` counts them. Before, the import read no reason and took them for two versions of
 * one reading, so the day lost the basal.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

function dose(value: string, reason: string | undefined, at: string): string {
  const head = ` <Record type="HKQuantityTypeIdentifierInsulinDelivery" sourceName="Loop" sourceVersion="3.4" unit="IU" creationDate="${at}" startDate="${at}" endDate="${at}" value="${value}"`;
  return reason === undefined
    ? `${head}/>`
    : `${head}>\n  <MetadataEntry key="HKInsulinDeliveryReason" value="${reason}"/>\n </Record>`;
}

function exportOf(records: string[]): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<HealthData locale="en_US">',
    ...records,
    '</HealthData>',
    '',
  ].join('\n');
}

describe('insulin delivered at one instant from an Apple Health export', () => {
  it('a basal and a bolus are two doses, each counted once however often imported', async () => {
    const s = await startIngestServer({ cards: [['insulin', 'insulin_delivery']] });
    srv = s;
    const xml = exportOf([
      dose('0.5', '1', '2026-06-01 08:00:00 +0200'),
      dose('3', '2', '2026-06-01 08:00:00 +0200'),
      dose('4', '2', '2026-06-01 12:30:00 +0200'),
    ]);
    const r = await s.importExport(xml);
    expect(r.status, r.text).toBe(200);
    expect(await s.rows('insulin')).toEqual([{ date: '2026-06-01', iu: 7.5 }]);
    const again = await s.importExport(xml);
    expect(again.body.newSamples).toBe(0);
    expect(await s.rows('insulin')).toEqual([{ date: '2026-06-01', iu: 7.5 }]);
  });

  it('imported again over the doses an earlier import stored without their reason, still once each', async () => {
    const s = await startIngestServer({ cards: [['insulin', 'insulin_delivery']] });
    srv = s;
    const doses: [string, string, string][] = [
      ['0.5', '1', '2026-06-01 08:00:00 +0200'],
      ['3', '2', '2026-06-01 08:00:00 +0200'],
      ['4', '2', '2026-06-01 12:30:00 +0200'],
    ];
    // what an import stored before the reason was read: the same records, no reason
    await s.importExport(exportOf(doses.map(([v, , at]) => dose(v, undefined, at))));
    const r = await s.importExport(exportOf(doses.map(([v, reason, at]) => dose(v, reason, at))));
    expect(r.status, r.text).toBe(200);
    expect(await s.rows('insulin')).toEqual([{ date: '2026-06-01', iu: 7.5 }]);
  });
});
