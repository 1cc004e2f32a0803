/**
 * The shapes an Apple Health export arrives in from real people: the Health app's export.zip as
 * it is (its export entry read, whatever the phone's language named it), a form upload (`curl
 * -F`, a browser form: its first file part read), a file gzip-compressed twice (read) or
 * four times (415), and the progress route while the upload arrives and after it failed.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

/** An export of `days` days of steps, 1000 a day. */
function exportXml(days: number): string {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<HealthData locale="en_US">'];
  for (let d = 1; d <= days; d++) {
    const at = `2026-03-${String(d).padStart(2, '0')} 09:00:00 +0100`;
    lines.push(
      ` <Record type="HKQuantityTypeIdentifierStepCount" sourceName="iPhone" unit="count" creationDate="${at}" startDate="${at}" endDate="${at}" value="1000"/>`,
    );
  }
  lines.push('</HealthData>', '');
  return lines.join('\n');
}

/** A zip of `entries` (name → content), deflated, as the Health app makes it. */
function zipOf(entries: Record<string, string | Buffer>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, content] of Object.entries(entries))
    zip.addBuffer(Buffer.isBuffer(content) ? content : Buffer.from(content), name);
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

/** The rest of a real export.zip: a clinical document, a route, an ECG (never read). */
const CDA = `<?xml version="1.0"?><ClinicalDocument>${'<entry/>'.repeat(2000)}</ClinicalDocument>`;
const OTHER_FILES = {
  'apple_health_export/export_cda.xml': CDA,
  'apple_health_export/workout-routes/route_2026-03-01_9.00am.gpx': '<gpx><trk/></gpx>',
  'apple_health_export/electrocardiograms/ecg_2026-03-01.csv': 'Name,User\nSample Rate,512 hertz\n',
};

const upload = (s: IngestServer, body: Buffer | string, headers: Record<string, string> = {}) =>
  s.api('/api/apple-health/import', {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/octet-stream', ...headers },
  });

const leftovers = (s: IngestServer) => fs.readdirSync(path.join(s.inst.hae.dirs.uploads));
const progress = async (s: IngestServer) => (await s.api('/api/apple-health/import/progress')).body;

describe("the Health app's export.zip", () => {
  it('is read from its export.xml entry, the rest of the archive left alone', async () => {
    const s = await startIngestServer({ cards: [['steps', 'step_count']] });
    srv = s;
    const zip = await zipOf({ ...OTHER_FILES, 'apple_health_export/export.xml': exportXml(3) });
    const r = await upload(s, zip, { 'content-type': 'application/zip' });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ ok: true, records: 3, newSamples: 3, ingested: { steps: 3 } });
    expect(await s.rows('steps')).toEqual([1, 2, 3].map((d) => ({ date: `2026-03-0${d}`, count: 1000 })));
    expect(leftovers(s)).toEqual([]);
  });

  it("reads the entry the phone's language named (exportar.xml), not the larger export_cda.xml", async () => {
    const s = await startIngestServer({ cards: [['steps', 'step_count']] });
    srv = s;
    const zip = await zipOf({
      '__MACOSX/apple_health_export/._exportar.xml': 'resource fork',
      ...OTHER_FILES,
      'apple_health_export/exportar.xml': exportXml(2),
    });
    const r = await upload(s, zip);
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ records: 2, newSamples: 2 });
  });

  it('a zip without an export is 422, one that unpacks past the limit 413, a damaged one 422: nothing stored or left; a cut one is read', async () => {
    const s = await startIngestServer({
      cards: [['steps', 'step_count']],
      env: { KLEBB_APPLE_HEALTH_MAX_BYTES: '20000' },
    });
    srv = s;
    const none = await upload(s, await zipOf({ 'photos/a.jpg': 'jpeg', 'notes.txt': 'hi' }));
    expect(none.status, none.text).toBe(422);
    expect(none.body.code).toBe('NOT_AN_EXPORT');
    expect(none.body.error).toMatch(/no export\.xml/);

    const big = exportXml(200);
    const zip = await zipOf({ 'apple_health_export/export.xml': big });
    expect(zip.length).toBeLessThan(20000);
    const tooBig = await upload(s, zip);
    expect(tooBig.status, tooBig.text).toBe(413);
    expect(tooBig.body.error).toMatch(/unpacks to \d+ bytes/);

    // a zip with nothing but the start of a local header cannot be read
    const damaged = await upload(s, Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(100)]));
    expect(damaged.status, damaged.text).toBe(422);
    expect(damaged.body.code).toBe('ZIP_NOT_A_ZIP');

    expect(s.inst.hae.samples.count('step_count')).toBe(0);
    expect(leftovers(s)).toEqual([]);

    // a zip cut short (its directory lost) is no longer refused: it is read up to the cut, and
    // says so (apple-health-cut-zip.test.ts)
    const whole = await zipOf({ 'apple_health_export/export.xml': exportXml(3) });
    const cut = await upload(s, whole.subarray(0, whole.length - 30));
    expect(cut.status, cut.text).toBe(200);
    expect(cut.body).toMatchObject({ ok: true, records: 3, truncated: false });
    expect(cut.body.warnings[0]).toMatch(/^the zip was cut short after apple_health_export\/export\.xml/);
    expect(leftovers(s)).toEqual([]);
  });
});

describe('a form upload (multipart/form-data)', () => {
  const boundary = '------------------------d74496d66958873e';
  /** A form body of `parts`: [field name, file name or null for a plain field, content]. */
  function formBody(parts: [string, string | null, Buffer | string][]): Buffer {
    const chunks: Buffer[] = [];
    for (const [name, filename, content] of parts) {
      const disposition = `form-data; name="${name}"${filename === null ? '' : `; filename="${filename}"`}`;
      const type = filename === null ? '' : 'Content-Type: application/octet-stream\r\n';
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`));
      chunks.push(Buffer.isBuffer(content) ? content : Buffer.from(content), Buffer.from('\r\n'));
    }
    chunks.push(Buffer.from(`--${boundary}--\r\n`));
    return Buffer.concat(chunks);
  }
  const formType = { 'content-type': `multipart/form-data; boundary=${boundary}` };

  it('reads its first file part, an export.xml or an export.zip, like the file sent as the body', async () => {
    const s = await startIngestServer({ cards: [['steps', 'step_count']] });
    srv = s;
    const xml = await upload(s, formBody([['file', 'export.xml', exportXml(3)]]), formType);
    expect(xml.status, xml.text).toBe(200);
    expect(xml.body).toMatchObject({ ok: true, records: 3, newSamples: 3 });

    // a zip with a second file part: which one is the export is not guessed, nothing is kept
    const zip = await zipOf({ 'apple_health_export/export.xml': exportXml(5) });
    const two = await upload(
      s,
      formBody([
        ['note', null, 'from my phone'],
        ['file', 'export.zip', zip],
        ['other', 'export_cda.xml', '<ClinicalDocument/>'],
      ]),
      formType,
    );
    expect(two.status, two.text).toBe(400);
    expect(two.body.error).toMatch(/2 file parts/);
    expect(two.body.error).toContain('"other" (export_cda.xml)');
    expect(two.body.details.map((d: { path: string }) => d.path)).toEqual(['body.file', 'body.other']);
    expect(s.inst.hae.samples.count('step_count')).toBe(3);
    expect(leftovers(s)).toEqual([]);

    // the zip after a plain field
    const r = await upload(
      s,
      formBody([
        ['note', null, 'from my phone'],
        ['file', 'export.zip', zip],
      ]),
      formType,
    );
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ ok: true, records: 5, newSamples: 2 });
    expect(await progress(s)).toMatchObject({ running: false, phase: 'done', percent: 100 });
    expect(leftovers(s)).toEqual([]);
  });

  it('without a file part is 400 naming the file field; without its Content-Type, 415', async () => {
    const s = await startIngestServer({ cards: [['steps', 'step_count']] });
    srv = s;
    const none = await upload(s, formBody([['file', null, 'export.xml']]), formType);
    expect(none.status, none.text).toBe(400);
    expect(none.body.error).toMatch(/no file part.*-F file=@export\.zip/);
    expect(await progress(s)).toMatchObject({ running: false, phase: 'failed', code: 'BAD_REQUEST' });

    const untyped = await upload(s, formBody([['file', 'export.xml', exportXml(3)]]));
    expect(untyped.status, untyped.text).toBe(415);
    expect(untyped.body.error).toMatch(/form upload/);
    expect(s.inst.hae.samples.count('step_count')).toBe(0);
    expect(leftovers(s)).toEqual([]);
  });
});

describe('a file gzip-compressed more than once', () => {
  it('twice (and three times) is read; four times is 415 saying so', async () => {
    const s = await startIngestServer({ cards: [['steps', 'step_count']] });
    srv = s;
    const twice = zlib.gzipSync(zlib.gzipSync(exportXml(3)));
    const r = await upload(s, twice);
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ records: 3, newSamples: 3 });
    // a zipped export gzip-compressed on the way, with Content-Encoding as well: three layers
    const zipped = zlib.gzipSync(await zipOf({ 'apple_health_export/export.xml': exportXml(4) }));
    const thrice = await upload(s, zlib.gzipSync(zipped), { 'content-encoding': 'gzip' });
    expect(thrice.status, thrice.text).toBe(200);
    expect(thrice.body).toMatchObject({ records: 4, newSamples: 1 });

    const four = zlib.gzipSync(zlib.gzipSync(zlib.gzipSync(zlib.gzipSync(exportXml(5)))));
    const refused = await upload(s, four);
    expect(refused.status, refused.text).toBe(415);
    expect(refused.body.error).toMatch(/gzip-compressed more than 3 times/);
    expect(s.inst.hae.samples.count('step_count')).toBe(4);
    expect(leftovers(s)).toEqual([]);
  });
});

describe('the progress of an upload', () => {
  it('counts the bytes received while the upload arrives', async () => {
    const s = await startIngestServer();
    srv = s;
    const xml = Buffer.from(exportXml(20));
    const u = new URL(`${s.url}/api/apple-health/import`);
    let finish: () => void = () => {};
    const answer = new Promise<number>((resolve, reject) => {
      // chunked: no Content-Length, so only the bytes received tell how far it is
      const req = http.request(
        { host: u.hostname, port: u.port, path: u.pathname, method: 'POST' },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.write(xml.subarray(0, 1000));
      finish = () => req.end(xml.subarray(1000));
    });
    let during = await progress(s);
    for (let i = 0; i < 200 && !(during.receivedBytes >= 1000); i++) {
      await new Promise((r) => setTimeout(r, 10));
      during = await progress(s);
    }
    expect(during).toMatchObject({ running: true, phase: 'uploading', receivedBytes: 1000, totalBytes: 0 });
    finish();
    expect(await answer).toBe(200);
    expect(await progress(s)).toMatchObject({ phase: 'done', percent: 100, receivedBytes: xml.length });
  });

  it('a refused upload says failed, with its code, and how much had arrived (not 99.9 %)', async () => {
    const s = await startIngestServer({ env: { KLEBB_APPLE_HEALTH_MAX_BYTES: '5000' } });
    srv = s;
    const u = new URL(`${s.url}/api/apple-health/import`);
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        { host: u.hostname, port: u.port, path: u.pathname, method: 'POST' },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      // chunked (two writes): refused by the bytes received, not by a declared length
      const body = Buffer.from(exportXml(100));
      req.write(body.subarray(0, 3000));
      req.end(body.subarray(3000));
    });
    expect(status).toBe(413);
    const failed = await progress(s);
    expect(failed).toMatchObject({
      running: false,
      phase: 'failed',
      code: 'PAYLOAD_TOO_LARGE',
      bytesRead: 0,
      percent: 0,
    });
    expect(failed.receivedBytes).toBeGreaterThan(5000);
  });
});
