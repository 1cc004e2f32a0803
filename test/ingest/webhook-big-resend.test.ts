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
import { type IngestServer, minuteHeartRateBody, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const DAYS = 35;

/** `DAYS` days of heart rate every minute from 2025-06-01. */
const minuteHeartRate = (): string =>
  minuteHeartRateBody(DAYS, { offset: '+0000', avg: (_d, m) => 60 + (m % 40), spread: [2, 4] });

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
