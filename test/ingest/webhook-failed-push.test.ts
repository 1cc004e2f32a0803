/**
 * A big (streamed) push whose storing fails part way leaves nothing: the samples it had already
 * committed are removed with its push record, no card row is written, and the same body sent
 * again is stored whole and fills the card. The memos of earlier pushes go (one may count on a
 * removed sample). The failure is the real database refusing an insert
 * (a trigger that aborts on one day of the body).
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

describe('a streamed push that fails part way', () => {
  it('leaves no sample, row or push behind, and the same body sent again is stored whole', async () => {
    srv = await startIngestServer({ cards: [['heart', 'heart_rate']] });
    const body = minuteHeartRate();
    expect(Buffer.byteLength(body)).toBeGreaterThan(HAE_INLINE_MAX_BYTES);
    // day 20 of 35: by then earlier batches of the push are committed
    const db = new Database(srv.inst.hae.samples.file);
    try {
      db.exec(`CREATE TRIGGER stop_mid_push BEFORE INSERT ON hae_samples WHEN NEW.date = '2025-06-20'
               BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`);
      // a small push first: its memos may count on samples the failed push stored, so they go
      const small = await srv.push(
        '{"data":{"metrics":[{"name":"step_count","units":"count","data":[{"date":"2025-05-01 08:00:00 +0000","qty":12}]}]}}',
      );
      expect(small.body.ok).toBe(true);
      const memos = () => db.prepare('SELECT count(*) FROM hae_block_memo').pluck().get();
      expect(memos()).toBeGreaterThan(0);
      const failed = await srv.push(body);
      expect(failed.status).toBe(200);
      expect(failed.body.ok).toBe(false);
      expect(failed.body.warning).toMatch(/refused by the test.*nothing of this body was stored/);
      expect(srv.inst.hae.samples.count('heart_rate')).toBe(0);
      expect(await srv.rows('heart')).toEqual([]);
      expect(memos()).toBe(0);
      // the last push is still the small one
      expect((await srv.api('/api/health-auto-export/status')).body.lastPush.samples).toBe(1);

      db.exec('DROP TRIGGER stop_mid_push');
      const again = await srv.push(body);
      expect(again.body.ok).toBe(true);
      expect(again.body.samples).toEqual({ received: DAYS * 1440, new: DAYS * 1440 });
      expect(again.body.ingested).toEqual({ heart: DAYS });
      expect(await srv.rows('heart')).toHaveLength(DAYS);
    } finally {
      db.close();
    }
  }, 120_000);
});
