/**
 * An instant written in UTC is filed on the person's day in the zone set when it arrives. The same
 * instant pushed again after the zone changed (a trip, a new browser), or after an older Klebb
 * filed it on its UTC date, is the same sample: it stays on the day it was filed and is not
 * counted on a second day.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const setZone = async (tz: string) =>
  expect((await srv?.api('/api/user/tz', { json: { tz } }))?.status).toBe(200);

function steps(points: [unknown, number][]): string {
  return JSON.stringify({
    data: {
      metrics: [
        {
          name: 'step_count',
          units: 'count',
          data: points.map(([date, qty]) => ({ date, qty, source: 'Script' })),
        },
      ],
    },
  });
}

describe('an instant written in UTC sent again under another zone', () => {
  it('is stored once and stays on the day it was filed', async () => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    await setZone('America/Los_Angeles');
    // 03:30 UTC on 16 May: 15 May in Los Angeles, 16 May in Berlin; the epoch spelling is the same instant
    const first = await srv.push(steps([['2026-05-16T03:30:00Z', 500]]));
    expect(first.body.samples).toEqual({ received: 1, new: 1 });
    await setZone('Europe/Berlin');
    const again = await srv.push(steps([[Date.UTC(2026, 4, 16, 3, 30) / 1000, 500]]));
    expect(again.body.samples).toEqual({ received: 1, new: 0 });
    expect(await srv.rows('steps')).toEqual([{ date: '2026-05-15', count: 500 }]);
  });

  it('a sample filed on its UTC date (older Klebb, a UTC zone) is not stored again on the person’s day', async () => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    await setZone('UTC');
    await srv.push(steps([['2026-05-16T03:30:00Z', 500]]));
    await setZone('America/Los_Angeles');
    // one more point, new, beside the one sent again: only the new one is stored
    const again = await srv.push(
      steps([
        ['2026-05-16T03:30:00Z', 500],
        ['2026-05-17T18:00:00Z', 700],
      ]),
    );
    expect(again.body.samples).toEqual({ received: 2, new: 1 });
    expect(await srv.rows('steps')).toEqual([
      { date: '2026-05-16', count: 500 },
      { date: '2026-05-17', count: 700 },
    ]);
  });
});
