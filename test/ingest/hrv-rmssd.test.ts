/**
 * iOS 27 records a second heart rate variability beside SDNN: RMSSD, the watch's "Recovery HRV"
 * (HKQuantityTypeIdentifierHeartRateVariabilityRMSSD, in ms). The two are different statistics of
 * the beats (an RMSSD of 20 ms next to an SDNN of 40 ms is usual), so each fills its own metric
 * and neither is averaged into the other; before, the export's RMSSD records were types with no
 * metric, and a push's RMSSD block could fill no card.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { exportXml, healthRecord, type IngestServer, metricsPush, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const Q = 'HKQuantityTypeIdentifier';

function rec(type: string, value: string, start: string, end: string): string {
  return healthRecord({ type: `${Q}${type}`, value, start, end, unit: 'ms', source: 'Apple Watch' });
}

const CARDS: [string, string][] = [
  ['hrv', 'heart_rate_variability'],
  ['recovery-hrv', 'heart_rate_variability_rmssd'],
];

describe('heart rate variability as RMSSD', () => {
  it('from an Apple Health export: its own metric, SDNN left as it was', async () => {
    const s = await startIngestServer({ cards: CARDS });
    srv = s;
    const xml = exportXml(
      [
        rec('HeartRateVariabilitySDNN', '40', '2026-09-23 03:00:00 +0200', '2026-09-23 03:01:00 +0200'),
        rec('HeartRateVariabilitySDNN', '44', '2026-09-23 04:00:00 +0200', '2026-09-23 04:01:00 +0200'),
        rec('HeartRateVariabilityRMSSD', '20', '2026-09-23 18:00:00 +0200', '2026-09-23 18:01:00 +0200'),
        rec('HeartRateVariabilityRMSSD', '26', '2026-09-23 19:00:00 +0200', '2026-09-23 19:01:00 +0200'),
      ],
      { exportDate: '2026-09-25 10:00:00 +0200' },
    );
    const r = await s.importExport(xml);
    expect(r.status, r.text).toBe(200);
    expect(r.body.unmappedTypes).toEqual({});
    expect(await s.rows('hrv')).toEqual([{ date: '2026-09-23', ms: 42 }]);
    expect(await s.rows('recovery-hrv')).toEqual([{ date: '2026-09-23', ms: 23 }]);
  });

  it('pushed under its own name, its HealthKit name or its name in the app', async () => {
    const s = await startIngestServer({ cards: CARDS });
    srv = s;
    const block = (name: string, qty: number, date: string) => ({
      name,
      units: 'ms',
      data: [{ date, qty, source: 'Apple Watch' }],
    });
    const r = await s.push(
      metricsPush([
        block('heart_rate_variability', 40, '2026-09-22 03:00:00 +0200'),
        block('heart_rate_variability_rmssd', 20, '2026-09-22 18:00:00 +0200'),
        block(`${Q}HeartRateVariabilityRMSSD`, 18, '2026-09-23 18:00:00 +0200'),
        block('Heart Rate Variability (RMSSD)', 22, '2026-09-24 18:00:00 +0200'),
      ]),
    );
    expect(r.status, r.text).toBe(200);
    expect(await s.rows('hrv')).toEqual([{ date: '2026-09-22', ms: 40 }]);
    expect(await s.rows('recovery-hrv')).toEqual([
      { date: '2026-09-22', ms: 20 },
      { date: '2026-09-23', ms: 18 },
      { date: '2026-09-24', ms: 22 },
    ]);
  });
});
