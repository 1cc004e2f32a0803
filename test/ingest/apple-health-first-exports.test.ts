/**
 * The first Health app exports (iOS 8, 2014–2015) wrote every date in a compact spelling,
 * `20150616071916-0700`. An import of such a file stores its readings on the local dates written
 * in them, as it does for the spelling of later exports.
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
