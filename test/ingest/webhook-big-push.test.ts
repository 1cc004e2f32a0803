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

describe('a big push keeps the server answering', () => {
  it('answers /healthz sent while the samples are stored and while the card is filled before the push', async () => {
    srv = await startIngestServer({ cards: [['heart', 'heart_rate']] });
    const s = srv;
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
        const stored = s.inst.hae.samples.lastId();
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
