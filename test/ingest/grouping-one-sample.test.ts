/**
 * The same measurement is one stored sample whatever time grouping its push names in the
 * automation-aggregation header: an hour of steps sent by an automation grouped by Hours and
 * again with no header (a manual export, an app version without the header) or by another
 * automation is stored once, and the midnight hour stays a part of its day in any order. A home
 * that stored a grouped push keyed with its mark opens with each measurement stored once, and
 * the same push sent again, with or without the header, adds nothing.
 */
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { dedupKeyOf, type SampleValue } from '../../src/ingest/hae/format/sample.js';
import { parseHaeTimestamp } from '../../src/ingest/hae/format/timestamps.js';
import { MIGRATIONS } from '../../src/store/migrations.js';
import { sandboxHome } from '../helpers/sandbox-home.js';
import { haeCard, type IngestServer, metricsPush, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
let box: ReturnType<typeof sandboxHome> | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
  box?.remove();
  box = undefined;
});

const DAY = '2026-07-06';
const SOURCE = 'Nadia’s iPhone';

/** A night-shift worker's hours of steps: the hour after midnight is the day's largest. */
const HOURS: [string, number][] = [
  [`${DAY} 00:00:00 +0200`, 3100],
  [`${DAY} 01:00:00 +0200`, 800],
  [`${DAY} 14:00:00 +0200`, 450],
  [`${DAY} 23:00:00 +0200`, 900],
];

function steps(points: [string, number][] = HOURS): string {
  const data = points.map(([date, qty]) => ({ date, qty, source: SOURCE }));
  return metricsPush([{ name: 'step_count', units: 'count', data }]);
}

function pushWith(s: IngestServer, body: string, grouping?: string) {
  return s.api('/api/health-auto-export', {
    method: 'POST',
    body,
    token: s.haeToken,
    headers: {
      'content-type': 'application/json',
      'automation-name': 'Klebb',
      ...(grouping ? { 'automation-aggregation': grouping } : {}),
    },
  });
}

function stored(s: IngestServer): number {
  return s.inst.db
    .prepare("SELECT count(*) FROM hae_samples WHERE metric = 'step_count'")
    .pluck()
    .get() as number;
}

describe('one measurement under several time groupings', () => {
  it('sent grouped by Hours, then with no header or Days, is stored once', async () => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    const first = await pushWith(srv, steps(), 'Hours');
    expect(first.body.samples).toEqual({ received: 4, new: 4 });
    for (const grouping of [undefined, 'Days', 'Minutes', 'Default']) {
      const again = await pushWith(srv, steps(), grouping);
      expect(again.status, again.text).toBe(200);
      expect(again.body.samples, String(grouping)).toEqual({ received: 4, new: 0 });
    }
    expect(stored(srv)).toBe(4);
    expect(await srv.rows('steps')).toEqual([{ date: DAY, count: 5250 }]);
  });

  it('sent with no header, then grouped by Hours, is stored once and the midnight hour becomes a part of the day', async () => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    expect((await pushWith(srv, steps())).body.samples).toEqual({ received: 4, new: 4 });
    const grouped = await pushWith(srv, steps(), 'Hours');
    expect(grouped.body.samples).toEqual({ received: 4, new: 0 });
    expect(stored(srv)).toBe(4);
    expect(await srv.rows('steps')).toEqual([{ date: DAY, count: 5250 }]);
    // and with no header once more: the mark stays
    await pushWith(srv, steps());
    expect(stored(srv)).toBe(4);
    expect(await srv.rows('steps')).toEqual([{ date: DAY, count: 5250 }]);
  });
});

/** A home of schema 15 holding the hours as a push grouped by Hours keyed them: each marked. */
function plantMarked(home: string, extra: { at: string; values: Record<string, SampleValue> }[] = []): void {
  fs.mkdirSync(`${home}/db`, { recursive: true });
  const db = new Database(`${home}/db/klebb.sqlite`);
  db.pragma('journal_mode = WAL');
  for (const m of MIGRATIONS.slice(0, 15)) if (typeof m === 'string') db.exec(m);
  db.pragma('user_version = 15');
  db.prepare(
    "INSERT INTO hae_pushes (id, received_at, origin, bytes) VALUES (1, '2026-07-07T06:00:00Z', 'hae', 1)",
  ).run();
  const put = db.prepare(
    `INSERT INTO hae_samples (dedup_key, metric, date, at, span, source, vals, push_id)
     VALUES (unhex(?), 'step_count', ?, ?, 'sample', ?, ?, 1)`,
  );
  const rows = [
    ...HOURS.map(([at, count]) => ({
      at,
      values: { count, partOfDay: true } as Record<string, SampleValue>,
    })),
    ...extra,
  ];
  for (const r of rows) {
    const time = parseHaeTimestamp(r.at);
    if (!time) throw new Error(r.at);
    put.run(
      dedupKeyOf('step_count', time, 'sample', r.values, SOURCE),
      time.date,
      r.at,
      SOURCE,
      JSON.stringify(r.values),
    );
  }
  db.close();
}

describe('a home that stored a grouped push keyed with its mark', () => {
  it('opens with each measurement once, and the push sent again with or without the header adds nothing', async () => {
    box = sandboxHome();
    // the 14:00 hour also stored by a push with no header: the same measurement twice
    plantMarked(box.home, [{ at: `${DAY} 14:00:00 +0200`, values: { count: 450 } }]);
    fs.mkdirSync(box.dataDir, { recursive: true });
    fs.writeFileSync(`${box.dataDir}/steps.json`, JSON.stringify(haeCard('steps', 'step_count')));
    srv = await startIngestServer({ home: box.home });
    expect(stored(srv)).toBe(4);
    for (const grouping of ['Hours', undefined, 'Days']) {
      const again = await pushWith(srv, steps(), grouping);
      expect(again.status, again.text).toBe(200);
      expect(again.body.samples, String(grouping)).toEqual({ received: 4, new: 0 });
    }
    expect(stored(srv)).toBe(4);
    expect(await srv.rows('steps')).toEqual([{ date: DAY, count: 5250 }]);
  });
});
