/**
 * A notifications.state.json edited by hand into values the server never writes: on start the
 * real server drops each such value (its setting back to the default), says so in the log and in
 * diagnostics, never shows it back as a setting, and the scheduler keeps firing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type PushStandIn, startPushStandIn } from '../helpers/push-stand-in.js';
import { startServer, type TestServer } from '../helpers/server.js';

let push: PushStandIn;
const open: TestServer[] = [];

beforeAll(async () => {
  push = await startPushStandIn();
});
afterAll(async () => {
  await push.close();
});
afterEach(async () => {
  while (open.length) await open.pop()?.close();
});

async function serverWith(state: unknown, file = 'notifications.state.json'): Promise<TestServer> {
  const s = await startServer({
    env: { KLEBB_PUSH_ALLOW_PRIVATE_ENDPOINTS: '1' },
    push: { agent: push.agent, retryBaseMs: 10, autoStart: false },
    before: (home) => {
      const text = typeof state === 'string' ? state : JSON.stringify(state);
      fs.writeFileSync(path.join(home, file), text, { mode: 0o600 });
    },
  });
  open.push(s);
  return s;
}

const goodFire = {
  at: '2030-01-01T09:00:00.000Z',
  kind: 'scheduled',
  card_id: 'walk',
  items: ['walk#am'],
  slot: '2030-01-01T10:00',
  status: 'sent',
  sent: 1,
  failed: 0,
};

describe('a hand-damaged notifications.state.json', () => {
  it('wrong values are dropped to their defaults, named in diagnostics, never shown back', async () => {
    const s = await serverWith({
      quiet_hours: { start: 5 },
      paused_until: 'garbage',
      items: {
        'walk#am': { enabled: 'yes', privacy: 7, lastSlot: 'tomorrow', lastFireStatus: 'sent' },
        x: 1,
      },
      recent_fires: [{ at: 'never', kind: 'weird' }, goodFire, 12],
      colour: 'red',
    });
    const n = await s.api('/api/notifications');
    expect(n.status).toBe(200);
    expect(n.body).toMatchObject({ quiet_hours: null, paused_until: null });
    const d = await s.api('/api/diagnostics');
    expect(d.status).toBe(200);
    expect(d.body).toMatchObject({ quiet_hours: null, paused_until: null, recent_fires: [goodFire] });
    const problems: string[] = d.body.state_problems;
    for (const word of [
      'quiet_hours',
      'paused_until',
      'items.walk#am',
      'enabled',
      'privacy',
      'lastSlot',
      'recent_fires',
      'colour',
    ]) {
      expect(problems.some((p) => p.includes(word))).toBe(true);
    }
    expect(s.inst.push.state.peek('walk#am')).toEqual({ lastFireStatus: 'sent' });
    expect(s.inst.push.state.peek('x')).toBeUndefined();
    // the settings can be set again, and are then what is shown
    const set = await s.api('/api/notifications/global-state', {
      json: { quiet_hours: { start: '22:00', end: '07:00' } },
    });
    expect(set.body).toMatchObject({
      ok: true,
      quiet_hours: { start: '22:00', end: '07:00' },
      paused_until: null,
    });
  });

  it('once the server has saved a clean file, its problems are no longer listed', async () => {
    const s = await serverWith({ quiet_hours: { start: 5 }, paused_until: 'garbage', colour: 'red' });
    const before: string[] = (await s.api('/api/diagnostics')).body.state_problems;
    expect(before.length).toBe(3);
    expect(before.every((p) => p.startsWith('notifications.state.json: '))).toBe(true);
    const set = await s.api('/api/notifications/global-state', { json: { paused_until: null } });
    expect(set.status).toBe(200);
    expect((await s.api('/api/diagnostics')).body.state_problems).toEqual([]);
    // what it saved reads cleanly, also after a restart
    const text = fs.readFileSync(path.join(s.home, 'notifications.state.json'), 'utf8');
    expect(JSON.parse(text)).not.toHaveProperty('colour');
    const home = s.home;
    await open.pop()?.close({ keepHome: true });
    const again = await startServer({
      home,
      env: { KLEBB_PUSH_ALLOW_PRIVATE_ENDPOINTS: '1' },
      push: { agent: push.agent, retryBaseMs: 10, autoStart: false },
    });
    try {
      const d = (await again.api('/api/diagnostics')).body;
      expect(d.state_problems).toEqual([]);
      expect(d.quiet_hours).toBeNull();
    } finally {
      await again.close();
      fs.rmSync(home, { recursive: true, force: true });
    }
  });

  it.each([
    ['not JSON', '{"quiet_hours": '],
    ['a list', '[1, 2]'],
    ['quiet hours with times that are no times', { quiet_hours: { start: '25:00', end: '7' } }],
    ['quiet hours with an extra key', { quiet_hours: { start: '22:00', end: '07:00', days: [1] } }],
    ['a pause that is a number', { paused_until: 1893456000000 }],
    ['a pause on a day that does not exist', { paused_until: '2030-02-30T08:00:00Z' }],
    ['items that are a list', { items: ['walk#am'] }],
    ['recent fires that are an object', { recent_fires: { at: 'x' } }],
  ])('%s: everything read is a default, with a problem named', async (_what, state) => {
    const s = await serverWith(state);
    const d = await s.api('/api/diagnostics');
    expect(d.status).toBe(200);
    expect(d.body).toMatchObject({ quiet_hours: null, paused_until: null, recent_fires: [] });
    expect(d.body.state_problems.length).toBeGreaterThan(0);
  });

  it('values as the server writes them, or as a person would write them by hand, are kept', async () => {
    const s = await serverWith({
      quiet_hours: { start: '22:00', end: '07:00' },
      paused_until: '2030-01-01T08:00:00+01:00',
      items: { 'walk#am': { enabled: false, privacy: 'public', lastSlot: '2029-12-31T10:00' } },
      recent_fires: [goodFire],
    });
    const d = await s.api('/api/diagnostics');
    expect(d.body).toMatchObject({
      quiet_hours: { start: '22:00', end: '07:00' },
      paused_until: '2030-01-01T07:00:00.000Z',
      recent_fires: [goodFire],
      state_problems: [],
    });
    expect(s.inst.push.state.peek('walk#am')).toEqual({
      enabled: false,
      privacy: 'public',
      lastSlot: '2029-12-31T10:00',
    });
  });

  it('the scheduler keeps firing reminders after such a start', async () => {
    const s = await serverWith({
      quiet_hours: { start: 5, end: null },
      paused_until: 'garbage',
      items: { 'walk#am': { enabled: 'no', lastSlot: 17, trigger: 4 } },
    });
    s.inst.user.setTimeZone('UTC');
    const card = {
      $schema: 'klebb.datafile.v1',
      meta: {
        id: 'walk',
        label: 'Walk',
        notifications: {
          items: [
            {
              id: 'am',
              label: 'am',
              title: 'Walk',
              body: 'Go',
              privacy: 'public',
              trigger: { type: 'daily', time: '10:00' },
            },
          ],
        },
      },
      data: [],
    };
    expect((await s.api('/api/manifests', { json: card })).status).toBe(201);
    const sub = push.subscribe();
    await s.api('/api/push/subscribe', { json: { endpoint: sub.endpoint, keys: sub.keys } });
    const fired: string[] = [];
    for (const at of ['2030-01-01T09:00:00Z', '2030-01-01T09:59:00Z', '2030-01-01T10:00:00Z']) {
      for (const f of await s.inst.push.tick(new Date(at))) fired.push(`${at} ${f.event.cardId}`);
    }
    expect(fired).toEqual(['2030-01-01T10:00:00Z walk']);
    const onDisk = JSON.parse(fs.readFileSync(path.join(s.home, 'notifications.state.json'), 'utf8'));
    expect(onDisk).toMatchObject({ quiet_hours: null, paused_until: null });
  });
});

describe('a hand-damaged push-subscriptions.json', () => {
  it('rows without an https endpoint and keys are dropped, wrong fields back to defaults, pages still answer', async () => {
    const sub = push.subscribe();
    const s = await serverWith(
      {
        subscriptions: [
          { endpoint: 'not a url', keys: sub.keys },
          { endpoint: 'http://push.example.org/x', keys: sub.keys },
          7,
          {
            id: 'whatever',
            endpoint: sub.endpoint,
            keys: sub.keys,
            nickname: 5,
            dead: 'yes',
            createdAt: 'last week',
            lastStatus: 'ok',
            rejections: -1,
          },
          { endpoint: 'https://push.example.org/y' },
        ],
      },
      'push-subscriptions.json',
    );
    const n = await s.api('/api/notifications');
    expect(n.status).toBe(200);
    expect(n.body).toMatchObject({ devices: 1, stopped_devices: [] });
    const d = await s.api('/api/diagnostics');
    expect(d.status).toBe(200);
    expect(d.body.subscriptions).toHaveLength(1);
    expect(d.body.subscriptions[0]).toMatchObject({
      nickname: null,
      dead: false,
      lastStatus: null,
      rejections: 0,
    });
    const problems: string[] = d.body.state_problems;
    expect(problems.filter((p) => p.includes('dropped'))).toHaveLength(4);
    expect(
      problems.some((p) =>
        ['nickname', 'dead', 'createdAt', 'lastStatus', 'rejections'].every((w) => p.includes(w)),
      ),
    ).toBe(true);
    // the kept row is the browser's: a test push reaches it
    const card = {
      $schema: 'klebb.datafile.v1',
      meta: {
        id: 'walk',
        label: 'Walk',
        notifications: {
          items: [
            { id: 'am', label: 'am', title: 'Walk', body: 'Go', trigger: { type: 'daily', time: '10:00' } },
          ],
        },
      },
      data: [],
    };
    expect((await s.api('/api/manifests', { json: card })).status).toBe(201);
    const t = await s.api('/api/notifications/test', { json: { id: 'walk#am' } });
    expect(t.body).toMatchObject({ ok: true, sent: 1 });
  });

  it("its problems go once the server saves the file, and the other file's stay until it saves that one", async () => {
    const sub = push.subscribe();
    const s = await serverWith(
      { subscriptions: [{ endpoint: 'not a url', keys: sub.keys }, 7] },
      'push-subscriptions.json',
    );
    const listed = async (): Promise<string[]> => (await s.api('/api/diagnostics')).body.state_problems;
    expect(await listed()).toHaveLength(2);
    // a save of the reminder settings leaves the subscriptions file as it was: still listed
    expect((await s.api('/api/notifications/global-state', { json: { quiet_hours: null } })).status).toBe(
      200,
    );
    expect(await listed()).toHaveLength(2);
    // a device subscribing saves the subscriptions file, clean
    const r = await s.api('/api/push/subscribe', { json: { endpoint: sub.endpoint, keys: sub.keys } });
    expect(r.status).toBe(201);
    expect(await listed()).toEqual([]);
    const onDisk = JSON.parse(fs.readFileSync(path.join(s.home, 'push-subscriptions.json'), 'utf8'));
    expect(onDisk.subscriptions.map((x: { endpoint: string }) => x.endpoint)).toEqual([sub.endpoint]);
  });
});
