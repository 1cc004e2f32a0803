/**
 * Paths a person reaches by cutting an address back, in Debian's Chromium against the real
 * server: `/settings/cards` (the parent of Add a card's `/settings/cards/add`) opens Settings
 * with its Cards panel in view, and `/day` (the parent of a day's `/day/2026-04-20`) opens Today;
 * neither is "Nothing here". A path the app does not know still is. No console error, exception
 * or failed request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { PHONE } from './browser.js';
import { watchPages } from './watched-pages.js';

const { open } = watchPages({ timezoneId: 'Europe/Berlin' });

describe('the parent of a route', { timeout: 60_000 }, () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(async () => {
    await s?.close();
  });

  it('/settings/cards opens Settings with the Cards panel in view, on a phone too', async () => {
    for (const path of ['/settings/cards', '/settings/cards/']) {
      const { page } = await open(`${s.url}${path}`, PHONE);
      expect(await page.locator('main h1').textContent(), path).toBe('Settings');
      expect(await page.locator('main .state-empty').count(), path).toBe(0);
      const cards = page.locator('#settings-cards');
      await cards.waitFor();
      // the Cards panel is on screen (it sits below three links and would be off a phone's first screen)
      await page.waitForFunction(() => {
        const r = document.getElementById('settings-cards')?.getBoundingClientRect();
        return !!r && r.top >= 0 && r.bottom <= window.innerHeight;
      });
      expect(await page.locator('.nav-link[aria-current="page"] .nav-label').first().textContent()).toBe(
        'Settings',
      );
      // its Add a card link still leads to the gallery
      await page.locator('a[href="/settings/cards/add"]').first().click();
      await page.waitForURL(`${s.url}/settings/cards/add`);
    }
  });

  it('/day opens Today; an unknown path is still "Nothing here"', async () => {
    const { page } = await open(`${s.url}/day`);
    expect(await page.locator('main .state-empty h2').allTextContents()).not.toContain('Nothing here');
    expect(await page.locator('.nav-link[aria-current="page"] .nav-label').first().textContent()).toBe(
      'Today',
    );
    const other = await open(`${s.url}/settings/nowhere`);
    expect(await other.page.locator('main .state-empty h2').textContent()).toBe('Nothing here');
  });
});
