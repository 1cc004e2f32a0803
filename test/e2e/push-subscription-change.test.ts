/**
 * The service worker's `pushsubscriptionchange` in Debian's Chromium against the real server:
 * when the browser renews this device's subscription (Firefox hands the new one over as
 * `newSubscription`, with the old as `oldSubscription`), the worker sends the new one together
 * with the endpoint it replaces. The server then lists one device, not two: the renewed endpoint
 * under the device's name, the old one gone, rather than a nameless second device beside an old
 * one that stays until a reminder to it fails. Another device is left alone. The event is
 * dispatched in the worker as the browser would; Chromium itself never fires it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PushStandIn, startPushStandIn } from '../helpers/push-stand-in.js';
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
});
afterAll(async () => {
  await browser?.close();
  await s?.close();
  await push?.close();
});

describe('a renewed push subscription', { timeout: 60_000 }, () => {
  it('replaces the old endpoint and keeps the device name', async () => {
    const old = push.subscribe();
    const other = push.subscribe();
    const renewed = push.subscribe();
    const r1 = await s.api('/api/push/subscribe', {
      json: { endpoint: old.endpoint, keys: old.keys, nickname: 'Kitchen iPad' },
    });
    expect(r1.status).toBe(201);
    await s.api('/api/push/subscribe', {
      json: { endpoint: other.endpoint, keys: other.keys, nickname: 'Phone' },
    });

    const w = await browser.newPage();
    await w.page.goto(`${s.url}/settings`);
    await settled(w.page);
    await w.page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    const [worker] = browser.context.serviceWorkers();
    await worker.evaluate(
      ({ oldEndpoint, next }) => {
        type ExtendableEventClass = new (type: string) => Event;
        const ExtendableEvent = (self as unknown as { ExtendableEvent: ExtendableEventClass })
          .ExtendableEvent;
        const e = new ExtendableEvent('pushsubscriptionchange');
        Object.defineProperty(e, 'oldSubscription', { value: { endpoint: oldEndpoint } });
        Object.defineProperty(e, 'newSubscription', {
          value: { endpoint: next.endpoint, toJSON: () => next },
        });
        self.dispatchEvent(e);
      },
      {
        oldEndpoint: old.endpoint,
        next: { endpoint: renewed.endpoint, expirationTime: null, keys: renewed.keys },
      },
    );
    const devices = () =>
      s.inst.push.subs
        .all()
        .map((r) => ({ endpoint: r.endpoint, nickname: r.nickname }))
        .sort((a, b) => a.endpoint.localeCompare(b.endpoint));
    await expect.poll(devices, { timeout: 10_000 }).toEqual(
      [
        { endpoint: renewed.endpoint, nickname: 'Kitchen iPad' },
        { endpoint: other.endpoint, nickname: 'Phone' },
      ].sort((a, b) => a.endpoint.localeCompare(b.endpoint)),
    );
    expect((await s.api('/api/notifications')).body.devices).toBe(2);
    expect(w.problems).toEqual([]);
  });
});
