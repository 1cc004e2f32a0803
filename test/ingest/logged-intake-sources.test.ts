/**
 * What a person or an app logs (water, caffeine, food, insulin) is added across sources that
 * share no device, as Apple Health adds it: water logged in one app and a glass entered in
 * Health make the day's total, where steps of the phone and the watch stay one walk. A combined
 * reading of several sources still counts once beside the entries it holds, and an entry with no
 * source, which may be any device's, is not added to the others. A home whose rows were made by
 * the older rule (the largest source only) gets them recomputed when it first opens.
 */
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { dedupKeyOf } from '../../src/ingest/hae/format/sample.js';
import { parseHaeTimestamp } from '../../src/ingest/hae/format/timestamps.js';
import { canonicalJson } from '../../src/ingest/hae/phone-rows.js';
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

const DAY = '2026-03-10';

/** A record of `type` in `unit` from `source` at `hhmm` (a moment: start and end alike). */
function rec(type: string, unit: string, value: number, source: string, hhmm: string, end = hhmm): string {
  const s = `${DAY} ${hhmm}:00 +0100`;
  const e = `${DAY} ${end}:00 +0100`;
  return ` <Record type="HKQuantityTypeIdentifier${type}" sourceName="${source}" unit="${unit}" creationDate="${e}" startDate="${s}" endDate="${e}" value="${value}"/>`;
}

describe('logged intakes of several sources', () => {
  it('an Apple Health export adds the sources of water, caffeine and food; steps keep the largest device', async () => {
    srv = await startIngestServer({
      cards: [
        ['water', 'dietary_water'],
        ['caffeine', 'caffeine'],
        ['food', 'dietary_energy'],
        ['steps', 'step_count'],
      ],
    });
    const body = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<HealthData locale="en_GB">',
      rec('DietaryWater', 'mL', 500, 'WaterMinder', '08:00'),
      rec('DietaryWater', 'mL', 500, 'WaterMinder', '12:00'),
      rec('DietaryWater', 'mL', 500, 'WaterMinder', '16:00'),
      rec('DietaryWater', 'mL', 250, 'Health', '19:00'),
      rec('DietaryCaffeine', 'mg', 95, 'Caffeine Tracker', '08:00'),
      rec('DietaryCaffeine', 'mg', 64, 'Health', '14:00'),
      rec('DietaryEnergyConsumed', 'kcal', 600, 'MyFitnessPal', '12:30'),
      rec('DietaryEnergyConsumed', 'kcal', 400, 'Lose It!', '19:30'),
      // one walk counted by both devices
      rec('StepCount', 'count', 5000, 'iPhone', '09:00', '10:00'),
      rec('StepCount', 'count', 4000, 'Apple Watch', '09:00', '10:00'),
      '</HealthData>',
    ].join('\n');
    const r = await srv.importExport(body);
    expect(r.status, r.text).toBe(200);
    expect(await srv.rows('water')).toEqual([{ date: DAY, ml: 1750 }]);
    expect(await srv.rows('caffeine')).toEqual([{ date: DAY, mg: 159 }]);
    expect(await srv.rows('food')).toEqual([{ date: DAY, kcal: 1000 }]);
    expect(await srv.rows('steps')).toEqual([{ date: DAY, count: 5000 }]);
  });

  it('a push adds them too, counts a combined reading once beside its entries, and does not add an entry with no source', async () => {
    srv = await startIngestServer({
      cards: [
        ['water', 'dietary_water'],
        ['insulin', 'insulin_delivery'],
        ['protein', 'protein'],
      ],
    });
    const at = (hhmm: string) => `${DAY} ${hhmm}:00 +0100`;
    const r = await srv.push(
      JSON.stringify({
        data: {
          metrics: [
            {
              name: 'dietary_water',
              units: 'mL',
              data: [
                { date: at('08:00'), qty: 500, source: 'WaterMinder' },
                { date: at('12:00'), qty: 500, source: 'WaterMinder' },
                { date: at('19:00'), qty: 250, source: 'Health' },
                // the day as the app summarises it, both sources together
                { date: at('00:00'), qty: 1250, source: 'WaterMinder|Health' },
              ],
            },
            {
              name: 'insulin_delivery',
              units: 'IU',
              data: [
                { date: at('07:30'), qty: 6, source: 'Loop', reason: 'Bolus' },
                { date: at('18:00'), qty: 4, source: 'Health', reason: 'Bolus' },
              ],
            },
            {
              name: 'protein',
              units: 'g',
              data: [
                { date: at('12:00'), qty: 40, source: 'MacroFactor' },
                { date: at('19:00'), qty: 30 },
              ],
            },
          ],
        },
      }),
    );
    expect(r.status, r.text).toBe(200);
    expect(await srv.rows('water')).toEqual([{ date: DAY, ml: 1250 }]);
    expect(await srv.rows('insulin')).toEqual([{ date: DAY, iu: 10 }]);
    expect(await srv.rows('protein')).toEqual([{ date: DAY, g: 40 }]);
  });
});

describe('a home whose intake rows kept the largest source only', () => {
  it('has them recomputed when it first opens', async () => {
    box = sandboxHome();
    const upTo = MIGRATIONS.findIndex((m) => typeof m === 'string' && m.includes('-- logged intakes'));
    expect(upTo).toBeGreaterThan(0);
    fs.mkdirSync(`${box.home}/db`, { recursive: true });
    const db = new Database(`${box.home}/db/klebb.sqlite`);
    db.pragma('journal_mode = WAL');
    for (const m of MIGRATIONS.slice(0, upTo)) if (typeof m === 'string') db.exec(m);
    db.pragma(`user_version = ${upTo}`);
    db.exec(
      "INSERT INTO hae_pushes (id, received_at, origin, bytes) VALUES (1, '2026-03-10T20:00:00Z', 'hae', 1)",
    );
    const put = db.prepare(
      `INSERT INTO hae_samples (dedup_key, metric, date, at, span, source, vals, push_id)
       VALUES (unhex(?), 'dietary_water', ?, ?, 'sample', ?, ?, 1)`,
    );
    for (const [at, ml, source] of [
      ['2026-03-10 08:00:00 +0100', 500, 'WaterMinder'],
      ['2026-03-10 12:00:00 +0100', 500, 'WaterMinder'],
      ['2026-03-10 19:00:00 +0100', 250, 'Health'],
    ] as const) {
      const time = parseHaeTimestamp(at);
      if (!time) throw new Error(at);
      const values = { ml };
      put.run(
        dedupKeyOf('dietary_water', time, 'sample', values, source),
        DAY,
        at,
        source,
        JSON.stringify(values),
      );
    }
    // the row the older rule made, recorded as the phone's
    const old = { date: DAY, ml: 1000 };
    db.prepare("INSERT INTO hae_card_rows (card_id, date, body) VALUES ('water', ?, ?)").run(
      DAY,
      canonicalJson(old),
    );
    db.close();
    fs.mkdirSync(box.dataDir, { recursive: true });
    fs.writeFileSync(
      `${box.dataDir}/water.json`,
      JSON.stringify({ ...haeCard('water', 'dietary_water'), data: [old] }),
    );
    srv = await startIngestServer({ home: box.home });
    expect(await srv.rows('water')).toEqual([{ date: DAY, ml: 1250 }]);
  });
});
