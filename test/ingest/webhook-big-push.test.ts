/**
 * A big push (tens of thousands of minute samples, streamed from a spool file) does not hold the
 * server: requests that arrive while it is stored and while its cards are filled are answered
 * before the push is, and the push still fills its card with every day.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { HAE_INLINE_MAX_BYTES } from '../../src/ingest/hae/env.js';
import { type IngestServer, minuteHeartRateBody, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const DAYS = 35;
const PER_DAY = 1440;

/** `days` days of heart rate, one point a minute, shaped like the app's minute-level export. */
const minuteHeartRate = (days: number): string =>
  minuteHeartRateBody(days, { offset: '+0200', avg: (d, m) => 55 + ((d * 31 + m * 7) % 60), spread: [3, 5] });

/** One heart rate reading a day at noon from the phone, on the days minuteHeartRate covers. */
function phoneReadings(days: number): string {
  const data = Array.from({ length: days }, (_, d) => ({
    date: `${new Date(Date.UTC(2025, 5, 1) + d * 86_400_000).toISOString().slice(0, 10)} 12:00:30 +0200`,
    Min: 70,
    Avg: 72,
    Max: 75,
    source: 'Kim’s iPhone',
  }));
  return JSON.stringify({ data: { metrics: [{ name: 'heart_rate', units: 'count/min', data }] } });
}

describe('a big push keeps the server answering', () => {
  it('answers /healthz sent while the samples are stored and while the card is filled before the push', async () => {
    srv = await startIngestServer({ cards: [['heart', 'heart_rate']] });
    const s = srv;
    // a reading of every day from the phone, pushed before: the big push's rows of those days are
    // then made from every stored sample, read back from the database a group of days at a time
    const earlier = await s.push(phoneReadings(DAYS));
    expect(earlier.body.samples).toEqual({ received: DAYS, new: DAYS });
    const body = minuteHeartRate(DAYS);
    // the streamed path (spooled to disk), where big bodies go
    expect(Buffer.byteLength(body)).toBeGreaterThan(HAE_INLINE_MAX_BYTES);
    const total = DAYS * PER_DAY;
    const order: string[] = [];
    let pushDone = false;
    const pushing = s.push(body).then((r) => {
      pushDone = true;
      order.push('push');
      return r;
    });
    // a health check sent as soon as some samples are stored, another once all of them are
    // (only the card rows are left to make then)
    const probes: Promise<void>[] = [];
    const sent = new Set<string>();
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        const stored = s.inst.hae.samples.lastId() - DAYS;
        for (const [name, due] of [
          ['while storing', stored > 0],
          ['while filling', stored >= total],
        ] as const) {
          if (!due || sent.has(name) || pushDone) continue;
          sent.add(name);
          probes.push(
            s.api('/healthz').then((r) => {
              expect(r.status).toBe(200);
              order.push(name);
            }),
          );
        }
        if (pushDone || sent.size === 2) {
          clearInterval(timer);
          resolve();
        }
      }, 1);
    });
    const r = await pushing;
    await Promise.all(probes);
    expect(r.status).toBe(200);
    expect(r.body.ok).toBe(true);
    expect(r.body.samples).toEqual({ received: total, new: total });
    expect(r.body.ingested).toEqual({ heart: DAYS });
    // both probes were sent while the push was running, and answered before it
    expect(order).toEqual(['while storing', 'while filling', 'push']);
    expect(await s.rows('heart')).toHaveLength(DAYS);
  }, 120_000);
});
