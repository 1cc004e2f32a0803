/**
 * The electrocardiograms of an Apple Health export.zip, through the real server: the Health app
 * writes each ECG recorded with the watch to `electrocardiograms/ecg_<day>.csv` beside
 * `export.xml` (a few `Key,Value` header lines, then the voltages), never into the XML. Each counts
 * once on its day on `ecg` by its classification, as a Health Auto Export push's recordings do;
 * headers in the phone's language (German keys, Spanish classification, decimal commas) read the
 * same; a `.csv` that is no ECG is passed over; a classification Klebb does not know is named in
 * a warning; importing the zip again adds nothing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type RawZipEntry, rawZip } from '../helpers/zip-bytes.js';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const EXPORT_XML = [
  '<?xml version="1.0" encoding="UTF-8"?>',
  '<HealthData locale="en_GB">',
  ' <ExportDate value="2026-03-31 20:00:00 +0100"/>',
  ' <Record type="HKQuantityTypeIdentifierStepCount" sourceName="iPhone" unit="count" creationDate="2026-03-02 09:00:00 +0100" startDate="2026-03-02 09:00:00 +0100" endDate="2026-03-02 09:10:00 +0100" value="800"/>',
  '</HealthData>',
  '',
].join('\n');

/** 30 s of voltages at 512 Hz, `comma`: with a decimal comma, as some phones write them. */
function voltages(comma = false): string[] {
  return Array.from({ length: 512 * 30 }, (_, i) => {
    const v = (Math.sin(i / 40) * 300).toFixed(3);
    return comma ? v.replace('.', ',') : v;
  });
}

/** An ECG file in English, as the Health app writes it. */
function ecgEnglish(recorded: string, classification: string): string {
  return [
    'Name,User',
    'Date of Birth,"Jan 15, 1990"',
    `Recorded Date,${recorded}`,
    `Classification,${classification}`,
    'Symptoms,',
    'Software Version,1.90',
    'Device,"Watch6,7"',
    'Sample Rate,512 hertz',
    '',
    '',
    'Lead,Lead I',
    'Unit,µV',
    '',
    '',
    ...voltages(),
    '',
  ].join('\n');
}

/** The same file from a German phone, with a Spanish classification and decimal commas. */
function ecgLocalised(recorded: string, classification: string): string {
  return [
    'Name,Benutzer',
    'Geburtsdatum,"15.01.1990"',
    `Aufnahmedatum,${recorded}`,
    `Klassifizierung,${classification}`,
    'Symptome,',
    'Softwareversion,1.90',
    'Gerät,"Watch6,7"',
    'Abtastrate,"512 Hertz"',
    '',
    'Ableitung,Ableitung I',
    'Einheit,µV',
    '',
    ...voltages(true),
    '',
  ].join('\r\n');
}

function exportZip(): Buffer {
  const top = 'apple_health_export/';
  const entries: RawZipEntry[] = [
    { name: top },
    { name: `${top}electrocardiograms/` },
    {
      name: `${top}electrocardiograms/ecg_2026-03-02.csv`,
      data: ecgEnglish('2026-03-02 08:15:41 +0100', 'Sinus Rhythm'),
    },
    {
      name: `${top}electrocardiograms/ecg_2026-03-02_1.csv`,
      data: ecgEnglish('2026-03-02 21:40:02 +0100', 'Atrial Fibrillation'),
    },
    {
      name: `${top}electrocardiograms/ecg_2026-03-03.csv`,
      data: ecgEnglish('2026-03-03 07:05:00 +0100', 'Inconclusive Poor Recording'),
    },
    {
      name: `${top}Elektrokardiogramme/ekg_2026-03-04.csv`,
      data: ecgLocalised('2026-03-04 23:30:00 +0100', 'Ritmo sinusal'),
    },
    {
      name: `${top}electrocardiograms/ecg_2026-03-05.csv`,
      data: ecgEnglish('2026-03-05 10:00:00 +0100', 'Wobbly'),
    },
    { name: `${top}export.xml`, data: EXPORT_XML },
    { name: `${top}export_cda.xml`, data: '<?xml version="1.0"?><ClinicalDocument/>' },
    // a .csv someone added that is no ECG
    { name: `${top}notes/weights.csv`, data: 'Date,Weight\n2026-03-01,71.2\n' },
  ];
  return rawZip(entries.map((e) => (e.data === undefined ? e : { ...e, descriptor: 'signed' as const })));
}

const upload = (s: IngestServer, body: Buffer) =>
  s.api('/api/apple-health/import', { method: 'POST', body, headers: { 'content-type': 'application/zip' } });

describe('electrocardiograms in export.zip', () => {
  it('count on their day by classification, in any language; again adds nothing', async () => {
    const s = await startIngestServer({
      cards: [
        ['ecg', 'ecg'],
        ['steps', 'step_count'],
      ],
    });
    srv = s;
    const zip = exportZip();
    const r = await upload(s, zip);
    expect(r.status, r.text).toBe(200);
    expect(r.body.warnings).toContain('ecg: unknown result, left out (1 point, e.g. "Wobbly")');
    expect(await s.rows('ecg')).toEqual([
      { date: '2026-03-02', sinusRhythm: 1, atrialFibrillation: 1 },
      { date: '2026-03-03', inconclusive: 1 },
      { date: '2026-03-04', sinusRhythm: 1 },
    ]);
    expect(await s.rows('steps')).toEqual([{ date: '2026-03-02', count: 800 }]);

    const again = await upload(s, zip);
    expect(again.status, again.text).toBe(200);
    expect(again.body.newSamples).toBe(0);
    expect(await s.rows('ecg')).toHaveLength(3);
  });

  it('a recording whose file has no classification counts as unclassified, not left out', async () => {
    const s = await startIngestServer({ cards: [['ecg', 'ecg']] });
    srv = s;
    const top = 'apple_health_export/electrocardiograms/';
    const localisedEmpty = ecgLocalised('2026-03-08 09:00:00 +0100', '').replace(
      'Klassifizierung,',
      'Einstufung,',
    );
    const zip = rawZip([
      { name: 'apple_health_export/export.xml', data: EXPORT_XML },
      // the watch did not classify it: the line is there, its value empty
      { name: `${top}ecg_2026-03-07.csv`, data: ecgEnglish('2026-03-07 08:15:41 +0100', '') },
      // the same under a key Klebb does not know, the classification read from the line after the date
      { name: `${top}ecg_2026-03-08.csv`, data: localisedEmpty },
      { name: `${top}ecg_2026-03-09.csv`, data: ecgEnglish('2026-03-09 08:15:41 +0100', 'Sinus Rhythm') },
    ]);
    const r = await upload(s, zip);
    expect(r.status, r.text).toBe(200);
    expect(r.body.warnings).toEqual([]);
    expect(await s.rows('ecg')).toEqual([
      { date: '2026-03-07', unclassified: 1 },
      { date: '2026-03-08', unclassified: 1 },
      { date: '2026-03-09', sinusRhythm: 1 },
    ]);
  });
});
