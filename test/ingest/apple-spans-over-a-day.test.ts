/**
 * Records whose length is their value (a sleep stage, a mindful session, handwashing) but whose
 * start is years before their end: an app that never set the start (the first instant of 1970) or
 * wrote the wrong year. Such a span is no night nor session; read as one, it gave a night of
 * tens of thousands of hours and millions of mindful minutes. It is left out with a warning
 * naming it; the records beside it count as usual.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const C = 'HKCategoryTypeIdentifier';
function span(type: string, source: string, start: string, end: string, value?: string): string {
  const v = value === undefined ? '' : ` value="${value}"`;
  return ` <Record type="${C}${type}" sourceName="${source}" creationDate="${end}" startDate="${start}" endDate="${end}"${v}/>`;
}
const IN_BED = 'HKCategoryValueSleepAnalysisInBed';
const ASLEEP = 'HKCategoryValueSleepAnalysisAsleepCore';
const NA = 'HKCategoryValueNotApplicable';

const EXPORT = [
  '<?xml version="1.0" encoding="UTF-8"?>',
  '<HealthData locale="de_DE">',
  ' <ExportDate value="2025-03-04 09:00:00 +0100"/>',
  // a bedtime written with the year it was first set
  span('SleepAnalysis', 'Uhr', '2019-03-02 23:00:00 +0100', '2025-03-03 07:00:00 +0100', IN_BED),
  span('SleepAnalysis', 'Uhr', '2025-03-03 23:00:00 +0100', '2025-03-04 07:00:00 +0100', IN_BED),
  span('SleepAnalysis', 'Apple Watch', '2025-03-03 23:30:00 +0100', '2025-03-04 06:30:00 +0100', ASLEEP),
  // a session whose start was never set
  span('MindfulSession', 'Atmen', '1970-01-01 01:00:00 +0100', '2025-03-03 08:10:00 +0100', NA),
  span('MindfulSession', 'Atmen', '2025-03-03 08:00:00 +0100', '2025-03-03 08:10:00 +0100', NA),
  // two days of handwashing
  span('HandwashingEvent', 'Apple Watch', '2025-03-01 12:00:00 +0100', '2025-03-03 12:00:30 +0100', NA),
  span('HandwashingEvent', 'Apple Watch', '2025-03-03 13:00:00 +0100', '2025-03-03 13:00:25 +0100', NA),
  // a long night, not over a day: kept
  span('SleepAnalysis', 'Uhr', '2025-03-04 20:00:00 +0100', '2025-03-05 12:00:00 +0100', IN_BED),
  '</HealthData>',
  '',
].join('\n');

describe('Apple Health records of a night or session longer than a day', () => {
  it('are left out with a warning naming them; the nights and sessions beside them count', async () => {
    const s = await startIngestServer({
      cards: [
        ['sleep', 'sleep_analysis'],
        ['mind', 'mindful_minutes'],
        ['hands', 'handwashing'],
      ],
    });
    srv = s;
    const r = await s.importExport(EXPORT);
    expect(r.status, r.text).toBe(200);
    expect(r.body.records).toBe(8);

    const sleep = await s.rows('sleep');
    expect(sleep.map((row) => [row.date, row.inBed])).toEqual([
      ['2025-03-04', 8],
      ['2025-03-05', 16],
    ]);
    expect(await s.rows('mind')).toEqual([{ date: '2025-03-03', minutes: 10 }]);
    expect(await s.rows('hands')).toEqual([{ date: '2025-03-03', seconds: 25 }]);

    const warnings = ((r.body.warnings ?? []) as string[]).join('\n');
    expect(warnings).toMatch(/sleep_analysis: .*longer than a day .*\(1 point, e\.g\. .*2019-03-02 23:00:00/);
    expect(warnings).toMatch(
      /mindful_minutes: .*longer than a day .*\(1 point, e\.g\. .*1970-01-01 01:00:00/,
    );
    expect(warnings).toMatch(/handwashing: .*longer than a day .*\(1 point, e\.g\. .*2025-03-01 12:00:00/);
  });
});

describe('a pushed sleep segment longer than a day', () => {
  it('is left out with the same warning; the night beside it counts', async () => {
    const s = await startIngestServer({ cards: [['sleep', 'sleep_analysis']] });
    srv = s;
    const segment = (startDate: string, endDate: string) => ({
      startDate,
      endDate,
      value: 'In Bed',
      source: 'Uhr',
    });
    const r = await s.push(
      JSON.stringify({
        data: {
          metrics: [
            {
              name: 'sleep_analysis',
              units: 'hr',
              data: [
                segment('2019-03-02 23:00:00 +0100', '2025-03-03 07:00:00 +0100'),
                segment('2025-03-03 23:00:00 +0100', '2025-03-04 07:00:00 +0100'),
              ],
            },
          ],
        },
      }),
    );
    expect(r.status, r.text).toBe(200);
    const sleep = await s.rows('sleep');
    expect(sleep.map((row) => [row.date, row.inBed])).toEqual([['2025-03-04', 8]]);
    expect(((r.body.warnings ?? []) as string[]).join('\n')).toMatch(
      /sleep_analysis: longer than a day .*\(1 point, e\.g\. .*2019-03-02 23:00:00/,
    );
  });
});
