/**
 * Stamps a phone set to a 12-hour clock writes in its region's words (`p. m.` in Spanish, `午後`
 * before the hour in Japanese, `오후` in Korean), through the real webhook: every point lands on
 * the day and hour written, and the same points sent later in 24-hour form add nothing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const hr = (dates: string[]) => ({
  data: {
    metrics: [
      {
        name: 'heart_rate',
        units: 'count/min',
        data: dates.map((date, i) => ({ date, Min: 60 + i, Avg: 70 + i, Max: 80 + i, source: 'Watch' })),
      },
    ],
  },
});

describe('12-hour stamps in a region’s words', () => {
  it('are read on their day and hour, and the 24-hour spelling of them is the same samples', async () => {
    srv = await startIngestServer({ cards: [['heart', 'heart_rate']] });
    const first = await srv.push(
      JSON.stringify(
        hr([
          '2026-03-14 11:58:00 p.\u00a0m. -0300',
          '2026-03-15 午後1:05:00 +0900',
          '2026-03-16 오전 9:30:00 +0900',
        ]),
      ),
    );
    expect(first.status).toBe(200);
    expect(first.body.warnings ?? []).toEqual([]);
    expect(first.body.samples).toEqual({ received: 3, new: 3 });
    expect(await srv.rows('heart')).toEqual([
      { date: '2026-03-14', min: 60, avg: 70, max: 80 },
      { date: '2026-03-15', min: 61, avg: 71, max: 81 },
      { date: '2026-03-16', min: 62, avg: 72, max: 82 },
    ]);
    const again = await srv.push(
      JSON.stringify(
        hr(['2026-03-14 23:58:00 -0300', '2026-03-15 13:05:00 +0900', '2026-03-16 09:30:00 +0900']),
      ),
    );
    expect(again.body.samples).toEqual({ received: 3, new: 0 });
  });
});
