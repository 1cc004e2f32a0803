/**
 * A page left open across midnight (a dashboard tab, the installed app brought back in the
 * morning) moves on to the new day. Before, Today still showed yesterday under "Today", and an
 * entry added there in the morning was dated yesterday. In Debian's Chromium with the browser's
 * clock at 23:59 on Monday 20 April 2026 (Europe/Berlin), then eight hours on: Today shows Tuesday
 * 21 April and a weight entered then is dated 2026-04-21; a page opened on a past day stays on it
 * (Yesterday becomes Sunday). The zone can change under an open page too (a phone that travels):
 * the server is told, so that reminders and the chat's "today" follow it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { launchBrowser, settled, type TestBrowser } from './browser.js';

let s: TestServer;
let browser: TestBrowser;

beforeAll(async () => {
  s = await startServer();
  const made = await s.api('/api/settings/cards/from-template', { json: { templateId: 'weight' } });
  expect(made.status, made.text).toBeLessThan(300);
  browser = await launchBrowser({ timezoneId: 'Europe/Berlin' });
});
afterAll(async () => {
  await browser?.close();
  await s?.close();
});

describe('a page open when the day changes', { timeout: 90_000 }, () => {
  it('Today moves on to the new day, and an entry made then is dated the new day', async () => {
    const w = await browser.newPage();
    await w.page.clock.install({ time: new Date('2026-04-20T23:59:00+02:00') });
    await w.page.goto(`${s.url}/`);
    await settled(w.page);
    const dateBar = () => w.page.locator('.date-bar-title p').first().textContent();
    expect(await w.page.locator('.date-bar h1').textContent()).toBe('Today');
    expect(await dateBar()).toBe('Monday 20 April');

    // the night passes with the page open; in the morning it is looked at again
    await w.page.clock.fastForward('08:00:00');
    await w.page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
    await expect.poll(dateBar).toBe('Tuesday 21 April');
    expect(await w.page.locator('.date-bar h1').textContent()).toBe('Today');

    const card = w.page.locator('[data-card-id="weight"]');
    await card.locator('button[data-action="log"]').click();
    await card.locator('input').first().fill('80.5');
    await card.locator('button[type="submit"]').first().click();
    await expect
      .poll(async () => (await s.api('/api/manifests/weight/data')).body.data)
      .toEqual([{ date: '2026-04-21', kg: 80.5 }]);
    expect(w.problems).toEqual([]);
    await w.page.close();
  });

  it('a phone that travels into another zone with the app open tells the server, and Today follows', async () => {
    // a browser of its own, whose zone this test sets and changes (no zone fixed at launch)
    const roaming = await launchBrowser();
    try {
      const w = await roaming.newPage();
      const cdp = await roaming.context.newCDPSession(w.page);
      await cdp.send('Emulation.setTimezoneOverride', { timezoneId: 'Europe/Berlin' });
      await w.page.clock.install({ time: new Date('2026-04-21T00:30:00+02:00') });
      await w.page.goto(`${s.url}/`);
      await settled(w.page);
      await expect.poll(() => s.inst.user.timeZone()).toBe('Europe/Berlin');
      const dateBar = () => w.page.locator('.date-bar-title p').first().textContent();
      expect(await dateBar()).toBe('Tuesday 21 April');

      // the phone lands in New York, where it is still Monday evening: its zone changes under the open app
      await cdp.send('Emulation.setTimezoneOverride', { timezoneId: '' });
      await cdp.send('Emulation.setTimezoneOverride', { timezoneId: 'America/New_York' });
      await w.page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
      await expect.poll(() => s.inst.user.timeZone()).toBe('America/New_York');
      await expect.poll(dateBar).toBe('Monday 20 April');
      expect(await w.page.locator('.date-bar h1').textContent()).toBe('Today');
      expect(w.problems).toEqual([]);
    } finally {
      await roaming.close();
      // the zone of the other tests' browser
      await s.api('/api/user/tz', { json: { tz: 'Europe/Berlin' } });
    }
  });

  it('a page opened on a past day stays on that day', async () => {
    const w = await browser.newPage();
    await w.page.clock.install({ time: new Date('2026-04-20T23:59:00+02:00') });
    await w.page.goto(`${s.url}/day/2026-04-19`);
    await settled(w.page);
    const dateBar = () => w.page.locator('.date-bar-title p').first().textContent();
    const before = await dateBar();
    expect(before).toContain('19 April');
    expect(await w.page.locator('.date-bar h1').textContent()).toBe('Yesterday');
    await w.page.clock.fastForward('08:00:00');
    await w.page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
    // the new day has reached the page: yesterday's label moved on, the day shown did not
    await expect.poll(() => w.page.locator('.date-bar h1').textContent()).toBe('Sunday');
    expect(await dateBar()).toBe(before);
    expect(w.page.url()).toBe(`${s.url}/day/2026-04-19`);
    expect(w.problems).toEqual([]);
    await w.page.close();
  });
});
