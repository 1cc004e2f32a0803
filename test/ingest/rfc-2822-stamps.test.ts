/**
 * Timestamps in the spelling of mail and HTTP headers (RFC 2822), as a Shortcut's Format Date
 * action writes them when set to RFC 2822 (`Fri, 1 May 2026 08:00:00 +0200`), and as JavaScript
 * writes a date (`toUTCString()`: `Fri, 01 May 2026 06:00:00 GMT`; `toString()`: `Fri May 01
 * 2026 08:00:00 GMT+0200 (Central European Summer Time)`), from a Scriptable script posting to
 * the webhook. Each names one instant and is filed as the same stamp in ISO 8601 is.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

function resting(data: Record<string, unknown>[]): string {
  return JSON.stringify({ data: { metrics: [{ name: 'resting_heart_rate', units: 'count/min', data }] } });
}

describe('timestamps spelled as mail headers write them', () => {
  it('are read as the instants they name', async () => {
    srv = await startIngestServer({ cards: [['resting', 'resting_heart_rate']] });
    const stamps = [
      'Fri, 1 May 2026 08:00:00 +0200',
      'Sat, 02 May 2026 08:00 +0200',
      '3 May 2026 08:00:00 +0200',
      'Mon May 04 2026 08:00:00 GMT+0200 (Central European Summer Time)',
      'Tue May 05 2026 08:00:00 GMT+0200',
    ];
    const r = await srv.push(resting(stamps.map((date, i) => ({ date, qty: 50 + i, source: 'Watch' }))));
    expect(r.status, r.text).toBe(200);
    expect(r.body.warnings ?? []).toEqual([]);
    expect(r.body.samples).toEqual({ received: 5, new: 5 });
    expect(await srv.rows('resting')).toEqual(
      stamps.map((_, i) => ({ date: `2026-05-0${i + 1}`, bpm: 50 + i })),
    );
    // the same instants in ISO 8601 are the same samples
    const again = await srv.push(
      resting([
        { date: '2026-05-01 08:00:00 +0200', qty: 50, source: 'Watch' },
        { date: '2026-05-04T08:00:00+02:00', qty: 53, source: 'Watch' },
      ]),
    );
    expect(again.body.samples).toEqual({ received: 2, new: 0 });
  });

  it('in GMT are read as a time in UTC is', async () => {
    srv = await startIngestServer({ cards: [['resting', 'resting_heart_rate']] });
    const first = await srv.push(
      resting([{ date: 'Fri, 01 May 2026 15:00:00 GMT', qty: 61, source: 'Watch' }]),
    );
    expect(first.status, first.text).toBe(200);
    expect(first.body.warnings ?? []).toEqual([]);
    const again = await srv.push(resting([{ date: '2026-05-01T15:00:00Z', qty: 61, source: 'Watch' }]));
    expect(again.body.samples).toEqual({ received: 1, new: 0 });
    expect(await srv.rows('resting')).toHaveLength(1);
  });
});
