/**
 * History names the card each change set touched. A card renamed since reads with its current
 * label; but once a card is deleted and a new card is made with the same id, the old card's sets
 * (its creation, its rows, its deletion) keep the label it had when it was deleted instead of
 * taking the new card's. A deletion that was undone did not end the card.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

const T = 'history-label-token';
let s: TestServer;
const agent = (p: string, init: Record<string, unknown> = {}) => s.api(p, { token: T, ...init });

const card = (id: string, label: string, data: unknown[]) => ({
  $schema: 'klebb.datafile.v1',
  meta: { id, label, view: { enabled: true, component: 'generic-card' }, writeable: { fromWebapp: true } },
  data,
});

/** Summaries of the card's sets, oldest first. */
async function history(id: string): Promise<string[]> {
  const r = await agent(`/api/changes?card=${id}&limit=100`);
  expect(r.status, r.text).toBe(200);
  return r.body.changeSets.map((c: { summary: string }) => c.summary).reverse();
}

beforeAll(async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: T } });
});
afterAll(async () => {
  await s?.close();
});

it("a deleted card's sets keep its label after a new card takes its id", async () => {
  expect((await agent('/api/manifests', { json: card('bp', 'Blood pressure', []) })).status).toBe(201);
  const add = await agent('/api/manifests/bp/rows', { json: { value: { date: '2026-04-20', sys: 120 } } });
  expect(add.status, add.text).toBe(201);
  // renamed: its sets read with the new label, as before
  const patch = await agent('/api/manifests/bp', {
    method: 'PATCH',
    json: { meta: { label: 'Blood pressure (arm)' } },
  });
  expect(patch.status, patch.text).toBe(200);
  expect((await agent('/api/manifests/bp', { method: 'DELETE' })).status).toBe(200);
  expect((await agent('/api/manifests', { json: card('bp', 'Blood pressure (wrist)', []) })).status).toBe(
    201,
  );
  const add2 = await agent('/api/manifests/bp/rows', { json: { value: { date: '2026-05-02', sys: 118 } } });
  expect(add2.status, add2.text).toBe(201);

  const h = await history('bp');
  expect(h).toHaveLength(6);
  expect(h[0]).toMatch(/^Created Blood pressure \(arm\)/);
  expect(h.slice(1, 3)).toEqual(['Added 1 row to Blood pressure (arm)', 'Edited Blood pressure (arm)']);
  expect(h[3]).toBe('Deleted Blood pressure (arm)');
  expect(h.slice(4)).toEqual(['Created Blood pressure (wrist)', 'Added 1 row to Blood pressure (wrist)']);
});

it('a deletion that was undone keeps the card one card: its sets read with its current label', async () => {
  expect((await agent('/api/manifests', { json: card('sleep', 'Sleep', []) })).status).toBe(201);
  expect((await agent('/api/manifests/sleep', { method: 'DELETE' })).status).toBe(200);
  const del = (await agent('/api/changes?card=sleep&limit=1')).body.changeSets[0];
  const undo = await agent(`/api/changes/${del.id}/undo`, { method: 'POST' });
  expect(undo.status, undo.text).toBe(200);
  const patch = await agent('/api/manifests/sleep', {
    method: 'PATCH',
    json: { meta: { label: 'Sleep log' } },
  });
  expect(patch.status, patch.text).toBe(200);
  const h = await history('sleep');
  expect(h[0]).toMatch(/^Created Sleep log/);
  expect(h.slice(1)).toEqual(['Deleted Sleep log', 'Undid: deleted Sleep log', 'Edited Sleep log']);
});
