/**
 * A big (streamed) body sent again byte for byte is answered from its memo without being read
 * again, as a small one is: the phone retrying a push it stopped waiting for costs a hash of the
 * body, not its minutes of samples. Shown with the real database refusing every insert after the
 * first push: the byte-identical re-send still answers ok, a re-send in other bytes is read (and
 * refused).
 */
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { HAE_INLINE_MAX_BYTES } from '../../src/ingest/hae/env.js';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const DAYS = 35;

/** `DAYS` days of heart rate every minute from 2025-06-01. */
function minuteHeartRate(): string {
  const points: string[] = [];
  for (let d = 0; d < DAYS; d++) {
    const day = new Date(Date.UTC(2025, 5, 1) + d * 86_400_000).toISOString().slice(0, 10);
    for (let m = 0; m < 1440; m++) {
      const hh = String(Math.floor(m / 60)).padStart(2, '0');
      const mm = String(m % 60).padStart(2, '0');
      const avg = 60 + (m % 40);
      points.push(
        `{"date":"${day} ${hh}:${mm}:00 +0000","Min":${avg - 2},"Avg":${avg},"Max":${avg + 4},"source":"Kim’s Apple Watch"}`,
      );
    }
  }
  return `{"data":{"metrics":[{"name":"heart_rate","units":"count/min","data":[${points.join(',')}]}]}}`;
}

describe('a big body sent again byte for byte', () => {
  it('is answered from its memo, not read again', async () => {
    srv = await startIngestServer({ cards: [['heart', 'heart_rate']] });
    const body = minuteHeartRate();
    expect(Buffer.byteLength(body)).toBeGreaterThan(HAE_INLINE_MAX_BYTES);
    const total = DAYS * 1440;
    const first = await srv.push(body);
    expect(first.body).toMatchObject({
      ok: true,
      ingested: { heart: DAYS },
      samples: { received: total, new: total },
    });

    const db = new Database(srv.inst.hae.samples.file);
    try {
      // from now on any attempt to store a sample fails (insert-or-ignore fires it too)
      db.exec(`CREATE TRIGGER refuse_all BEFORE INSERT ON hae_samples
               BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`);
      const again = await srv.push(body);
      expect(again.body).toEqual({
        ok: true,
        ingested: { heart: 0 },
        availableUnsubscribed: [],
        samples: { received: total, new: 0 },
      });
      // the same samples in other bytes are read, and the refusal shows
      const respelled = await srv.push(`${body}\n`);
      expect(respelled.body.ok).toBe(false);
      expect(respelled.body.warning).toMatch(/refused by the test/);
    } finally {
      db.close();
    }
    expect(await srv.rows('heart')).toHaveLength(DAYS);
  }, 120_000);
});
