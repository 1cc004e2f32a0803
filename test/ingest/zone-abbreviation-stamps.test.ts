/**
 * Stamps ending in a zone's abbreviation instead of an offset, as `date`, Python's `%Z`, a
 * Shortcut's custom `zzz` and mail headers write them, pushed through the real webhook: one that
 * names a single offset (`PDT`, `EST`, `CEST`, `CET`) is read at that offset, the same sample as
 * the stamp with its offset written; one used for several zones (`IST`, `CST`) is not guessed:
 * the point is left out with a warning naming the zones and asking for the offset.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, metricsPush, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

function resting(points: { date: string; qty: number }[]): string {
  return metricsPush([
    { name: 'resting_heart_rate', units: 'count/min', data: points.map((p) => ({ ...p, source: 'Watch' })) },
  ]);
}

describe('a stamp ending in a zone abbreviation', () => {
  it('is read at the offset it names when it names one', async () => {
    srv = await startIngestServer({ cards: [['resting', 'resting_heart_rate']] });
    const r = await srv.push(
      resting([
        { date: '2026-05-01 23:30:00 PDT', qty: 51 },
        { date: '2026-01-02 07:00:00 EST', qty: 52 },
        { date: '2026-05-03T06:15:00 CEST', qty: 53 },
        { date: '2026-01-04 00:10:00 CET', qty: 54 },
        { date: 'Tue, 5 May 2026 22:00:00 EDT', qty: 55 },
      ]),
    );
    expect(r.status).toBe(200);
    expect(r.body.warnings ?? []).toEqual([]);
    expect(r.body.samples).toEqual({ received: 5, new: 5 });
    // each on the day written on its own clock
    expect(await srv.rows('resting')).toEqual([
      { date: '2026-01-02', bpm: 52 },
      { date: '2026-01-04', bpm: 54 },
      { date: '2026-05-01', bpm: 51 },
      { date: '2026-05-03', bpm: 53 },
      { date: '2026-05-05', bpm: 55 },
    ]);
    // the same instants with their offsets written are the same samples
    const again = await srv.push(
      resting([
        { date: '2026-05-01 23:30:00 -0700', qty: 51 },
        { date: '2026-05-03 06:15:00 +0200', qty: 53 },
      ]),
    );
    expect(again.body.samples).toEqual({ received: 2, new: 0 });
  });

  it('a Shortcut’s Long time style is read with its zone', async () => {
    srv = await startIngestServer({ cards: [['resting', 'resting_heart_rate']] });
    const r = await srv.push(
      resting([
        // United States: the abbreviation; elsewhere in an en_US phone: GMT and the offset
        { date: 'May 11, 2026 at 11:30:00\u202fPM PDT', qty: 51 },
        { date: 'Tuesday, May 12, 2026 at 12:15:00 AM GMT+2', qty: 52 },
        // Britain in summer
        { date: '13 May 2026 at 23:45:00 BST', qty: 53 },
      ]),
    );
    expect(r.status).toBe(200);
    expect(r.body.warnings ?? []).toEqual([]);
    expect(await srv.rows('resting')).toEqual([
      { date: '2026-05-11', bpm: 51 },
      { date: '2026-05-12', bpm: 52 },
      { date: '2026-05-13', bpm: 53 },
    ]);
    const again = await srv.push(
      resting([
        { date: '2026-05-11 23:30:00 -0700', qty: 51 },
        { date: '2026-05-12 00:15:00 +0200', qty: 52 },
        { date: '2026-05-13 23:45:00 +0100', qty: 53 },
      ]),
    );
    expect(again.body.samples).toEqual({ received: 3, new: 0 });
  });

  it('is left out, with the zones it may name, when it names several', async () => {
    srv = await startIngestServer({ cards: [['resting', 'resting_heart_rate']] });
    const r = await srv.push(
      resting([
        { date: '2026-05-06 08:00:00 IST', qty: 60 },
        { date: '2026-05-07 08:00:00 CST', qty: 61 },
        { date: '2026-05-08 08:00:00 +0530', qty: 62 },
      ]),
    );
    expect(r.status).toBe(200);
    expect(r.body.samples).toEqual({ received: 1, new: 1 });
    expect(r.body.warnings).toEqual([
      'resting_heart_rate: unreadable timestamp: the zone abbreviation IST names several zones (India +0530, Israel +0200, Ireland +0100); send the offset (+HHMM) instead (1 point, e.g. "2026-05-06 08:00:00 IST")',
      'resting_heart_rate: unreadable timestamp: the zone abbreviation CST names several zones (US Central -0600, China +0800, Cuba -0500); send the offset (+HHMM) instead (1 point, e.g. "2026-05-07 08:00:00 CST")',
    ]);
    expect(await srv.rows('resting')).toEqual([{ date: '2026-05-08', bpm: 62 }]);
  });
});
