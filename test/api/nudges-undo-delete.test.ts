/**
 * A card deleted by mistake and brought back by undoing the deletion keeps the staleness nudge
 * the person had dismissed: it does not show again. Before, the deletion forgot the dismissal and
 * the undo brought the card back without it, so the dismissed nudge was back. A card deleted for
 * good still takes its dismissals with it (suggestions-nudges). Real server, real files.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../../src/common/dates.js';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => {
  await s?.close();
});

const findings = async () => (await s.api('/api/hygiene')).body.findings;
const stored = () =>
  JSON.parse(fs.readFileSync(path.join(s.dataDir, '_meta', 'hygiene-dismissed.json'), 'utf8'));

describe('a dismissed nudge of a deleted card', () => {
  it('comes back dismissed when the deletion is undone', async () => {
    const made = await s.api('/api/settings/cards/from-template', { json: { templateId: 'weight' } });
    expect(made.status, made.text).toBe(201);
    // weight expects an entry every 3 days; its last one is 6 days old
    const today = todayIn(s.inst.user.timeZone());
    for (const back of [8, 7, 6]) {
      const r = await s.api('/api/manifests/weight/rows', {
        json: { value: { date: addDays(today, -back), kg: 80 } },
      });
      expect(r.status).toBe(201);
    }
    expect(await findings()).toEqual([expect.objectContaining({ cardId: 'weight', kind: 'stale' })]);
    expect((await s.api('/api/hygiene/weight/dismiss', { json: {} })).status).toBe(200);

    expect((await s.api('/api/manifests/weight', { method: 'DELETE' })).status).toBe(200);
    expect(stored()).toEqual([]);
    const last = (await s.api('/api/changes?limit=1')).body.changeSets[0].id;
    const undo = await s.api(`/api/changes/${last}/undo`, { method: 'POST' });
    expect(undo.status, undo.text).toBe(200);

    expect(stored()).toEqual(['weight::stale']);
    expect(await findings()).toEqual([]);
  });
});
