import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATION_STEPS } from '../migration-steps.js';
import { CardDataStore } from './card-data-store.js';
import { closeDatabase, openDatabase } from './database.js';
import { MIGRATIONS } from './migrations.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** A database file as the code before the change-set index was dropped left it (schema 7), with history. */
function homeAtSchema7(): string {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'klebb-migrations-'));
  const file = path.join(dir, 'klebb.sqlite');
  const db = new Database(file);
  for (const m of MIGRATIONS.slice(0, 7)) if (typeof m === 'string') db.exec(m);
  db.pragma('user_version = 7');
  const set = db.prepare('INSERT INTO change_sets (ts, actor) VALUES (?, ?)');
  const change = db.prepare(
    "INSERT INTO changes (ts, actor, card_id, op, path, after, set_id) VALUES (?, ?, 'w', 'append', '', '1', ?)",
  );
  for (let i = 0; i < 30; i++) {
    const actor = i % 10 === 0 ? 'web' : 'hae';
    const id = Number(set.run(`2026-01-01T00:00:${String(i).padStart(2, '0')}Z`, actor).lastInsertRowid);
    change.run(`2026-01-01T00:00:${String(i).padStart(2, '0')}Z`, actor, id);
  }
  db.close();
  return file;
}

describe('migration 8 (change_sets_actor dropped)', () => {
  it('opens a home of the previous schema: the index is gone, its history lists by actor as before', () => {
    const file = homeAtSchema7();
    const indexes = (db: { prepare(sql: string): { pluck(): { all(): unknown[] } } }) =>
      db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'change_sets'")
        .pluck()
        .all();
    const before = new Database(file);
    expect(indexes(before)).toEqual(['change_sets_actor']);
    before.close();

    const db = openDatabase(file, { steps: MIGRATION_STEPS });
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
      expect(indexes(db)).toEqual([]);
      const log = new CardDataStore(db).changes;
      expect(log.listSets({ limit: 10, actor: 'web' }).map((s) => s.id)).toEqual([21, 11, 1]);
      expect(log.listSets({ limit: 2, actor: 'hae', before: 21 }).map((s) => s.id)).toEqual([20, 19]);
      expect(log.listSets({ limit: 5, actor: 'nobody' })).toEqual([]);
    } finally {
      closeDatabase(db);
    }
  });
});
