/**
 * A summarized one-day push from a phone set to US units, through the real webhook: every block is
 * read in the unit it names and lands on the day it is stamped with, nothing is left out with a
 * warning (breathing disturbances arrive as a plain `count`), and pushing it again changes nothing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ONE_DAY_US_ROWS, oneDayUsPush } from '../fixtures/hae-one-day-us.js';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

describe('a one-day push in US units', () => {
  it('fills every card in Klebb units, warns of nothing, and a re-push adds nothing', async () => {
    srv = await startIngestServer({ cards: ONE_DAY_US_ROWS.map(([m]) => [m.replace(/_/g, '-'), m]) });
    const body = JSON.stringify(oneDayUsPush());
    const first = await srv.push(body);
    expect(first.status).toBe(200);
    expect(first.body.warnings ?? []).toEqual([]);
    expect(first.body.samples).toEqual({ received: ONE_DAY_US_ROWS.length, new: ONE_DAY_US_ROWS.length });
    for (const [metric, row] of ONE_DAY_US_ROWS)
      expect({ metric, rows: await srv.rows(metric.replace(/_/g, '-')) }).toEqual({ metric, rows: [row] });

    const again = await srv.push(body);
    expect(again.status).toBe(200);
    expect(again.body.samples).toEqual({ received: ONE_DAY_US_ROWS.length, new: 0 });
    for (const [metric, row] of ONE_DAY_US_ROWS)
      expect({ metric, rows: await srv.rows(metric.replace(/_/g, '-')) }).toEqual({ metric, rows: [row] });
  });
});
