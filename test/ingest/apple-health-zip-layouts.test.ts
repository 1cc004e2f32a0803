/**
 * The Health app's export.zip as people upload it, laid out by the phone in other languages and by
 * the archivers it passed through on the way: the export entry named in the phone's language
 * (`Exportieren.xml`, `экспорт.xml`, ...) beside `export_cda.xml`, `workout-routes/`,
 * `electrocardiograms/` and `clinical-records/`; names written without the UTF-8 flag, or with
 * Windows backslashes; a Mac's `__MACOSX/` folder and `._` AppleDouble files; the folder zipped
 * again by Finder inside a folder of its own; sizes after the data (data descriptors, with and
 * without their signature); Zip64 records; stored rather than deflated. Each is uploaded to the
 * real server and must give the export's steps, nothing else read.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type RawZipEntry, rawZip } from '../helpers/zip-bytes.js';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

/** An export of `days` days of steps (1000 a day, 1–`days` March 2026). */
function exportXml(days: number): string {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<HealthData locale="de_DE">'];
  lines.push(' <ExportDate value="2026-03-31 20:00:00 +0200"/>');
  for (let d = 1; d <= days; d++) {
    const at = `2026-03-${String(d).padStart(2, '0')} 09:00:00 +0100`;
    lines.push(
      ` <Record type="HKQuantityTypeIdentifierStepCount" sourceName="iPhone" unit="count" creationDate="${at}" startDate="${at}" endDate="${at}" value="1000"/>`,
    );
  }
  lines.push('</HealthData>', '');
  return lines.join('\n');
}

/** A clinical document larger than the export (it is never the export, whatever its size). */
const CDA = `<?xml version="1.0"?>\n<ClinicalDocument xmlns="urn:hl7-org:v3">${'<entry><organizer/></entry>'.repeat(400)}</ClinicalDocument>\n`;
/** The bytes of a Mac's AppleDouble file (`._x`): a resource fork header, not XML. */
const APPLE_DOUBLE = Buffer.concat([
  Buffer.from([0x00, 0x05, 0x16, 0x07, 0x00, 0x02, 0x00, 0x00]),
  Buffer.from('Mac OS X        '),
  Buffer.alloc(60),
]);

/**
 * The entries of the Health app's export.zip, under `top` (`apple_health_export/`), the export
 * named `xmlName`: folders first, then the files, each with its sizes after the data as the phone
 * writes them.
 */
function phoneEntries(xmlName: string, days: number, top = 'apple_health_export/'): RawZipEntry[] {
  const files: RawZipEntry[] = [
    { name: top },
    { name: `${top}workout-routes/` },
    { name: `${top}electrocardiograms/` },
    { name: `${top}clinical-records/` },
    { name: `${top}${xmlName}`, data: exportXml(days) },
    { name: `${top}export_cda.xml`, data: CDA },
    {
      name: `${top}workout-routes/route_2026-03-01_9.00am.gpx`,
      data: '<?xml version="1.0"?><gpx><trk/></gpx>',
    },
    { name: `${top}electrocardiograms/ecg_2026-03-01.csv`, data: 'Name,User\nSample Rate,512 hertz\n' },
    { name: `${top}clinical-records/Observation-1.json`, data: '{"resourceType":"Observation"}' },
  ];
  return files.map((f) => (f.data === undefined ? f : { ...f, descriptor: 'signed' }));
}

const upload = (s: IngestServer, body: Buffer) =>
  s.api('/api/apple-health/import', { method: 'POST', body, headers: { 'content-type': 'application/zip' } });
const leftovers = (s: IngestServer) => fs.readdirSync(path.join(s.inst.hae.dirs.uploads));

/** Uploads `zip` and expects the export of `days` days read from it, nothing left behind. */
async function expectRead(s: IngestServer, zip: Buffer, days: number, label: string): Promise<void> {
  const r = await upload(s, zip);
  expect(r.status, `${label}: ${r.text}`).toBe(200);
  expect(r.body, label).toMatchObject({ ok: true, records: days, xmlErrors: 0, truncated: false });
  expect(r.body.exportDate, label).toBe('2026-03-31 20:00:00 +0200');
  expect(leftovers(s), label).toEqual([]);
}

describe('export.zip from a phone in another language', () => {
  it('is read from the export entry whatever the language named it, never export_cda.xml', async () => {
    const s = await startIngestServer({ cards: [['steps', 'step_count']] });
    srv = s;
    const names = [
      'export.xml',
      'Exportieren.xml',
      'exportar.xml',
      'exporter.xml',
      'esporta.xml',
      'экспорт.xml',
      'エクスポート.xml',
      '导出.xml',
      '내보내기.xml',
      'تصدير.xml',
      'vienti.xml',
    ];
    for (const [i, name] of names.entries()) {
      // one more day each time: each upload adds exactly its new day
      await expectRead(s, rawZip(phoneEntries(name, i + 1)), i + 1, name);
    }
    expect(await s.rows('steps')).toHaveLength(names.length);
  });

  it('a localized clinical document (экспорт_cda.xml) is not the export either', async () => {
    const s = await startIngestServer({ cards: [['steps', 'step_count']] });
    srv = s;
    const entries = phoneEntries('экспорт.xml', 2).map((e) =>
      e.name === 'apple_health_export/export_cda.xml'
        ? { ...e, name: 'apple_health_export/экспорт_cda.xml' }
        : e,
    );
    await expectRead(s, rawZip(entries), 2, 'экспорт_cda.xml');
  });

  it('names written without the UTF-8 flag (the archiver code page) and with Windows backslashes', async () => {
    const s = await startIngestServer({ cards: [['steps', 'step_count']] });
    srv = s;
    // экспорт.xml in code page 866, as an archiver on a Russian Windows writes it
    const cp866 = Buffer.concat([
      Buffer.from([0xed, 0xaa, 0xe1, 0xaf, 0xae, 0xe0, 0xe2]),
      Buffer.from('.xml'),
    ]);
    const flagless = phoneEntries('x', 2).map((e) =>
      e.name === 'apple_health_export/x'
        ? { ...e, name: Buffer.concat([Buffer.from('apple_health_export/'), cp866]) }
        : e,
    );
    await expectRead(s, rawZip(flagless), 2, 'cp866');
    const windows = phoneEntries('export.xml', 3).map((e) => ({
      ...e,
      name: Buffer.from(String(e.name).replace(/\//g, '\\')),
    }));
    await expectRead(s, rawZip(windows), 3, 'backslashes');
  });
});

describe('export.zip after a Mac or another archiver', () => {
  it('__MACOSX/ and ._ AppleDouble files beside the export are never read as it', async () => {
    const s = await startIngestServer({ cards: [['steps', 'step_count']] });
    srv = s;
    const entries: RawZipEntry[] = [
      ...phoneEntries('export.xml', 2),
      { name: 'apple_health_export/._export.xml', data: APPLE_DOUBLE },
      { name: 'apple_health_export/.DS_Store', data: Buffer.alloc(64, 1) },
      { name: '__MACOSX/' },
      { name: '__MACOSX/apple_health_export/' },
      { name: '__MACOSX/apple_health_export/._export.xml', data: APPLE_DOUBLE },
      { name: '__MACOSX/apple_health_export/._export_cda.xml', data: APPLE_DOUBLE },
    ];
    await expectRead(s, rawZip(entries), 2, '__MACOSX');
  });

  it('zipped again by Finder inside a folder of its own (one or two folders more) is read', async () => {
    const s = await startIngestServer({ cards: [['steps', 'step_count']] });
    srv = s;
    const once: RawZipEntry[] = [
      { name: 'Health export 2026/' },
      ...phoneEntries('export.xml', 2, 'Health export 2026/apple_health_export/'),
      { name: '__MACOSX/Health export 2026/apple_health_export/._export.xml', data: APPLE_DOUBLE },
    ];
    await expectRead(s, rawZip(once), 2, 'one folder more');
    const twice = phoneEntries('Exportieren.xml', 3, 'Downloads/export/apple_health_export/');
    await expectRead(s, rawZip(twice), 3, 'two folders more');
    // the export alone in a folder (the rest of the archive left behind)
    await expectRead(s, rawZip([{ name: 'export/export.xml', data: exportXml(4) }]), 4, 'export/export.xml');
    expect(await s.rows('steps')).toHaveLength(4);
  });

  it('Zip64 records, data descriptors with and without signature, a stored entry: all read', async () => {
    const s = await startIngestServer({ cards: [['steps', 'step_count']] });
    srv = s;
    const shapes: [string, (e: RawZipEntry) => RawZipEntry][] = [
      [
        'zip64 with descriptors',
        (e) => ({ ...e, zip64: true, descriptor: e.data === undefined ? undefined : 'signed' }),
      ],
      ['zip64, sizes in the header', (e) => ({ ...e, zip64: true, descriptor: undefined })],
      ['unsigned descriptors', (e) => (e.data === undefined ? e : { ...e, descriptor: 'unsigned' })],
      ['stored', (e) => ({ ...e, method: 0 })],
    ];
    for (const [i, [label, shape]] of shapes.entries())
      await expectRead(s, rawZip(phoneEntries('export.xml', i + 1).map(shape)), i + 1, label);
  });
});

describe('export.zip inside another zip', () => {
  it('is read from the export it holds (a folder downloaded from a cloud drive, a zip zipped again)', async () => {
    const s = await startIngestServer({ cards: [['steps', 'step_count']] });
    srv = s;
    const inner = rawZip(phoneEntries('export.xml', 2));
    const drive = rawZip([
      { name: 'Health/' },
      { name: 'Health/export.zip', data: inner, method: 0 },
      { name: 'Health/notes.txt', data: 'exported on my phone' },
      { name: '__MACOSX/Health/._export.zip', data: APPLE_DOUBLE },
    ]);
    await expectRead(s, drive, 2, 'export.zip in a folder download');
    // zipped again, deflated, the localized export inside
    await expectRead(
      s,
      rawZip([{ name: 'vienti.zip', data: rawZip(phoneEntries('vienti.xml', 3)) }]),
      3,
      'vienti.zip',
    );
  });

  it('two zips, or a zip in a zip in a zip, are 422 NOT_AN_EXPORT saying so; nothing stored or left', async () => {
    const s = await startIngestServer({ cards: [['steps', 'step_count']] });
    srv = s;
    const inner = rawZip(phoneEntries('export.xml', 2));
    const two = await upload(
      s,
      rawZip([
        { name: 'export.zip', data: inner },
        { name: 'export 2.zip', data: inner },
      ]),
    );
    expect(two.status, two.text).toBe(422);
    expect(two.body.code).toBe('NOT_AN_EXPORT');
    expect(two.body.error).toMatch(/2 zip archives \(export\.zip, export 2\.zip\)/);
    const deep = await upload(
      s,
      rawZip([{ name: 'a.zip', data: rawZip([{ name: 'export.zip', data: inner }]) }]),
    );
    expect(deep.status, deep.text).toBe(422);
    expect(deep.body.code).toBe('NOT_AN_EXPORT');
    expect(deep.body.error).toMatch(/only another zip \(export\.zip\)/);
    expect(s.inst.hae.samples.count('step_count')).toBe(0);
    expect(leftovers(s)).toEqual([]);
  });
});

describe('export.zip over 4 GiB zipped by Finder (offsets written in 32 bits)', () => {
  // macOS's Archive Utility writes no Zip64 records: past 4 GiB the directory's offset, and the
  // offset of each entry after that point, keep only their low 32 bits and point 4 GiB too early
  // (zipinfo: "4294967296 extra bytes at beginning or within zipfile"). The suite cannot write
  // 4 GiB, so the offsets are made to point elsewhere in a small archive: the same kind.

  /** The offset of the central directory, as the end record gives it. */
  const directoryOffsetAt = (zip: Buffer) => zip.length - 22 + 16;

  it('a directory offset that does not lead to the directory: the entries are read front to back', async () => {
    const s = await startIngestServer({ cards: [['steps', 'step_count']] });
    srv = s;
    const zip = rawZip(phoneEntries('export.xml', 3));
    zip.writeUInt32LE(zip.readUInt32LE(directoryOffsetAt(zip)) - 100, directoryOffsetAt(zip));
    await expectRead(s, zip, 3, 'directory offset');
    const r = await upload(s, zip);
    expect(r.body.warnings).toEqual([]);
  });

  it("the export's own offset in the directory leads elsewhere: the entries are read front to back", async () => {
    const s = await startIngestServer({ cards: [['steps', 'step_count']] });
    srv = s;
    const zip = rawZip(phoneEntries('export.xml', 4));
    const name = Buffer.from('apple_health_export/export.xml');
    // the name's second occurrence is the export's directory record (46 bytes before it)
    const record = zip.indexOf(name, zip.indexOf(name) + 1) - 46;
    expect(zip.readUInt32LE(record)).toBe(0x02014b50);
    zip.writeUInt32LE(zip.readUInt32LE(record + 42) + 7, record + 42);
    await expectRead(s, zip, 4, 'entry offset');
  });
});
