/**
 * Undo and a restored snapshot, on a real home: a restore (or an import) replaces whole cards
 * and keeps no before-image of what it replaced, so its change set cannot be undone row by row;
 * the snapshot taken before it is the way back. Undoing it must be refused with a message that
 * says so, and leave every card as it is (it used to empty each card's data to null), and the
 * history must not name the import's internal marker as a card.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importJobEnd } from '../helpers/import-job.js';
import { startServer, type TestServer } from '../helpers/server.js';

const T = 'undo-restore-token';
let s: TestServer;

beforeAll(async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: T } });
  const r = await s.api('/api/manifests', {
    token: T,
    json: {
      $schema: 'klebb.datafile.v1',
      meta: {
        id: 'w',
        label: 'W',
        writeable: {
          fromWebapp: true,
          pastAllowed: true,
          inputs: [{ key: 'kg', label: 'kg', type: 'number' }],
        },
      },
      data: [{ date: '2026-06-01', kg: 60 }],
    },
  });
  expect(r.status).toBe(201);
});
afterAll(async () => {
  await s.close();
});

describe('undo of a restore', () => {
  it('is refused naming the roll back, and every card keeps its rows', async () => {
    const snap = await s.api('/api/backups', { token: T, method: 'POST' });
    expect(snap.status, snap.text).toBe(201);
    const later = [
      { date: '2026-06-01', kg: 60 },
      { date: '2026-06-02', kg: 61 },
    ];
    const row = await s.api('/api/manifests/w/data', { token: T, json: { data: later } });
    expect(row.status, row.text).toBe(200);
    const restore = await s.api(`/api/backups/${snap.body.snapshot.name}/restore`, {
      token: T,
      json: { confirm: 'REPLACE' },
    });
    expect(restore.status).toBe(202);
    expect(await importJobEnd(s, T)).toMatchObject({ state: 'done' });
    const after = (await s.api('/api/manifests/w/data', { token: T })).body.data;
    expect(after).toEqual([{ date: '2026-06-01', kg: 60 }]);

    const sets = (await s.api('/api/changes?limit=1', { token: T })).body.changeSets;
    expect(sets[0].actorKind).toBe('agent-token');
    expect(sets[0].cards).not.toContain('_import');
    expect(sets[0].summary).not.toContain('_import');

    const undo = await s.api(`/api/changes/${sets[0].id}/undo`, { token: T, method: 'POST' });
    expect(undo.status).toBe(409);
    expect(undo.body.code).toBe('UNDO_UNAVAILABLE');
    expect(undo.body.error).toMatch(/Roll back \(or restore the pre-import snapshot/);
    expect((await s.api('/api/manifests/w/data', { token: T })).body.data).toEqual(after);
    const welcome = await s.api('/api/manifests/welcome/data', { token: T });
    expect(welcome.body.data).not.toBeNull();
    expect((await s.api('/api/changes?limit=1', { token: T })).body.changeSets[0].id).toBe(sets[0].id);
  });
});
