/**
 * The first Health app exports (iOS 8, 2014–2015) wrote every date in a compact spelling,
 * `20150616071916-0700`, and named a record's app or device `source`. An import of such a file
 * stores its readings on the local dates written in them, as it does for the spelling of later
 * exports, and counts the readings of two devices of one walk once, by their source.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const record = (start: string, end: string, value: number) =>
  ` <Record type="HKQuantityTypeIdentifierStepCount" sourceName="iPhone" unit="count" startDate="${start}" endDate="${end}" value="${value}"/>`;

const EXPORT = `<?xml version="1.0" encoding="UTF-8"?>
<HealthData locale="en_US">
 <ExportDate value="20150617080000-0700"/>
${record('20150616071916-0700', '20150616072416-0700', 120)}
${record('20150616231000-0700', '20150616232000-0700', 30)}
${record('20150617000500-0700', '20150617001000-0700', 45)}
</HealthData>
`;

describe('an export of the first Health app', () => {
  it('reads its compact dates and fills the card by local date', async () => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    const r = await srv.importExport(EXPORT);
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ ok: true, records: 3, newSamples: 3 });
    expect(r.body.warnings ?? []).toEqual([]);
    expect(await srv.rows('steps')).toEqual([
      { date: '2015-06-16', count: 150 },
      { date: '2015-06-17', count: 45 },
    ]);
  });
});

/**
 * iOS 8.3 named a record's app or device `source` (later `sourceName`), and wrote a Withings
 * scale's metadata as attributes whose names hold spaces (not XML).
 */
const IOS8 = `<?xml version="1.0" encoding="UTF-8"?>
<HealthData locale="de_DE">
 <ExportDate value="20150617080000+0200"/>
 <Record type="HKQuantityTypeIdentifierStepCount" source="Annas iPhone" unit="count" startDate="20150616090000+0200" endDate="20150616091000+0200" value="500"/>
 <Record type="HKQuantityTypeIdentifierStepCount" source="Annas Apple Watch" unit="count" startDate="20150616090000+0200" endDate="20150616091000+0200" value="480"/>
 <Record type="HKQuantityTypeIdentifierStepCount" source="Annas iPhone" unit="count" startDate="20150616120000+0200" endDate="20150616121000+0200" value="300"/>
 <Record type="HKQuantityTypeIdentifierStepCount" source="Annas Apple Watch" unit="count" startDate="20150616120000+0200" endDate="20150616121000+0200" value="350"/>
 <Record type="HKQuantityTypeIdentifierBodyMass" source="Withings" unit="kg" creationDate="20150616071916+0200" startDate="20150616071820+0200" endDate="20150616071820+0200" Health Mate App Version="2.6.0" HKDeviceSerialNumber="00000" Modified Date="2015-06-16 05:19:08 +0000" HKWasUserEntered="0" value="72.4"/>
</HealthData>
`;

describe('an export of iOS 8, with `source` for sourceName', () => {
  it('counts the phone and the watch of one day once, and reads the scale past its attributes with spaces', async () => {
    srv = await startIngestServer({
      cards: [
        ['steps', 'step_count'],
        ['weight', 'weight_body_mass'],
      ],
    });
    const r = await srv.importExport(IOS8);
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ ok: true, records: 5, newSamples: 5 });
    // the phone 500 + 300 = 800, the watch 480 + 350 = 830 of the same walks: the larger, not a
    // mix of the two (read without their sources, the four were one source's, 850)
    expect(await srv.rows('steps')).toEqual([{ date: '2015-06-16', count: 830 }]);
    expect(await srv.rows('weight')).toEqual([{ date: '2015-06-16', kg: 72.4 }]);
  });
});
