/**
 * Samples a push or an import stored and kept although it did not finish must still reach the
 * cards: the same data sent again is found stored already, so the cards must not wait for it to
 * arrive as new. Three ways a run stops part way: an Apple Health import whose database write
 * fails (its batches so far are kept), a stop of the server in the middle of an import (the next
 * start settles it), and a big phone push that fails while another push that counted on its
 * samples ran (they stay).
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { readAppleHealthExport } from '../../src/ingest/apple-health/read-export.js';
import { HaeSampleStore } from '../../src/ingest/hae/sample-store.js';
import { PushRun } from '../../src/ingest/hae/service.js';
import { MIGRATION_STEPS } from '../../src/migration-steps.js';
import { openDatabase } from '../../src/store/database.js';
import { startServer } from '../helpers/server.js';
import {
  type IngestServer,
  type MinuteHeartRateShape,
  minuteHeartRateBody,
  startIngestServer,
} from './helpers.js';

let srv: IngestServer | undefined;
let lock: Database.Database | undefined;
afterEach(async () => {
  if (lock?.inTransaction) lock.exec('ROLLBACK');
  lock?.close();
  lock = undefined;
  await srv?.close();
  srv = undefined;
});

const DAYS = 400;
const PER_DAY = 60;

/** An export of DAYS days of step counts, PER_DAY records of 10 steps a day (600 a day). */
function stepsExport(days = DAYS): string {
  const lines: string[] = [];
  const day0 = Date.UTC(2020, 0, 1);
  for (let d = 0; d < days; d++) {
    const date = new Date(day0 + d * 86_400_000).toISOString().slice(0, 10);
    for (let k = 0; k < PER_DAY; k++) {
      const h = String(8 + Math.floor(k / 6)).padStart(2, '0');
      const m = String((k % 6) * 10).padStart(2, '0');
      lines.push(
        ` <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Sam’s iPhone" unit="count" creationDate="${date} ${h}:${m}:30 +0000" startDate="${date} ${h}:${m}:00 +0000" endDate="${date} ${h}:${m}:20 +0000" value="10"/>`,
      );
    }
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<HealthData locale="en_GB">\n <ExportDate value="2021-03-01 08:00:00 +0000"/>\n${lines.join('\n')}\n</HealthData>\n`;
}

/** Waits until the import has committed some samples, then takes the database's write lock. */
async function lockAfterFirstBatch(s: IngestServer): Promise<Database.Database> {
  const db = new Database(s.inst.layout.dbFile);
  const count = db.prepare('SELECT count(*) FROM hae_samples').pluck();
  for (;;) {
    if ((count.get() as number) > 0) break;
    await new Promise((r) => setTimeout(r, 2));
  }
  db.exec('BEGIN IMMEDIATE');
  return db;
}

describe('an Apple Health import that failed part way', () => {
  it('fills the cards with what it kept, so importing the file again shows every day', async () => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    const xml = stepsExport();
    const pending = srv.importExport(xml);
    lock = await lockAfterFirstBatch(srv);
    const failed = await pending;
    expect(failed.status).toBe(503);
    // the answer does not say "nothing was changed": what was stored stays (the lock is still
    // held when the import answers, so the cards get it later)
    expect(failed.body.code).toBe('STORAGE_BUSY');
    expect(failed.body.error).toMatch(
      /^another program held the database locked too long: the import stopped after reading \d+ record\(s\)\. The samples it stored until then are kept and reach the cards with the next import or phone push, or at the next start; try again in \d+ s \(only the rest is added\)$/,
    );
    lock.exec('ROLLBACK');
    const kept = srv.inst.hae.samples.count();
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(DAYS * PER_DAY);

    const again = await srv.importExport(xml);
    expect(again.status).toBe(200);
    expect(srv.inst.hae.samples.count()).toBe(DAYS * PER_DAY);
    const rows = await srv.rows('steps');
    expect(rows.length).toBe(DAYS);
    expect(rows.filter((r) => r.count !== PER_DAY * 10)).toEqual([]);
  }, 60_000);

  it('reach the cards with the next phone push when the database refused them at first', async () => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    const pending = srv.importExport(stepsExport());
    lock = await lockAfterFirstBatch(srv);
    const failed = await pending;
    expect(failed.status).toBe(503);
    expect(failed.body.error).toMatch(
      /kept and reach the cards with the next import or phone push, or at the next start/,
    );
    lock.exec('ROLLBACK');
    // still locked when the import failed: the kept samples are not on the card yet
    expect(await srv.rows('steps')).toEqual([]);
    const push = await srv.push(
      '{"data":{"metrics":[{"name":"weight_body_mass","units":"kg","data":[{"date":"2021-02-01 08:00:00 +0000","qty":70}]}]}}',
    );
    expect(push.body.ok).toBe(true);
    const dates = srv.inst.hae.samples.datesOf('step_count');
    expect(dates.length).toBeGreaterThan(0);
    expect((await srv.rows('steps')).map((r) => r.date)).toEqual(dates);
  }, 60_000);

  it('are settled at the next start when the server stopped in the middle of an import', async () => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    const home = srv.home;
    const dbFile = srv.inst.layout.dbFile;
    await srv.close({ keepHome: true });
    srv = undefined;
    // what a stop leaves: samples stored under a push row never completed, the cards not filled
    const file = path.join(home, 'export.xml');
    fs.writeFileSync(file, stepsExport(30));
    const db = openDatabase(dbFile, { steps: MIGRATION_STEPS });
    try {
      const run = new PushRun({ samples: new HaeSampleStore(db) }, 'apple-health', 0);
      await readAppleHealthExport(run, file, path.join(home, 'counts'));
      expect(run.newSamples).toBe(30 * PER_DAY);
    } finally {
      db.close();
    }

    const again = await startServer({ home, watch: false });
    try {
      const rows = (await again.api('/api/manifests/steps/data')).body.data as Record<string, unknown>[];
      expect(rows).toHaveLength(30);
      expect(rows.filter((r) => r.count !== PER_DAY * 10)).toEqual([]);
      expect(again.inst.hae.samples.unfinishedPushes()).toEqual([]);
      expect(again.inst.hae.samples.count()).toBe(30 * PER_DAY);
    } finally {
      await again.close();
      fs.rmSync(home, { recursive: true, force: true });
    }
  }, 60_000);

  it('keeps what a failed big push stored when another push counted on it', async () => {
    srv = await startIngestServer({ cards: [['heart', 'heart_rate']] });
    const shape: MinuteHeartRateShape = { offset: '+0000', avg: (_d, m) => 60 + (m % 40), spread: [2, 4] };
    const big = minuteHeartRateBody(35, shape);
    const firstDay = minuteHeartRateBody(1, shape);
    const db = new Database(srv.inst.hae.samples.file);
    try {
      db.exec(`CREATE TRIGGER stop_mid_push BEFORE INSERT ON hae_samples WHEN NEW.date = '2025-06-20'
               BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`);
      const failing = srv.push(big);
      const stored = db.prepare("SELECT count(*) FROM hae_samples WHERE date = '2025-06-01'").pluck();
      while ((stored.get() as number) < 1440) await new Promise((r) => setTimeout(r, 2));
      // the phone sends the first day again meanwhile: every sample of it is stored already
      const resend = await srv.push(firstDay);
      expect(resend.body.ok).toBe(true);
      expect(resend.body.samples).toEqual({ received: 1440, new: 0 });
      const failed = await failing;
      expect(failed.body.ok).toBe(false);
      expect(failed.body.warning).toMatch(/refused by the test.*kept/);
    } finally {
      db.close();
    }
    // the first day, which the second push counted on, is stored and on the card
    expect(srv.inst.hae.samples.count('heart_rate')).toBeGreaterThanOrEqual(1440);
    const rows = await srv.rows('heart');
    expect(rows.map((r) => r.date)).toContain('2025-06-01');
    expect(rows.length).toBe(srv.inst.hae.samples.datesOf('heart_rate').length);
  }, 120_000);
});
