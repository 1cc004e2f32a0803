/**
 * A card deleted by mistake and brought back by undoing the deletion (History › Undo, POST
 * /api/changes/:id/undo) keeps the person's reminder choices: a reminder that was switched on is
 * on again and keeps its privacy, and it fires at its next time. Before, the deletion forgot them
 * and the undo brought the card back with every reminder off, so the morning reminder silently
 * stopped. A new card made later under the same id still starts with the card's defaults.
 * Real server and state file, a push service stand-in speaking Web Push.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PushStandIn, startPushStandIn } from '../helpers/push-stand-in.js';
import { weighInCard } from '../helpers/reminder-card.js';
import { startServer, type TestServer } from '../helpers/server.js';

let push: PushStandIn;
let s: TestServer;

const card = (id: string) => weighInCard(id, '2029-12-31');

type Reminder = { id: string; enabled: boolean; privacy: string };
async function reminder(id: string): Promise<Reminder | undefined> {
  const r = await s.api('/api/notifications');
  return (r.body.notifications as Reminder[]).find((n) => n.id === id);
}

async function lastChange(): Promise<number> {
  return (await s.api('/api/changes?limit=1')).body.changeSets[0].id;
}

function savedItems(): Record<string, { enabled?: boolean; privacy?: string }> {
  return JSON.parse(fs.readFileSync(path.join(s.home, 'notifications.state.json'), 'utf8')).items;
}

beforeAll(async () => {
  push = await startPushStandIn();
  s = await startServer({
    env: { KLEBB_PUSH_ALLOW_PRIVATE_ENDPOINTS: '1' },
    push: { agent: push.agent, retryBaseMs: 10, autoStart: false },
  });
  s.inst.user.setTimeZone('UTC');
  const sub = push.subscribe();
  await s.api('/api/push/subscribe', { json: { endpoint: sub.endpoint, keys: sub.keys } });
});
afterAll(async () => {
  await s?.close();
  await push?.close();
});

describe('reminder choices of a deleted card', () => {
  it('come back with the card when its deletion is undone, and the reminder fires again', async () => {
    expect((await s.api('/api/manifests', { json: card('weight') })).status).toBe(201);
    const on = await s.api('/api/notifications/state', {
      json: { id: 'weight#weigh-in', enabled: true, privacy: 'public' },
    });
    expect(on.status, on.text).toBe(200);

    expect((await s.api('/api/manifests/weight', { method: 'DELETE' })).status).toBe(200);
    expect(await reminder('weight#weigh-in')).toBeUndefined();
    expect(savedItems()['weight#weigh-in']).toBeUndefined();

    const undo = await s.api(`/api/changes/${await lastChange()}/undo`, { method: 'POST' });
    expect(undo.status, undo.text).toBe(200);
    expect(await reminder('weight#weigh-in')).toMatchObject({ enabled: true, privacy: 'public' });
    expect(savedItems()['weight#weigh-in']).toMatchObject({ enabled: true, privacy: 'public' });

    await s.inst.push.tick(new Date('2030-01-01T07:00:00Z'));
    const fired = await s.inst.push.tick(new Date('2030-01-01T07:30:00Z'));
    expect(fired.map((f) => f.event.cardId)).toEqual(['weight']);
  });

  it('do not carry over to a new card made later under the same id', async () => {
    expect((await s.api('/api/manifests', { json: card('steps') })).status).toBe(201);
    await s.api('/api/notifications/state', { json: { id: 'steps#weigh-in', enabled: true } });
    expect((await s.api('/api/manifests/steps', { method: 'DELETE' })).status).toBe(200);

    expect((await s.api('/api/manifests', { json: { ...card('steps'), data: [] } })).status).toBe(201);
    expect(await reminder('steps#weigh-in')).toMatchObject({ enabled: false });
  });
});
