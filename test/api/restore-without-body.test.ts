/**
 * `POST /api/backups/:name/restore` sent with no body at all (curl -X POST, a button's bare POST)
 * answers as the documented word check does: 428 CONFIRM_REQUIRED, or 404 NO_SNAPSHOT for a name
 * that is no snapshot, never a schema complaint about a body nobody sent. Nothing is restored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
let snap: string;
beforeAll(async () => {
  s = await startServer();
  snap = (await s.api('/api/backups', { method: 'POST' })).body.snapshot.name;
});
afterAll(async () => {
  await s.close();
});

describe('a restore without a body', () => {
  it('is 428 CONFIRM_REQUIRED, and no job starts', async () => {
    const r = await s.api(`/api/backups/${snap}/restore`, { method: 'POST' });
    expect(r.status).toBe(428);
    expect(r.body.code).toBe('CONFIRM_REQUIRED');
    expect(r.body.error).toContain('REPLACE');
    expect((await s.api('/api/import/status')).body.state).toBe('idle');
  });

  it('names a snapshot that does not exist: 404 NO_SNAPSHOT', async () => {
    const r = await s.api('/api/backups/no-such-snapshot/restore', { method: 'POST' });
    expect(r.status).toBe(404);
    expect(r.body.code).toBe('NO_SNAPSHOT');
  });

  it('with the word it still restores', async () => {
    const r = await s.api(`/api/backups/${snap}/restore`, { json: { confirm: 'REPLACE' } });
    expect(r.status).toBe(202);
  });
});
