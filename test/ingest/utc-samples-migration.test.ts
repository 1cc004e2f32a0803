/**
 * A home whose samples timed in UTC (seconds since 1970, `Z`) were stored on their UTC date opens
 * with them on the person's date, as a push files them now: the same sample sent again adds
 * nothing, one stored on both dates is kept once, the cards show the person's days.
 */
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { dedupKeyOf, type SampleValue } from '../../src/ingest/hae/format/sample.js';
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

interface Stored {
  metric: string;
  date: string;
  at: string;
  values: Record<string, SampleValue>;
}

/** A home of schema 9 holding `rows` keyed as that code keyed them, its person in `tz`. */
function plant(home: string, tz: string, rows: Stored[]): void {
  fs.mkdirSync(`${home}/db`, { recursive: true });
  fs.writeFileSync(`${home}/user.json`, JSON.stringify({ tz }));
  const db = new Database(`${home}/db/klebb.sqlite`);
  db.pragma('journal_mode = WAL');
  for (const m of MIGRATIONS.slice(0, 9)) if (typeof m === 'string') db.exec(m);
  db.pragma('user_version = 9');
  db.prepare(
    "INSERT INTO hae_pushes (id, received_at, origin, bytes) VALUES (1, '2026-05-16T12:00:00Z', 'hae', 1)",
  ).run();
  const put = db.prepare(
    `INSERT INTO hae_samples (dedup_key, metric, date, at, span, source, vals, push_id)
     VALUES (unhex(?), ?, ?, ?, 'sample', 'Script', ?, 1)`,
  );
  for (const r of rows) {
    const time = parseHaeTimestamp(r.at);
    if (!time) throw new Error(r.at);
    put.run(
      dedupKeyOf(r.metric, time, 'sample', r.values, 'Script'),
      r.metric,
      r.date,
      r.at,
      JSON.stringify(r.values),
    );
  }
  db.close();
}

describe('samples timed in UTC stored on their UTC date', () => {
  it('move to the person’s date when the home opens', async () => {
    box = sandboxHome();
    // 03:30 UTC on 16 May is 20:30 on 15 May in Los Angeles; 15:00 UTC on 16 May is 08:00 on 16 May
    plant(box.home, 'America/Los_Angeles', [
      { metric: 'resting_heart_rate', date: '2026-05-16', at: '1778902200', values: { bpm: 60 } },
      { metric: 'step_count', date: '2026-05-16', at: '2026-05-16T03:30:00Z', values: { count: 500 } },
      // sent again after the fix: already on the person's date
      { metric: 'step_count', date: '2026-05-15', at: '2026-05-16T03:30:00Z', values: { count: 500 } },
      { metric: 'step_count', date: '2026-05-16', at: '2026-05-16T15:00:00Z', values: { count: 700 } },
      { metric: 'step_count', date: '2026-05-16', at: '2026-05-16 20:00:00 +0000', values: { count: 100 } },
    ]);
    fs.mkdirSync(box.dataDir, { recursive: true });
    fs.writeFileSync(`${box.dataDir}/steps.json`, JSON.stringify(haeCard('steps', 'step_count')));
    srv = await startIngestServer({ home: box.home });
    expect(srv.inst.db.prepare('SELECT metric, date, at FROM hae_samples ORDER BY metric, at').all()).toEqual(
      [
        { metric: 'resting_heart_rate', date: '2026-05-15', at: '1778902200' },
        { metric: 'step_count', date: '2026-05-16', at: '2026-05-16 20:00:00 +0000' },
        { metric: 'step_count', date: '2026-05-15', at: '2026-05-16T03:30:00Z' },
        { metric: 'step_count', date: '2026-05-16', at: '2026-05-16T15:00:00Z' },
      ],
    );
    expect(await srv.rows('steps')).toEqual([
      { date: '2026-05-15', count: 500 },
      { date: '2026-05-16', count: 800 },
    ]);
    const again = await srv.push(
      JSON.stringify({
        data: {
          metrics: [
            {
              name: 'resting_heart_rate',
              units: 'count/min',
              data: [{ date: 1778902200, qty: 60, source: 'Script' }],
            },
            {
              name: 'step_count',
              units: 'count',
              data: [{ date: '2026-05-16T03:30:00Z', qty: 500, source: 'Script' }],
            },
          ],
        },
      }),
    );
    expect(again.body.samples).toEqual({ received: 2, new: 0 });
  });
});
