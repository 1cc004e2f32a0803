/**
 * A snapshot an older Klebb took restores. A snapshot keeps the database as the version that
 * took it wrote it (a manual snapshot kept for a year, a daily one from before an upgrade): here
 * one of a Klebb from before health samples were stored, its database made by that version's
 * migrations only. Restoring it (POST /api/backups/:name/restore, what Settings › Data does) puts
 * its cards' rows back, the home keeps this version's tables, and the snapshot's own file is
 * not changed. A snapshot of a later Klebb is refused with nothing changed. Real server, real
 * SQLite.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main as backupsMain } from '../../scripts/backups.js';
import { MIGRATIONS } from '../../src/store/migrations.js';
import { importJobEnd } from '../helpers/import-job.js';
import { startServer, type TestServer } from '../helpers/server.js';

const T = 'older-snapshot-token';
let s: TestServer;
const api = (p: string, init: Parameters<TestServer['api']>[1] = {}) => s.api(p, { token: T, ...init });

const OLD_ROWS = [
  { date: '2026-03-01', kg: 82 },
  { date: '2026-03-02', kg: 81.6 },
  { date: '2026-03-03', kg: 81.2 },
];

beforeAll(async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: T } });
  const r = await api('/api/manifests', {
    json: {
      $schema: 'klebb.datafile.v1',
      meta: { id: 'w', label: 'Weight', writeable: { fromWebapp: true } },
      data: [{ date: '2026-04-01', kg: 80 }],
    },
  });
  expect(r.status, r.text).toBe(201);
});
afterAll(async () => {
  await s.close();
});

/** A manual snapshot of the home now, its database then replaced by `write(file)`. */
async function snapshotWithDatabase(write: (file: string) => void): Promise<{ name: string; db: string }> {
  const snap = await api('/api/backups', { method: 'POST' });
  expect(snap.status, snap.text).toBe(201);
  const name = snap.body.snapshot.name as string;
  const db = path.join(s.home, 'backups', name, 'db.sqlite');
  fs.rmSync(db);
  write(db);
  return { name, db };
}

/** The database an older Klebb wrote: its first `n` migrations, card `w` holding OLD_ROWS. */
function olderDatabase(n: number) {
  return (file: string) => {
    const db = new Database(file);
    for (const m of MIGRATIONS.slice(0, n)) {
      expect(typeof m).toBe('string');
      db.exec(m as string);
    }
    db.pragma(`user_version = ${n}`);
    const now = '2026-03-03T08:00:00.000Z';
    db.prepare(
      "INSERT INTO card_state (card_id, shape, doc, row_count, version, updated_at) VALUES ('w', 'array', NULL, ?, 3, ?)",
    ).run(OLD_ROWS.length, now);
    const row = db.prepare("INSERT INTO card_rows (card_id, pos, body) VALUES ('w', ?, ?)");
    for (const [i, r] of OLD_ROWS.entries()) row.run(i, JSON.stringify(r));
    db.close();
  };
}

const sha = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

describe('restoring a snapshot an older Klebb took', () => {
  it('puts its rows back in this version’s schema and leaves the snapshot as it was', async () => {
    const { name, db } = await snapshotWithDatabase(olderDatabase(2));
    const before = sha(db);
    await api('/api/manifests/w/rows', { json: { value: { date: '2026-04-02', kg: 79.8 } } });

    const go = await api(`/api/backups/${name}/restore`, { json: { confirm: 'REPLACE' } });
    expect(go.status, go.text).toBe(202);
    const end = await importJobEnd(s, T);
    expect(end.state, JSON.stringify(end.error)).toBe('done');
    expect((await api('/api/manifests/w')).body.data).toEqual(OLD_ROWS);

    // the home keeps every table of this version: a health push after the restore is stored
    const live = new Database(path.join(s.home, 'db', 'klebb.sqlite'), { readonly: true });
    try {
      expect(live.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
      expect(live.prepare('SELECT count(*) FROM hae_samples').pluck().get()).toBe(0);
    } finally {
      live.close();
    }
    // the snapshot is not migrated in place, and no working copy is left behind
    expect(sha(db)).toBe(before);
    expect(fs.readdirSync(path.join(s.home, 'import')).filter((n) => n.endsWith('.sqlite'))).toEqual([]);
  });

  it('restores into a fresh home with npm run backups -- --restore, in this version’s schema', async () => {
    const { name, db } = await snapshotWithDatabase(olderDatabase(2));
    const before = sha(db);
    const target = fs.mkdtempSync(path.join(path.dirname(s.home), 'older-restore-'));
    const out: string[] = [];
    const err: string[] = [];
    const io = { out: (t: string) => out.push(t), err: (t: string) => err.push(t) };
    try {
      const code = await backupsMain(['--home', s.home, '--restore', name, '--target', target], io);
      expect(code, err.join('')).toBe(0);
      const restored = new Database(path.join(target, 'db', 'klebb.sqlite'), { readonly: true });
      try {
        expect(restored.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
        const rows = restored
          .prepare("SELECT body FROM card_rows WHERE card_id = 'w' ORDER BY pos")
          .pluck()
          .all();
        expect(rows.map((b) => JSON.parse(b as string))).toEqual(OLD_ROWS);
      } finally {
        restored.close();
      }
      expect(fs.readdirSync(path.join(target, 'db')).filter((n) => n.includes('restoring'))).toEqual([]);
      expect(sha(db)).toBe(before);
    } finally {
      fs.rmSync(target, { recursive: true, force: true });
    }
  });

  it('refuses a snapshot a later Klebb took, changing nothing', async () => {
    const rows = (await api('/api/manifests/w')).body.data;
    const { name } = await snapshotWithDatabase((file) => {
      olderDatabase(2)(file);
      const db = new Database(file);
      db.pragma(`user_version = ${MIGRATIONS.length + 5}`);
      db.close();
    });
    const go = await api(`/api/backups/${name}/restore`, { json: { confirm: 'REPLACE' } });
    expect(go.status, go.text).toBe(202);
    const end = await importJobEnd(s, T);
    expect(end.state).toBe('failed');
    expect(end.error.message).toMatch(/later version of Klebb/);
    expect((await api('/api/manifests/w')).body.data).toEqual(rows);
  });
});
