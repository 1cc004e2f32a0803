/**
 * A write the disk refuses is 503 NOT_SAVED, not a 500 or a success: SQLite's I/O and read-only
 * errors map to it, and a transaction SQLite rolled back by itself (after a refusal that code
 * inside caught, such as one card's fill noted as failed) throws it instead of passing for a commit.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATION_STEPS } from '../migration-steps.js';
import { openDatabase, writeTransaction } from './database.js';
import { storageFault } from './storage-faults.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function db() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'klebb-rolled-back-'));
  dirs.push(dir);
  const d = openDatabase(path.join(dir, 'k.sqlite'), { steps: MIGRATION_STEPS });
  d.exec('CREATE TABLE t (x INTEGER)');
  return d;
}

describe('a write the database or the disk refused', () => {
  it('a transaction rolled back under the code that caught the failure is NOT_SAVED, and nothing is kept', () => {
    const d = db();
    let caught: unknown;
    try {
      writeTransaction(d, () => {
        d.prepare('INSERT INTO t VALUES (1)').run();
        writeTransaction(d, () => d.prepare('INSERT INTO t VALUES (2)').run());
        // what SQLite does by itself after some failures, while the caller goes on
        d.exec('ROLLBACK');
      });
    } catch (err) {
      caught = err;
    }
    expect(storageFault(caught)).toMatchObject({ status: 503, code: 'NOT_SAVED' });
    expect(d.prepare('SELECT count(*) FROM t').pluck().get()).toBe(0);
    // the connection writes again afterwards
    writeTransaction(d, () => d.prepare('INSERT INTO t VALUES (3)').run());
    expect(d.prepare('SELECT count(*) FROM t').pluck().get()).toBe(1);
    d.close();
  });

  it('I/O and read-only errors are 503 NOT_SAVED; a full disk stays 507, anything else is no storage fault', () => {
    const err = (code: string) => Object.assign(new Error(code), { code });
    for (const code of ['SQLITE_IOERR', 'SQLITE_IOERR_WRITE', 'SQLITE_READONLY', 'SQLITE_CANTOPEN'])
      expect(storageFault(err(code)), code).toMatchObject({ status: 503, code: 'NOT_SAVED' });
    expect(storageFault(err('SQLITE_FULL'))).toMatchObject({ status: 507, code: 'DISK_FULL' });
    expect(storageFault(err('SQLITE_CONSTRAINT_UNIQUE'))).toBeNull();
    expect(storageFault(new Error('boom'))).toBeNull();
  });
});
