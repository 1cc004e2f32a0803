/**
 * A record whose end is before its start (HealthKit never makes one, so the export is damaged
 * there) is left out with a warning that names it, whatever the offsets of its two stamps; the
 * records around it are imported as usual.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

const STEPS = 'HKQuantityTypeIdentifierStepCount';

function rec(start: string, end: string, value: number): string {
  return ` <Record type="${STEPS}" sourceName="iPhone" unit="count" creationDate="${end}" startDate="${start}" endDate="${end}" value="${value}"/>`;
}

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

describe('an Apple Health record that ends before it starts', () => {
  it('is left out with a warning; the records beside it count', async () => {
    const s = await startIngestServer({ cards: [['steps', 'step_count']] });
    srv = s;
    const xml = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<HealthData locale="en_US">',
      rec('2026-08-10 09:00:00 +0100', '2026-08-10 08:00:00 +0100', 100),
      // the same wall times, but the end's offset makes it an hour after the start: kept
      rec('2026-08-10 10:00:00 +0100', '2026-08-10 10:00:00 +0000', 7),
      // the end's offset puts it before the start although its wall time is later: left out
      rec('2026-08-10 11:00:00 +0000', '2026-08-10 11:30:00 +0100', 1000),
      rec('2026-08-10 12:00:00 +0100', '2026-08-10 12:10:00 +0100', 30),
      '</HealthData>',
      '',
    ].join('\n');
    const r = await s.importExport(xml);
    expect(r.status, r.text).toBe(200);
    const rows = await s.rows('steps');
    expect(rows).toEqual([{ date: '2026-08-10', count: 37 }]);
    const warnings = (r.body as { warnings?: string[] }).warnings ?? [];
    expect(warnings.join('\n')).toMatch(
      /step_count: record ends before it starts \(2 points, e\.g\. .*09:00:00/,
    );
  });
});
