/**
 * A stamp followed by the zone it was recorded in, in brackets, as RFC 9557 and JavaScript's
 * Temporal write it (`2026-06-02T23:30:00+09:00[Asia/Tokyo]`), pushed through the real webhook:
 * read on that zone's clock, the same sample as the stamp without its zone; further annotations
 * are passed over, and a zone the runtime does not know leaves the stamp read as written.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

function resting(points: { date: string; qty: number }[]): string {
  return JSON.stringify({
    data: { metrics: [{ name: 'resting_heart_rate', units: 'count/min', data: points }] },
  });
}

describe('a stamp naming its zone in brackets', () => {
  it('is read on that zone’s clock', async () => {
    srv = await startIngestServer({ cards: [['resting', 'resting_heart_rate']] });
    const r = await srv.push(
      resting([
        // Temporal's ZonedDateTime: 23:30 on 2 June in Tokyo
        { date: '2026-06-02T23:30:00+09:00[Asia/Tokyo]', qty: 50 },
        // an instant in UTC with the zone it happened in: 07:30 on 4 June in Tokyo, not the person's day
        { date: '2026-06-03T22:30:00Z[Asia/Tokyo]', qty: 51 },
        // the wall clock of the zone, no offset written; a calendar annotation after the zone
        { date: '2026-06-05T08:00:00[Europe/Paris][u-ca=gregory]', qty: 52 },
        // another offset than the zone's: the instant as written, on the zone's clock (00:30 on 7 June)
        { date: '2026-06-06 11:30:00 -0400 [Asia/Tokyo]', qty: 53 },
        // a zone no runtime knows: the stamp as written
        { date: '2026-06-08 07:00:00 +0200 [Mars/Olympus]', qty: 54 },
      ]),
    );
    expect(r.status).toBe(200);
    expect(r.body.warnings).toBeUndefined();
    expect(r.body.samples).toEqual({ received: 5, new: 5 });
    expect(await srv.rows('resting')).toEqual([
      { date: '2026-06-02', bpm: 50 },
      { date: '2026-06-04', bpm: 51 },
      { date: '2026-06-05', bpm: 52 },
      { date: '2026-06-07', bpm: 53 },
      { date: '2026-06-08', bpm: 54 },
    ]);
    // the same stamp without its zone is the same sample
    const again = await srv.push(resting([{ date: '2026-06-02 23:30:00 +0900', qty: 50 }]));
    expect(again.body.samples).toEqual({ received: 1, new: 0 });
  });
});

describe('a pushed point or workout whose metadata names the zone it was recorded in', () => {
  it('is read on that zone’s clock, as an Apple Health record is', async () => {
    srv = await startIngestServer({
      cards: [
        ['sleep', 'sleep_analysis'],
        ['workouts', 'workouts'],
        ['resting', 'resting_heart_rate'],
      ],
    });
    const tokyo = { HKTimeZone: 'Asia/Tokyo', HKWasUserEntered: '0' };
    const r = await srv.push(
      JSON.stringify({
        data: {
          metrics: [
            {
              name: 'sleep_analysis',
              units: 'hr',
              data: [
                // 23:00 on 10 June to 07:00 on 11 June in Tokyo, written on New York's clock
                {
                  startDate: '2024-06-10 10:00:00 -0400',
                  endDate: '2024-06-10 18:00:00 -0400',
                  value: 'Core',
                  qty: 8,
                  source: 'Watch',
                  metadata: tokyo,
                },
              ],
            },
            {
              name: 'resting_heart_rate',
              units: 'count/min',
              data: [
                {
                  date: '2024-06-12 19:00:00 -0400',
                  qty: 52,
                  metadata: { HKMetadataKeyTimeZone: 'Asia/Tokyo' },
                },
                // recorded at home, and a zone no runtime knows: as written
                { date: '2024-06-14 19:00:00 -0400', qty: 53, metadata: { HKTimeZone: 'America/New_York' } },
                { date: '2024-06-15 19:00:00 -0400', qty: 54, metadata: { HKTimeZone: 'Mars/Olympus' } },
              ],
            },
          ],
          workouts: [
            {
              id: 'run-1',
              name: 'Outdoor Run',
              start: '2024-06-12 11:30:00 -0400',
              end: '2024-06-12 12:00:00 -0400',
              duration: 1800,
              metadata: tokyo,
            },
          ],
        },
      }),
    );
    expect(r.status).toBe(200);
    expect(r.body.warnings).toBeUndefined();
    expect(await srv.rows('sleep')).toEqual([
      { date: '2024-06-11', hours: 8, core: 8, bedTime: '23:00', wakeTime: '07:00', source: 'Watch' },
    ]);
    expect(await srv.rows('workouts')).toEqual([
      { date: '2024-06-13', trained: true, type: 'Outdoor Run', durationMin: 30, startTime: '00:30' },
    ]);
    expect(await srv.rows('resting')).toEqual([
      { date: '2024-06-13', bpm: 52 },
      { date: '2024-06-14', bpm: 53 },
      { date: '2024-06-15', bpm: 54 },
    ]);
  });
});
