/**
 * Blood pressure inside a `<Correlation>`: the DTD says each half is also a top-level record, and
 * then the reading is stored once; a trimmed or hand-made export that has the halves only inside
 * the correlation is not dropped in silence, its readings are stored too.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const AT = '2024-11-03 07:41:00 -0500';
function half(kind: 'Systolic' | 'Diastolic', value: number, at = AT): string {
  return `<Record type="HKQuantityTypeIdentifierBloodPressure${kind}" sourceName="Cuff Ü" sourceVersion="2.4" unit="mmHg" creationDate="${at}" startDate="${at}" endDate="${at}" value="${value}"><MetadataEntry key="HKWasUserEntered" value="1"/></Record>`;
}
function correlation(sys: number, dia: number, at = AT): string {
  return `<Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="Cuff Ü" creationDate="${at}" startDate="${at}" endDate="${at}"><MetadataEntry key="HKWasUserEntered" value="1"/>${half('Diastolic', dia, at)}${half('Systolic', sys, at)}</Correlation>`;
}
const doc = (body: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<HealthData locale="en_CA">\n<ExportDate value="2024-11-10 10:00:00 -0500"/>\n${body}\n</HealthData>\n`;

describe('blood pressure in a Correlation', () => {
  it('is stored once when its halves are at top level too, and read when they are not', async () => {
    const s = await startIngestServer();
    srv = s;
    const both = await s.importExport(
      doc(`${half('Systolic', 121)}${half('Diastolic', 79)}${correlation(121, 79)}`),
    );
    expect(both.status, both.text).toBe(200);
    expect(s.inst.hae.samples.count('blood_pressure')).toBe(1);

    const later = '2024-11-04 07:40:00 -0500';
    const only = await s.importExport(doc(`${correlation(133, 84, later)}`));
    expect(only.status, only.text).toBe(200);
    expect(only.body.newSamples).toBe(1);
    expect(s.inst.hae.samples.count('blood_pressure')).toBe(2);
  });
});
