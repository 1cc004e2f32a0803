/**
 * Percentages in an Apple Health export are fractions of one under the unit `%` (walking
 * asymmetry 0.05 is 5 %): every one is read ×100, also those that may truly be below 1 %
 * (walking asymmetry, atrial fibrillation burden, perfusion index, blood alcohol), while a push
 * from the phone, which writes percents, is read as it is. A home where an import stored them as
 * they were written opens with them in percent, and the same export imported again adds nothing.
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

const WATCH = 'Watch';

/** A quantity record in `%` of `type` at `at` on 12 March 2026. */
function pct(type: string, at: string, value: string): string {
  const stamp = `2026-03-12 ${at} +0100`;
  return ` <Record type="HKQuantityTypeIdentifier${type}" sourceName="${WATCH}" sourceVersion="11.3" unit="%" creationDate="${stamp}" startDate="${stamp}" endDate="${stamp}" value="${value}"/>`;
}

function exportOf(records: string[]): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<HealthData locale="de_DE">',
    ...records,
    '</HealthData>',
  ].join('\n');
}

const CARDS: [string, string][] = [
  ['asymmetry', 'walking_asymmetry_percentage'],
  ['afib', 'atrial_fibrillation_burden'],
  ['perfusion', 'peripheral_perfusion_index'],
  ['bac', 'blood_alcohol_content'],
  ['oxygen', 'blood_oxygen_saturation'],
  ['fat', 'body_fat_percentage'],
  ['support', 'walking_double_support_percentage'],
];

describe('percentages of an Apple Health export', () => {
  it('are read as fractions of one, every one; a push in percent is read as it is', async () => {
    srv = await startIngestServer({ cards: CARDS });
    const r = await srv.importExport(
      exportOf([
        pct('WalkingAsymmetryPercentage', '09:00:00', '0.05'),
        pct('WalkingAsymmetryPercentage', '10:00:00', '0.07'),
        pct('AtrialFibrillationBurden', '00:00:00', '0.02'),
        pct('PeripheralPerfusionIndex', '03:00:00', '0.031'),
        pct('BloodAlcoholContent', '23:00:00', '0.0008'),
        pct('OxygenSaturation', '04:00:00', '0.97'),
        pct('BodyFatPercentage', '07:00:00', '0.21'),
        pct('WalkingDoubleSupportPercentage', '09:00:00', '0.28'),
        // a percentage of exactly 100 % and one of 0 %
        pct('OxygenSaturation', '05:00:00', '1'),
        pct('WalkingAsymmetryPercentage', '11:00:00', '0'),
      ]),
    );
    expect(r.status, r.text).toBe(200);
    expect(r.body.warnings).toEqual([]);
    const day = '2026-03-12';
    expect(await srv.rows('asymmetry')).toEqual([{ date: day, pct: 4 }]);
    expect(await srv.rows('afib')).toEqual([{ date: day, pct: 2 }]);
    expect(await srv.rows('perfusion')).toEqual([{ date: day, pct: 3.1 }]);
    expect(await srv.rows('bac')).toEqual([{ date: day, pct: 0.08 }]);
    expect(await srv.rows('oxygen')).toEqual([{ date: day, pct: 98.5 }]);
    expect(await srv.rows('fat')).toEqual([{ date: day, pct: 21 }]);
    expect(await srv.rows('support')).toEqual([{ date: day, pct: 28 }]);

    // the phone writes percents: 0.5 % of asymmetry stays 0.5 %, 96 % of oxygen 96 %
    const push = await srv.push(
      JSON.stringify({
        data: {
          metrics: [
            {
              name: 'walking_asymmetry_percentage',
              units: '%',
              data: [{ date: '2026-03-13 09:00:00 +0100', qty: 0.5 }],
            },
            {
              name: 'blood_oxygen_saturation',
              units: '%',
              data: [{ date: '2026-03-13 04:00:00 +0100', qty: 96 }],
            },
          ],
        },
      }),
    );
    expect(push.status).toBe(200);
    expect((await srv.rows('asymmetry'))[1]).toEqual({ date: '2026-03-13', pct: 0.5 });
    expect((await srv.rows('oxygen'))[1]).toEqual({ date: '2026-03-13', pct: 96 });
  });
});

interface Stored {
  metric: string;
  at: string;
  values: Record<string, SampleValue>;
  push: 1 | 2;
}

/** A home of schema 11 holding `rows` keyed as that code keyed them: push 1 an Apple Health import, 2 the phone. */
function plant(home: string, rows: Stored[]): void {
  fs.mkdirSync(`${home}/db`, { recursive: true });
  const db = new Database(`${home}/db/klebb.sqlite`);
  db.pragma('journal_mode = WAL');
  for (const m of MIGRATIONS.slice(0, 11)) if (typeof m === 'string') db.exec(m);
  db.pragma('user_version = 11');
  db.exec(`INSERT INTO hae_pushes (id, received_at, origin, bytes) VALUES
    (1, '2026-03-14T12:00:00Z', 'apple-health', 1), (2, '2026-03-14T13:00:00Z', 'hae', 1)`);
  const put = db.prepare(
    `INSERT INTO hae_samples (dedup_key, metric, date, at, span, source, vals, push_id)
     VALUES (unhex(?), ?, '2026-03-12', ?, 'sample', ?, ?, ?)`,
  );
  for (const r of rows) {
    const time = parseHaeTimestamp(r.at);
    if (!time) throw new Error(r.at);
    put.run(
      dedupKeyOf(r.metric, time, 'sample', r.values, WATCH),
      r.metric,
      r.at,
      WATCH,
      JSON.stringify(r.values),
      r.push,
    );
  }
  db.close();
}

describe('percentages an Apple Health import stored as fractions', () => {
  it('are in percent when the home opens, and the export imported again adds nothing', async () => {
    box = sandboxHome();
    const asym = 'walking_asymmetry_percentage';
    plant(box.home, [
      { metric: asym, at: '2026-03-12 09:00:00 +0100', values: { pct: 0.05 }, push: 1 },
      { metric: asym, at: '2026-03-12 10:00:00 +0100', values: { pct: 0.07 }, push: 1 },
      // the same reading twice in one export: its copy
      { metric: asym, at: '2026-03-12 10:00:00 +0100', values: { pct: 0.07, seq: 1 }, push: 1 },
      {
        metric: 'atrial_fibrillation_burden',
        at: '2026-03-12 00:00:00 +0100',
        values: { pct: 0.02 },
        push: 1,
      },
      // the phone's own percent, and oxygen, which was always made percent: as they are
      { metric: asym, at: '2026-03-12 18:00:00 +0100', values: { pct: 8 }, push: 2 },
      { metric: 'blood_oxygen_saturation', at: '2026-03-12 04:00:00 +0100', values: { pct: 97 }, push: 1 },
    ]);
    fs.mkdirSync(box.dataDir, { recursive: true });
    for (const [id, metric] of CARDS)
      fs.writeFileSync(`${box.dataDir}/${id}.json`, JSON.stringify(haeCard(id, metric)));
    srv = await startIngestServer({ home: box.home });
    const day = '2026-03-12';
    // (5 + 7 + 7 + 8) / 4
    expect(await srv.rows('asymmetry')).toEqual([{ date: day, pct: 6.8 }]);
    expect(await srv.rows('afib')).toEqual([{ date: day, pct: 2 }]);
    expect(await srv.rows('oxygen')).toEqual([{ date: day, pct: 97 }]);
    const again = await srv.importExport(
      exportOf([
        pct('WalkingAsymmetryPercentage', '09:00:00', '0.05'),
        pct('WalkingAsymmetryPercentage', '10:00:00', '0.07'),
        pct('WalkingAsymmetryPercentage', '10:00:00', '0.07'),
        pct('AtrialFibrillationBurden', '00:00:00', '0.02'),
        pct('OxygenSaturation', '04:00:00', '0.97'),
      ]),
    );
    expect(again.status, again.text).toBe(200);
    expect(again.body).toMatchObject({ samples: 5, newSamples: 0 });
    expect(await srv.rows('asymmetry')).toEqual([{ date: day, pct: 6.8 }]);
  });
});
