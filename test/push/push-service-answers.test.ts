/**
 * What a push service says when it turns a push down is kept and shown: Apple's
 * `{"reason":"BadJwtToken"}` with the 403 that stops a device, Mozilla's message, Google's line of
 * text (a web page is not shown). And a 413 (the message is too large for that service) is about
 * the message, not the device: the push is sent again smaller at once, and a device whose service
 * keeps answering 413 is never stopped.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type PushStandIn, type StandInSubscription, startPushStandIn } from '../helpers/push-stand-in.js';
import { startServer, type TestServer } from '../helpers/server.js';

let push: PushStandIn;
let s: TestServer;

const reminder = (id: string, title: string) => ({
  id,
  label: `Reminder ${id}`,
  title,
  body: 'Put your shoes on and go for a walk around the block before it gets dark',
  trigger: { type: 'daily', time: '21:00' },
  privacy: 'public',
});

async function subscribe(sub: StandInSubscription, nickname = 'iPhone') {
  const r = await s.api('/api/push/subscribe', {
    json: { endpoint: sub.endpoint, keys: sub.keys, nickname },
  });
  expect([200, 201]).toContain(r.status);
}

async function testPush() {
  for (const st of Object.values(s.inst.push.state.data.items)) delete st.lastTestAt;
  return s.api('/api/notifications/test', { json: { id: 'walk#evening' } });
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
        notifications: { items: [reminder('evening', 'Time for your walk')] },
      },
      data: [],
    },
  });
  expect(r.status).toBe(201);
});
afterAll(async () => {
  await s.close();
  await push.close();
});
beforeEach(() => {
  for (const row of s.inst.push.subs.all()) s.inst.push.subs.removeId(row.id);
});

describe("the service's reason", () => {
  it.each([
    [
      'Apple',
      { status: 403, body: '{"reason":"BadJwtToken"}', contentType: 'application/json' },
      'BadJwtToken',
    ],
    [
      'Mozilla',
      {
        status: 401,
        body: '{"code":401,"errno":109,"error":"Unauthorized","message":"Request did not validate Invalid bearer token"}',
        contentType: 'application/json',
      },
      'Request did not validate Invalid bearer token',
    ],
    [
      'Google',
      { status: 403, body: 'the key in the authorization header does not correspond to the sender ID\n' },
      'the key in the authorization header does not correspond to the sender ID',
    ],
  ])('%s: kept with the stopped device and in the diagnostics', async (_who, answer, said) => {
    const sub = push.subscribe();
    await subscribe(sub);
    push.script(sub.id, [answer]);
    const r = await testPush();
    expect(r.body).toMatchObject({ sent: 0, failed: 1 });
    const stopped = (await s.api('/api/notifications')).body.stopped_devices;
    expect(stopped).toHaveLength(1);
    expect(stopped[0].reason).toBe(
      `its push service refused this server's signature (HTTP ${answer.status}: ${said})`,
    );
    const d = (await s.api('/api/diagnostics')).body.subscriptions;
    expect(d[0]).toMatchObject({ dead: true, lastStatus: answer.status, lastReason: said });
  });

  it('a web page as the answer is not shown; a delivered push clears the reason', async () => {
    const sub = push.subscribe();
    await subscribe(sub);
    push.script(sub.id, [
      {
        status: 400,
        body: '<html><body><h1>400 Bad Request</h1><script>x()</script></body></html>',
        contentType: 'text/html',
      },
      { status: 400, body: '{"reason":"BadDeviceToken"}' },
    ]);
    await testPush();
    expect((await s.api('/api/diagnostics')).body.subscriptions[0]).toMatchObject({
      lastStatus: 400,
      lastReason: null,
    });
    await testPush();
    expect((await s.api('/api/diagnostics')).body.subscriptions[0]).toMatchObject({
      lastReason: 'BadDeviceToken',
    });
    await testPush();
    expect((await s.api('/api/diagnostics')).body.subscriptions[0]).toMatchObject({
      lastStatus: 201,
      lastReason: null,
    });
  });
});

describe('413: the message is too large for that service', () => {
  it('is sent again at once, smaller, and arrives', async () => {
    const sub = push.subscribe();
    await subscribe(sub);
    push.script(sub.id, [{ status: 413, body: '{"reason":"PayloadTooLarge"}' }]);
    const r = await testPush();
    expect(r.body).toMatchObject({ sent: 1, failed: 0, status: 'sent' });
    const [first, second] = push.messagesFor(sub.id);
    expect([first.status, second.status]).toEqual([413, 201]);
    // the smaller copy is the same message: it would replace a pending first copy, not sit beside it
    expect(second.topic).toBe(first.topic);
    expect(second.bodyBytes).toBeLessThanOrEqual(2048);
    expect(second.payload.items[0].title).toBe('Time for your walk');
    expect(s.inst.push.subs.all()[0]).toMatchObject({ rejections: 0, dead: false });
  });

  it('a service that keeps answering 413 never stops the device', async () => {
    const sub = push.subscribe();
    await subscribe(sub);
    push.script(
      sub.id,
      Array.from({ length: 10 }, () => ({ status: 413 })),
    );
    for (let i = 0; i < 4; i++) {
      const r = await testPush();
      expect(r.body).toMatchObject({ sent: 0, failed: 1 });
    }
    expect(s.inst.push.subs.live()).toHaveLength(1);
    expect((await s.api('/api/notifications')).body.stopped_devices).toEqual([]);
    // once the service takes it again, reminders arrive
    push.script(sub.id, []);
    expect((await testPush()).body).toMatchObject({ sent: 1 });
  });
});
