/**
 * A push service's Retry-After is read as what it says: seconds with a fraction ("1.5") are a
 * wait of 1.5 s, and a value that is neither seconds nor an HTTP-date ("-1", "+3", "1.5.2",
 * "1e3", "NaN") leaves the sender to its own backoff. `Date.parse` read such values as a year
 * (1.5 is 5 January 2001), so the wait came out as 0 and a busy service was asked again at once.
 * The real server sends through `web-push` to the local push-service stand-in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PushStandIn, startPushStandIn } from '../helpers/push-stand-in.js';
import { startServer, type TestServer } from '../helpers/server.js';

/** The sender's own first backoff in this test, ms: far from 0 and from 1.5 s. */
const BACKOFF_MS = 400;

let push: PushStandIn;
let s: TestServer;

beforeAll(async () => {
  push = await startPushStandIn();
  s = await startServer({
    env: { HEALTH_OPERATOR_EMAIL: 'ops@example.org', KLEBB_PUSH_ALLOW_PRIVATE_ENDPOINTS: '1' },
    push: { agent: push.agent, retryBaseMs: BACKOFF_MS, autoStart: false },
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
              label: 'Evening',
              title: 'Walk',
              body: 'Shoes on',
              trigger: { type: 'daily', time: '21:00' },
            },
          ],
        },
      },
      data: [],
    },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
});
afterAll(async () => {
  await s.close();
  await push.close();
});

/** Sends a test push to one new device answering `status` with `retryAfter` once; the gap to the retry, ms. */
async function gapAfter(status: number, retryAfter: string): Promise<number> {
  for (const row of s.inst.push.subs.all()) s.inst.push.subs.removeId(row.id);
  for (const st of Object.values(s.inst.push.state.data.items)) delete st.lastTestAt;
  const sub = push.subscribe();
  expect(
    (await s.api('/api/push/subscribe', { json: { endpoint: sub.endpoint, keys: sub.keys } })).status,
  ).toBe(201);
  push.script(sub.id, [{ status, retryAfter }]);
  const r = await s.api('/api/notifications/test', { json: { id: 'walk#evening' } });
  expect(r.body, retryAfter).toMatchObject({ sent: 1 });
  const tries = push.messagesFor(sub.id);
  expect(tries.map((m) => m.status)).toEqual([status, 201]);
  return tries[1].at - tries[0].at;
}

describe('Retry-After from a push service', { timeout: 60_000 }, () => {
  it('seconds with a fraction are waited out: 1.5 is 1.5 s, not 0', async () => {
    const gap = await gapAfter(429, '1.5');
    expect(gap).toBeGreaterThanOrEqual(1450);
    expect(gap).toBeLessThan(1450 + BACKOFF_MS);
  });

  it('a value that is neither seconds nor a date leaves the sender to its own backoff', async () => {
    for (const junk of ['-1', '+3', '1.5.2', '2.5e0', 'NaN', 'Infinity']) {
      const gap = await gapAfter(503, junk);
      expect(gap, junk).toBeGreaterThanOrEqual(BACKOFF_MS - 20);
      expect(gap, junk).toBeLessThan(1200);
    }
  });
});
