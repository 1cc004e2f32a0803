import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

const T = 'undo-test-token';
let s: TestServer;

const card = (id: string, label: string, data: unknown) => ({
  $schema: 'klebb.datafile.v1',
  meta: { id, label, writeable: { fromWebapp: true } },
  data,
});

beforeAll(async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: T } });
});
afterAll(async () => {
  await s.close();
});

const api = (p: string, init: Parameters<TestServer['api']>[1] = {}) => s.api(p, { token: T, ...init });
const data = async (id: string) => (await api(`/api/manifests/${id}/data`)).body.data;
const newest = async (query = '') => (await api(`/api/changes${query}`)).body.changeSets[0];

describe('change sets and undo', () => {
  it('a fresh home lists no set without words: the welcome card the server wrote says so', async () => {
    const sets = (await api('/api/changes')).body.changeSets as { summary: string }[];
    expect(sets.length).toBeGreaterThan(0);
    for (const set of sets) expect(set.summary).not.toMatch(/no visible change/i);
    expect(sets.map((x) => x.summary)).toContain('Wrote the content of Welcome to Klebb');
  });

  it('lists each request as one change set with its actor and a summary', async () => {
    await api('/api/manifests', { json: card('weight', 'Weight', [{ date: '2026-04-18', kg: 80 }]) });
    const created = await newest();
    expect(created).toMatchObject({ actor: 'agent-token', actorKind: 'agent-token', undoneBy: null });
    // the welcome card it switched off belongs to the same request
    expect(created.cards).toEqual(['weight', 'welcome']);
    expect(created.summary).toContain('Created Weight');

    await api('/api/manifests/weight/rows', { json: { value: { date: '2026-04-19', kg: 81 } } });
    const appended = await newest();
    expect(appended.summary).toBe('Added 1 row to Weight');
    expect(appended.id).toBeGreaterThan(created.id);

    const byCard = await api('/api/changes?card=weight&limit=1');
    expect(byCard.body.changeSets).toHaveLength(1);
    expect(byCard.body.next).toBe(appended.id);
    const page2 = await api(`/api/changes?card=weight&before=${byCard.body.next}`);
    expect(page2.body.changeSets.map((c: { id: number }) => c.id)).toContain(created.id);
    expect((await api('/api/changes?actor=hae')).body.changeSets).toEqual([]);
    expect((await api('/api/changes?limit=abc')).status).toBe(400);
    // above the documented 1–100: refused, naming the parameter, not quietly capped
    const tooMany = await api('/api/changes?limit=1000');
    expect(tooMany.status).toBe(400);
    expect(tooMany.text).toContain('query.limit');
    expect((await api('/api/changes?limit=100')).status).toBe(200);
  });

  it('undoes a row edit, and the undo is a change set that can be undone in turn', async () => {
    await api('/api/manifests/weight/rows', {
      method: 'PATCH',
      json: { path: '[date="2026-04-18"]', changes: { kg: 79 } },
    });
    const edit = await newest();
    expect(edit.summary).toBe('Changed 1 row in Weight');
    const u = await api(`/api/changes/${edit.id}/undo`, { method: 'POST' });
    expect(u.status).toBe(200);
    expect(u.body).toMatchObject({ ok: true, undone: edit.id, changeSet: { undoOf: edit.id } });
    expect(await data('weight')).toEqual([
      { date: '2026-04-18', kg: 80 },
      { date: '2026-04-19', kg: 81 },
    ]);
    const again = await api(`/api/changes/${edit.id}/undo`, { method: 'POST' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('ALREADY_UNDONE');
    // redo: undo the undo
    const redo = await api(`/api/changes/${u.body.changeSet.id}/undo`, { method: 'POST' });
    expect(redo.status).toBe(200);
    expect((await data('weight'))[0]).toEqual({ date: '2026-04-18', kg: 79 });
  });

  it('puts a removed row back in its place', async () => {
    await api('/api/manifests/weight/rows', { json: { value: { date: '2026-04-20', kg: 82 } } });
    await api(`/api/manifests/weight/rows?path=${encodeURIComponent('[date="2026-04-19"]')}`, {
      method: 'DELETE',
    });
    const removal = await newest();
    expect(removal.summary).toBe('Removed 1 row from Weight');
    expect((await api(`/api/changes/${removal.id}/undo`, { method: 'POST' })).status).toBe(200);
    expect((await data('weight')).map((r: { date: string }) => r.date)).toEqual([
      '2026-04-18',
      '2026-04-19',
      '2026-04-20',
    ]);
  });

  it('refuses with 409 naming the later change when the same row changed since, and changes nothing', async () => {
    await api('/api/manifests/weight/rows', {
      method: 'PATCH',
      json: { path: '[date="2026-04-20"]', changes: { kg: 83 } },
    });
    const first = await newest();
    await api('/api/manifests/weight/rows', {
      method: 'PATCH',
      json: { path: '[date="2026-04-20"]', changes: { kg: 84 } },
    });
    const later = await newest();
    const before = await data('weight');
    const r = await api(`/api/changes/${first.id}/undo`, { method: 'POST' });
    expect(r.status).toBe(409);
    expect(r.body.code).toBe('UNDO_CONFLICT');
    expect(r.body.error).toContain('Weight');
    expect(r.body.conflicts[0]).toMatchObject({
      setId: later.id,
      cardId: 'weight',
      path: '[date="2026-04-20"]',
    });
    expect(await data('weight')).toEqual(before);
    expect((await newest()).id).toBe(later.id);
    // an edit of another row is no conflict
    await api('/api/manifests/weight/rows', { json: { value: { date: '2026-04-21', kg: 85 } } });
    expect((await api(`/api/changes/${later.id}/undo`, { method: 'POST' })).status).toBe(200);
    expect((await data('weight')).find((r2: { date: string }) => r2.date === '2026-04-20').kg).toBe(83);
  });

  it('undoes a card deletion: the file and every row come back', async () => {
    const rows = await data('weight');
    await api('/api/manifests/weight', { method: 'DELETE' });
    const del = await newest();
    expect(del.summary).toBe('Deleted Weight');
    expect(fs.existsSync(path.join(s.dataDir, 'weight.json'))).toBe(false);
    const u = await api(`/api/changes/${del.id}/undo`, { method: 'POST' });
    expect(u.status).toBe(200);
    expect(fs.existsSync(path.join(s.dataDir, 'weight.json'))).toBe(true);
    expect((await api('/api/manifests/weight')).body.meta.label).toBe('Weight');
    expect(await data('weight')).toEqual(rows);
  });

  it('undoes a manifest patch, and a hand edit of the file afterwards is a conflict', async () => {
    await api('/api/manifests/weight', { method: 'PATCH', json: { meta: { label: 'Body weight' } } });
    const patch = await newest();
    expect(patch.summary).toBe('Edited Body weight');
    const file = path.join(s.dataDir, 'weight.json');
    const text = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(file, text.replace('"Body weight"', '"Weight (hand)"'));
    const r = await api(`/api/changes/${patch.id}/undo`, { method: 'POST' });
    expect(r.status).toBe(409);
    expect(r.body.conflicts[0]).toMatchObject({ cardId: 'weight', actor: 'file' });
    expect((await api('/api/manifests/weight')).body.meta.label).toBe('Weight (hand)');
    const hand = (await api('/api/changes?actor=file')).body.changeSets[0];
    expect(hand.summary).toBe('Edited Weight (hand)');
  });

  it('answers 404 for an unknown set and refuses a read-only token', async () => {
    const r = await api('/api/changes/999999/undo', { method: 'POST' });
    expect(r.status).toBe(404);
    expect(r.body.code).toBe('CHANGE_SET_NOT_FOUND');
  });
});
