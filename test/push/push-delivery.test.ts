/**
 * Web Push delivery end to end: the real server with a temporary home sends through `web-push`
 * to a local push-service stand-in (test/helpers/push-stand-in.ts) that checks the VAPID JWT and
 * decrypts the payload with the subscription's private key, so the assertions are on what a
 * phone would receive and show.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deliveryAdvice } from '../../src/chat/tools/notification-tools.js';
import { dispatchToolCall } from '../../src/chat/tools/registry.js';
import { type PushStandIn, type StandInSubscription, startPushStandIn } from '../helpers/push-stand-in.js';
import { startServer, type TestServer } from '../helpers/server.js';

let push: PushStandIn;
let s: TestServer;

function card(id: string, items: unknown[], extra: Record<string, unknown> = {}) {
  return {
    $schema: 'klebb.datafile.v1',
    meta: { id, label: `Card ${id}`, emoji: '💊', notifications: { items }, ...extra },
    data: [],
  };
}

function reminder(id: string, over: Record<string, unknown> = {}) {
  return {
    id,
    label: `Reminder ${id}`,
    title: 'Time for your walk',
    body: 'Put your shoes on',
    trigger: { type: 'daily', time: '21:00' },
    ...over,
  };
}

async function subscribe(sub: StandInSubscription, nickname?: string) {
  return s.api('/api/push/subscribe', {
    json: { endpoint: sub.endpoint, keys: sub.keys, expirationTime: null, nickname },
  });
}

beforeAll(async () => {
  push = await startPushStandIn();
  s = await startServer({
    // the stand-in push service listens on 127.0.0.1: allowed for this test only
    env: { HEALTH_OPERATOR_EMAIL: 'ops@example.org', KLEBB_PUSH_ALLOW_PRIVATE_ENDPOINTS: '1' },
    push: { agent: push.agent, retryBaseMs: 20, autoStart: false },
  });
  const r = await s.api('/api/manifests', {
    json: card('walk', [
      reminder('evening'),
      reminder('secret', { privacy: 'private', title: 'Take your pill', body: 'The blue one' }),
      reminder('open', { privacy: 'public', action: { type: 'open-card', intent: 'log' } }),
    ]),
  });
  expect(r.status).toBe(201);
});
afterAll(async () => {
  await s.close();
  await push.close();
});
beforeEach(async () => {
  for (const row of s.inst.push.subs.all()) s.inst.push.subs.removeId(row.id);
  for (const st of Object.values(s.inst.push.state.data.items)) delete st.lastTestAt;
});

describe('VAPID keys', () => {
  it('are made on first start in keys/vapid.json, mode 0600, and served with their key id', async () => {
    const file = path.join(s.home, 'keys', 'vapid.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(fs.readFileSync(file, 'utf8'));
    const r = await s.api('/api/push/vapid-public-key');
    expect(r.status).toBe(200);
    expect(r.body.key).toBe(stored.publicKey);
    expect(Buffer.from(r.body.key, 'base64url')).toHaveLength(65);
    expect(r.body.keyId).toMatch(/^[0-9a-f]{8}$/);
    expect(typeof stored.createdAt).toBe('string');
  });

  it('sign every push with the operator contact and this origin as audience', async () => {
    const sub = push.subscribe();
    expect((await subscribe(sub)).status).toBe(201);
    const r = await s.api('/api/notifications/test', { json: { id: 'walk#evening' } });
    expect(r.status).toBe(200);
    const [m] = push.messagesFor(sub.id);
    expect(m.claims.sub).toBe('mailto:ops@example.org');
    expect(m.claims.aud).toBe(push.origin);
    expect(m.vapidKey).toBe((await s.api('/api/push/vapid-public-key')).body.key);
    expect(push.rejected).toEqual([]);
  });
});

describe('subscriptions', () => {
  it('201 for a new endpoint, 200 replacing the keys of a known one; heartbeat and unsubscribe', async () => {
    const sub = push.subscribe();
    const a = await subscribe(sub, 'phone');
    expect(a.status).toBe(201);
    expect(a.body).toEqual({ id: expect.stringMatching(/^[0-9a-f]{64}$/), created: true });
    const other = push.subscribe();
    const b = await s.api('/api/push/subscribe', { json: { endpoint: sub.endpoint, keys: other.keys } });
    expect(b.status).toBe(200);
    expect(b.body).toEqual({ id: a.body.id, created: false });
    expect(s.inst.push.subs.all()).toHaveLength(1);
    expect(s.inst.push.subs.all()[0].keys).toEqual(other.keys);
    expect(s.inst.push.subs.all()[0].nickname).toBe('phone');
    const hb = await s.api('/api/push/subscribe/heartbeat', { json: { endpoint: sub.endpoint } });
    expect(hb.status).toBe(200);
    const un = await s.api('/api/push/unsubscribe', { json: { endpoint: sub.endpoint } });
    expect(un.status).toBe(204);
    const hb2 = await s.api('/api/push/subscribe/heartbeat', { json: { endpoint: sub.endpoint } });
    expect(hb2.status).toBe(404);
    expect(hb2.body.code).toBe('SUBSCRIPTION_NOT_FOUND');
    const file = path.join(s.home, 'push-subscriptions.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it('never sends to a stored endpoint where no push service lives, and forgets it', async () => {
    // a row kept from before the endpoint check (the subscribe route refuses it now)
    const bad = s.inst.push.subs.upsert(
      { endpoint: 'https://0.0.0.0:1/x', keys: push.subscribe().keys },
      new Date(),
    );
    const good = push.subscribe();
    expect((await subscribe(good)).status).toBe(201);
    const r = await s.api('/api/notifications/test', { json: { id: 'walk#evening' } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ sent: 1 });
    expect(push.messagesFor(good.id)).toHaveLength(1);
    expect(s.inst.push.subs.all().map((row) => row.id)).not.toContain(bad.id);
  });

  it('refuses bad subscriptions with 400 naming the field, storing nothing', async () => {
    const sub = push.subscribe();
    const cases: [unknown, string][] = [
      [{ endpoint: 'http://push.example/x', keys: sub.keys }, 'body.endpoint'],
      // the server would POST every reminder there: the cloud metadata service, link-local,
      // "this host", multicast, credentials in the URL
      [{ endpoint: 'https://169.254.169.254/latest/meta-data/', keys: sub.keys }, 'body.endpoint'],
      [{ endpoint: 'https://[::ffff:169.254.169.254]/x', keys: sub.keys }, 'body.endpoint'],
      [{ endpoint: 'https://[fe80::1]:8443/x', keys: sub.keys }, 'body.endpoint'],
      [{ endpoint: 'https://0.0.0.0:9200/_search', keys: sub.keys }, 'body.endpoint'],
      [{ endpoint: 'https://224.0.0.1/x', keys: sub.keys }, 'body.endpoint'],
      [{ endpoint: 'https://metadata.google.internal/computeMetadata/v1/', keys: sub.keys }, 'body.endpoint'],
      [{ endpoint: 'https://user:secret@push.example/x', keys: sub.keys }, 'body.endpoint'],
      [{ endpoint: sub.endpoint, keys: { ...sub.keys, p256dh: 'AAAA' } }, 'body.keys.p256dh'],
      [{ endpoint: sub.endpoint, keys: { ...sub.keys, auth: 'short' } }, 'body.keys.auth'],
    ];
    for (const [json, field] of cases) {
      const r = await s.api('/api/push/subscribe', { json });
      expect(r.status, field).toBe(400);
      expect(r.body.code).toBe('INVALID_SUBSCRIPTION');
      expect(r.body.details[0].path).toBe(field);
    }
    const missing = await s.api('/api/push/subscribe', { json: { endpoint: sub.endpoint } });
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('BAD_REQUEST');
    expect(s.inst.push.subs.all()).toHaveLength(0);
  });

  it('keeps at most 20 live subscriptions, dropping the oldest', async () => {
    const subs = Array.from({ length: 21 }, () => push.subscribe());
    for (const sub of subs) expect((await subscribe(sub)).status).toBe(201);
    const ends = s.inst.push.subs.all().map((r) => r.endpoint);
    expect(ends).toHaveLength(20);
    expect(ends).not.toContain(subs[0].endpoint);
    expect(ends).toContain(subs[20].endpoint);
  });
});

describe('what the phone receives', () => {
  it('a public reminder shows its words and opens its card; TTL 300, urgency high, an opaque topic', async () => {
    const sub = push.subscribe();
    await subscribe(sub);
    const r = await s.api('/api/notifications/test', { json: { id: 'walk#open' } });
    expect(r.body).toMatchObject({ ok: true, sent: 1, failed: 0, devices: 1 });
    const [m] = push.messagesFor(sub.id);
    expect(m.ttl).toBe('300');
    expect(m.urgency).toBe('high');
    expect(m.topic).toMatch(/^klebb-[A-Za-z0-9_-]{24}$/);
    expect(m.contentEncoding).toBe('aes128gcm');
    expect(m.payload).toMatchObject({ type: 'single', test: true });
    expect(m.payload.items[0]).toMatchObject({
      id: 'walk#open',
      privacy: 'public',
      title: 'Time for your walk',
      body: 'Put your shoes on',
      cardId: 'walk',
      cardLabel: 'Card walk',
      url: '/?card=walk&action=log',
    });
  });

  it('a private reminder shows only generic text on the lock screen', async () => {
    const sub = push.subscribe();
    await subscribe(sub);
    await s.api('/api/notifications/test', { json: { id: 'walk#secret' } });
    const [m] = push.messagesFor(sub.id);
    const item = m.payload.items[0];
    expect(item.title).toBe('Klebb');
    expect(item.body).toBe('You have a reminder.');
    expect(item.url).toBe('/?card=walk');
    // nothing of the real words where the lock screen looks
    expect(`${item.title} ${item.body}`).not.toMatch(/pill|blue/);
  });

  it('a second test of the same reminder within a minute is 429 with Retry-After', async () => {
    const sub = push.subscribe();
    await subscribe(sub);
    expect((await s.api('/api/notifications/test', { json: { id: 'walk#evening' } })).status).toBe(200);
    const again = await s.api('/api/notifications/test', { json: { id: 'walk#evening' } });
    expect(again.status).toBe(429);
    expect(again.body.code).toBe('TEST_TOO_SOON');
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await s.api('/api/notifications/test', { json: { id: 'walk#nope' } })).status).toBe(404);
  });

  it('tests of two reminders of one card both wait for an offline phone; a repeated test replaces its own', async () => {
    const sub = push.subscribe();
    await subscribe(sub);
    push.offline(sub.id);
    const t0 = Date.now();
    await s.inst.push.testFire('walk#evening', new Date(t0));
    await s.inst.push.testFire('walk#open', new Date(t0));
    await s.inst.push.testFire('walk#evening', new Date(t0 + 61_000));
    const kept = push.online(sub.id);
    expect(kept.map((m) => m.payload.items[0].id)).toEqual(['walk#open', 'walk#evening']);
    expect(push.messagesFor(sub.id)).toHaveLength(3);
  });
});

describe('push service answers', () => {
  it('410 and 404 remove the subscription', async () => {
    const gone = push.subscribe();
    const missing = push.subscribe();
    const fine = push.subscribe();
    for (const x of [gone, missing, fine]) await subscribe(x);
    push.script(gone.id, [{ status: 410 }]);
    push.script(missing.id, [{ status: 404 }]);
    const r = await s.api('/api/notifications/test', { json: { id: 'walk#evening' } });
    expect(r.body).toMatchObject({ sent: 1, failed: 2, status: 'partial' });
    expect(s.inst.push.subs.all().map((x) => x.endpoint)).toEqual([fine.endpoint]);
  });

  it('429 and 5xx are retried with backoff until delivered', async () => {
    const sub = push.subscribe();
    await subscribe(sub);
    push.script(sub.id, [{ status: 429, retryAfter: '0' }, { status: 503 }, { status: 502 }]);
    const r = await s.api('/api/notifications/test', { json: { id: 'walk#evening' } });
    expect(r.body).toMatchObject({ sent: 1 });
    expect(push.messagesFor(sub.id).map((m) => m.status)).toEqual([429, 503, 502, 201]);
    expect(s.inst.push.subs.all()[0].lastStatus).toBe(201);
  });

  it('a service asking for a wait longer than the longest retry wait is not asked again early', async () => {
    // retrying before the service's Retry-After only prolongs its throttling of this server
    const inSeconds = push.subscribe();
    const byDate = push.subscribe();
    await subscribe(inSeconds);
    await subscribe(byDate);
    push.script(inSeconds.id, [{ status: 429, retryAfter: '3600' }, { status: 201 }]);
    const later = new Date(Date.now() + 3_600_000).toUTCString();
    push.script(byDate.id, [{ status: 503, retryAfter: later }, { status: 201 }]);
    const r = await s.api('/api/notifications/test', { json: { id: 'walk#evening' } });
    expect(r.body).toMatchObject({ sent: 0, failed: 2, status: 'failed' });
    expect(push.messagesFor(inSeconds.id).map((m) => m.status)).toEqual([429]);
    expect(push.messagesFor(byDate.id).map((m) => m.status)).toEqual([503]);
    expect(s.inst.push.subs.live()).toHaveLength(2);
  });

  it('a service that keeps failing gives up after four tries and keeps the subscription', async () => {
    const sub = push.subscribe();
    await subscribe(sub);
    push.script(sub.id, [
      { status: 500 },
      { status: 500 },
      { status: 500 },
      { status: 500 },
      { status: 500 },
    ]);
    const r = await s.api('/api/notifications/test', { json: { id: 'walk#evening' } });
    expect(r.body).toMatchObject({ ok: false, sent: 0, failed: 1, status: 'failed' });
    expect(push.messagesFor(sub.id)).toHaveLength(4);
    expect(s.inst.push.subs.live()).toHaveLength(1);
  });

  it('403 marks the subscription dead; a heartbeat revives it', async () => {
    const sub = push.subscribe();
    await subscribe(sub);
    push.script(sub.id, [{ status: 403 }]);
    await s.api('/api/notifications/test', { json: { id: 'walk#evening' } });
    expect(s.inst.push.subs.live()).toHaveLength(0);
    expect(s.inst.push.subs.all()[0]).toMatchObject({ dead: true, lastStatus: 403 });
    await s.api('/api/push/subscribe/heartbeat', { json: { endpoint: sub.endpoint } });
    expect(s.inst.push.subs.live()).toHaveLength(1);
  });
});

describe('a push service that will not take reminders at an address', () => {
  async function testPush() {
    for (const st of Object.values(s.inst.push.state.data.items)) delete st.lastTestAt;
    return s.api('/api/notifications/test', { json: { id: 'walk#evening' } });
  }

  it('a redirect is not followed nor retried within a push, and three in a row stop the device, shown in Settings', async () => {
    const sub = push.subscribe();
    await subscribe(sub, 'Old phone');
    const moved = { status: 301, location: `${push.origin}/push/elsewhere` };
    push.script(sub.id, [moved, moved, moved, moved]);
    for (let i = 0; i < 2; i++) {
      const r = await testPush();
      expect(r.body).toMatchObject({ ok: false, sent: 0, failed: 1, status: 'failed' });
      expect(s.inst.push.subs.live()).toHaveLength(1);
    }
    await testPush();
    expect(push.messagesFor(sub.id).map((m) => m.status)).toEqual([301, 301, 301]);
    expect(s.inst.push.subs.live()).toHaveLength(0);
    // no more pushes go to it
    expect((await testPush()).body).toMatchObject({ devices: 0, status: 'no-devices' });
    expect(push.messagesFor(sub.id)).toHaveLength(3);
    const list = await s.api('/api/notifications');
    expect(list.body.devices).toBe(0);
    expect(list.body.stopped_devices).toHaveLength(1);
    expect(list.body.stopped_devices[0]).toMatchObject({ nickname: 'Old phone', last_status: 301 });
    expect(list.body.stopped_devices[0].reason).toMatch(/redirect \(HTTP 301\) 3 times in a row/);
    // turning reminders on again on that device brings it back
    expect((await subscribe(sub, 'Old phone')).status).toBe(200);
    expect((await s.api('/api/notifications')).body.stopped_devices).toEqual([]);
  });

  it('a delivered push in between starts the count again; a 400 counts like a redirect', async () => {
    const sub = push.subscribe();
    await subscribe(sub);
    push.script(sub.id, [
      { status: 400 },
      { status: 302 },
      { status: 201 },
      { status: 400 },
      { status: 307 },
    ]);
    for (let i = 0; i < 5; i++) await testPush();
    expect(s.inst.push.subs.live()).toHaveLength(1);
    expect(s.inst.push.subs.all()[0]).toMatchObject({ rejections: 2, lastStatus: 307 });
    push.script(sub.id, [{ status: 400 }]);
    await testPush();
    expect(s.inst.push.subs.live()).toHaveLength(0);
  });
});

describe('payload size', () => {
  it('ten long reminders due together still fit 4096 encrypted bytes', async () => {
    const long = 'ü'.repeat(30);
    const items = Array.from({ length: 10 }, (_, i) =>
      reminder(`r${i}`, {
        title: long,
        body: '🌙'.repeat(80),
        label: 'x'.repeat(80),
        trigger: { type: 'daily', time: '07:00' },
        privacy: 'public',
      }),
    );
    expect(
      (await s.api('/api/manifests', { json: card('big', items, { label: '長'.repeat(60) }) })).status,
    ).toBe(201);
    const sub = push.subscribe();
    await subscribe(sub);
    const events = await s.inst.push.tick(new Date('2030-01-01T06:59:00Z'));
    expect(events).toEqual([]);
    s.inst.user.setTimeZone('UTC');
    const fired = await s.inst.push.tick(new Date('2030-01-02T07:00:05Z'));
    expect(fired.map((f) => f.event.cardId)).toEqual(['big']);
    const [m] = push.messagesFor(sub.id);
    expect(m.bodyBytes).toBeLessThanOrEqual(4096);
    expect(m.payload.type).toBe('coalesced');
    const shown = m.payload.items.length + (m.payload.more ?? 0);
    expect(shown).toBe(10);
    expect(push.rejected).toEqual([]);
  });
});

describe('notification state routes', () => {
  it('lists every reminder with its state, and switches one off and to public', async () => {
    const list = await s.api('/api/notifications');
    expect(list.status).toBe(200);
    const one = list.body.notifications.find((n: any) => n.id === 'walk#evening');
    expect(one).toMatchObject({
      card_id: 'walk',
      item_id: 'evening',
      label: 'Reminder evening',
      card_label: 'Card walk',
      card_emoji: '💊',
      privacy: 'private',
      enabled: true,
      trigger: { type: 'daily', time: '21:00' },
    });
    expect(list.body).toMatchObject({ quiet_hours: null, paused_until: null });
    const r = await s.api('/api/notifications/state', {
      json: { id: 'walk#evening', enabled: false, privacy: 'public' },
    });
    expect(r.status).toBe(200);
    expect(r.body.notification).toMatchObject({ enabled: false, privacy: 'public' });
    const back = await s.api('/api/notifications/state', {
      json: { id: 'walk#evening', enabled: true, privacy: 'private' },
    });
    expect(back.body.notification).toMatchObject({ enabled: true, privacy: 'private' });
    expect(
      (await s.api('/api/notifications/state', { json: { id: 'walk#none', enabled: true } })).status,
    ).toBe(404);
    expect(
      (await s.api('/api/notifications/state', { json: { id: 'walk#evening', privacy: 'secret' } })).status,
    ).toBe(400);
    expect(fs.statSync(path.join(s.home, 'notifications.state.json')).mode & 0o777).toBe(0o600);
  });

  it('sets quiet hours and a pause; refuses bad ones naming the field', async () => {
    const r = await s.api('/api/notifications/global-state', {
      json: { quiet_hours: { start: '22:00', end: '07:00' }, paused_until: '2030-01-01T08:00:00+01:00' },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      quiet_hours: { start: '22:00', end: '07:00' },
      paused_until: '2030-01-01T07:00:00.000Z',
    });
    const bad = await s.api('/api/notifications/global-state', {
      json: { quiet_hours: { start: '25:00', end: '07:00' } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].path).toContain('quiet_hours');
    const badPause = await s.api('/api/notifications/global-state', { json: { paused_until: 'soon' } });
    expect(badPause.status).toBe(400);
    expect(badPause.body.details[0].path).toBe('body.paused_until');
    const cleared = await s.api('/api/notifications/global-state', {
      json: { quiet_hours: null, paused_until: null },
    });
    expect(cleared.body).toMatchObject({ quiet_hours: null, paused_until: null });
  });

  it('diagnostics: time zone, key id, subscriptions without their secret URL, recent fires', async () => {
    const sub = push.subscribe();
    await subscribe(sub, 'desk');
    await s.api('/api/notifications/test', { json: { id: 'walk#evening' } });
    const d = await s.api('/api/diagnostics');
    expect(d.status).toBe(200);
    expect(d.body.vapid_key_id).toBe((await s.api('/api/push/vapid-public-key')).body.keyId);
    expect(typeof d.body.tz).toBe('string');
    expect(d.body.subscriptions).toEqual([
      expect.objectContaining({ nickname: 'desk', host: new URL(push.origin).host, dead: false }),
    ]);
    expect(JSON.stringify(d.body)).not.toContain(sub.endpoint);
    expect(d.body.recent_fires[0]).toMatchObject({
      kind: 'test',
      card_id: 'walk',
      items: ['walk#evening'],
      status: 'sent',
      sent: 1,
    });
  });
});

describe('deleting a card', () => {
  it('forgets its reminders state', async () => {
    const r = await s.api('/api/manifests', { json: card('gone', [reminder('x')]) });
    expect(r.status).toBe(201);
    await s.api('/api/notifications/state', { json: { id: 'gone#x', privacy: 'public' } });
    expect(s.inst.push.state.peek('gone#x')).toBeDefined();
    expect((await s.api('/api/manifests/gone', { method: 'DELETE' })).status).toBe(200);
    expect(s.inst.push.state.peek('gone#x')).toBeUndefined();
    const onDisk = JSON.parse(fs.readFileSync(path.join(s.home, 'notifications.state.json'), 'utf8'));
    expect(onDisk.items['gone#x']).toBeUndefined();
    expect(
      (await s.api('/api/notifications')).body.notifications.some((n: { id: string }) => n.id === 'gone#x'),
    ).toBe(false);
  });
});

describe('the chat tool tells the truth', () => {
  const ctx = () => ({
    cards: s.inst.cards,
    config: s.inst.config,
    layout: s.inst.layout,
    actor: 'chat:test',
    touch: () => {},
    reminderDelivery: (id: string) => s.inst.push.deliveryStatus(s.inst.push.find(id)),
  });
  const args = {
    card_id: 'walk',
    label: 'Stretch',
    title: 'Time to stretch',
    body: 'Two minutes',
    trigger: { type: 'daily', time: '10:00' },
  };

  it('without a device the result says it will not arrive, and what to tell the user', async () => {
    const r = JSON.parse((await dispatchToolCall('set_notification', args, ctx())).content);
    expect(r.ok).toBe(true);
    expect(r.delivery).toEqual({ devices: 0, will_arrive: false, reason: 'no-devices' });
    expect(r.tell_user).toBe(deliveryAdvice('no-devices'));
    expect(r.tell_user).toContain('Settings › Notifications');
  });

  it('with a device it will arrive; while paused it will not', async () => {
    await subscribe(push.subscribe());
    const r = JSON.parse((await dispatchToolCall('set_notification', args, ctx())).content);
    expect(r.delivery).toEqual({ devices: 1, will_arrive: true, reason: null });
    expect(r.tell_user).toBeUndefined();
    await s.api('/api/notifications/global-state', { json: { paused_until: '2999-01-01T00:00:00Z' } });
    const p = JSON.parse((await dispatchToolCall('set_notification', args, ctx())).content);
    expect(p.delivery.reason).toBe('paused');
    await s.api('/api/notifications/global-state', { json: { paused_until: null } });
  });
});
