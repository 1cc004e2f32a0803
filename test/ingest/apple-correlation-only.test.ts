/**
 * Blood pressure inside a `<Correlation>`: the DTD says each half is also a top-level record, and
 * then the reading is stored once; a trimmed or hand-made export that has the halves only inside
 * the correlation is not dropped in silence, its readings are stored too. Two readings of one
 * instant from one cuff keep their own halves, in whatever order the export lists them.
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

describe('two blood pressure readings of one instant and one cuff', () => {
  it('are two readings, each with its own halves, however the export orders them', async () => {
    const s = await startIngestServer();
    srv = s;
    const next = '2024-11-05 07:40:00 -0500';
    // the export lists its records by type: both systolic halves, then both diastolic ones
    const r = await s.importExport(
      doc(
        [
          half('Systolic', 121),
          half('Systolic', 142),
          half('Diastolic', 79),
          half('Diastolic', 95),
          correlation(121, 79),
          correlation(142, 95),
          // only inside their correlations, listed diastolic first
          correlation(118, 76, next),
          correlation(131, 88, next),
        ].join('\n'),
      ),
    );
    expect(r.status, r.text).toBe(200);
    expect(r.body.newSamples).toBe(4);
    const readings = s.inst.hae.samples
      .samplesFor('blood_pressure', ['2024-11-03', '2024-11-05'])
      .map((x) => x.values)
      .sort((a, b) => Number(a.systolic) - Number(b.systolic));
    expect(readings).toEqual([
      { systolic: 118, diastolic: 76 },
      { systolic: 121, diastolic: 79 },
      { systolic: 131, diastolic: 88 },
      { systolic: 142, diastolic: 95 },
    ]);
  });
});
