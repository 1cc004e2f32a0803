/**
 * The database file replaced or removed while the server runs (a restore moved into place, a
 * `litestream restore -o` over it, a clean-up that deleted it): SQLite keeps writing into the old,
 * unlinked file, so a write answered 200 would be gone at the next start. Every write is refused
 * with 503 NOT_SAVED instead, and the file put in place is what the next start serves.
 */
import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

const weight = {
  $schema: 'klebb.datafile.v1',
  meta: {
    id: 'weight',
    label: 'Weight',
    view: { enabled: true, component: 'list-card' },
    writeable: { fromWebapp: true, inputs: [{ key: 'kg', label: 'kg', type: 'number' }] },
  },
  data: [{ date: '2026-04-01', kg: 80.1 }],
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let s: TestServer;
let dbFile: string;
beforeEach(async () => {
  s = await startServer();
  dbFile = s.inst.layout.dbFile;
  expect((await s.api('/api/manifests', { json: weight })).status).toBe(201);
});
afterEach(async () => {
  await s.close();
});

/** Replaces the card's rows with one row on `date`. */
const write = (date: string) => s.api('/api/manifests/weight/data', { json: { data: [{ date, kg: 80.5 }] } });

describe('a database file replaced under the running server', () => {
  it('a restored copy moved over it: writes are 503 NOT_SAVED, never answered as saved', async () => {
    const copy = `${dbFile}.restore`;
    s.inst.db.exec(`VACUUM INTO '${copy}'`);
    fs.renameSync(copy, dbFile);
    await sleep(300);
    const r = await write('2026-04-02');
    expect(r.status).toBe(503);
    expect(r.body.code).toBe('NOT_SAVED');
    expect(r.body.error).toMatch(/replaced or removed while the server runs/);
    // still refused later: nothing goes into the old file
    await sleep(300);
    expect((await write('2026-04-03')).status).toBe(503);
  });

  it('the file deleted: writes are 503 NOT_SAVED', async () => {
    fs.rmSync(dbFile);
    await sleep(300);
    const r = await write('2026-04-02');
    expect(r.status).toBe(503);
    expect(r.body.code).toBe('NOT_SAVED');
  });

  it('writes go through while the file stays in place', async () => {
    await sleep(300);
    expect((await write('2026-04-02')).status).toBe(200);
  });
});
