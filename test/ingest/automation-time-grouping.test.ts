/**
 * The time grouping Health Auto Export names in the automation-aggregation header of every push
 * (the automation's Time Grouping: Minutes, Hours, Days, Weeks, Months ...) decides what a point
 * stamped at local midnight is:
 * - Hours: the hour from 00:00 to 01:00, added to the day's other hours, even when it is the
 *   day's largest (a night shift), never read as the whole day;
 * - Weeks or Months: a week's or month's summary, which is no day's value: left out with a
 *   warning naming the header, the day's own total (from a Days automation) kept; single samples
 *   of such an automation (not summarized, stamped at their own times) are read as usual;
 * - Default: a JSON export's minute (the app's Default groups JSON by minutes), a CSV export's
 *   day (it groups CSV by days);
 * - no header or Days: a daily total, as before.
 * Held in memory, streamed for its size, or sent as CSV, the push reads the same.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { HAE_INLINE_MAX_BYTES } from '../../src/ingest/hae/env.js';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const DAY = '2026-07-06';

function pushWith(s: IngestServer, body: string, grouping?: string, contentType = 'application/json') {
  return s.api('/api/health-auto-export', {
    method: 'POST',
    body,
    token: s.haeToken,
    headers: {
      'content-type': contentType,
      'automation-name': 'Klebb',
      'automation-period': 'Since Last Sync',
      ...(grouping ? { 'automation-aggregation': grouping } : {}),
    },
  });
}

function steps(points: [string, number][], extra: object[] = []): string {
  const data = points.map(([at, qty]) => ({ date: at, qty, source: 'Nadia’s iPhone' }));
  return JSON.stringify({ data: { metrics: [{ name: 'step_count', units: 'count', data }, ...extra] } });
}

/** An hour's steps of a night-shift worker: the largest hour of the day is the one after midnight. */
const NIGHT_SHIFT: [string, number][] = [
  [`${DAY} 00:00:00 +0200`, 3100],
  [`${DAY} 01:00:00 +0200`, 800],
  [`${DAY} 14:00:00 +0200`, 450],
  [`${DAY} 23:00:00 +0200`, 900],
];

describe('automation-aggregation Hours', () => {
  it("adds the midnight hour to the day's other hours", async () => {
    const s = await startIngestServer({ cards: [['steps', 'step_count']] });
    srv = s;
    const r = await pushWith(s, steps(NIGHT_SHIFT), 'Hours');
    expect(r.status, r.text).toBe(200);
    expect(r.body.ok).toBe(true);
    expect(await s.rows('steps')).toEqual([{ date: DAY, count: 5250 }]);
    // the same push sent again, and the same points in two pushes, add nothing
    await pushWith(s, steps(NIGHT_SHIFT), 'Hours');
    await pushWith(s, steps(NIGHT_SHIFT.slice(0, 2)), 'hours');
    expect(await s.rows('steps')).toEqual([{ date: DAY, count: 5250 }]);
  });

  it('reads a push streamed for its size the same', async () => {
    const s = await startIngestServer({ cards: [['steps', 'step_count']] });
    srv = s;
    // a second metric of many samples makes the body too large to be held in memory
    const heart = Array.from({ length: 50_000 }, (_, i) => ({
      date: `2026-07-05 ${String(Math.floor(i / 3600) % 24).padStart(2, '0')}:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')} +0200`,
      Min: 60,
      Avg: 62,
      Max: 64,
      source: 'Nadia’s Apple Watch',
    }));
    const body = steps(NIGHT_SHIFT, [{ name: 'heart_rate', units: 'count/min', data: heart }]);
    expect(body.length).toBeGreaterThan(HAE_INLINE_MAX_BYTES);
    const r = await pushWith(s, body, 'Hours');
    expect(r.status, r.text).toBe(200);
    expect(r.body.ok).toBe(true);
    expect(await s.rows('steps')).toEqual([{ date: DAY, count: 5250 }]);
  });

  it('without the header, or with Days, a midnight point is the day total as before', async () => {
    const s = await startIngestServer({ cards: [['steps', 'step_count']] });
    srv = s;
    const daily = steps([[`${DAY} 00:00:00 +0200`, 7400]]);
    expect((await pushWith(s, daily, 'Days')).status).toBe(200);
    expect(await s.rows('steps')).toEqual([{ date: DAY, count: 7400 }]);
    expect((await pushWith(s, steps([[`${DAY} 09:00:00 +0200`, 300]]))).status).toBe(200);
    expect(await s.rows('steps')).toEqual([{ date: DAY, count: 7400 }]);
  });
});

describe('automation-aggregation Default', () => {
  it("a JSON export's minutes: the midnight minute is added to the day's other minutes", async () => {
    const s = await startIngestServer({ cards: [['flights', 'flights_climbed']] });
    srv = s;
    const data = [
      { date: `${DAY} 00:00:00 +0200`, qty: 3, source: 'Nadia’s iPhone' },
      { date: `${DAY} 09:12:00 +0200`, qty: 2, source: 'Nadia’s iPhone' },
      { date: `${DAY} 18:40:00 +0200`, qty: 2, source: 'Nadia’s iPhone' },
    ];
    const body = JSON.stringify({ data: { metrics: [{ name: 'flights_climbed', units: 'count', data }] } });
    const r = await pushWith(s, body, 'Default');
    expect(r.status, r.text).toBe(200);
    expect(await s.rows('flights')).toEqual([{ date: DAY, count: 7 }]);
  });

  it("a CSV export's days: the day's row stays its total", async () => {
    const s = await startIngestServer({ cards: [['steps', 'step_count']] });
    srv = s;
    const csv = `Date/Time,Step Count (count)\n${DAY} 00:00:00,8200\n`;
    const r = await pushWith(s, csv, 'Default', 'text/csv');
    expect(r.status, r.text).toBe(200);
    expect(r.body.samples).toEqual({ received: 1, new: 1 });
    // a minute of that day sent later is part of the total, not added to it
    expect((await pushWith(s, steps([[`${DAY} 09:00:00 +0200`, 300]]))).status).toBe(200);
    expect(await s.rows('steps')).toEqual([{ date: DAY, count: 8200 }]);
  });
});

describe('automation-aggregation Weeks or Months', () => {
  it("leaves a week's summary off Monday, keeping the day's own total", async () => {
    const s = await startIngestServer({
      cards: [
        ['steps', 'step_count'],
        ['weight', 'weight_body_mass'],
      ],
    });
    srv = s;
    const daily = steps([[`${DAY} 00:00:00 +0200`, 8200]]);
    expect((await pushWith(s, daily, 'Days')).status).toBe(200);
    const weight = {
      name: 'weight_body_mass',
      units: 'kg',
      data: [{ date: `${DAY} 00:00:00 +0200`, qty: 71.3, source: 'Withings' }],
    };
    const weekly = steps([[`${DAY} 00:00:00 +0200`, 61_480]], [weight]);
    const r = await pushWith(s, weekly, 'Weeks');
    expect(r.status, r.text).toBe(200);
    expect(r.body.samples).toEqual({ received: 0, new: 0 });
    const warnings = (r.body.warnings ?? []) as string[];
    expect(warnings.some((w) => w.includes('step_count') && w.includes('automation-aggregation'))).toBe(true);
    expect(warnings.some((w) => w.includes('weight_body_mass') && w.includes('automation-aggregation'))).toBe(
      true,
    );
    expect(await s.rows('steps')).toEqual([{ date: DAY, count: 8200 }]);
    expect(await s.rows('weight')).toEqual([]);
    // a month's summary on the first of the month likewise
    const monthly = steps([['2026-07-01 00:00:00 +0200', 240_000]]);
    const m = await pushWith(s, monthly, 'Months');
    expect(m.status, m.text).toBe(200);
    expect(await s.rows('steps')).toEqual([{ date: DAY, count: 8200 }]);
  });

  it('reads single samples of an automation that does not summarize', async () => {
    const s = await startIngestServer({ cards: [['weight', 'weight_body_mass']] });
    srv = s;
    const body = JSON.stringify({
      data: {
        metrics: [
          {
            name: 'weight_body_mass',
            units: 'kg',
            data: [{ date: `${DAY} 07:12:40 +0200`, qty: 71.3, source: 'Withings' }],
          },
        ],
      },
    });
    const r = await pushWith(s, body, 'Weeks');
    expect(r.status, r.text).toBe(200);
    expect(await s.rows('weight')).toEqual([{ date: DAY, kg: 71.3 }]);
  });

  it('reads a CSV push of weekly summaries the same', async () => {
    const s = await startIngestServer({ cards: [['steps', 'step_count']] });
    srv = s;
    expect((await pushWith(s, steps([[`${DAY} 00:00:00 +0200`, 8200]]), 'Days')).status).toBe(200);
    const csv = `Date/Time,Step Count (count),Walking + Running Distance (km)\n${DAY} 00:00:00,61480,44.1\n`;
    const boundary = 'klebb-boundary';
    const form =
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="HealthMetrics-2026-07-06.csv"\r\n` +
      `Content-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`;
    const r = await pushWith(s, form, 'Weeks', `multipart/form-data; boundary=${boundary}`);
    expect(r.status, r.text).toBe(200);
    expect(r.body.samples).toEqual({ received: 0, new: 0 });
    expect(await s.rows('steps')).toEqual([{ date: DAY, count: 8200 }]);
  });
});
