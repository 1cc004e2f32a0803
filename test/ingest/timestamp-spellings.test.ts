/**
 * Timestamps as scripts and other exporters write them, pushed through the real webhook: seconds
 * or milliseconds since 1970 (numbers or digits), the year first with slashes, ISO with `T` and
 * `Z`, a comma before the offset, `GMT-07:00`, a day and month whose order can be told. Each is
 * filed on its day; one that cannot be read one way (`05/06/2026`, a 9-digit number) is left out
 * with a warning saying why, never guessed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

/** 15:00 UTC on `day` of May 2026, in ms since 1970. */
const utc = (day: number) => Date.UTC(2026, 4, day, 15, 0, 0);

function resting(data: Record<string, unknown>[]): string {
  return JSON.stringify({ data: { metrics: [{ name: 'resting_heart_rate', units: 'count/min', data }] } });
}

describe('timestamps spelled otherwise', () => {
  it('reads each on its day', async () => {
    srv = await startIngestServer({ cards: [['resting', 'resting_heart_rate']] });
    const stamps: unknown[] = [
      utc(10) / 1000,
      utc(11),
      String(utc(12) / 1000),
      String(utc(13)),
      '2026/05/14 08:00:00 -0700',
      '2026-05-15T08:00:00Z',
      '2026-05-16 08:00:00, -0700',
      '2026-05-17 08:00:00 GMT-07:00',
      '18/05/2026 08:00',
      '05/19/2026, 8:00:00 AM',
      (utc(20) + 250) / 1000,
    ];
    const r = await srv.push(resting(stamps.map((date, i) => ({ date, qty: 50 + i, source: 'Watch' }))));
    expect(r.status).toBe(200);
    expect(r.body.warnings ?? []).toEqual([]);
    expect(r.body.samples).toEqual({ received: stamps.length, new: stamps.length });
    expect(await srv.rows('resting')).toEqual(
      stamps.map((_, i) => ({ date: `2026-05-${10 + i}`, bpm: 50 + i })),
    );
  });

  it('one instant in two spellings is one sample', async () => {
    srv = await startIngestServer({ cards: [['resting', 'resting_heart_rate']] });
    const first = await srv.push(resting([{ date: '2026-05-15T15:00:00Z', qty: 61, source: 'Watch' }]));
    expect(first.body.samples).toEqual({ received: 1, new: 1 });
    for (const date of [utc(15) / 1000, String(utc(15)), '2026-05-15 15:00:00 +0000']) {
      const again = await srv.push(resting([{ date, qty: 61, source: 'Watch' }]));
      expect(again.body.samples, String(date)).toEqual({ received: 1, new: 0 });
    }
    expect(await srv.rows('resting')).toEqual([{ date: '2026-05-15', bpm: 61 }]);
  });

  it('leaves out, with the reason, a stamp that can be read two ways or not at all', async () => {
    srv = await startIngestServer({ cards: [['resting', 'resting_heart_rate']] });
    const r = await srv.push(
      resting([
        { date: '05/06/2026 08:00', qty: 60 },
        // seconds since 2001 (Apple's own count) or since 1970 in 1994: not told
        { date: 770000000, qty: 61 },
        { date: '2026-05-06 08:00:00 Europe/Paris', qty: 62 },
        { date: '2026-05-07 08:00:00 -0700', qty: 63 },
      ]),
    );
    expect(r.status).toBe(200);
    expect(r.body.samples).toEqual({ received: 1, new: 1 });
    expect(r.body.warnings).toEqual([
      'resting_heart_rate: unreadable timestamp: day and month order cannot be told; send the year first (YYYY-MM-DD) (1 point, e.g. "05/06/2026 08:00")',
      'resting_heart_rate: unreadable timestamp: a number that is not seconds (10 digits) or milliseconds (13 digits) since 1970 (1 point, e.g. 770000000)',
      'resting_heart_rate: unreadable timestamp: a time zone name instead of an offset (+HHMM) (1 point, e.g. "2026-05-06 08:00:00 Europe/Paris")',
    ]);
    expect(await srv.rows('resting')).toEqual([{ date: '2026-05-07', bpm: 63 }]);
  });

  it('reads a workout and a night timed in seconds since 1970', async () => {
    srv = await startIngestServer({
      cards: [
        ['workouts', 'workouts'],
        ['sleep', 'sleep_analysis'],
      ],
    });
    const body = {
      data: {
        metrics: [
          {
            name: 'sleep_analysis',
            units: 'hr',
            data: [
              {
                startDate: utc(21) / 1000 - 8 * 3600,
                endDate: utc(21) / 1000 - 2 * 3600,
                qty: 6,
                value: 'Core',
                source: 'Watch',
              },
            ],
          },
        ],
        workouts: [
          {
            id: 'A1B2C3D4-0000-4000-8000-000000000002',
            name: 'Outdoor Walk',
            start: utc(22) / 1000,
            end: utc(22) / 1000 + 1800,
            duration: 1800,
          },
        ],
      },
    };
    const r = await srv.push(JSON.stringify(body));
    expect(r.status).toBe(200);
    expect(r.body.warnings ?? []).toEqual([]);
    expect(await srv.rows('sleep')).toMatchObject([{ date: '2026-05-21', hours: 6, core: 6 }]);
    expect(await srv.rows('workouts')).toMatchObject([
      { date: '2026-05-22', trained: true, type: 'Outdoor Walk', durationMin: 30, startTime: '15:00' },
    ]);
  });
});
