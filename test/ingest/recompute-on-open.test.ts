/**
 * Homes whose card rows were made by the older rule (a copy of a sample counted once, a day
 * total depending on how its samples were batched) get them recomputed from the stored samples
 * once, when the server first opens them after the update; later starts leave the rows alone.
 */
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src/store/migrations.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { haeCard, startIngestServer } from './helpers.js';

const servers: TestServer[] = [];
let home: string | undefined;
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close({ keepHome: true });
  if (home) fs.rmSync(home, { recursive: true, force: true });
  home = undefined;
});

const DAY = '2026-10-02';
const at = (hhmm: string) => `${DAY} ${hhmm}:00 -0500`;

async function rowOf(s: TestServer, card: string): Promise<unknown> {
  const r = await s.api(`/api/manifests/${card}/data`);
  expect(r.status, r.text).toBe(200);
  return (r.body.data as Record<string, unknown>[]).find((row) => row.date === DAY);
}

/** Writes `rows` as the card's data (what an older server had made of the samples). */
async function setRows(s: TestServer, card: string, rows: unknown[]): Promise<void> {
  const r = await s.api(`/api/manifests/${card}/data`, { json: { data: rows } });
  expect(r.status, r.text).toBe(200);
}

/** Makes the home's database look as it did before the recompute migration. */
function beforeRecompute(dbFile: string): void {
  const db = new Database(dbFile);
  try {
    // undo the recompute migration and the ones after it (they run again on the next open)
    const upTo = MIGRATIONS.findIndex(
      (m) => typeof m === 'string' && m.includes('CREATE TABLE hae_recompute'),
    );
    expect(upTo).toBeGreaterThan(0);
    db.exec('DROP TABLE hae_recompute');
    db.exec('CREATE INDEX change_sets_actor ON change_sets (actor, id)');
    db.pragma(`user_version = ${upTo}`);
  } finally {
    db.close();
  }
}

async function reopen(dir: string): Promise<TestServer> {
  const s = await startServer({ home: dir, watch: false });
  servers.push(s);
  return s;
}

describe('card rows recomputed once after the update', () => {
  it('the rows of an older home are recomputed on the first start, not on later ones', async () => {
    const first = await startIngestServer();
    servers.push(first);
    home = first.home;
    // writeable, so the test can put back what an older server had written
    const writeable = { writeable: { fromWebapp: true } };
    await first.createCard(haeCard('water', 'dietary_water', writeable));
    await first.createCard(haeCard('weight', 'weight_body_mass', writeable));
    const water = { date: at('09:00'), qty: 250, source: 'WaterMinder' };
    const r = await first.push(
      JSON.stringify({
        data: {
          metrics: [
            { name: 'dietary_water', units: 'mL', data: [water, water] },
            {
              name: 'weight_body_mass',
              units: 'kg',
              data: [{ date: at('07:00'), qty: 80, source: 'Scale' }],
            },
          ],
        },
      }),
    );
    expect(r.status, r.text).toBe(200);
    expect(await rowOf(first, 'water')).toEqual({ date: DAY, ml: 500 });
    // what the older rule had written: the copy counted once
    await setRows(first, 'water', [{ date: DAY, ml: 250 }]);
    const dbFile = first.inst.layout.dbFile;
    await first.close({ keepHome: true });
    servers.splice(0);
    beforeRecompute(dbFile);

    const second = await reopen(home);
    expect(await rowOf(second, 'water')).toEqual({ date: DAY, ml: 500 });
    expect(await rowOf(second, 'weight')).toEqual({ date: DAY, kg: 80 });
    const pending = second.inst.db.prepare('SELECT count(*) FROM hae_recompute').pluck().get();
    expect(pending).toBe(0);
    // a later start does not recompute again: a row set by hand stays
    await setRows(second, 'water', [{ date: DAY, ml: 260 }]);
    await second.close({ keepHome: true });
    servers.splice(0);
    const third = await reopen(home);
    expect(await rowOf(third, 'water')).toEqual({ date: DAY, ml: 260 });
  });
});
