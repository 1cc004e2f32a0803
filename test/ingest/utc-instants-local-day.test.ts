/**
 * Instants written in UTC (seconds or milliseconds since 1970, a stamp ending in `Z`) carry no
 * clock of the phone's: pushed through the real webhook, each is filed on the person's day, in the
 * zone set in Klebb, as the rest of Klebb files an instant; a stamp with the phone's offset stays
 * on the day it names. An instant at exactly midnight UTC is a day written as a timestamp and
 * stays on its date.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

/** `hh:mm` UTC on `day` of May 2026, in ms since 1970. */
const utc = (day: number, hh: number, mm = 0) => Date.UTC(2026, 4, day, hh, mm, 0);

async function serverIn(tz: string, cards: [string, string][]): Promise<IngestServer> {
  const s = await startIngestServer({ cards });
  const r = await s.api('/api/user/tz', { json: { tz } });
  expect(r.status).toBe(200);
  return s;
}

function block(name: string, units: string, data: Record<string, unknown>[]): string {
  return JSON.stringify({ data: { metrics: [{ name, units, data }] } });
}

describe('instants written in UTC are filed on the person’s day', () => {
  it('an evening in Los Angeles, however the instant is spelled, is that evening’s day', async () => {
    srv = await serverIn('America/Los_Angeles', [['resting', 'resting_heart_rate']]);
    // 03:30 UTC on 16 May is 20:30 on 15 May in Los Angeles (PDT, -07:00)
    const stamps: unknown[] = [
      utc(16, 3, 30) / 1000,
      utc(17, 3, 30),
      String(utc(18, 3, 30) / 1000),
      '2026-05-19T03:30:00.000Z',
      '2026-05-20 03:30:00 UTC',
    ];
    const r = await srv.push(
      block(
        'resting_heart_rate',
        'count/min',
        stamps.map((date, i) => ({ date, qty: 50 + i, source: 'Script' })),
      ),
    );
    expect(r.status).toBe(200);
    expect(r.body.warnings ?? []).toEqual([]);
    expect(await srv.rows('resting')).toEqual(
      stamps.map((_, i) => ({ date: `2026-05-${15 + i}`, bpm: 50 + i })),
    );
  });

  it('east of Greenwich a UTC evening is the next morning', async () => {
    srv = await serverIn('Pacific/Auckland', [['resting', 'resting_heart_rate']]);
    // 20:00 UTC on 15 May is 08:00 on 16 May in Auckland (NZST, +12:00)
    const r = await srv.push(
      block('resting_heart_rate', 'count/min', [{ date: utc(15, 20) / 1000, qty: 55, source: 'Script' }]),
    );
    expect(r.status).toBe(200);
    expect(await srv.rows('resting')).toEqual([{ date: '2026-05-16', bpm: 55 }]);
  });

  it('a stamp with the phone’s offset stays on the day it names', async () => {
    srv = await serverIn('America/Los_Angeles', [['resting', 'resting_heart_rate']]);
    const r = await srv.push(
      block('resting_heart_rate', 'count/min', [
        { date: '2026-05-16 03:30:00 +0000', qty: 58, source: 'iPhone' },
        { date: '2026-05-17 23:30:00 +1200', qty: 59, source: 'iPhone' },
      ]),
    );
    expect(r.status).toBe(200);
    expect(await srv.rows('resting')).toEqual([
      { date: '2026-05-16', bpm: 58 },
      { date: '2026-05-17', bpm: 59 },
    ]);
  });

  it('daily totals stamped at midnight UTC stay on their dates; hourly ones add up on the local day', async () => {
    srv = await serverIn('America/New_York', [['steps', 'step_count']]);
    const r = await srv.push(
      block('step_count', 'count', [
        { date: utc(10, 0) / 1000, qty: 8000, source: 'Script' },
        { date: '2026-05-11T00:00:00Z', qty: 9000, source: 'Script' },
        // 02:00 and 03:00 UTC on 13 May are 22:00 and 23:00 on 12 May in New York (EDT)
        { date: utc(13, 2) / 1000, qty: 300, source: 'Script' },
        { date: utc(13, 3) / 1000, qty: 200, source: 'Script' },
        { date: utc(13, 14) / 1000, qty: 1000, source: 'Script' },
      ]),
    );
    expect(r.status).toBe(200);
    expect(await srv.rows('steps')).toEqual([
      { date: '2026-05-10', count: 8000 },
      { date: '2026-05-11', count: 9000 },
      { date: '2026-05-12', count: 500 },
      { date: '2026-05-13', count: 1000 },
    ]);
  });

  it('a daily total stamped at the person’s midnight is read as the day’s total beside its hours', async () => {
    srv = await serverIn('Europe/Berlin', [['steps', 'step_count']]);
    // 22:00 UTC on 10 May is midnight on 11 May in Berlin: the app's daily point, sent with
    // two of the same day's hours, which it already counts
    const r = await srv.push(
      block('step_count', 'count', [
        { date: utc(10, 22) / 1000, qty: 8000, source: 'iPhone' },
        { date: utc(11, 8) / 1000, qty: 3000, source: 'iPhone' },
        { date: utc(11, 13) / 1000, qty: 2000, source: 'iPhone' },
      ]),
    );
    expect(r.status).toBe(200);
    expect(await srv.rows('steps')).toEqual([{ date: '2026-05-11', count: 8000 }]);
  });

  it('a night and a workout timed in seconds since 1970 keep the local day and clock', async () => {
    srv = await serverIn('Europe/Berlin', [
      ['sleep', 'sleep_analysis'],
      ['workouts', 'workouts'],
    ]);
    // Berlin is UTC+2 in May: 21:30 UTC on 20 May is 23:30, 05:00 UTC on 21 May is 07:00;
    // 22:30 UTC on 21 May is 00:30 on 22 May
    const body = {
      data: {
        metrics: [
          {
            name: 'sleep_analysis',
            units: 'hr',
            data: [
              {
                startDate: utc(20, 21, 30) / 1000,
                endDate: utc(21, 5) / 1000,
                value: 'Core',
                source: 'Watch',
              },
            ],
          },
        ],
        workouts: [
          {
            id: 'A1B2C3D4-0000-4000-8000-000000000003',
            name: 'Night Run',
            start: utc(21, 22, 30) / 1000,
            end: utc(21, 23) / 1000,
            duration: 1800,
          },
        ],
      },
    };
    const r = await srv.push(JSON.stringify(body));
    expect(r.status).toBe(200);
    expect(r.body.warnings ?? []).toEqual([]);
    expect(await srv.rows('sleep')).toMatchObject([
      { date: '2026-05-21', hours: 7.5, bedTime: '23:30', wakeTime: '07:00' },
    ]);
    expect(await srv.rows('workouts')).toMatchObject([
      { date: '2026-05-22', type: 'Night Run', durationMin: 30, startTime: '00:30' },
    ]);
  });

  it('the same instant sent again in another spelling is still one sample', async () => {
    srv = await serverIn('America/Los_Angeles', [['resting', 'resting_heart_rate']]);
    const first = await srv.push(
      block('resting_heart_rate', 'count/min', [{ date: utc(16, 3, 30) / 1000, qty: 61, source: 'Watch' }]),
    );
    expect(first.body.samples).toEqual({ received: 1, new: 1 });
    for (const date of [utc(16, 3, 30), '2026-05-16T03:30:00Z']) {
      const again = await srv.push(
        block('resting_heart_rate', 'count/min', [{ date, qty: 61, source: 'Watch' }]),
      );
      expect(again.body.samples, String(date)).toEqual({ received: 1, new: 0 });
    }
    expect(await srv.rows('resting')).toEqual([{ date: '2026-05-15', bpm: 61 }]);
  });
});
