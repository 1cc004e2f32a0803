/**
 * Timestamps with the month's English name, as a Shortcut writes a date put into a text as it
 * is (the Medium style of the phone's region: `May 1, 2026 at 8:00 AM` in the United States,
 * `1 May 2026 at 08:00` in Britain, with the narrow no-break space iOS writes before AM/PM).
 * Each is read as the zone-less local time it is, instead of being left out as unreadable.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

function weight(data: Record<string, unknown>[]): string {
  return JSON.stringify({ data: { metrics: [{ name: 'weight_body_mass', units: 'kg', data }] } });
}

describe('timestamps with the month’s name', () => {
  it('are read on their day at their time', async () => {
    srv = await startIngestServer({ cards: [['weight', 'weight_body_mass']] });
    const stamps = [
      'May 1, 2026 at 8:00 AM',
      'May 2, 2026 at 8:00\u202fPM',
      '3 May 2026 at 08:00',
      'Monday, May 4, 2026 at 7:30:15 AM',
      'Sep 5, 2026, 8:00 AM',
    ];
    const r = await srv.push(weight(stamps.map((date, i) => ({ date, qty: 70 + i, source: 'Shortcut' }))));
    expect(r.status, r.text).toBe(200);
    expect(r.body.warnings ?? []).toEqual([]);
    expect(r.body.samples).toEqual({ received: 5, new: 5 });
    const rows = (await srv.rows('weight')) as { date: string }[];
    expect(rows.map((row) => row.date)).toEqual([
      '2026-05-01',
      '2026-05-02',
      '2026-05-03',
      '2026-05-04',
      '2026-09-05',
    ]);
    // the time is read too: the same reading as the evening's local time is the same sample
    const again = await srv.push(weight([{ date: '2026-05-02 20:00:00', qty: 71, source: 'Shortcut' }]));
    expect(again.body.samples).toEqual({ received: 1, new: 0 });
  });
});
