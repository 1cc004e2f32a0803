/**
 * The cycle deviations the Health app detects from the periods logged (iOS 16 on: irregular,
 * infrequent or prolonged periods, persistent spotting), as an Apple Health export writes them,
 * through the real upload route: each counts once on its day on `cycle_deviation_notifications`
 * instead of being an unmapped type; the same records in a push's `cycleTracking` section, named
 * in words, fill the same metric instead of being named as a kind not read.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

function deviation(type: string, at: string): string {
  return ` <Record type="HKCategoryTypeIdentifier${type}" sourceName="Health" sourceVersion="16.4" creationDate="${at}" startDate="${at}" endDate="${at}" value="HKCategoryValueNotApplicable"/>`;
}

describe('cycle deviations in an Apple Health export', () => {
  it('count on their day, whichever kind', async () => {
    srv = await startIngestServer({ cards: [['deviations', 'cycle_deviation_notifications']] });
    const xml = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<HealthData locale="en_GB">',
      ' <ExportDate value="2023-06-01 09:00:00 +0100"/>',
      deviation('IrregularMenstrualCycles', '2023-05-02 10:00:00 +0100'),
      deviation('ProlongedMenstrualPeriods', '2023-05-02 10:00:00 +0100'),
      deviation('InfrequentMenstrualCycles', '2023-05-20 10:00:00 +0100'),
      deviation('PersistentIntermenstrualBleeding', '2023-05-28 10:00:00 +0100'),
      '</HealthData>',
    ].join('\n');
    const r = await srv.importExport(xml);
    expect(r.status, r.text).toBe(200);
    expect(r.body.unmappedTypes).toEqual({});
    expect(await srv.rows('deviations')).toEqual([
      { date: '2023-05-02', count: 2 },
      { date: '2023-05-20', count: 1 },
      { date: '2023-05-28', count: 1 },
    ]);
  });

  it('pushed in the cycleTracking section, named in words', async () => {
    srv = await startIngestServer({ cards: [['deviations', 'cycle_deviation_notifications']] });
    const r = await srv.push(
      JSON.stringify({
        data: {
          cycleTracking: [
            { start: '2023-05-02 10:00:00 +0100', name: 'Irregular Menstrual Cycles' },
            { start: '2023-05-28 10:00:00 +0100', name: 'Persistent Intermenstrual Bleeding' },
          ],
        },
      }),
    );
    expect(r.status, r.text).toBe(200);
    expect(r.body.warnings ?? []).toEqual([]);
    expect(await srv.rows('deviations')).toEqual([
      { date: '2023-05-02', count: 1 },
      { date: '2023-05-28', count: 1 },
    ]);
  });
});
