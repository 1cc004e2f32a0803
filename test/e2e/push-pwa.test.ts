/**
 * The installable app and its service worker in Debian's Chromium:
 * - the service worker registers and controls the page; Chromium's installability check
 *   (`Page.getInstallabilityErrors`) finds nothing missing in the manifest and icons;
 * - a push delivered through DevTools (`ServiceWorker.deliverPushMessage`) with the very bytes
 *   the server sent (decrypted by the push-service stand-in) shows the notification, with only
 *   the generic text for a private reminder; a click on it opens the card in the open tab;
 * - a deep link `/?card=<id>&action=log` brings the card into view with its entry form open, and
 *   so does `/day/<today>?card=…` (a dose reminder's link names its day), shown under `/`;
 * - a report page (sent `no-store`) opened under the worker is not kept in its cache, and does not
 *   replace the app shell it opens offline;
 * - with the server gone, a reload shows the shell with the last Today read, marked offline,
 *   and an entry typed then is refused with a clear message and stays in the form.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { opaqueTag } from '../../src/push/reminder-payload.js';
import { type PushStandIn, startPushStandIn } from '../helpers/push-stand-in.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { launchBrowser, settled, type TestBrowser, type WatchedPage } from './browser.js';

let browser: TestBrowser;
let push: PushStandIn;
let s: TestServer;
let w: WatchedPage;

const walk = {
  $schema: 'klebb.datafile.v1',
  meta: {
    id: 'walk',
    label: 'Evening walk',
    emoji: '🚶',
    view: { enabled: true, component: 'generic-card' },
    writeable: {
      fromWebapp: true,
      todayAllowed: true,
      inputs: [{ key: 'minutes', label: 'Minutes', type: 'number', required: true }],
    },
    notifications: {
      items: [
        {
          id: 'evening',
          label: 'Evening walk',
          title: 'Time for your walk',
          body: 'Put your shoes on',
          trigger: { type: 'daily', time: '21:00' },
        },
        {
          id: 'morning',
          label: 'Morning walk',
          title: 'Morning walk',
          body: 'Before breakfast',
          trigger: { type: 'daily', time: '07:00' },
        },
      ],
    },
  },
  data: [{ date: '2026-01-01', minutes: 30 }],
};

beforeAll(async () => {
  push = await startPushStandIn();
  s = await startServer({
    env: { KLEBB_PUSH_ALLOW_PRIVATE_ENDPOINTS: '1' },
    push: { agent: push.agent, autoStart: false },
  });
  expect((await s.api('/api/manifests', { json: walk })).status).toBe(201);
  browser = await launchBrowser({ serviceWorkers: 'allow' });
  await browser.context.grantPermissions(['notifications'], { origin: s.url });
  w = await browser.newPage();
});
afterAll(async () => {
  await browser?.close();
  await s?.close();
  await push?.close();
});

describe('installable app', () => {
  it('registers the service worker, which takes control of the page', async () => {
    await w.page.goto(`${s.url}/`);
    await settled(w.page);
    const script = await w.page.evaluate(async () => {
      const reg = await navigator.serviceWorker.ready;
      return reg.active?.scriptURL ?? null;
    });
    expect(script).toBe(`${s.url}/sw.js`);
    await w.page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  });

  it('passes Chromium installability check: manifest, icons, standalone display', async () => {
    const cdp = await browser.context.newCDPSession(w.page);
    const manifest = await cdp.send('Page.getAppManifest');
    expect(manifest.errors).toEqual([]);
    expect(manifest.url).toBe(`${s.url}/manifest.webmanifest`);
    const parsed = JSON.parse(manifest.data ?? '{}');
    expect(parsed.display).toBe('standalone');
    const purposes = parsed.icons.map(
      (i: { sizes: string; purpose?: string }) => `${i.sizes}:${i.purpose ?? 'any'}`,
    );
    expect(purposes).toEqual(expect.arrayContaining(['192x192:any', '512x512:any', '512x512:maskable']));
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    expect(installabilityErrors).toEqual([]);
    const apple = await w.page.locator('link[rel="apple-touch-icon"]').getAttribute('href');
    expect((await s.api(apple ?? '')).status).toBe(200);
    await cdp.detach();
  });
});

describe('push and notification click', () => {
  it('shows the notification the server sent, generic for a private reminder, and a click opens the card', async () => {
    // what the server sends, as the phone decrypts it
    const sub = push.subscribe();
    await s.api('/api/push/subscribe', { json: { endpoint: sub.endpoint, keys: sub.keys } });
    expect((await s.api('/api/notifications/test', { json: { id: 'walk#evening' } })).body.sent).toBe(1);
    const text = push.messagesFor(sub.id)[0].text;

    await w.page.goto(`${s.url}/settings`);
    await settled(w.page);
    const cdp = await browser.context.newCDPSession(w.page);
    const registrations = new Promise<string>((resolve) => {
      cdp.on('ServiceWorker.workerRegistrationUpdated', (e) => {
        const reg = e.registrations.find((r) => r.scopeURL === `${s.url}/`);
        if (reg) resolve(reg.registrationId);
      });
    });
    await cdp.send('ServiceWorker.enable');
    const registrationId = await registrations;
    await cdp.send('ServiceWorker.deliverPushMessage', { origin: s.url, registrationId, data: text });
    const shown = () =>
      w.page.evaluate(async () => {
        const reg = await navigator.serviceWorker.ready;
        const list = await reg.getNotifications();
        return list.map((n) => ({ title: n.title, body: n.body, url: n.data?.url }));
      });
    await expect
      .poll(shown, { timeout: 10_000 })
      .toEqual([{ title: 'Klebb', body: 'You have a reminder.', url: '/?card=walk' }]);
    await cdp.detach();

    // the click, dispatched in the worker as the browser would on a tap
    const [worker] = browser.context.serviceWorkers();
    await worker.evaluate(async () => {
      // the worker's own globals (ServiceWorkerGlobalScope, NotificationEvent), typed here since
      // the tests are checked against the page's DOM library
      type Worker = EventTarget & { registration: { getNotifications(): Promise<Notification[]> } };
      type NotificationEventClass = new (type: string, init: { notification: Notification }) => Event;
      const sw = self as unknown as Worker;
      const NotificationEvent = (self as unknown as { NotificationEvent: NotificationEventClass })
        .NotificationEvent;
      const [n] = await sw.registration.getNotifications();
      sw.dispatchEvent(new NotificationEvent('notificationclick', { notification: n }));
    });
    await w.page.waitForURL(`${s.url}/?card=walk`);
    const card = w.page.locator('main .card[data-card-id="walk"]');
    await expect.poll(() => card.getAttribute('class')).toContain('card-deep-linked');
    expect(
      await w.page.evaluate(() =>
        document.activeElement?.closest('[data-card-id]')?.getAttribute('data-card-id'),
      ),
    ).toBe('walk');
  });

  it('a reminder again while the last one is in the tray replaces it and alerts again; an unreadable push still shows one', async () => {
    const sub = push.subscribe();
    await s.api('/api/push/subscribe', { json: { endpoint: sub.endpoint, keys: sub.keys } });
    expect(
      (await s.api('/api/notifications/test', { json: { id: 'walk#morning' } })).body.sent,
    ).toBeGreaterThan(0);
    const text = push.messagesFor(sub.id)[0].text;

    await w.page.goto(`${s.url}/settings`);
    await settled(w.page);
    const cdp = await browser.context.newCDPSession(w.page);
    const registrations = new Promise<string>((resolve) => {
      cdp.on('ServiceWorker.workerRegistrationUpdated', (e) => {
        const reg = e.registrations.find((r) => r.scopeURL === `${s.url}/`);
        if (reg) resolve(reg.registrationId);
      });
    });
    await cdp.send('ServiceWorker.enable');
    const registrationId = await registrations;
    const shown = () =>
      w.page.evaluate(async () => {
        const reg = await navigator.serviceWorker.ready;
        const list = await reg.getNotifications();
        return list.map((n) => ({
          title: n.title,
          tag: n.tag,
          renotify: (n as { renotify?: boolean }).renotify,
        }));
      });
    const withTag = async (tag: string) => (await shown()).filter((n) => n.tag === tag);
    const tag = opaqueTag('walk#morning');

    // the same reminder twice (yesterday's still in the tray, today's arriving): one notification,
    // and the one replacing the other alerts like a new one
    await cdp.send('ServiceWorker.deliverPushMessage', { origin: s.url, registrationId, data: text });
    await expect.poll(() => withTag(tag), { timeout: 10_000 }).toHaveLength(1);
    await cdp.send('ServiceWorker.deliverPushMessage', { origin: s.url, registrationId, data: text });
    await expect
      .poll(() => withTag(tag), { timeout: 10_000 })
      .toEqual([{ title: 'Klebb', tag, renotify: true }]);

    // a message the worker cannot read (not JSON, or items that are not objects) still shows a notification
    for (const data of ['not json', JSON.stringify({ items: [null], more: 2 })]) {
      await w.page.evaluate(async () => {
        const reg = await navigator.serviceWorker.ready;
        for (const n of await reg.getNotifications({ tag: 'klebb' })) n.close();
      });
      await expect.poll(() => withTag('klebb'), { timeout: 10_000 }).toEqual([]);
      await cdp.send('ServiceWorker.deliverPushMessage', { origin: s.url, registrationId, data });
      await expect
        .poll(() => withTag('klebb'), { timeout: 10_000 })
        .toEqual([{ title: 'Klebb', tag: 'klebb', renotify: true }]);
    }
    await cdp.detach();
  });

  it('a deep link with action=log opens the card with its entry form', async () => {
    await w.page.goto(`${s.url}/?card=walk&action=log`);
    await settled(w.page);
    await w.page.locator('[data-card-id="walk"] input').first().waitFor();
  });

  it("a deep link to a reminder's day that is today shows Today under / and keeps the card and action", async () => {
    const today = await w.page.evaluate(() => new Intl.DateTimeFormat('en-CA').format(new Date()));
    await w.page.goto(`${s.url}/day/${today}?card=walk&action=log`);
    await w.page.waitForURL(`${s.url}/?card=walk&action=log`);
    await settled(w.page);
    await w.page.locator('[data-card-id="walk"] input').first().waitFor();
    expect(await w.page.locator('main .card[data-card-id="walk"]').getAttribute('class')).toContain(
      'card-deep-linked',
    );
  });
});

describe('pages the worker must not keep', () => {
  it('a report page (no-store) is not cached and does not become the offline app shell', async () => {
    fs.mkdirSync(path.join(s.home, 'reports'), { recursive: true });
    fs.writeFileSync(
      path.join(s.home, 'reports', 'lab-ferritin.md'),
      '# Ferritin\n\nFerritin 12 ng/mL, low.\n',
    );
    await w.page.goto(`${s.url}/`);
    await settled(w.page);
    await w.page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await w.page.goto(`${s.url}/report/lab-ferritin`);
    await w.page.getByText('Ferritin 12 ng/mL').waitFor();
    const kept = await w.page.evaluate(async () => {
      const texts: string[] = [];
      for (const name of await caches.keys()) {
        const cache = await caches.open(name);
        for (const req of await cache.keys()) texts.push((await (await cache.match(req))?.text()) ?? '');
      }
      return texts;
    });
    expect(kept.some((t) => t.includes('Ferritin 12'))).toBe(false);
  });
});

describe('offline', () => {
  it('a reload without the server shows the last Today, marked offline; an entry is refused, not lost', async () => {
    await w.page.goto(`${s.url}/`);
    await settled(w.page);
    await w.page.locator('[data-card-id="walk"]').waitFor();
    await s.close({ keepHome: false });
    await w.page.reload();
    await w.page.locator('[data-card-id="walk"]').waitFor();
    const banner = w.page.locator('.offline-banner');
    await banner.waitFor();
    expect(await banner.textContent()).toMatch(/Offline/);
    await w.page.locator('[data-card-id="walk"] [data-action="log"]').click();
    const input = w.page.locator('[data-card-id="walk"] input').first();
    await input.fill('45');
    await w.page.locator('[data-card-id="walk"] button[type="submit"]').click();
    await w.page.getByText('You are offline: nothing was saved').waitFor();
    expect(await input.inputValue()).toBe('45');
  });
});
