/**
 * A backup tool or a `sqlite3` shell holding a read transaction keeps SQLite from reusing its
 * write-ahead log, so the `-wal` file grows by every write made meanwhile. Once the reader lets
 * go, the log is reused, but the file keeps its size for good unless the server cuts it back:
 * after the reader is gone and a few more writes, the `-wal` file is no larger than
 * WAL_SIZE_LIMIT_BYTES.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WAL_SIZE_LIMIT_BYTES } from '../../src/limits.js';
import { startServer, type TestServer } from '../helpers/server.js';

const T = 'wal-token';
let s: TestServer;
const require = createRequire(import.meta.url);
const sqlitePath = require.resolve('better-sqlite3');

beforeAll(async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: T } });
  const created = await s.api('/api/manifests', {
    token: T,
    json: {
      $schema: 'klebb.datafile.v1',
      meta: { id: 'log', label: 'Log', writeable: { fromWebapp: true } },
      data: [],
    },
  });
  expect(created.status).toBe(201);
});
afterAll(async () => {
  await s.close();
});

/** Another process holding a read transaction until it is killed; resolves once it holds it. */
function reader(file: string): Promise<{ proc: ChildProcess; done: Promise<unknown> }> {
  const script = `
    const Database = require(${JSON.stringify(sqlitePath)});
    const db = new Database(${JSON.stringify(file)}, { readonly: true });
    db.exec('BEGIN');
    db.prepare('SELECT count(*) FROM card_rows').get();
    process.stdout.write('holding\\n');
    setInterval(() => {}, 1000);
  `;
  const proc = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const done = new Promise((r) => proc.on('exit', r));
  return new Promise((resolve, reject) => {
    proc.stdout?.on('data', (c: Buffer) => {
      if (c.toString().includes('holding')) resolve({ proc, done });
    });
    proc.on('exit', (code) => reject(new Error(`the reader exited early (${code})`)));
  });
}

const walSize = () => fs.statSync(`${s.inst.layout.dbFile}-wal`, { throwIfNoEntry: false })?.size ?? 0;

describe('the write-ahead log after a long reader', () => {
  it('is cut back to the size limit once the reader is gone', { timeout: 120_000 }, async () => {
    const r = await reader(s.inst.layout.dbFile);
    const note = 'x'.repeat(400);
    let day = 0;
    const rows = (n: number) =>
      Array.from({ length: n }, () => {
        day++;
        return { date: new Date(Date.UTC(2000, 0, day)).toISOString().slice(0, 10), note };
      });
    // the reader keeps every write in the log: it grows well past the limit
    for (let round = 0; walSize() <= WAL_SIZE_LIMIT_BYTES * 1.5; round++) {
      expect(round, 'the log never grew while the reader held it').toBeLessThan(50);
      // the whole data replaced: every row written again
      const w = await s.api('/api/manifests/log/data', { token: T, json: { data: rows(3000) } });
      expect(w.status, w.text).toBeLessThan(300);
    }
    r.proc.kill();
    await r.done;
    for (let i = 0; i < 5; i++) {
      const w = await s.api('/api/manifests/log/rows', {
        token: T,
        json: { value: { date: '2026-04-01', n: i } },
      });
      expect(w.status, w.text).toBe(201);
    }
    expect(walSize()).toBeLessThanOrEqual(WAL_SIZE_LIMIT_BYTES);
  });
});
