/**
 * A card deleted by mistake and brought back by undoing its deletion after the server restarted
 * (an update, a reboot, a container recreated; History offers the undo for weeks) keeps the
 * person's reminder choices and the nudge they dismissed, as an undo before a restart does.
 * Before, both were held in memory only: after a restart the undo brought the card back with its
 * reminder off and its dismissed staleness nudge showing again. Real server twice on one home,
 * real files and SQLite.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../../src/common/dates.js';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer | undefined;
let home: string | undefined;

afterAll(async () => {
  await s?.close();
  if (home) fs.rmSync(home, { recursive: true, force: true });
});

type Reminder = { id: string; enabled: boolean; privacy: string };
async function reminder(srv: TestServer, id: string): Promise<Reminder | undefined> {
  const r = await srv.api('/api/notifications');
  return (r.body.notifications as Reminder[]).find((n) => n.id === id);
}

describe('undoing a card deletion after a restart', () => {
  it('brings back its reminder choices and its dismissed nudge', async () => {
    const first = await startServer({ push: { autoStart: false } });
    s = first;
    home = first.home;
    const today = todayIn(first.inst.user.timeZone());
    // the weight card (a reminder, off by default; an entry expected every 3 days), last entry 6 days old
    const made = await first.api('/api/settings/cards/from-template', { json: { templateId: 'weight' } });
    expect(made.status, made.text).toBe(201);
    for (const back of [8, 7, 6]) {
      const r = await first.api('/api/manifests/weight/rows', {
        json: { value: { date: addDays(today, -back), kg: 80 } },
      });
      expect(r.status, r.text).toBe(201);
    }
    const on = await first.api('/api/notifications/state', {
      json: { id: 'weight#weigh-in', enabled: true, privacy: 'public' },
    });
    expect(on.status, on.text).toBe(200);
    const nudges = (await first.api('/api/hygiene')).body.findings;
    expect(nudges).toEqual([expect.objectContaining({ cardId: 'weight', kind: 'stale' })]);
    expect((await first.api('/api/hygiene/weight/dismiss', { json: {} })).status).toBe(200);

    expect((await first.api('/api/manifests/weight', { method: 'DELETE' })).status).toBe(200);
    const deletion = (await first.api('/api/changes?limit=1')).body.changeSets[0].id;
    await first.close({ keepHome: true });
    s = undefined;

    const second = await startServer({ home, push: { autoStart: false } });
    s = second;
    const undo = await second.api(`/api/changes/${deletion}/undo`, { method: 'POST' });
    expect(undo.status, undo.text).toBe(200);

    expect(await reminder(second, 'weight#weigh-in')).toMatchObject({ enabled: true, privacy: 'public' });
    const state = JSON.parse(fs.readFileSync(path.join(home, 'notifications.state.json'), 'utf8'));
    expect(state.items['weight#weigh-in']).toMatchObject({ enabled: true, privacy: 'public' });
    expect((await second.api('/api/hygiene')).body.findings).toEqual([]);
  });
});
