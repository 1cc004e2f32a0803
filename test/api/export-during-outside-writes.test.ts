/**
 * SQLite's online backup starts over whenever another connection writes to the database between
 * two of its steps. The export and the daily snapshot took it in small steps, so a second
 * connection that kept committing (an Apple Health import's worker, `npm run mcp`, a replication
 * tool writing its own table) held them back for as long as it wrote: the export's answer did not
 * come. Now each start-over makes the steps larger, so the copy finishes while the writes go on,
 * and holds every row committed before it.
 */
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { backupDatabase } from '../../src/data/db-snapshot.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { readZip } from '../helpers/zip.js';

/** How long the other writer goes on at most, ms: the copy must be done well before. */
const WRITER_MAX_MS = 20_000;

let s: TestServer | undefined;
let writer: { stop: () => void } | undefined;
afterEach(async () => {
  writer?.stop();
  writer = undefined;
  await s?.close();
  s = undefined;
});

/**
 * A second connection to `file` committing one small row to its own table every millisecond or
 * so (as an import's worker commits batch after batch), until stopped or WRITER_MAX_MS passed.
 * `running()` says whether it still writes; `count()` how many rows it committed.
 */
function otherWriter(file: string): { running: () => boolean; count: () => number; stop: () => void } {
  const db = new Database(file);
  db.pragma('busy_timeout = 5000');
  db.exec('CREATE TABLE IF NOT EXISTS outside_writes (n INTEGER)');
  const ins = db.prepare('INSERT INTO outside_writes VALUES (?)');
  let n = 0;
  let on = true;
  const stop = () => {
    if (!on) return;
    on = false;
    clearInterval(timer);
    clearTimeout(limit);
    db.close();
  };
  const timer = setInterval(() => ins.run(n++), 1);
  const limit = setTimeout(stop, WRITER_MAX_MS);
  writer = { stop };
  return { running: () => on, count: () => n, stop };
}

describe('a copy of the database while another process keeps writing', () => {
  it('the export finishes while the writes go on, with every row', { timeout: 90_000 }, async () => {
    s = await startServer();
    const rows = Array.from({ length: 6000 }, (_, i) => ({
      date: `2026-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`,
      note: `${i} ${'x'.repeat(900)}`,
    }));
    const created = await s.api('/api/manifests', {
      json: {
        $schema: 'klebb.datafile.v1',
        meta: { id: 'notes', label: 'Notes', writeable: { fromWebapp: true } },
        data: rows,
      },
    });
    expect(created.status).toBe(201);

    const w = otherWriter(s.inst.layout.dbFile);
    const exp = await fetch(`${s.url}/api/export`);
    expect(exp.status).toBe(200);
    const zip = Buffer.from(await exp.arrayBuffer());
    // the export was made while the other connection was still writing
    expect(w.running()).toBe(true);
    w.stop();
    const entries = await readZip(zip);
    const notes = entries.find((e) => e.name === 'cards/notes.rows.jsonl');
    expect(notes?.data.toString('utf8').trim().split('\n')).toHaveLength(rows.length);
  });

  it('a snapshot holds every row committed before it and the outside rows up to its moment', {
    timeout: 90_000,
  }, async () => {
    s = await startServer();
    const db = s.inst.db;
    db.exec('CREATE TABLE IF NOT EXISTS filler (x TEXT)');
    const fill = db.prepare('INSERT INTO filler VALUES (?)');
    db.transaction(() => {
      for (let i = 0; i < 8000; i++) fill.run('y'.repeat(1000));
    })();
    const w = otherWriter(s.inst.layout.dbFile);
    while (w.count() < 20) await new Promise((r) => setTimeout(r, 5));
    const target = `${s.home}/tmp/outside-writes.sqlite`;
    await backupDatabase(db, target);
    expect(w.running()).toBe(true);
    w.stop();
    const copy = new Database(target, { readonly: true });
    try {
      expect(copy.prepare('SELECT count(*) FROM filler').pluck().get()).toBe(8000);
      expect(copy.prepare('SELECT count(*) FROM outside_writes').pluck().get()).toBeGreaterThanOrEqual(20);
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      copy.close();
    }
  });
});
