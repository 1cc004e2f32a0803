/**
 * The group commit's bookkeeping: a row write committed without waiting for the disk is pending
 * until a flush covers it, a FULL commit that wrote covers it, and one that wrote nothing (and so
 * flushed nothing) does not.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATION_STEPS } from '../migration-steps.js';
import {
  closeDatabase,
  type Db,
  deferredWriteTransaction,
  openDatabase,
  walSyncOf,
  writeTransaction,
} from './database.js';
import type { WalSync } from './wal-sync.js';

let dir: string;
let db: Db;
let ws: WalSync;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'klebb-walsync-'));
  db = openDatabase(path.join(dir, 'klebb.sqlite'), { steps: MIGRATION_STEPS });
  db.exec('CREATE TABLE t (v INTEGER)');
  ws = walSyncOf(db) as WalSync;
});
afterEach(() => {
  closeDatabase(db);
  fs.rmSync(dir, { recursive: true, force: true });
});

const insert = () => db.prepare('INSERT INTO t (v) VALUES (1)').run();

describe('WalSync', () => {
  it('keeps a deferred commit pending until its flush ends', async () => {
    expect(ws.pending()).toBe(false);
    deferredWriteTransaction(db, insert);
    expect(ws.pending()).toBe(true);
    await ws.durable();
    expect(ws.pending()).toBe(false);
  });

  it('counts a FULL commit as a flush only when it wrote', async () => {
    deferredWriteTransaction(db, insert);
    writeTransaction(db, () => db.prepare('SELECT count(*) FROM t').get());
    expect(ws.pending(), 'a commit that changed nothing flushed nothing').toBe(true);
    writeTransaction(db, insert);
    expect(ws.pending(), 'a FULL commit that wrote flushed the WAL, earlier frames too').toBe(false);
  });

  it('rolls a failed write back and leaves nothing pending for it', () => {
    expect(() =>
      deferredWriteTransaction(db, () => {
        insert();
        throw new Error('refused');
      }),
    ).toThrow('refused');
    expect(db.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 0 });
    expect(ws.pending()).toBe(false);
  });
});
