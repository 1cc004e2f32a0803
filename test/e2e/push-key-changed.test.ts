/**
 * A device subscribed under another VAPID key than the server's (the home restored or copied
 * without its key file, so the server made a new key) and whose browser cleared the site's
 * storage (iOS does for a Home Screen app unused for weeks): the app opened again must subscribe
 * anew under the server's key. Before, only the key id kept in localStorage was compared; with
 * it gone, the old subscription was sent to the server again, and every reminder signed with the
 * new key was refused by the push service, unseen. Now the subscription's own key
 * (`options.applicationServerKey`) is compared.
 *
 * Chromium here has no push service to subscribe with (Google's is not reachable), so the page's
 * PushManager is the stand-in: it hands out subscriptions of the push-service stand-in and
 * records what the app asked of it. The server, its key and its subscription store are real.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PushStandIn, type StandInSubscription, startPushStandIn } from '../helpers/push-stand-in.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { launchBrowser, settled, type TestBrowser } from './browser.js';

let browser: TestBrowser;
let push: PushStandIn;
let s: TestServer;

beforeAll(async () => {
  push = await startPushStandIn();
  s = await startServer({
    env: { KLEBB_PUSH_ALLOW_PRIVATE_ENDPOINTS: '1' },
    push: { agent: push.agent, autoStart: false },
  });
  browser = await launchBrowser({ serviceWorkers: 'allow' });
  await browser.context.grantPermissions(['notifications'], { origin: s.url });
});
afterAll(async () => {
  await browser?.close();
  await s?.close();
  await push?.close();
});

/** What the page's PushManager stand-in was asked: `subscribe <key>` and `unsubscribe <endpoint>`. */
type Calls = string[];

/**
 * Opens the app in a fresh page whose PushManager holds `held` (made under `heldKey`, base64url)
 * and gives `next` on subscribe; localStorage is empty. Resolves with the calls once the server
 * holds a subscription of `endpoint`.
 */
async function openWith(
  held: StandInSubscription,
  heldKey: string,
  next: StandInSubscription,
  endpoint: string,
): Promise<Calls> {
  const w = await browser.newPage();
  await w.page.addInitScript(
    ({ held, heldKey, next }) => {
      const bytes = (b64url: string) =>
        Uint8Array.from(atob(b64url.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0)).buffer;
      const calls: string[] = [];
      (window as unknown as { pushCalls: string[] }).pushCalls = calls;
      const asSubscription = (sub: typeof held, key: ArrayBuffer) => ({
        endpoint: sub.endpoint,
        expirationTime: null,
        options: { applicationServerKey: key, userVisibleOnly: true },
        toJSON: () => ({ endpoint: sub.endpoint, expirationTime: null, keys: sub.keys }),
        unsubscribe: async () => {
          calls.push(`unsubscribe ${sub.endpoint}`);
          current = null;
          return true;
        },
        getKey: () => null,
      });
      let current: ReturnType<typeof asSubscription> | null = asSubscription(held, bytes(heldKey));
      PushManager.prototype.getSubscription = async () => current as unknown as PushSubscription;
      PushManager.prototype.subscribe = async (opts?: PushSubscriptionOptionsInit) => {
        const key = opts?.applicationServerKey as Uint8Array;
        calls.push(
          `subscribe ${btoa(String.fromCharCode(...key))
            .replace(/\+/g, '-')
            .replace(/\//g, '_')
            .replace(/=+$/, '')}`,
        );
        current = asSubscription(next, key.buffer.slice(0) as ArrayBuffer);
        return current as unknown as PushSubscription;
      };
    },
    {
      held: { endpoint: held.endpoint, keys: held.keys },
      heldKey,
      next: { endpoint: next.endpoint, keys: next.keys },
    },
  );
  await w.page.goto(`${s.url}/`);
  await settled(w.page);
  await expect
    .poll(() => s.inst.push.subs.all().map((x) => x.endpoint), { timeout: 20_000, interval: 100 })
    .toContain(endpoint);
  return w.page.evaluate(() => (window as unknown as { pushCalls: string[] }).pushCalls);
}

describe('a device subscribed under an old VAPID key, its storage cleared', { timeout: 60_000 }, () => {
  it('subscribes again under the server’s key; the old subscription is not sent', async () => {
    const serverKey = (await s.api('/api/push/vapid-public-key')).body.key as string;
    const oldKey = crypto.createECDH('prime256v1');
    oldKey.generateKeys();
    const old = push.subscribe();
    const fresh = push.subscribe();
    const calls = await openWith(old, oldKey.getPublicKey('base64url'), fresh, fresh.endpoint);
    expect(calls).toEqual([`unsubscribe ${old.endpoint}`, `subscribe ${serverKey}`]);
    expect(s.inst.push.subs.all().map((x) => x.endpoint)).toEqual([fresh.endpoint]);
  });

  it('made under the server’s key, is kept and told to the server again', async () => {
    const serverKey = (await s.api('/api/push/vapid-public-key')).body.key as string;
    const held = push.subscribe();
    const unused = push.subscribe();
    const calls = await openWith(held, serverKey, unused, held.endpoint);
    expect(calls).toEqual([]);
    expect(s.inst.push.subs.all().map((x) => x.endpoint)).not.toContain(unused.endpoint);
  });
});
