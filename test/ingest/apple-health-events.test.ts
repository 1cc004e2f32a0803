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

describe('Apple Health notifications and newer measures', () => {
  it('heart rate, walking steadiness, sleep apnea and noise notifications are counted per day; steadiness and new distances fill their cards', async () => {
    srv = await startIngestServer({
      cards: [
        ['high', 'high_heart_rate_notifications'],
        ['low', 'low_heart_rate_notifications'],
        ['irregular', 'irregular_heart_rhythm_notifications'],
        ['steadiness', 'walking_steadiness'],
        ['steadiness-alerts', 'walking_steadiness_notifications'],
        ['apnea', 'sleep_apnea_notifications'],
        ['noise', 'environmental_audio_exposure_notifications'],
        ['rowing', 'rowing_distance'],
      ],
    });
    // a notification record holds the threshold it crossed as metadata
    const withThreshold = (type: string, at: string, threshold: string) =>
      `${event(type, at, at).replace('/>', '>')}\n  <MetadataEntry key="HKHeartRateEventThreshold" value="${threshold}"/>\n </Record>`;
    const body = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<HealthData locale="en_US">',
      withThreshold('HighHeartRateEvent', '10:00:00', '120 count/min'),
      withThreshold('HighHeartRateEvent', '15:10:00', '120 count/min'),
      withThreshold('LowHeartRateEvent', '03:00:00', '40 count/min'),
      event('IrregularHeartRhythmEvent', '01:00:00', '03:00:00'),
      event('SleepApneaEvent', '00:00:00', '00:00:00'),
      event('AudioExposureEvent', '18:00:00', '18:03:00'),
      event('AppleWalkingSteadinessEvent', '09:00:00', '09:00:00').replace(
        'HKCategoryValueNotApplicable',
        'HKCategoryValueAppleWalkingSteadinessEventInitialLow',
      ),
      ' <Record type="HKQuantityTypeIdentifierAppleWalkingSteadiness" sourceName="iPhone" unit="%" creationDate="2026-10-21 09:00:00 -0700" startDate="2026-10-14 00:00:00 -0700" endDate="2026-10-21 00:00:00 -0700" value="0.875"/>',
      ' <Record type="HKQuantityTypeIdentifierDistanceRowing" sourceName="Watch" unit="km" creationDate="2026-10-21 08:30:00 -0700" startDate="2026-10-21 08:00:00 -0700" endDate="2026-10-21 08:30:00 -0700" value="2.5"/>',
      '</HealthData>',
    ].join('\n');
    const r = await srv.api('/api/apple-health/import', {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/xml' },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body.unmappedTypes).toEqual({});
    expect(r.body.warnings).toEqual([]);
    const day = '2026-10-21';
    expect(await srv.rows('high')).toEqual([{ date: day, count: 2 }]);
    expect(await srv.rows('low')).toEqual([{ date: day, count: 1 }]);
    expect(await srv.rows('irregular')).toEqual([{ date: day, count: 1 }]);
    expect(await srv.rows('apnea')).toEqual([{ date: day, count: 1 }]);
    expect(await srv.rows('noise')).toEqual([{ date: day, count: 1 }]);
    expect(await srv.rows('steadiness-alerts')).toEqual([{ date: day, count: 1 }]);
    // a weekly score written as a fraction, dated by its start as every quantity record
    expect(await srv.rows('steadiness')).toEqual([{ date: '2026-10-14', pct: 88 }]);
    expect(await srv.rows('rowing')).toEqual([{ date: day, km: 2.5 }]);
  });
});

describe('Apple Health sexual activity', () => {
  it('marks each day with a record logged, whatever its protection metadata; a day without none', async () => {
    srv = await startIngestServer({ cards: [['intimacy', 'sexual_activity']] });
    const withProtection = (at: string, used: string) =>
      `${event('SexualActivity', at, at).replace('/>', '>')}\n  <MetadataEntry key="HKSexualActivityProtectionUsed" value="${used}"/>\n </Record>`;
    const body = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<HealthData locale="en_US">',
      withProtection('22:30:00', '1'),
      withProtection('23:10:00', '0'),
      event('SexualActivity', '07:00:00', '07:00:00').replaceAll('2026-10-21', '2026-10-23'),
      '</HealthData>',
    ].join('\n');
    const r = await srv.importExport(body);
    expect(r.status, r.text).toBe(200);
    expect(r.body.unmappedTypes).toEqual({});
    expect(r.body.warnings).toEqual([]);
    expect(await srv.rows('intimacy')).toEqual([
      { date: '2026-10-21', logged: true },
      { date: '2026-10-23', logged: true },
    ]);
  });
});
