/**
 * Another program on the database (a backup tool, the sqlite3 shell, a second server by mistake)
 * holding the write lock: a write waits for it (busy_timeout) and succeeds once it is released,
 * instead of failing at once with SQLITE_BUSY; held past the timeout, the write is 503
 * STORAGE_BUSY with Retry-After and nothing changed. Reads are not blocked.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SQLITE_BUSY_TIMEOUT_MS } from '../../src/limits.js';
import { holdDatabase } from '../helpers/db-holder.js';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
let dbFile: string;
const CARD = {
  $schema: 'klebb.datafile.v1',
  meta: { id: 'bp', label: 'BP', writeable: { fromWebapp: true } },
  data: [{ date: '2026-01-01', v: 1 }],
};

beforeAll(async () => {
  s = await startServer();
  dbFile = path.join(s.home, 'db/klebb.sqlite');
  expect((await s.api('/api/manifests', { json: CARD })).status).toBe(201);
});
afterAll(async () => {
  await s?.close();
});

const count = async () => (await s.api('/api/manifests/bp/data')).body.data.length;

describe('another process holding the database', () => {
  it('a write waits for a short lock and succeeds (every kind of write)', { timeout: 30_000 }, async () => {
    const writes: [string, () => Promise<{ status: number; text: string }>][] = [
      ['append', () => s.api('/api/manifests/bp/rows', { json: { value: { date: '2026-01-02', v: 2 } } })],
      [
        'patch',
        () =>
          s.api('/api/manifests/bp/rows', {
            method: 'PATCH',
            json: { path: '[date="2026-01-02"]', changes: { v: 3 } },
          }),
      ],
      [
        'replace',
        () =>
          s.api('/api/manifests/bp/data', {
            json: {
              data: [
                { date: '2026-01-01', v: 1 },
                { date: '2026-01-02', v: 2 },
              ],
            },
          }),
      ],
      ['create', () => s.api('/api/manifests', { json: { ...CARD, meta: { ...CARD.meta, id: 'bp2' } } })],
      ['delete', () => s.api('/api/manifests/bp2', { method: 'DELETE' })],
    ];
    for (const [name, write] of writes) {
      const holder = holdDatabase(dbFile, 600);
      await holder.locked;
      const r = await write();
      expect(r.status, `${name}: ${r.text}`).toBeLessThan(300);
      await holder.done;
    }
    expect(await count()).toBe(2);
  });

  it('held past the busy timeout: 503 STORAGE_BUSY with Retry-After, nothing written; reads still answer', {
    timeout: 30_000,
  }, async () => {
    const before = await count();
    const holder = holdDatabase(dbFile, SQLITE_BUSY_TIMEOUT_MS + 2_000);
    await holder.locked;
    expect((await s.api('/api/manifests/bp/data')).status).toBe(200);
    const r = await s.api('/api/manifests/bp/rows', { json: { value: { date: '2026-01-03', v: 9 } } });
    expect(r.status, r.text).toBe(503);
    expect(r.body.code).toBe('STORAGE_BUSY');
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    await holder.done;
    expect(await count()).toBe(before);
    const again = await s.api('/api/manifests/bp/rows', { json: { value: { date: '2026-01-03', v: 9 } } });
    expect(again.status).toBe(201);
  });
});
