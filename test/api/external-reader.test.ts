/**
 * A backup tool reading the database from another process, as Litestream does, never makes a
 * write fail: while a second process holds a long read transaction, the server keeps appending
 * rows (every answer 201) and an export still works; a short write lock taken from outside is
 * waited for and the write then succeeds.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

const T = 'reader-token';
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

/** Another process holding a transaction on the database for `holdMs`; resolves once it holds it. */
function holder(
  file: string,
  mode: 'read' | 'write',
  holdMs: number,
): Promise<{ proc: ChildProcess; done: Promise<number | null> }> {
  const script = `
    const Database = require(${JSON.stringify(sqlitePath)});
    const db = new Database(${JSON.stringify(file)}, { readonly: ${mode === 'read'} });
    db.pragma('busy_timeout = 5000');
    db.exec(${JSON.stringify(mode === 'read' ? 'BEGIN' : 'BEGIN IMMEDIATE')});
    db.prepare('SELECT count(*) FROM card_rows').get();
    process.stdout.write('holding\\n');
    setTimeout(() => { db.exec('COMMIT'); db.close(); process.exit(0); }, ${holdMs});
  `;
  const proc = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const done = new Promise<number | null>((r) => proc.on('exit', (code) => r(code)));
  return new Promise((resolve, reject) => {
    proc.stdout?.on('data', (c: Buffer) => {
      if (c.toString().includes('holding')) resolve({ proc, done });
    });
    proc.on('exit', (code) => reject(new Error(`the holder exited early (${code})`)));
  });
}

describe('an external reader holding the database', () => {
  it('never makes a write fail', { timeout: 60_000 }, async () => {
    const h = await holder(s.inst.layout.dbFile, 'read', 3000);
    const statuses: number[] = [];
    for (let i = 0; i < 200; i++) {
      const r = await s.api('/api/manifests/log/rows', {
        token: T,
        json: { value: { date: '2026-04-01', n: i } },
      });
      statuses.push(r.status);
    }
    const exp = await fetch(`${s.url}/api/export`, { headers: { authorization: `Bearer ${T}` } });
    expect(exp.status).toBe(200);
    await exp.arrayBuffer();
    expect(await h.done).toBe(0);
    expect(statuses.every((x) => x === 201)).toBe(true);
    expect((await s.api('/api/manifests/log/data', { token: T })).body.data).toHaveLength(200);
  });

  it('waits for a short write lock taken from outside', { timeout: 60_000 }, async () => {
    const h = await holder(s.inst.layout.dbFile, 'write', 1000);
    const r = await s.api('/api/manifests/log/rows', {
      token: T,
      json: { value: { date: '2026-04-02', n: -1 } },
    });
    expect(r.status, r.text).toBe(201);
    expect(await h.done).toBe(0);
  });
});
