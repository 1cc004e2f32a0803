/**
 * Values that make no sense are refused per point with a warning naming the metric and how many
 * points were dropped (docs/HEALTH-AUTO-EXPORT.md "What each card gets"; src/ingest/hae/format/plausible.ts):
 * negative counts and totals, dates before 1900 or after 2099, numbers beyond ±1e9 (two `1e308`
 * summed to Infinity and silently wrote nothing). A numeric string is read as its number.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

function body(name: string, units: string, data: Record<string, unknown>[]): string {
  return JSON.stringify({ data: { metrics: [{ name, units, data }] } });
}

describe('implausible points are dropped with a warning', () => {
  it('a negative step count is refused; the day keeps its other samples', async () => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    const r = await srv.push(
      body('step_count', 'count', [
        { date: '2025-05-01 09:00:00 +0200', qty: -5000 },
        { date: '2025-05-01 10:00:00 +0200', qty: -1 },
        { date: '2025-05-01 11:00:00 +0200', qty: 1200 },
      ]),
    );
    expect(r.body.ok).toBe(true);
    expect(r.body.warnings).toEqual(['step_count: negative value (2 points, e.g. -5000)']);
    expect(r.body.samples).toEqual({ received: 1, new: 1 });
    expect(await srv.rows('steps')).toEqual([{ date: '2025-05-01', count: 1200 }]);
  });

  it('a negative temperature is a reading, not an error', async () => {
    srv = await startIngestServer({ cards: [['temp', 'body_temperature']] });
    const r = await srv.push(
      body('body_temperature', 'degC', [{ date: '2025-05-01 09:00:00 +0200', qty: -0.5 }]),
    );
    expect(r.body.warnings).toBeUndefined();
    expect(await srv.rows('temp')).toEqual([{ date: '2025-05-01', degC: -0.5 }]);
  });

  it('dates before 1900 or after 2099 are refused', async () => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    const r = await srv.push(
      body('step_count', 'count', [
        { date: '0001-01-01 00:00:00 +0000', qty: 10 },
        { date: '1899-12-31 12:00:00 +0000', qty: 10 },
        { date: '9999-01-01 00:00:00 +0000', qty: 10 },
        { date: '2025-05-01 00:00:00 +0200', qty: 10 },
      ]),
    );
    expect(r.body.warnings).toEqual([
      'step_count: date before 1900-01-01: a year below 100 is a date never set or a year of a Japanese era (Reiwa 8 is 2026, Heisei 8 was 1996), which cannot be told apart; set the phone to the Gregorian calendar (1 point, e.g. "0001-01-01 00:00:00 +0000")',
      'step_count: date before 1900-01-01 (1 point, e.g. "1899-12-31 12:00:00 +0000")',
      'step_count: date after 2099-12-31 (1 point, e.g. "9999-01-01 00:00:00 +0000")',
    ]);
    expect(await srv.rows('steps')).toEqual([{ date: '2025-05-01', count: 10 }]);
  });

  it('numbers too large to sum are refused, never stored, never a silent missing row', async () => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    const r = await srv.push(
      body('step_count', 'count', [
        { date: '2025-05-01 09:00:00 +0200', qty: 1e308 },
        { date: '2025-05-01 10:00:00 +0200', qty: 1e308 },
      ]),
    );
    expect(r.body.warnings).toEqual(['step_count: value beyond ±1e+9 (2 points, e.g. 1e+308)']);
    expect(r.body.samples).toEqual({ received: 0, new: 0 });
    expect(await srv.rows('steps')).toEqual([]);
  });

  it('a numeric string is read as its number', async () => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    const r = await srv.push(
      body('step_count', 'count', [{ date: '2025-05-01 00:00:00 +0200', qty: '500' }]),
    );
    expect(r.body.warnings).toBeUndefined();
    expect(await srv.rows('steps')).toEqual([{ date: '2025-05-01', count: 500 }]);
  });
});
