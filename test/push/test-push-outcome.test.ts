/**
 * "Send a test notification": the minute between two tests of a reminder starts only once a
 * device got one, so a person who had no device yet (or whose device failed) and fixes that can
 * try again at once; and the answer says, per device, what became of the message and why it did
 * not arrive, and in one sentence why none got it.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type PushStandIn, type StandInSubscription, startPushStandIn } from '../helpers/push-stand-in.js';
import { startServer, type TestServer } from '../helpers/server.js';

let push: PushStandIn;
let s: TestServer;

const testPush = () => s.api('/api/notifications/test', { json: { id: 'walk#evening' } });

async function subscribe(sub: StandInSubscription, nickname: string) {
  const r = await s.api('/api/push/subscribe', {
    json: { endpoint: sub.endpoint, keys: sub.keys, nickname },
  });
  expect([200, 201]).toContain(r.status);
}

beforeAll(async () => {
  push = await startPushStandIn();
  s = await startServer({
    env: { HEALTH_OPERATOR_EMAIL: 'ops@example.org', KLEBB_PUSH_ALLOW_PRIVATE_ENDPOINTS: '1' },
    push: { agent: push.agent, retryBaseMs: 20, autoStart: false },
  });
  const r = await s.api('/api/manifests', {
    json: {
      $schema: 'klebb.datafile.v1',
      meta: {
        id: 'walk',
        label: 'Walk',
        notifications: {
          items: [
            {
              id: 'evening',
              label: 'Evening walk',
              title: 'Time for your walk',
              body: 'Shoes on',
              trigger: { type: 'daily', time: '21:00' },
            },
          ],
        },
      },
      data: [],
    },
  });
  expect(r.status, r.text).toBe(201);
});
afterAll(async () => {
  await s.close();
  await push.close();
});
beforeEach(() => {
  for (const row of s.inst.push.subs.all()) s.inst.push.subs.removeId(row.id);
  for (const st of Object.values(s.inst.push.state.data.items)) delete st.lastTestAt;
});

describe('the test push cooldown', () => {
  it('does not start while there is no device: the device added next gets a test at once', async () => {
    const none = await testPush();
    expect(none.status, none.text).toBe(200);
    expect(none.body).toMatchObject({ ok: false, status: 'no-devices', sent: 0, devices: 0, results: [] });
    expect(none.body.reason).toMatch(/^No device receives reminders yet/);

    const sub = push.subscribe();
    await subscribe(sub, 'Kitchen iPad');
    const first = await testPush();
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({ ok: true, sent: 1, devices: 1 });
    expect(first.body.reason).toBeUndefined();
    // once one arrived, the minute holds
    const again = await testPush();
    expect(again.status).toBe(429);
    expect(again.body.code).toBe('TEST_TOO_SOON');
  });

  it('does not start when every device failed, and the answer says why for each', async () => {
    const phone = push.subscribe();
    await subscribe(phone, 'Anna’s phone');
    push.script(phone.id, [
      { status: 400, body: '{"reason":"BadDeviceToken"}', contentType: 'application/json' },
    ]);
    const failed = await testPush();
    expect(failed.status, failed.text).toBe(200);
    expect(failed.body).toMatchObject({ ok: false, status: 'failed', sent: 0, failed: 1, devices: 1 });
    expect(failed.body.results).toEqual([
      expect.objectContaining({ nickname: 'Anna’s phone', result: 'rejected', status: 400 }),
    ]);
    expect(failed.body.results[0].reason).toMatch(/turned the message down \(HTTP 400: BadDeviceToken\)/);
    expect(failed.body.reason).toMatch(/^No device got it\. Anna’s phone: .*BadDeviceToken/);

    // the service takes it now: the retry goes out at once
    const retry = await testPush();
    expect(retry.status, retry.text).toBe(200);
    expect(retry.body).toMatchObject({ ok: true, sent: 1 });
  });

  it('starts when some devices got it; the one that did not says why', async () => {
    const good = push.subscribe();
    const bad = push.subscribe();
    await subscribe(good, 'Laptop');
    await subscribe(bad, 'Old phone');
    push.script(bad.id, [{ status: 403, body: '{"reason":"BadJwtToken"}', contentType: 'application/json' }]);
    const r = await testPush();
    expect(r.body).toMatchObject({ ok: true, status: 'partial', sent: 1, failed: 1, devices: 2 });
    const byName = Object.fromEntries(
      r.body.results.map((x: { nickname: string; reason: string | null }) => [x.nickname, x.reason]),
    );
    expect(byName.Laptop).toBeNull();
    expect(byName['Old phone']).toMatch(/refused this server's signature \(HTTP 403: BadJwtToken\)/);
    expect((await testPush()).status).toBe(429);
  });
});
