/**
 * An Apple Health record that starts at local midnight is read by its span: one that ends before
 * the day is over (steps from 00:00 to 00:10, the stand hour 00:00-01:00) is added to the day's
 * other records; one that spans the day is a daily total. Importing the file again over samples
 * stored before this was known (the same points, without their span) counts nothing twice. A
 * phone push has a time stamp only: its midnight point is read as the day's total unless its
 * device has a larger point later that day (docs/API.md, the webhook's example).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

const Q = 'HKQuantityTypeIdentifier';
const DAY = '2026-06-10';
const at = (hhmm: string, day = DAY) => `${day} ${hhmm}:00 +0200`;

/** A quantity record of `type` from `source`, `start` to `end` (HH:MM of DAY, or full stamps). */
function rec(type: string, source: string, unit: string, start: string, end: string, value: number): string {
  const s = start.length === 5 ? at(start) : start;
  const e = end.length === 5 ? at(end) : end;
  return ` <Record type="${type}" sourceName="${source}" unit="${unit}" creationDate="${e}" startDate="${s}" endDate="${e}" value="${value}"/>`;
}

function exportXml(records: string[]): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<HealthData locale="en_US">',
    ` <ExportDate value="${at('23:00')}"/>`,
    ...records,
    '</HealthData>',
    '',
  ].join('\n');
}

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const rowOf = async (s: IngestServer, card: string, date = DAY) =>
  (await s.rows(card)).find((r) => r.date === date);

describe('Apple Health records at local midnight', () => {
  it('a record of part of the day is added; a record spanning the day is the day total', async () => {
    const s = await startIngestServer({
      cards: [
        ['steps', 'step_count'],
        ['stand', 'apple_stand_hour'],
      ],
    });
    srv = s;
    const stood = (start: string, end: string) =>
      ` <Record type="HKCategoryTypeIdentifierAppleStandHour" sourceName="Watch" creationDate="${at(end)}" startDate="${at(start)}" endDate="${at(end)}" value="HKCategoryValueAppleStandHourStood"/>`;
    const xml = exportXml([
      rec(`${Q}StepCount`, 'iPhone', 'count', '00:00', '00:10', 50),
      rec(`${Q}StepCount`, 'iPhone', 'count', '10:00', '10:05', 40),
      stood('00:00', '01:00'),
      stood('09:00', '10:00'),
      // the next day: a pedometer app's daily total next to its own morning record
      rec(`${Q}StepCount`, 'Pedometer', 'count', at('00:00', '2026-06-11'), at('23:59', '2026-06-11'), 8000),
      rec(`${Q}StepCount`, 'Pedometer', 'count', at('09:00', '2026-06-11'), at('09:30', '2026-06-11'), 3000),
    ]);
    const r = await s.importExport(xml);
    expect(r.status, r.text).toBe(200);
    expect(await rowOf(s, 'steps')).toEqual({ date: DAY, count: 90 });
    expect(await rowOf(s, 'stand')).toEqual({ date: DAY, hours: 2 });
    expect(await rowOf(s, 'steps', '2026-06-11')).toEqual({ date: '2026-06-11', count: 8000 });
  });

  it('importing again over the same points stored without their span counts nothing twice', async () => {
    const s = await startIngestServer({ cards: [['steps', 'step_count']] });
    srv = s;
    // what an import stored before a record's span was read: the same two points, as a phone
    // push stores them (same content, same keys), the midnight one then read as the day total
    const before = await s.push(
      JSON.stringify({
        data: {
          metrics: [
            {
              name: 'step_count',
              units: 'count',
              data: [
                { date: at('00:00'), qty: 50, source: 'iPhone' },
                { date: at('10:00'), qty: 40, source: 'iPhone' },
              ],
            },
          ],
        },
      }),
    );
    expect(before.body.samples).toEqual({ received: 2, new: 2 });
    expect(await rowOf(s, 'steps')).toEqual({ date: DAY, count: 50 });

    const xml = exportXml([
      rec(`${Q}StepCount`, 'iPhone', 'count', '00:00', '00:10', 50),
      rec(`${Q}StepCount`, 'iPhone', 'count', '10:00', '10:05', 40),
    ]);
    const first = await s.importExport(xml);
    expect(first.status, first.text).toBe(200);
    // only the midnight record is new (it now says it is part of the day); the others were stored
    expect(first.body.newSamples).toBe(1);
    expect(await rowOf(s, 'steps')).toEqual({ date: DAY, count: 90 });
    const again = await s.importExport(xml);
    expect(again.body.newSamples).toBe(0);
    expect(await rowOf(s, 'steps')).toEqual({ date: DAY, count: 90 });
  });
});

describe('a phone push at local midnight (docs/API.md, the webhook example)', () => {
  it('5000 at 08:00 and 1234 at 10:00 make 6234; 5000 at 00:00 next to 1234 at 10:00 is the day total', async () => {
    const s = await startIngestServer({ cards: [['steps', 'step_count']] });
    srv = s;
    const push = (points: { date: string; qty: number }[]) =>
      s.push(JSON.stringify({ data: { metrics: [{ name: 'step_count', units: 'count', data: points }] } }));
    await push([
      { date: '2026-04-20 08:00:00 +0200', qty: 5000 },
      { date: '2026-04-20 10:00:00 +0200', qty: 1234 },
      { date: '2026-04-21 00:00:00 +0200', qty: 5000 },
      { date: '2026-04-21 10:00:00 +0200', qty: 1234 },
    ]);
    expect(await s.rows('steps')).toEqual([
      { date: '2026-04-20', count: 6234 },
      { date: '2026-04-21', count: 5000 },
    ]);
  });
});
