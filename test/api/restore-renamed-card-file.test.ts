/**
 * A restore (or an import) that puts a card back under its id's file name while the home held it
 * in a file named by hand (`My weight.json` holding the card `weight`): the card moves to its new
 * file and stays the same card, so the nudges dismissed for it and its reminders' state are kept,
 * as the snapshot has them, instead of being forgotten as if the card had been deleted.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => {
  await s.close();
});

const ids = async () =>
  (await s.api('/api/manifests')).body.entries.map((e: { id: string }) => e.id) as string[];

it('keeps the dismissed nudges of a card whose hand-named file the restore renames', async () => {
  const card = {
    $schema: 'klebb.datafile.v1',
    meta: { id: 'weight', label: 'Weight', view: { enabled: true, component: 'generic-card' } },
    data: [{ date: '2026-04-01', kg: 80 }],
  };
  fs.writeFileSync(path.join(s.dataDir, 'My weight.json'), JSON.stringify(card));
  await expect.poll(ids, { timeout: 10_000 }).toContain('weight');
  expect((await s.api('/api/hygiene/weight/dismiss', { json: {} })).status).toBe(200);
  const snap = (await s.api('/api/backups', { method: 'POST' })).body.snapshot.name;

  const r = await s.api(`/api/backups/${snap}/restore`, { json: { confirm: 'REPLACE' } });
  expect(r.status, r.text).toBe(202);
  await expect
    .poll(async () => (await s.api('/api/import/status')).body.state, { timeout: 20_000 })
    .toBe('done');

  expect(await ids()).toContain('weight');
  expect(fs.existsSync(path.join(s.dataDir, 'weight.json'))).toBe(true);
  const stored = JSON.parse(fs.readFileSync(path.join(s.dataDir, '_meta', 'hygiene-dismissed.json'), 'utf8'));
  expect(stored).toEqual(['weight::stale']);
  const rows = await s.api('/api/manifests/weight/data');
  expect(rows.body.data).toEqual(card.data);
});
