/**
 * The Apple Health import runs in a worker thread with its own database connection. Another
 * connection holding the database's write lock makes the worker wait inside SQLite (busy
 * timeout): an import on the server's own thread would hold its event loop for that whole wait,
 * so the server answering meanwhile shows the import is elsewhere. Held past the timeout, the
 * worker's error comes back as the answer, and what was stored before stays as it was.
 */
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { export2016, export2019 } from '../fixtures/apple-health-export.js';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
let lock: Database.Database | undefined;
afterEach(async () => {
  if (lock?.inTransaction) lock.exec('ROLLBACK');
  lock?.close();
  lock = undefined;
  await srv?.close();
  srv = undefined;
});

const CARDS: [string, string][] = [
  ['steps', 'step_count'],
  ['sleep', 'sleep_analysis'],
];

/** Takes the write lock of the server's database from a connection of its own. */
function holdWriteLock(s: IngestServer): Database.Database {
  const db = new Database(s.inst.layout.dbFile);
  db.exec('BEGIN IMMEDIATE');
  return db;
}

/** Polls the progress route until the worker reports bytes read (it is then waiting to store them). */
async function untilReading(s: IngestServer): Promise<Record<string, unknown>> {
  for (;;) {
    const p = await s.api('/api/apple-health/import/progress');
    if (p.body.running === true && (p.body.bytesRead as number) > 0) return p.body;
    if (p.body.phase === 'done' || p.body.phase === 'failed')
      throw new Error(`the import ended first: ${p.text}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('the Apple Health import in a worker thread', () => {
  it('leaves the server answering while the import waits for the database, then completes', async () => {
    srv = await startIngestServer({ cards: CARDS });
    lock = holdWriteLock(srv);
    const pending = srv.importExport(export2016());
    await untilReading(srv);
    const health = await srv.api('/healthz');
    expect(health.status).toBe(200);
    // answered before the import ended: it is still waiting for the lock
    const during = await srv.api('/api/apple-health/import/progress');
    expect(during.body).toMatchObject({ running: true, phase: 'reading' });
    lock.exec('COMMIT');
    const r = await pending;
    expect(r.status).toBe(200);
    // the 2016 export: 10 step records on 2014-09-13, summed into one day
    expect(r.body).toMatchObject({ ok: true, records: 15, newSamples: 16 });
    expect((await srv.rows('steps')).map((row) => row.date)).toEqual(['2014-09-13']);
    const after = await srv.api('/api/apple-health/import/progress');
    expect(after.body).toMatchObject({ running: false, phase: 'done', percent: 100 });
  });

  it("answers the worker's error (the database locked past the timeout) and leaves the stored rows as they were", async () => {
    srv = await startIngestServer({ cards: CARDS });
    const first = await srv.importExport(export2016());
    expect(first.status).toBe(200);
    const stepsBefore = await srv.rows('steps');
    const sleepBefore = await srv.rows('sleep');
    const samplesBefore = srv.inst.hae.samples.count();
    const pushesBefore = srv.inst.hae.lastPush('apple-health');

    lock = holdWriteLock(srv);
    const r = await srv.importExport(export2019());
    expect(r.status).toBe(503);
    expect(r.body.code).toBe('STORAGE_BUSY');
    lock.exec('ROLLBACK');

    expect(await srv.rows('steps')).toEqual(stepsBefore);
    expect(await srv.rows('sleep')).toEqual(sleepBefore);
    expect(srv.inst.hae.samples.count()).toBe(samplesBefore);
    expect(srv.inst.hae.lastPush('apple-health')).toEqual(pushesBefore);
    const p = await srv.api('/api/apple-health/import/progress');
    expect(p.body).toMatchObject({ running: false, phase: 'failed' });
    expect(String(p.body.error)).toMatch(/locked/);

    // the same file imports once the lock is gone
    const again = await srv.importExport(export2019());
    expect(again.status).toBe(200);
    expect(again.body.newSamples).toBeGreaterThan(0);
  });
});
