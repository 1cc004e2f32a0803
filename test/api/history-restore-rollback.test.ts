/**
 * Settings › History tells an import, a restore and a roll back apart: each is one change set by
 * whoever asked for it, and its summary says what it was ("Restored …", "Rolled back …"), never
 * "Imported" for a restore or a roll back. Neither can be undone (409 UNDO_UNAVAILABLE). The card
 * files the job itself removes or writes belong to that one set: they are not hand edits.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importJobEnd } from '../helpers/import-job.js';
import { startServer, type TestServer } from '../helpers/server.js';

const T = 'history-restore-token';
let s: TestServer;
const api = (p: string, init: Parameters<TestServer['api']>[1] = {}) => s.api(p, { token: T, ...init });

interface SetView {
  id: number;
  actor: string;
  summary: string;
  cards: string[];
}
const newest = async (): Promise<SetView> => (await api('/api/changes?limit=1')).body.changeSets[0];

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

describe('History of a restore and a roll back', () => {
  it('says Restored and Rolled back, by who asked, and neither undoes', async () => {
    const snap = (await api('/api/backups', { method: 'POST' })).body.snapshot.name;
    expect(
      (await api('/api/manifests/w/rows', { json: { value: { date: '2026-04-02', kg: 81 } } })).status,
    ).toBe(201);

    expect((await api(`/api/backups/${snap}/restore`, { json: { confirm: 'REPLACE' } })).status).toBe(202);
    expect((await importJobEnd(s, T)).state).toBe('done');
    const restored = await newest();
    expect(restored.actor).toBe('agent-token');
    expect(restored.summary).toMatch(/^Restored the data of Weight/);
    expect(restored.summary).not.toMatch(/[Ii]mport/);
    expect(restored.cards).toContain('w');

    expect((await api('/api/import/rollback', { method: 'POST' })).status).toBe(202);
    expect((await importJobEnd(s, T)).state).toBe('done');
    const rolled = await newest();
    expect(rolled.id).toBeGreaterThan(restored.id);
    expect(rolled.summary).toMatch(/^Rolled back the data of Weight/);
    expect(rolled.summary).not.toMatch(/[Ii]mport/);

    for (const set of [restored, rolled]) {
      const undo = await api(`/api/changes/${set.id}/undo`, { method: 'POST' });
      expect(undo.status).toBe(409);
      expect(undo.body.code).toBe('UNDO_UNAVAILABLE');
    }
  });

  it('records the card files it removes and brings back in its own set, not as hand edits', async () => {
    const card = (id: string, label: string) =>
      api('/api/manifests', {
        json: { $schema: 'klebb.datafile.v1', meta: { id, label }, data: [{ date: '2026-04-03', n: 1 }] },
      });
    expect((await card('kept', 'Kept')).status).toBe(201);
    const snap = (await api('/api/backups', { method: 'POST' })).body.snapshot.name;
    expect((await api('/api/manifests/kept', { method: 'DELETE' })).status).toBe(200);
    expect((await card('later', 'Later')).status).toBe(201);
    const before = (await newest()).id;

    // the restore brings back Kept and removes Later; the roll back does the opposite
    expect((await api(`/api/backups/${snap}/restore`, { json: { confirm: 'REPLACE' } })).status).toBe(202);
    expect((await importJobEnd(s, T)).state).toBe('done');
    expect((await api('/api/manifests/kept')).status).toBe(200);
    expect((await api('/api/manifests/later')).status).toBe(404);
    expect((await api('/api/import/rollback', { method: 'POST' })).status).toBe(202);
    expect((await importJobEnd(s, T)).state).toBe('done');
    expect((await api('/api/manifests/kept')).status).toBe(404);
    expect((await api('/api/manifests/later')).status).toBe(200);

    const sets = ((await api('/api/changes?limit=100')).body.changeSets as SetView[]).filter(
      (c) => c.id > before,
    );
    expect(sets.map((c) => c.actor)).toEqual(['agent-token', 'agent-token']);
    const [rolled, restored] = sets;
    expect(restored.summary).toMatch(/^Restored the data of/);
    expect(restored.cards).toEqual(expect.arrayContaining(['kept', 'later']));
    expect(restored.summary).toContain('deleted Later');
    expect(rolled.summary).toMatch(/^Rolled back the data of/);
    expect(rolled.cards).toEqual(expect.arrayContaining(['kept', 'later']));
    expect(rolled.summary).toContain('deleted Kept');
    for (const set of sets) {
      const undo = await api(`/api/changes/${set.id}/undo`, { method: 'POST' });
      expect(undo.body.code, undo.text).toBe('UNDO_UNAVAILABLE');
    }
  });
});
