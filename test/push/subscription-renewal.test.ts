/**
 * A browser renewing a device's push subscription (POST /api/push/subscribe with `replaces`) on
 * a list already holding the most devices it keeps: the renewed device takes its old place, and
 * no other device is pushed out to make room for a row that goes anyway.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MAX_PUSH_SUBSCRIPTIONS } from '../../src/limits.js';
import { type PushStandIn, startPushStandIn } from '../helpers/push-stand-in.js';
import { startServer, type TestServer } from '../helpers/server.js';

let push: PushStandIn;
let s: TestServer;

beforeAll(async () => {
  push = await startPushStandIn();
  s = await startServer({
    env: { KLEBB_PUSH_ALLOW_PRIVATE_ENDPOINTS: '1' },
    push: { agent: push.agent, autoStart: false },
  });
});
afterAll(async () => {
  await s?.close();
  await push?.close();
});

it('renews a device on a full list without removing the oldest other device', async () => {
  const subs = Array.from({ length: MAX_PUSH_SUBSCRIPTIONS }, () => push.subscribe());
  for (const [i, sub] of subs.entries()) {
    const r = await s.api('/api/push/subscribe', {
      json: { endpoint: sub.endpoint, keys: sub.keys, nickname: `Device ${i}` },
    });
    expect(r.status, r.text).toBe(201);
    await new Promise((done) => setTimeout(done, 2)); // distinct creation times: Device 0 is oldest
  }
  const renewed = push.subscribe();
  const r = await s.api('/api/push/subscribe', {
    json: { endpoint: renewed.endpoint, keys: renewed.keys, replaces: subs[5].endpoint },
  });
  expect(r.status, r.text).toBe(201);
  const rows = s.inst.push.subs.all();
  expect(rows.map((x) => x.nickname).sort()).toEqual(
    Array.from({ length: MAX_PUSH_SUBSCRIPTIONS }, (_, i) => `Device ${i}`).sort(),
  );
  expect(rows.find((x) => x.endpoint === subs[0].endpoint)?.nickname).toBe('Device 0');
  expect(rows.find((x) => x.endpoint === renewed.endpoint)?.nickname).toBe('Device 5');
  expect(rows.some((x) => x.endpoint === subs[5].endpoint)).toBe(false);
  expect((await s.api('/api/notifications')).body.devices).toBe(MAX_PUSH_SUBSCRIPTIONS);
});

it('takes replaces: null as no endpoint replaced (as the other optional fields), and names a bad one', async () => {
  const before = s.inst.push.subs.all().length;
  const sub = push.subscribe();
  const r = await s.api('/api/push/subscribe', {
    json: { endpoint: sub.endpoint, keys: sub.keys, expirationTime: null, nickname: null, replaces: null },
  });
  expect(r.status, r.text).toBe(201);
  const bad = push.subscribe();
  const refused = await s.api('/api/push/subscribe', {
    json: { endpoint: bad.endpoint, keys: bad.keys, replaces: 5 },
  });
  expect(refused.status).toBe(400);
  expect(refused.body.details.map((d: { path: string }) => d.path)).toContain('body.replaces');
  expect(s.inst.push.subs.find(bad.endpoint)).toBeUndefined();
  // the list was full: the oldest device made room for the new one, none other went
  expect(s.inst.push.subs.all().length).toBe(before);
});
