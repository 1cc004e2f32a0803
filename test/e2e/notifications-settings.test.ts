/**
 * Settings › Notifications in Debian's Chromium: every card's reminders with a switch, privacy
 * and a test push; quiet hours and a pause saved to the server; this device's switch saying
 * clearly when the browser cannot subscribe; and on an iPhone outside the installed app, the Add
 * to Home Screen explanation instead of a switch that could never work.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { launchBrowser, PHONE, screenshot, settled, type TestBrowser } from './browser.js';

let browser: TestBrowser;
let s: TestServer;

const card = {
  $schema: 'klebb.datafile.v1',
  meta: {
    id: 'sleep',
    label: 'Sleep',
    emoji: '😴',
    view: { enabled: true, component: 'list-card' },
    notifications: {
      items: [
        {
          id: 'evening',
          label: 'Log last night',
          title: 'Time to log your sleep',
          body: 'Open the card',
          trigger: { type: 'daily', time: '09:00' },
        },
        {
          id: 'weekly',
          label: 'Weekly look back',
          title: 'Your week',
          body: 'Have a look',
          trigger: { type: 'weekly', time: '18:00', days: ['sun'] },
          privacy: 'public',
        },
      ],
    },
  },
  data: [],
};

beforeAll(async () => {
  s = await startServer({ push: { autoStart: false } });
  expect((await s.api('/api/manifests', { json: card })).status).toBe(201);
  browser = await launchBrowser({ serviceWorkers: 'allow' });
  await browser.context.grantPermissions(['notifications'], { origin: s.url });
});
afterAll(async () => {
  await browser?.close();
  await s?.close();
});

const state = async (id: string) =>
  (await s.api('/api/notifications')).body.notifications.find((n: { id: string }) => n.id === id);

describe('Settings › Notifications', () => {
  it('lists reminders by card; the switch, privacy and test reach the server', async () => {
    const { page } = await browser.newPage(PHONE);
    await page.goto(`${s.url}/settings`);
    await settled(page);
    await page.getByRole('link', { name: /Notifications/ }).click();
    await page.waitForURL(`${s.url}/settings/notifications`);
    const row = page.locator('[data-reminder-id="sleep#evening"]');
    await row.waitFor();
    expect(await row.textContent()).toContain('09:00 every day');
    await screenshot(page, 'notifications-settings-phone');

    await row.getByRole('switch').click();
    await expect.poll(async () => (await state('sleep#evening')).enabled).toBe(false);
    await row.getByRole('switch').click();
    await expect.poll(async () => (await state('sleep#evening')).enabled).toBe(true);

    await row.getByLabel('Private').uncheck();
    await expect.poll(async () => (await state('sleep#evening')).privacy).toBe('public');

    await row.getByRole('button', { name: 'Test' }).click();
    await row.getByText('No device receives reminders yet').waitFor();
    // nothing was sent, so no minute to wait: the person who adds a device may test at once
    const again = page.waitForResponse((r) => r.url().endsWith('/api/notifications/test'));
    await row.getByRole('button', { name: 'Test' }).click();
    expect((await again).status()).toBe(200);
    await row.getByText('No device receives reminders yet').waitFor();
  });

  it('saves quiet hours and a pause', async () => {
    const { page } = await browser.newPage();
    await page.goto(`${s.url}/settings/notifications`);
    await settled(page);
    await page.getByRole('button', { name: 'Save quiet hours' }).click();
    await expect
      .poll(async () => (await s.api('/api/notifications')).body.quiet_hours)
      .toEqual({ start: '22:00', end: '07:00' });
    await page.getByLabel('Pause all reminders').selectOption('8');
    await page.getByText(/Paused until/).waitFor();
    const paused = (await s.api('/api/notifications')).body.paused_until;
    expect(Date.parse(paused) - Date.now()).toBeGreaterThan(7 * 3_600_000);
    await page.getByRole('button', { name: 'Resume' }).click();
    await page.getByText('Reminders are on').waitFor();
    expect((await s.api('/api/notifications')).body.paused_until).toBeNull();
  });

  it('this device: a browser that cannot subscribe says so', { timeout: 60_000 }, async () => {
    const { page } = await browser.newPage();
    await page.goto(`${s.url}/settings/notifications`);
    await settled(page);
    // this machine has no way to reach a real push service: subscribing fails, visibly
    await page.getByRole('switch', { name: 'Receive reminders on this device' }).click();
    const alert = page.locator('.view-notifications [role="alert"]');
    await alert.waitFor({ timeout: 30_000 });
    expect(await alert.textContent()).toMatch(/could not sign up for notifications/);
    expect(
      await page
        .getByRole('switch', { name: 'Receive reminders on this device' })
        .getAttribute('aria-checked'),
    ).toBe('false');
  });

  it('on an iPhone outside the installed app, explains Add to Home Screen', async () => {
    const { page } = await browser.newPage(PHONE);
    const cdp = await browser.context.newCDPSession(page);
    await cdp.send('Emulation.setUserAgentOverride', {
      userAgent:
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
    });
    await page.goto(`${s.url}/settings/notifications`);
    await settled(page);
    const note = page.locator('[data-ios-install]');
    await note.waitFor();
    expect(await note.textContent()).toContain('Add to Home Screen');
    expect(await page.getByRole('switch', { name: 'Receive reminders on this device' }).count()).toBe(0);
    await screenshot(page, 'notifications-settings-iphone');
  });
});
