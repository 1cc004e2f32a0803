/**
 * Zips an Apple Health upload refuses before unpacking a byte: an entry named outside the archive
 * (422 ZIP_UNSAFE_NAME, not "damaged"), and the export held twice (422 ZIP_DUPLICATE naming both
 * entries, rather than the later copy read silently); and one whose export unpacks to another size
 * than its header records (422 ZIP_CORRUPT). Nothing is stored or left behind.
 */
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { rawZip } from '../helpers/zip-bytes.js';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const EXPORT = `<?xml version="1.0" encoding="UTF-8"?>
<HealthData locale="en_US">
 <Record type="HKQuantityTypeIdentifierStepCount" sourceName="iPhone" unit="count" creationDate="2026-03-01 09:00:00 +0100" startDate="2026-03-01 09:00:00 +0100" endDate="2026-03-01 09:00:00 +0100" value="1000"/>
</HealthData>
`;

/**
 * A zip of `entries` ([name, content]); names are written as given, byte for byte (yazl refuses
 * unsafe names, so each is added under a stand-in of the same length, then swapped in).
 */
async function zipOf(entries: [string, string][]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  const swaps: [string, string][] = [];
  entries.forEach(([name, content], i) => {
    const stand = `${i}`.padStart(name.length, 'q');
    swaps.push([stand, name]);
    zip.addBuffer(Buffer.from(content), stand);
  });
  zip.end();
  const buf = await new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
  for (const [stand, name] of swaps) {
    const from = Buffer.from(stand);
    const to = Buffer.from(name);
    for (let at = buf.indexOf(from); at >= 0; at = buf.indexOf(from, at + to.length)) to.copy(buf, at);
  }
  return buf;
}

const upload = (s: IngestServer, body: Buffer) =>
  s.api('/api/apple-health/import', { method: 'POST', body, headers: { 'content-type': 'application/zip' } });

describe('a zip with an entry named outside the archive', () => {
  it('is 422 ZIP_UNSAFE_NAME, not read, nothing stored or left', async () => {
    const s = await startIngestServer({ cards: [['steps', 'step_count']] });
    srv = s;
    for (const name of ['../../x/export.xml', '/etc/export.xml', 'C:\\export.xml']) {
      const r = await upload(s, await zipOf([[name, EXPORT]]));
      expect(r.status, `${name}: ${r.text}`).toBe(422);
      expect(r.body.code, name).toBe('ZIP_UNSAFE_NAME');
      expect(r.body.error).toMatch(/unsafe name/);
      expect(r.body.error).not.toMatch(/damaged/);
    }
    expect(await s.rows('steps')).toEqual([]);
    expect(fs.readdirSync(s.inst.hae.dirs.uploads)).toEqual([]);
  });
});

describe('a zip holding the export twice', () => {
  it('is 422 ZIP_DUPLICATE naming the entries, nothing stored or left', async () => {
    const s = await startIngestServer({ cards: [['steps', 'step_count']] });
    srv = s;
    const twice: [string, string][][] = [
      [
        ['apple_health_export/export.xml', EXPORT],
        ['apple_health_export/export.xml', EXPORT.replace('1000', '5000')],
      ],
      [
        ['export.xml', EXPORT],
        ['apple_health_export/export.xml', EXPORT.replace('1000', '5000')],
      ],
    ];
    for (const entries of twice) {
      const r = await upload(s, await zipOf(entries));
      expect(r.status, r.text).toBe(422);
      expect(r.body.code).toBe('ZIP_DUPLICATE');
      for (const [name] of entries) expect(r.body.error).toContain(name);
    }
    expect(await s.rows('steps')).toEqual([]);
    expect(fs.readdirSync(s.inst.hae.dirs.uploads)).toEqual([]);
  });
});

describe('a zip whose export unpacks to another size than its header says', () => {
  it('is 422 ZIP_CORRUPT saying both sizes, nothing stored or left', async () => {
    const s = await startIngestServer({ cards: [['steps', 'step_count']] });
    srv = s;
    const n = Buffer.byteLength(EXPORT);
    const shapes: [string, { recordedSize: number; method?: 0 | 8 }][] = [
      ['a byte more', { recordedSize: n + 1 }],
      ['a byte less', { recordedSize: n - 1 }],
      ['stored, a byte more', { recordedSize: n + 1, method: 0 }],
    ];
    for (const [label, shape] of shapes) {
      const r = await upload(s, rawZip([{ name: 'apple_health_export/export.xml', data: EXPORT, ...shape }]));
      expect(r.status, `${label}: ${r.text}`).toBe(422);
      expect(r.body.code, label).toBe('ZIP_CORRUPT');
      expect(r.body.error, label).toMatch(/damaged/);
    }
    expect(await s.rows('steps')).toEqual([]);
    expect(fs.readdirSync(s.inst.hae.dirs.uploads)).toEqual([]);
  });
});

describe('a zip whose export is compressed with Deflate64', () => {
  it('is 422 ZIP_METHOD naming Deflate64 and what to upload instead, whole or cut short', async () => {
    const s = await startIngestServer({ cards: [['steps', 'step_count']] });
    srv = s;
    // Windows' compressed folders write Deflate64 (method 9) for a file over about 2 GB: the
    // method field of the local and the directory header says so
    const zip = rawZip([{ name: 'apple_health_export/export.xml', data: EXPORT }]);
    zip.writeUInt16LE(9, 8);
    const record = zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    zip.writeUInt16LE(9, record + 10);
    for (const body of [zip, zip.subarray(0, record)]) {
      const r = await upload(s, body);
      expect(r.status, r.text).toBe(422);
      expect(r.body.code).toBe('ZIP_METHOD');
      expect(r.body.error).toMatch(/Deflate64.*Windows.*upload the export\.zip the Health app made/);
    }
    expect(await s.rows('steps')).toEqual([]);
    expect(fs.readdirSync(s.inst.hae.dirs.uploads)).toEqual([]);
  });
});
