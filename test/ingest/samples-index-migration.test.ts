/**
 * The samples index migration: a home whose database was made before the samples were indexed by
 * (metric, date, key) opens, is migrated, keeps every sample row as it was, and a re-import of the
 * same export still adds nothing (dedupe works through the new index), while a new sample is added.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { importAppleHealthFile } from '../../src/ingest/apple-health/import-xml.js';
import { openInstance } from '../../src/instance.js';
import { MIGRATIONS } from '../../src/store/migrations.js';
import { GENERATED_APPLE } from '../fixtures/apple-health-export.js';
import { sandboxHome } from '../helpers/sandbox-home.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'klebb-apple-mig-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const files = Object.entries(GENERATED_APPLE).map(([name, make]) => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, make());
  return file;
});

const open = (home: string) =>
  openInstance(loadConfig({ HEALTH_HOME: home, KLEBB_LOG_LEVEL: 'silent' }), { watch: false });

const ROWS =
  'SELECT id, hex(dedup_key) AS k, metric, date, at, span, source, vals, push_id FROM hae_samples ORDER BY id';

/** The sample rows every generated export gives, read from a home with the current schema. */
async function currentRows(): Promise<Record<string, unknown>[]> {
  const box = sandboxHome();
  try {
    const inst = await open(box.home);
    try {
      for (const f of files) await importAppleHealthFile(inst.hae, f);
      return inst.db.prepare(ROWS).all() as Record<string, unknown>[];
    } finally {
      await inst.close();
    }
  } finally {
    box.remove();
  }
}

describe('samples index migration', () => {
  it('migrates a home made with the old schema: every row kept, re-import adds nothing, new samples still go in', async () => {
    const rows = await currentRows();
    expect(rows.length).toBeGreaterThan(40);
    const box = sandboxHome();
    try {
      // the database as the schema before this migration made it, holding those samples
      const inst0 = await open(box.home);
      const realFile = inst0.layout.dbFile;
      await inst0.close();
      for (const suffix of ['', '-wal', '-shm']) fs.rmSync(realFile + suffix, { force: true });
      expect(realFile.endsWith('klebb.sqlite')).toBe(true);
      const old = new Database(realFile);
      const upTo = 4; // before the samples index (migration 5)
      for (const m of MIGRATIONS.slice(0, upTo)) if (typeof m === 'string') old.exec(m);
      old.pragma(`user_version = ${upTo}`);
      old.exec(
        "INSERT INTO hae_pushes (id, received_at, origin, bytes) VALUES (1, '2026-01-01T00:00:00Z', 'apple-health', 1)",
      );
      const put = old.prepare(
        `INSERT INTO hae_samples (id, dedup_key, metric, date, at, span, source, vals, push_id)
         VALUES (?, unhex(?), ?, ?, ?, ?, ?, ?, 1) ON CONFLICT (dedup_key) DO NOTHING`,
      );
      for (const r of rows) put.run(r.id, r.k, r.metric, r.date, r.at, r.span, r.source, r.vals);
      expect(
        old
          .prepare(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'hae_samples' ORDER BY name",
          )
          .pluck()
          .all(),
      ).toEqual(['hae_samples_key', 'hae_samples_metric_date']);
      old.close();

      const inst = await open(box.home);
      try {
        expect(inst.db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
        expect(
          inst.db
            .prepare(
              "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'hae_samples' ORDER BY name",
            )
            .pluck()
            .all(),
        ).toEqual(['hae_samples_metric_date_key']);
        const after = (inst.db.prepare(ROWS).all() as Record<string, unknown>[]).map((r) => ({
          ...r,
          push_id: 0,
        }));
        expect(after).toEqual(rows.map((r) => ({ ...r, push_id: 0 })));
        // the same exports again: every sample is already there
        for (const f of files) {
          const again = await importAppleHealthFile(inst.hae, f);
          expect(again.samples, path.basename(f)).toBeGreaterThan(0);
          expect(again.newSamples, path.basename(f)).toBe(0);
        }
        expect(inst.hae.samples.count()).toBe(rows.length);
        // one record more (a step count on a new day) is one new sample
        const extra = path.join(dir, 'extra.xml');
        fs.writeFileSync(
          extra,
          `<?xml version="1.0" encoding="UTF-8"?>\n<HealthData locale="en_GB">\n <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" unit="count" startDate="2026-04-21 09:00:00 +0200" endDate="2026-04-21 09:10:00 +0200" value="800"/>\n</HealthData>\n`,
        );
        expect((await importAppleHealthFile(inst.hae, extra)).newSamples).toBe(1);
        expect((await importAppleHealthFile(inst.hae, extra)).newSamples).toBe(0);
        expect(inst.hae.samples.count()).toBe(rows.length + 1);
      } finally {
        await inst.close();
      }
    } finally {
      box.remove();
    }
  });
});
