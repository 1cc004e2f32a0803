/**
 * An export.zip cut short: the upload, AirDrop or copy stopped part way, so the archive has no
 * central directory (the table at its end). Like a cut export.xml, it is read up to the cut: its
 * entries are walked front to back from their own headers, the export's records up to the cut
 * are imported, and the answer says the zip was cut short. A zip cut before its export is still
 * refused, saying so. Each through the real server, with the archives laid out as the phone and
 * other archivers write them (sizes after the data, Zip64, stored).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { main as importMain } from '../../scripts/import-apple-health.js';
import { sandboxHome } from '../helpers/sandbox-home.js';
import { type RawZipEntry, rawZip } from '../helpers/zip-bytes.js';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const DAYS = 200;

/** An export of `DAYS` days of steps from 1 January 2026, 1000 a day, one record a day. */
function exportXml(): string {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<HealthData locale="en_GB">'];
  for (let d = 0; d < DAYS; d++) {
    const day = new Date(Date.UTC(2026, 0, 1 + d)).toISOString().slice(0, 10);
    const at = `${day} 09:00:00 +0000`;
    lines.push(
      ` <Record type="HKQuantityTypeIdentifierStepCount" sourceName="iPhone" unit="count" creationDate="${at}" startDate="${at}" endDate="${at}" value="1000"/>`,
    );
  }
  lines.push('</HealthData>', '');
  return lines.join('\n');
}

const EXPORT = 'apple_health_export/export.xml';
const CDA = 'apple_health_export/export_cda.xml';
const ROUTE = 'apple_health_export/workout-routes/route_2026-03-01_9.00am.gpx';

/** The Health app's archive: folders, then the export, the clinical document and a route. */
function phoneZip(
  shape: Partial<RawZipEntry>,
  routeFirst = false,
  folders: Partial<RawZipEntry> = {},
): Buffer {
  const route: RawZipEntry = {
    name: ROUTE,
    data: `<?xml version="1.0"?><gpx><trk>${'<trkpt lat="0" lon="0"/>'.repeat(300)}</trk></gpx>`,
    ...shape,
  };
  const files: RawZipEntry[] = [
    { name: 'apple_health_export/', ...folders },
    ...(routeFirst ? [route] : []),
    { name: EXPORT, data: exportXml(), ...shape },
    {
      name: CDA,
      data: `<?xml version="1.0"?><ClinicalDocument>${'<entry/>'.repeat(3000)}</ClinicalDocument>`,
      ...shape,
    },
    ...(routeFirst ? [] : [route]),
  ];
  return rawZip(files);
}

/**
 * Where the data of the entry named `name` starts and ends in `zip` (the next local header; the
 * name's first occurrence is its local header).
 */
function entryData(zip: Buffer, name: string): { start: number; end: number } {
  const header = zip.indexOf(Buffer.from(name)) - 30;
  const start = header + 30 + zip.readUInt16LE(header + 26) + zip.readUInt16LE(header + 28);
  const next = zip.indexOf(Buffer.from([0x50, 0x4b, 0x03, 0x04]), start);
  return { start, end: next };
}

const upload = (s: IngestServer, body: Buffer) =>
  s.api('/api/apple-health/import', { method: 'POST', body, headers: { 'content-type': 'application/zip' } });
const leftovers = (s: IngestServer) => fs.readdirSync(path.join(s.inst.hae.dirs.uploads));

const SHAPES: [string, Partial<RawZipEntry>][] = [
  ['sizes after the data, as the phone writes them', { descriptor: 'signed' }],
  ['sizes after the data without the signature', { descriptor: 'unsigned' }],
  ['sizes in the header', {}],
  ['Zip64, sizes after the data', { zip64: true, descriptor: 'signed' }],
  ['stored, sizes in the header', { method: 0 }],
];
/** How the shapes write a folder entry: as the others, and stored with its (zero) sizes after it. */
const FOLDERS: Partial<RawZipEntry>[] = [{}, { descriptor: 'signed' }];

describe('an export.zip cut short inside its export', () => {
  for (const [i, [label, shape]] of SHAPES.entries()) {
    it(`(${label}) is read up to the cut, saying the zip was cut short`, async () => {
      const s = await startIngestServer({ cards: [['steps', 'step_count']] });
      srv = s;
      const zip = phoneZip(shape, false, FOLDERS[i % FOLDERS.length]);
      const { start, end } = entryData(zip, EXPORT);
      // 90 % of the export arrived
      const cut = zip.subarray(0, start + Math.floor((end - start) * 0.9));
      const r = await upload(s, cut);
      expect(r.status, r.text).toBe(200);
      expect(r.body).toMatchObject({ ok: true, truncated: true });
      expect(r.body.warnings[0]).toMatch(
        /^the zip was cut short: it ends inside apple_health_export\/export\.xml/,
      );
      expect(r.body.warnings[1]).toMatch(/^the file was cut short/);
      // the records before the cut, in order, each its day
      expect(r.body.records).toBeGreaterThan(DAYS * 0.8);
      expect(r.body.records).toBeLessThan(DAYS);
      const rows = await s.rows('steps');
      expect(rows).toHaveLength(r.body.records);
      expect(rows[0]).toEqual({ date: '2026-01-01', count: 1000 });
      expect(leftovers(s)).toEqual([]);

      // the whole archive afterwards adds the rest
      const whole = await upload(s, zip);
      expect(whole.status, whole.text).toBe(200);
      expect(whole.body).toMatchObject({ truncated: false, newSamples: DAYS - r.body.records });
      expect(whole.body.warnings).toEqual([]);
      expect(await s.rows('steps')).toHaveLength(DAYS);
    });
  }
});

describe('an export.zip cut short after its export', () => {
  it('reads the whole export, saying the rest of the archive is missing', async () => {
    const s = await startIngestServer({ cards: [['steps', 'step_count']] });
    srv = s;
    const zip = phoneZip({ descriptor: 'signed' });
    const { start, end } = entryData(zip, CDA);
    for (const at of [start + Math.floor((end - start) / 2), zip.length - 30]) {
      const r = await upload(s, zip.subarray(0, at));
      expect(r.status, r.text).toBe(200);
      expect(r.body).toMatchObject({ ok: true, truncated: false, records: DAYS });
      expect(r.body.warnings[0]).toMatch(
        /^the zip was cut short after apple_health_export\/export\.xml: .* is whole/,
      );
    }
    expect(await s.rows('steps')).toHaveLength(DAYS);
    expect(leftovers(s)).toEqual([]);
  });
});

describe('an export.zip cut short before its export', () => {
  it('is 422 ZIP_NOT_A_ZIP saying it was cut before the export, nothing stored or left', async () => {
    const s = await startIngestServer({ cards: [['steps', 'step_count']] });
    srv = s;
    const zip = phoneZip({ descriptor: 'signed' }, true);
    const { start, end } = entryData(zip, ROUTE);
    const r = await upload(s, zip.subarray(0, start + Math.floor((end - start) / 2)));
    expect(r.status, r.text).toBe(422);
    expect(r.body.code).toBe('ZIP_NOT_A_ZIP');
    expect(r.body.error).toMatch(/cut short.*before its export\.xml/);
    expect(await s.rows('steps')).toEqual([]);
    expect(leftovers(s)).toEqual([]);
  });
});

describe('a cut export.zip whose other entries hold the bytes of a zip header', () => {
  it('finds each entry by its own data, not by looking for the next signature', async () => {
    const s = await startIngestServer({ cards: [['steps', 'step_count']] });
    srv = s;
    // a route of bytes that do not compress (deflate stores them as they are), holding the
    // signatures of a local header and a data descriptor with sizes that fit the bytes before them
    const noise = crypto.randomBytes(64 * 1024);
    const fake = Buffer.alloc(20);
    fake.writeUInt32LE(0x08074b50, 0);
    fake.writeUInt32LE(0x04034b50, 16);
    fake.copy(noise, 1000);
    fake.copy(noise, 40000);
    const entries: RawZipEntry[] = [
      { name: 'apple_health_export/' },
      { name: ROUTE, data: noise, descriptor: 'signed' },
      { name: EXPORT, data: exportXml(), descriptor: 'signed' },
      { name: CDA, data: '<?xml version="1.0"?><ClinicalDocument/>', descriptor: 'signed' },
    ];
    const zip = rawZip(entries);
    // the signatures are in the archive as they are, inside the route's compressed data
    const route = entryData(zip, ROUTE);
    expect(zip.subarray(route.start, route.start + noise.length).indexOf(fake)).toBeGreaterThan(0);
    const cda = zip.indexOf(Buffer.from(CDA));
    const r = await upload(s, zip.subarray(0, cda + 10));
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ truncated: false, records: DAYS });
    expect(r.body.warnings[0]).toMatch(/^the zip was cut short after/);
  });
});

describe('a cut export.zip whose export is damaged part way', () => {
  it('gives the records before the damage, saying the zip is damaged there', async () => {
    const s = await startIngestServer({ cards: [['steps', 'step_count']] });
    srv = s;
    // the first half of the export deflated, then a block that is not deflate (as a copy gone
    // wrong leaves it): zlib gives the half, then refuses
    const xml = Buffer.from(exportXml());
    const half = zlib.deflateRawSync(xml.subarray(0, xml.length / 2), {
      finishFlush: zlib.constants.Z_FULL_FLUSH,
    });
    const raw = Buffer.concat([half, Buffer.from([0x07]), Buffer.alloc(500, 0xa5)]);
    const zip = rawZip([
      { name: 'apple_health_export/' },
      { name: EXPORT, data: xml, raw, descriptor: 'signed' },
      { name: CDA, data: '<?xml version="1.0"?><ClinicalDocument/>', descriptor: 'signed' },
    ]);
    const r = await upload(s, zip.subarray(0, zip.indexOf(Buffer.from(CDA)) + 10));
    expect(r.status, r.text).toBe(200);
    expect(r.body.warnings[0]).toMatch(/^the zip is damaged inside apple_health_export\/export\.xml/);
    // zlib keeps back the last piece it inflated (at most 16 KiB) when it refuses the data
    expect(r.body.records).toBeGreaterThan(DAYS * 0.3);
    expect(r.body.records).toBeLessThan(DAYS * 0.55);
    expect(await s.rows('steps')).toHaveLength(r.body.records);
    expect(leftovers(s)).toEqual([]);
  });
});

describe('the import script given a cut export.zip', () => {
  it('imports what arrived and says on stderr that the zip was cut short', async () => {
    const box = sandboxHome();
    const file = path.join(box.home, '..', `cut-${process.pid}.zip`);
    try {
      const zip = phoneZip({ descriptor: 'signed' });
      const { start, end } = entryData(zip, EXPORT);
      fs.writeFileSync(file, zip.subarray(0, start + Math.floor((end - start) * 0.9)));
      const out: string[] = [];
      const err: string[] = [];
      const code = await importMain([file, '--home', box.home], {
        out: (s) => out.push(s),
        err: (s) => err.push(s),
      });
      expect(code, err.join('')).toBe(0);
      const summary = JSON.parse(out.join(''));
      expect(summary).toMatchObject({ ok: true, truncated: true });
      expect(summary.records).toBeGreaterThan(DAYS * 0.8);
      expect(err.join('')).toContain(
        'WARNING: the zip was cut short: it ends inside apple_health_export/export.xml',
      );
      // the person's file is left as it was
      expect(fs.existsSync(file)).toBe(true);
    } finally {
      fs.rmSync(file, { force: true });
      box.remove();
    }
  });
});
