/**
 * The other files of the Health app's export.zip uploaded in place of the export (the clinical
 * document `export_cda.xml`, a workout route, an ECG): each is refused with 422 NOT_AN_EXPORT
 * saying which file it is and which one to upload; nothing is stored or recorded. A file of
 * another kind picked by mistake (a PDF, a photo) is named by its kind, not by whatever the XML
 * reader took for an element in its bytes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const CDA = `<?xml version="1.0"?>
<?xml-stylesheet type="text/xsl" href="CDA.xsl"?>
<ClinicalDocument xmlns="urn:hl7-org:v3" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
 <title>Health Data Export</title>
 <entry typeCode="DRIV"><organizer classCode="CLUSTER" moodCode="EVN"/></entry>
</ClinicalDocument>
`;
const GPX = `<?xml version="1.0" encoding="UTF-8"?>
<gpx version="1.1" creator="Apple Health Export" xmlns="http://www.topografix.com/GPX/1/1">
 <trk><name>Route 2026-03-01 9:00am</name><trkseg><trkpt lon="13.4" lat="52.5"><ele>34</ele><time>2026-03-01T08:00:00Z</time></trkpt></trkseg></trk>
</gpx>
`;
const ECG =
  'Name,Anna\nDate of Birth,"1 Mar 1985"\nRecorded Date,2026-03-01 09:00:00 +0100\nSample Rate,512 hertz\n\n-12.3\n-11.9\n';

describe('a file of the export other than export.xml', () => {
  it('is 422 NOT_AN_EXPORT naming it and the file to upload; nothing is recorded', async () => {
    const s = await startIngestServer({ cards: [['steps', 'step_count']] });
    srv = s;
    const pushes = () => s.inst.db.prepare('SELECT count(*) FROM hae_pushes').pluck().get();
    const before = pushes();
    const cases: [string, string, RegExp][] = [
      ['export_cda.xml', CDA, /export_cda\.xml, the clinical document/],
      ['a route', GPX, /a workout route/],
      ['an ECG', ECG, /not XML/],
      [
        'another XML',
        '<?xml version="1.0"?><plist version="1.0"><dict/></plist>',
        /first element is <plist>/,
      ],
    ];
    for (const [label, body, says] of cases) {
      const r = await s.importExport(body);
      expect(r.status, `${label}: ${r.text}`).toBe(422);
      expect(r.body.code, label).toBe('NOT_AN_EXPORT');
      expect(r.body.error, label).toMatch(says);
      expect(r.body.error, label).toMatch(/upload export\.zip .* or the export\.xml inside it/);
    }
    expect(pushes()).toBe(before);
    expect(s.inst.hae.samples.count('step_count')).toBe(0);
  });
});

/** A PDF as a browser prints one: a header, then compressed streams the XML reader sees as tags. */
function pdfBytes(): Buffer {
  const binary = Buffer.from([0x78, 0x9c, 0x3c, 0xdb, 0x98, 0x63, 0x3e, 0x0a, 0x3c, 0xe2, 0x80, 0x3e]);
  return Buffer.concat([
    Buffer.from(
      '%PDF-1.4\n%\xd3\xeb\xe9\xe1\n1 0 obj\n<</Length 12 /Filter /FlateDecode>>\nstream\n',
      'latin1',
    ),
    binary,
    Buffer.from('\nendstream\nendobj\n%%EOF\n'),
  ]);
}

describe('a file of another kind picked by mistake', () => {
  it('is 422 NOT_AN_EXPORT saying what kind of file it is; nothing is recorded', async () => {
    const s = await startIngestServer({ cards: [['steps', 'step_count']] });
    srv = s;
    const pushes = () => s.inst.db.prepare('SELECT count(*) FROM hae_pushes').pluck().get();
    const before = pushes();
    const png = Buffer.from([
      0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0x3c, 0x61, 0x3e,
    ]);
    const jpeg = Buffer.from([
      0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 0x3c, 0x62, 0x3e, 0xff, 0xd9,
    ]);
    const heic = Buffer.concat([
      Buffer.from([0, 0, 0, 24]),
      Buffer.from('ftypheic\0\0\0\0mif1heic<x>', 'latin1'),
    ]);
    const cases: [string, Buffer, string][] = [
      ['a PDF', pdfBytes(), 'it is a PDF document, not XML'],
      ['a PNG', png, 'it is a PNG image, not XML'],
      ['a JPEG', jpeg, 'it is a JPEG image, not XML'],
      ['a HEIC photo', heic, 'it is not a text file, so not XML'],
    ];
    for (const [label, body, says] of cases) {
      const r = await s.importExport(body);
      expect(r.status, `${label}: ${r.text}`).toBe(422);
      expect(r.body.code, label).toBe('NOT_AN_EXPORT');
      expect(r.body.error, label).toContain(`this is not an Apple Health export.xml (${says})`);
      expect(r.body.error, label).not.toMatch(/first element/);
    }
    expect(pushes()).toBe(before);
  });
});
