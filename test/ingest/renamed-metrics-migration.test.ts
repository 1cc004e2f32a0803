/**
 * A home whose samples were stored under a metric name the catalogue did not read then (camelCase
 * `stepCount`, a display name `Weight & Body Mass`, a HealthKit identifier: kept as sent, lower
 * case, the point's numbers as sent) opens with those samples under the catalogue metric: a card
 * of the metric shows them, the same samples pushed again add nothing, a sample held under both
 * names is kept once, and nothing is lost. A name the catalogue still does not know stays.
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

interface OldSample {
  metric: string;
  at: string;
  values: Record<string, SampleValue>;
  source: string | null;
  span?: 'day' | 'sample';
}

/** A database as the code of schema `schema` (8 unless said) left it, holding `samples` keyed as that code keyed them. */
function plantOldHome(home: string, samples: OldSample[], seen: string[], schema = 8): void {
  fs.mkdirSync(`${home}/db`, { recursive: true });
  const db = new Database(`${home}/db/klebb.sqlite`);
  db.pragma('journal_mode = WAL');
  for (const m of MIGRATIONS.slice(0, schema)) if (typeof m === 'string') db.exec(m);
  db.pragma(`user_version = ${schema}`);
  db.prepare(
    "INSERT INTO hae_pushes (id, received_at, origin, bytes) VALUES (1, '2026-05-12T10:00:00Z', 'hae', 100)",
  ).run();
  const put = db.prepare(
    `INSERT INTO hae_samples (dedup_key, metric, date, at, span, source, vals, push_id)
     VALUES (unhex(?), ?, ?, ?, ?, ?, ?, 1)`,
  );
  for (const s of samples) {
    const time = parseHaeTimestamp(s.at);
    if (!time) throw new Error(s.at);
    const span = s.span ?? 'sample';
    put.run(
      dedupKeyOf(s.metric, time, span, s.values, s.source),
      s.metric,
      time.date,
      s.at,
      span,
      s.source,
      JSON.stringify(s.values),
    );
  }
  const sight = db.prepare(
    "INSERT INTO hae_metrics_seen (metric, first_seen_at, last_seen_at) VALUES (?, '2026-05-12T10:00:00Z', '2026-05-12T10:00:00Z')",
  );
  for (const m of seen) sight.run(m);
  db.close();
}

const STEPS_A = { date: '2026-05-10 09:00:00 +0200', qty: 1200, source: 'iPhone' };
const STEPS_B = { date: '2026-05-10 18:00:00 +0200', qty: 800, source: 'iPhone' };
const WEIGHT = { date: '2026-05-10 07:00:00 +0200', qty: 155, source: 'Scale' };
const HEART = { date: '2026-05-10 09:00:00 +0200', qty: 64, source: 'Watch' };

function stored(metric: string, units: string, p: { date: string; qty: number; source: string }): OldSample {
  return { metric, at: p.date, values: { qty: p.qty, units }, source: p.source };
}

function block(name: string, units: string, data: Record<string, unknown>[]): string {
  return JSON.stringify({ data: { metrics: [{ name, units, data }] } });
}

describe('samples stored under a name the catalogue now reads', () => {
  it('move to the metric: cards show them, a re-send adds nothing, a sample under both names counts once', async () => {
    box = sandboxHome();
    plantOldHome(
      box.home,
      [
        stored('stepcount', 'count', STEPS_A),
        stored('stepcount', 'count', STEPS_B),
        // STEPS_B also stored under the key, sent once by a push that named it so
        { metric: 'step_count', at: STEPS_B.date, values: { count: 800 }, source: 'iPhone' },
        stored('weight & body mass', 'lb', WEIGHT),
        stored('hkquantitytypeidentifierheartrate', 'count/min', HEART),
        stored('stepcuont', 'count', STEPS_A),
      ],
      ['stepcount', 'step_count', 'weight & body mass', 'hkquantitytypeidentifierheartrate', 'stepcuont'],
    );
    srv = await startIngestServer({ home: box.home });
    const metrics = srv.inst.db
      .prepare('SELECT metric, count(*) AS n FROM hae_samples GROUP BY metric ORDER BY metric')
      .all();
    expect(metrics).toEqual([
      { metric: 'heart_rate', n: 1 },
      { metric: 'step_count', n: 2 },
      { metric: 'stepcuont', n: 1 },
      { metric: 'weight_body_mass', n: 1 },
    ]);

    for (const [id, metric] of [
      ['steps', 'step_count'],
      ['weight', 'weight_body_mass'],
      ['heart', 'heart_rate'],
    ]) {
      await srv.createCard(haeCard(id, metric));
    }
    expect(await srv.rows('steps')).toEqual([{ date: '2026-05-10', count: 2000 }]);
    expect(await srv.rows('weight')).toEqual([{ date: '2026-05-10', kg: 70.31 }]);
    expect(await srv.rows('heart')).toEqual([{ date: '2026-05-10', min: 64, avg: 64, max: 64 }]);

    // the same points sent again, under the old names and under the keys, are stored already
    for (const body of [
      block('stepCount', 'count', [STEPS_A, STEPS_B]),
      block('step_count', 'count', [STEPS_A, STEPS_B]),
      block('Weight & Body Mass', 'lb', [WEIGHT]),
      block('weight_body_mass', 'lb', [WEIGHT]),
      block('HKQuantityTypeIdentifierHeartRate', 'count/min', [HEART]),
    ]) {
      const r = await srv.push(body);
      expect(r.body.samples?.new, body).toBe(0);
    }
    expect(await srv.rows('steps')).toEqual([{ date: '2026-05-10', count: 2000 }]);

    const d = await srv.api('/api/health-auto-export/discoveries');
    const text = JSON.stringify(d.body);
    expect(text).not.toMatch(/"stepcount"|weight & body mass|hkquantity/);
    expect(text).toMatch(/stepcuont/);
  });

  it('a card already following the metric gets the moved days when the home opens', async () => {
    box = sandboxHome();
    plantOldHome(
      box.home,
      [stored('stepcount', 'count', STEPS_A), stored('stepcount', 'count', STEPS_B)],
      ['stepcount'],
    );
    fs.mkdirSync(box.dataDir, { recursive: true });
    fs.writeFileSync(`${box.dataDir}/steps.json`, JSON.stringify(haeCard('steps', 'step_count')));
    srv = await startIngestServer({ home: box.home });
    expect(await srv.rows('steps')).toEqual([{ date: '2026-05-10', count: 2000 }]);
  });

  it('names read since (a HealthKit identifier as words, Apple’s Resting Energy) move too, in a home past the first move', async () => {
    box = sandboxHome();
    const at = '2026-05-10 00:00:00 +0200';
    plantOldHome(
      box.home,
      [
        { metric: 'resting energy', at, values: { qty: 1650, units: 'kcal' }, source: 'Watch' },
        { metric: 'swimming stroke count', at, values: { qty: 420, units: 'count' }, source: 'Watch' },
      ],
      ['resting energy', 'swimming stroke count'],
      // the schema before the second move (migration 14)
      13,
    );
    fs.mkdirSync(box.dataDir, { recursive: true });
    fs.writeFileSync(
      `${box.dataDir}/resting.json`,
      JSON.stringify(haeCard('resting', 'basal_energy_burned')),
    );
    fs.writeFileSync(`${box.dataDir}/strokes.json`, JSON.stringify(haeCard('strokes', 'swim_stroke_count')));
    srv = await startIngestServer({ home: box.home });
    expect(await srv.rows('resting')).toEqual([{ date: '2026-05-10', kcal: 1650 }]);
    expect(await srv.rows('strokes')).toEqual([{ date: '2026-05-10', count: 420 }]);
  });
});
