/**
 * A point of several devices names them joined by `|` in no set order (`Watch|iPhone` in one
 * push, `iPhone|Watch` in the next): the same reading with its sources in another order is one
 * sample, stored once and counted once in the day's average, through the real webhook. A home
 * that stored such readings keyed on their sources as sent opens with each stored once, and the
 * same readings sent again add nothing, also those whose values were converted.
 */
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { dedupKeyOf } from '../../src/ingest/hae/format/sample.js';
import { extractSamples } from '../../src/ingest/hae/format/samples.js';
import { parseHaeTimestamp } from '../../src/ingest/hae/format/timestamps.js';
import { MIGRATIONS } from '../../src/store/migrations.js';
import { sandboxHome } from '../helpers/sandbox-home.js';
import { haeCard, type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
let box: ReturnType<typeof sandboxHome> | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
  box?.remove();
  box = undefined;
});

/** Heart rate at 10:00 from two devices (`sources`), and at 11:00 from the phone alone. */
function heart(sources: string): Record<string, unknown> {
  return {
    name: 'heart_rate',
    units: 'count/min',
    data: [
      { date: '2026-06-02 10:00:00 -0500', Min: 50, Avg: 60, Max: 90, source: sources },
      { date: '2026-06-02 11:00:00 -0500', Min: 55, Avg: 80, Max: 120, source: 'iPhone' },
    ],
  };
}

/** Walking speed in mph from two devices: stored converted to km/h, and rounded. */
function speed(sources: string): Record<string, unknown> {
  return {
    name: 'walking_speed',
    units: 'mi/hr',
    data: [{ date: '2026-06-02 12:00:00 -0500', qty: 2.9, source: sources }],
  };
}

function push(...metrics: Record<string, unknown>[]): string {
  return JSON.stringify({ data: { metrics } });
}

describe('a source listing several devices', () => {
  it('the same reading with its sources in another order is stored once', async () => {
    srv = await startIngestServer({ cards: [['heart', 'heart_rate']] });
    const first = await srv.push(push(heart('iPhone|Watch')));
    expect(first.body.samples).toEqual({ received: 2, new: 2 });
    for (const order of ['Watch|iPhone', ' iPhone | Watch|iPhone']) {
      const again = await srv.push(push(heart(order)));
      expect(again.status).toBe(200);
      expect(again.body.samples).toEqual({ received: 2, new: 0 });
    }
    // 60 and 80, not 60, 60 and 80
    expect(await srv.rows('heart')).toEqual([{ date: '2026-06-02', min: 50, avg: 70, max: 120 }]);
  });
});

describe('a home that keyed such readings on their sources as sent', () => {
  /** Schema 14's database holding the samples of `metrics` pushed once each (push id = index + 1), keyed as that code keyed them. */
  function plantOldHome(home: string, pushes: Record<string, unknown>[][]): void {
    fs.mkdirSync(`${home}/db`, { recursive: true });
    const db = new Database(`${home}/db/klebb.sqlite`);
    db.pragma('journal_mode = WAL');
    const schema = 14;
    for (const m of MIGRATIONS.slice(0, schema)) if (typeof m === 'string') db.exec(m);
    db.pragma(`user_version = ${schema}`);
    const put = db.prepare(
      `INSERT OR IGNORE INTO hae_samples (dedup_key, metric, date, at, span, source, vals, push_id)
       VALUES (unhex(?), ?, ?, ?, ?, ?, ?, ?)`,
    );
    pushes.forEach((metrics, i) => {
      db.prepare(
        "INSERT INTO hae_pushes (id, received_at, origin, bytes) VALUES (?, '2026-06-02T20:00:00Z', 'hae', 100)",
      ).run(i + 1);
      const ex = extractSamples({ metrics: metrics as never, workouts: [], warnings: [] });
      for (const s of ex.samples) {
        const time = parseHaeTimestamp(s.at);
        if (!time) throw new Error(s.at);
        const key = dedupKeyOf(s.metric, time, s.span, s.keyValues ?? s.values, s.source, true);
        put.run(key, s.metric, s.date, s.at, s.span, s.source, JSON.stringify(s.values), i + 1);
      }
    });
    db.close();
  }

  it('opens with each reading stored once; sent again, none is stored twice', async () => {
    box = sandboxHome();
    // keys now take `Watch|iPhone` (its names sorted); `iPhone|Watch` was keyed as sent
    plantOldHome(box.home, [[heart('iPhone|Watch'), speed('iPhone|Watch')], [heart('Watch|iPhone')]]);
    srv = await startIngestServer({ home: box.home });
    const count = (metric: string) =>
      srv?.inst.db.prepare('SELECT count(*) FROM hae_samples WHERE metric = ?').pluck().get(metric);
    // the phone's reading at 11:00 and the two devices' at 10:00, once each
    expect(count('heart_rate')).toBe(2);
    expect(count('walking_speed')).toBe(1);
    await srv.createCard(haeCard('heart', 'heart_rate'));
    expect(await srv.rows('heart')).toEqual([{ date: '2026-06-02', min: 50, avg: 70, max: 120 }]);

    for (const order of ['Watch|iPhone', 'iPhone|Watch', 'iPhone|Watch|Watch']) {
      const again = await srv.push(push(heart(order), speed(order)));
      expect(again.body.samples).toEqual({ received: 3, new: 0 });
    }
    expect(count('heart_rate')).toBe(2);
    expect(await srv.rows('heart')).toEqual([{ date: '2026-06-02', min: 50, avg: 70, max: 120 }]);
  });
});
