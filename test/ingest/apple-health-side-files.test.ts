/**
 * The other files of the Health app's export.zip uploaded in place of the export (the clinical
 * document `export_cda.xml`, a workout route, an ECG): each is refused with 422 NOT_AN_EXPORT
 * saying which file it is and which one to upload; nothing is stored or recorded.
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
