/**
 * Apple Health records of events and nightly rates that newer watches write: handwashing and
 * toothbrushing events become their length in seconds (summed per day), and the nightly breathing
 * disturbances rate fills its card, through the real upload route.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

/** A category record (no unit, the value Apple writes for events) from `start` to `end` on 21 October. */
function event(type: string, start: string, end: string): string {
  return ` <Record type="HKCategoryTypeIdentifier${type}" sourceName="Watch" sourceVersion="11.0" creationDate="2026-10-21 ${end} -0700" startDate="2026-10-21 ${start} -0700" endDate="2026-10-21 ${end} -0700" value="HKCategoryValueNotApplicable"/>`;
}

describe('Apple Health events and nightly rates', () => {
  it('handwashing and toothbrushing count their seconds; breathing disturbances fill their card', async () => {
    srv = await startIngestServer({
      cards: [
        ['hands', 'handwashing'],
        ['teeth', 'toothbrushing'],
        ['breathing', 'breathing_disturbances'],
      ],
    });
    const body = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<HealthData locale="en_US">',
      event('HandwashingEvent', '07:24:08', '07:24:43'),
      event('HandwashingEvent', '12:00:00', '12:00:25'),
      event('ToothbrushingEvent', '22:00:00', '22:02:00'),
      ' <Record type="HKQuantityTypeIdentifierAppleSleepingBreathingDisturbances" sourceName="Watch" unit="count/hr" startDate="2026-10-20 23:00:00 -0700" endDate="2026-10-21 06:30:00 -0700" value="0.42"/>',
      '</HealthData>',
    ].join('\n');
    const r = await srv.api('/api/apple-health/import', {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/xml' },
    });
    expect(r.status).toBe(200);
    expect(r.body.unmappedTypes).toEqual({});
    expect(r.body.warnings).toEqual([]);
    // 35 s + 25 s of handwashing, 2 min of toothbrushing
    expect(await srv.rows('hands')).toEqual([{ date: '2026-10-21', seconds: 60 }]);
    expect(await srv.rows('teeth')).toEqual([{ date: '2026-10-21', seconds: 120 }]);
    // a rate over the night, dated by its start as every quantity record
    expect(await srv.rows('breathing')).toEqual([{ date: '2026-10-20', perHour: 0.4 }]);
  });
});
